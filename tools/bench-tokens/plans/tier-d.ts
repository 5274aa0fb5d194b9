/**
 * Tier D of the spreadsheet suite (zcp-reference.md §8.2): six goals. The prompt gives the goal
 * and the facts, not the steps; the primitive plan is what a competent agent would do, reading
 * first when the workbook must be inspected and checking its work only when the goal asks.
 */
import type { SheetRow, WriteResult } from "../../../fixtures/workbench/src/data.ts";
import type { TableCreated } from "../../../fixtures/workbench/src/structure.ts";
import type { SheetList, WorkbookMetadata } from "../../../fixtures/workbench/src/workbook.ts";
import type { Cleanup, Repair } from "../../../fixtures/workbench/src/workflows/goals.ts";
import type { TitledTable } from "../../../fixtures/workbench/src/workflows/reports.ts";
import type { Results } from "./case.ts";
import { excel } from "./tier-b.ts";
import { seeded } from "./workbook.ts";
import {
  byField,
  caseShaped,
  general,
  oneCall,
  sheetNamesOf,
  valueOf,
  workflowCase,
  type WorkflowCase,
} from "./workflow-case.ts";

const rangesOf = (written: readonly WriteResult[]) =>
  Object.fromEntries(written.map((write) => [write.sheet, write.range]));
const TEAM_PLAN = [
  ["Name", "Focus"],
  ["Alice", "Hiring"],
  ["Bob", "Budget"],
  ["Cara", "Launch"],
];
const REVENUE = [
  { item: "Subscriptions", amount: 42000 },
  { item: "Services", amount: 18000 },
];
const COSTS = [
  { item: "Payroll", amount: 30000 },
  { item: "Hosting", amount: 6000 },
];
const REQUESTS = [
  { request: "VPN access", owner: "Ann", priority: "High", status: "Open" },
  { request: "New laptop", owner: "Bo", priority: "Medium", status: "In review" },
  { request: "Data export", owner: "Cy", priority: "Low", status: "Done" },
];
const REQUEST_COLUMNS = ["Request", "Owner", "Priority", "Status"];
const lines = (items: readonly { item: string; amount: number }[]) => [
  ["Item", "Amount"],
  ...items.map((line) => [line.item, line.amount]),
];
/** The backlog's staging row, as the first read shows it. */
const isStaging = (row: SheetRow) => row.Status === "Staging";
const readBacklog = () => [
  excel("read_data_from_excel", { path: "backlog.xlsx", sheet: "Backlog" }),
];
/** The staging row's number on the sheet (the header is row 1) and the staging column's header, from the first read. */
const stagingOf = (results: Results) => ({
  row: valueOf<SheetRow[]>(results, 0).findIndex(isStaging) + 2,
  column: "Staging",
});
const inspectBoard = () => [
  excel("get_workbook_metadata", { path: "board.xlsx", includeRanges: true }),
];

export const TIER_D_CASES: readonly WorkflowCase[] = [
  workflowCase({
    id: "executive_briefing_goal",
    tier: "D",
    prompt: `Put together briefing.xlsx, a new workbook for the executive briefing. Its one sheet, Briefing, has the title "Q3 Executive Briefing" across A1:D1 (merged, bold) and under it a Metric/Value table (header in row 2): Revenue 120000, Cost 85000, and Profit, which must stay right when Revenue or Cost change. Check your work. Answer {"merged": [<merged ranges of Briefing>], "metrics": {<metric>: <value read back, formulas as their text>}}.`,
    expected: { merged: ["A1:D1"], metrics: { Revenue: 120000, Cost: 85000, Profit: "=B3-B4" } },
    workbook: {
      file: "briefing.xlsx",
      sheets: ["Briefing"],
      content: {
        Briefing: {
          cells: {
            A1: "Q3 Executive Briefing",
            A2: "Metric",
            B2: "Value",
            A3: "Revenue",
            B3: 120000,
            B4: 85000,
            A5: "Profit",
            B5: "=B3-B4",
          },
          merges: ["A1:D1"],
          bold: ["A1"],
        },
      },
    },
    primitive: {
      turns: [
        () => [excel("create_workbook", { path: "briefing.xlsx", sheet: "Briefing" })],
        () => [
          excel("write_data_to_excel", {
            path: "briefing.xlsx",
            sheet: "Briefing",
            data: [
              ["Q3 Executive Briefing"],
              ["Metric", "Value"],
              ["Revenue", 120000],
              ["Cost", 85000],
              ["Profit", "=B3-B4"],
            ],
          }),
          excel("merge_cells", { path: "briefing.xlsx", sheet: "Briefing", range: "A1:D1" }),
          excel("format_range", {
            path: "briefing.xlsx",
            sheet: "Briefing",
            range: "A1:D1",
            bold: true,
          }),
        ],
        // The check: merge_cells already listed the merges, so reading the table back is enough.
        () => [
          excel("read_data_from_excel", {
            path: "briefing.xlsx",
            sheet: "Briefing",
            range: "A2:B5",
          }),
        ],
      ],
      answer: (results) => ({
        merged: valueOf<{ mergedCells: string[] }>(results, 1, 1).mergedCells,
        metrics: byField(valueOf<SheetRow[]>(results, 2), "Metric", "Value"),
      }),
    },
    workflow: oneCall(
      excel("finalize_executive_briefing", {
        path: "briefing.xlsx",
        sheet: "Briefing",
        title: "Q3 Executive Briefing",
        titleRange: "A1:D1",
        header: ["Metric", "Value"],
        rows: [
          ["Revenue", 120000],
          ["Cost", 85000],
          ["Profit", "=B3-B4"],
        ],
        boldTitle: true,
      }),
      general("a titled table sheet (the same tool as build_kpi_dashboard_sheet)"),
      (value) => {
        const briefing = value as unknown as TitledTable;
        return { merged: briefing.mergedCells, metrics: byField(briefing.rows, "Metric", "Value") };
      },
    ),
  }),
  workflowCase({
    id: "team_plan_snapshot_goal",
    tier: "D",
    prompt: `Set up team.xlsx, a new workbook: a Plan sheet listing each person's focus under a Name/Focus header (Alice: Hiring, Bob: Budget, Cara: Launch), and a Snapshot sheet that is a copy of Plan. Answer {"sheets": [<sheet names in order>]}.`,
    expected: { sheets: ["Plan", "Snapshot"] },
    workbook: {
      file: "team.xlsx",
      sheets: ["Plan", "Snapshot"],
      content: {
        Plan: { cells: { A1: "Name", B1: "Focus", A4: "Cara", B4: "Launch" } },
        Snapshot: { cells: { A1: "Name", A2: "Alice", B3: "Budget", B4: "Launch" } },
      },
    },
    primitive: {
      turns: [
        () => [excel("create_workbook", { path: "team.xlsx", sheet: "Plan" })],
        () => [excel("write_data_to_excel", { path: "team.xlsx", sheet: "Plan", data: TEAM_PLAN })],
        () => [excel("copy_worksheet", { path: "team.xlsx", source: "Plan", target: "Snapshot" })],
      ],
      answer: (results) => ({ sheets: valueOf<SheetList>(results, 2).sheets }),
    },
    workflow: oneCall(
      excel("create_team_plan_snapshot", {
        path: "team.xlsx",
        sheet: "Plan",
        rows: TEAM_PLAN,
        snapshot: "Snapshot",
      }),
      caseShaped(
        "rows and names are parameters, but a sheet plus a copy of it is this case's recipe",
      ),
      (value) => ({ sheets: (value as unknown as SheetList).sheets }),
    ),
  }),
  workflowCase({
    id: "month_end_close_goal",
    tier: "D",
    prompt: `Close the month in close.xlsx, a new workbook of three sheets. Revenue and Costs list line items under an Item/Amount header: revenue Subscriptions 42000 and Services 18000; costs Payroll 30000 and Hosting 6000. Summary has a Metric/Value header, then Total Revenue, Total Costs and Net, each a live formula (the totals sum the other sheets' amounts, Net is their difference). Answer {"written": {<sheet>: "<range its data fills>"}}.`,
    expected: { written: { Revenue: "A1:B3", Costs: "A1:B3", Summary: "A1:B4" } },
    workbook: {
      file: "close.xlsx",
      sheets: ["Revenue", "Costs", "Summary"],
      anyOrder: true,
      content: {
        Revenue: { cells: { A1: "Item", B1: "Amount", A2: "Subscriptions", B3: 18000 } },
        Costs: { cells: { A1: "Item", A2: "Payroll", B2: 30000, B3: 6000 } },
        Summary: {
          cells: {
            A1: "Metric",
            B1: "Value",
            A2: "Total Revenue",
            B2: "=SUM(Revenue!B2:B3)",
            A3: "Total Costs",
            B3: "=SUM(Costs!B2:B3)",
            A4: "Net",
            B4: "=B2-B3",
          },
        },
      },
    },
    primitive: {
      turns: [
        () => [excel("create_workbook", { path: "close.xlsx", sheet: "Revenue" })],
        // Writing creates the missing sheets; formulas need not wait for the sheets they name.
        () => [
          excel("write_data_to_excel", {
            path: "close.xlsx",
            sheet: "Revenue",
            data: lines(REVENUE),
          }),
          excel("write_data_to_excel", { path: "close.xlsx", sheet: "Costs", data: lines(COSTS) }),
          excel("write_data_to_excel", {
            path: "close.xlsx",
            sheet: "Summary",
            data: [
              ["Metric", "Value"],
              ["Total Revenue", "=SUM(Revenue!B2:B3)"],
              ["Total Costs", "=SUM(Costs!B2:B3)"],
              ["Net", "=B2-B3"],
            ],
          }),
        ],
      ],
      answer: (results) => ({ written: rangesOf(results[1] as unknown as WriteResult[]) }),
    },
    workflow: oneCall(
      excel("finalize_month_end_close", {
        path: "close.xlsx",
        header: ["Item", "Amount"],
        revenueSheet: "Revenue",
        revenue: REVENUE,
        costSheet: "Costs",
        costs: COSTS,
        summarySheet: "Summary",
        summaryHeader: ["Metric", "Value"],
        labels: ["Total Revenue", "Total Costs", "Net"],
      }),
      caseShaped(
        "labels are parameters, but two ledgers and a summary of their totals and difference is this case's workbook",
      ),
      (value) => ({ written: rangesOf(value as unknown as WriteResult[]) }),
    ),
  }),
  workflowCase({
    id: "requests_register_goal",
    tier: "D",
    prompt: `Build requests.xlsx, a new workbook whose Intake sheet holds the intake register as a native Excel table named Requests, with the columns Request, Owner, Priority, Status and these requests: VPN access, Ann, High, Open; New laptop, Bo, Medium, In review; Data export, Cy, Low, Done. Answer {"table": "<name>", "range": "<its range>"}.`,
    expected: { table: "Requests", range: "A1:D4" },
    workbook: {
      file: "requests.xlsx",
      sheets: ["Intake"],
      content: {
        Intake: {
          tables: { Requests: "A1:D4" },
          cells: { A1: "Request", D1: "Status", A2: "VPN access", C3: "Medium", D4: "Done" },
        },
      },
    },
    primitive: {
      turns: [
        () => [excel("create_workbook", { path: "requests.xlsx", sheet: "Intake" })],
        () => [
          excel("write_data_to_excel", {
            path: "requests.xlsx",
            sheet: "Intake",
            data: [REQUEST_COLUMNS, ...REQUESTS.map((entry) => Object.values(entry))],
          }),
        ],
        // The table takes its header from the cells, so it comes after the write.
        () => [
          excel("create_table", {
            path: "requests.xlsx",
            sheet: "Intake",
            range: "A1:D4",
            name: "Requests",
          }),
        ],
      ],
      answer: (results) => {
        const table = valueOf<TableCreated>(results, 2);
        return { table: table.name, range: table.range };
      },
    },
    workflow: oneCall(
      excel("build_requests_register", {
        path: "requests.xlsx",
        sheet: "Intake",
        name: "Requests",
        columns: REQUEST_COLUMNS,
        rows: REQUESTS.map((entry) => Object.values(entry)),
      }),
      general("a new workbook holding one named table of any columns"),
      (value) => {
        const table = value as unknown as TableCreated;
        return { table: table.name, range: table.range };
      },
    ),
  }),
  workflowCase({
    id: "board_packet_repair_goal",
    tier: "D",
    seed: seeded("board.xlsx", {
      Overview: [["Board Packet Q3"], ["Section", "Owner"], ["Financials", "CFO"]],
      Detail: [
        ["Item", "Amount"],
        ["Capex", 50000],
      ],
    }),
    prompt: `board.xlsx is a draft board packet to repair with as few edits as possible: it must have the sheets Overview, Notes and Details, and the title on Overview must be merged across A1:D1. Look at the workbook first, fix only what is wrong, then verify once. Answer {"sheets": [<sheet names in order>], "merged": [<merged ranges of Overview>]}.`,
    expected: { sheets: ["Overview", "Details", "Notes"], merged: ["A1:D1"] },
    workbook: {
      file: "board.xlsx",
      sheets: ["Overview", "Details", "Notes"],
      content: {
        Overview: { cells: { A1: "Board Packet Q3", A3: "Financials" }, merges: ["A1:D1"] },
        Details: { cells: { A1: "Item", B2: 50000 } },
        Notes: { cells: { A1: null } },
      },
    },
    primitive: {
      turns: [
        inspectBoard,
        // The metadata shows Detail (a misnamed Details), no Notes, and no merge on Overview.
        () => [
          excel("rename_worksheet", { path: "board.xlsx", oldName: "Detail", newName: "Details" }),
          excel("create_worksheet", { path: "board.xlsx", sheet: "Notes" }),
          excel("merge_cells", { path: "board.xlsx", sheet: "Overview", range: "A1:D1" }),
        ],
        () => [excel("get_workbook_metadata", { path: "board.xlsx", includeRanges: true })],
      ],
      answer: (results) => {
        const metadata = valueOf<WorkbookMetadata>(results, 2);
        return {
          sheets: sheetNamesOf(metadata),
          merged: metadata.sheets.find((sheet) => sheet.name === "Overview")!.mergedCells!,
        };
      },
    },
    workflow: {
      tool: "excel.repair_board_packet",
      shape: general(
        "renames what the caller names after reading, adds missing sheets, merges unless merged, verifies once",
      ),
      turns: [
        inspectBoard,
        // The same reading: Detail is a misnamed Details; the tool adds Notes and merges the title if it still needs to.
        () => [
          excel("repair_board_packet", {
            path: "board.xlsx",
            sheets: ["Overview", "Notes", "Details"],
            titleSheet: "Overview",
            titleRange: "A1:D1",
            renames: [{ from: "Detail", to: "Details" }],
          }),
        ],
      ],
      answer: (results) => {
        const repair = valueOf<Repair>(results, 1);
        return { sheets: repair.sheets, merged: repair.mergedCells };
      },
    },
  }),
  workflowCase({
    id: "staging_cleanup_goal",
    tier: "D",
    seed: seeded("backlog.xlsx", {
      Backlog: [
        ["Task", "Staging", "Owner", "Status"],
        ["Plan Q4 roadmap", null, "Ann", "Open"],
        ["Staging import check", "tmp", "ops-bot", "Staging"],
        ["Ship release notes", null, "Bo", "Done"],
      ],
    }),
    prompt: `The Backlog sheet of backlog.xlsx still holds leftovers of a staging import: a staging column and a staging row. Remove both, keeping the Task, Owner and Status columns and the real tasks. Answer {"columns": [<remaining column headers>], "tasks": [<remaining tasks, in order>]}.`,
    expected: {
      columns: ["Task", "Owner", "Status"],
      tasks: ["Plan Q4 roadmap", "Ship release notes"],
    },
    workbook: {
      file: "backlog.xlsx",
      sheets: ["Backlog"],
      content: {
        Backlog: {
          cells: {
            A1: "Task",
            B1: "Owner",
            C1: "Status",
            D1: null,
            A2: "Plan Q4 roadmap",
            A3: "Ship release notes",
            B3: "Bo",
            C3: "Done",
            A4: null,
          },
        },
      },
    },
    primitive: {
      turns: [
        readBacklog,
        // Deleting a row and a column leaves the same sheet in either order: one turn.
        (results) => [
          excel("delete_sheet_rows", {
            path: "backlog.xlsx",
            sheet: "Backlog",
            startRow: stagingOf(results).row,
          }),
          excel("delete_sheet_columns", {
            path: "backlog.xlsx",
            sheet: "Backlog",
            startCol:
              Object.keys(valueOf<SheetRow[]>(results, 0)[0]!).indexOf(stagingOf(results).column) +
              1,
          }),
        ],
      ],
      // What remains follows from the first read; the goal asks for no check.
      answer: (results) => {
        const kept = valueOf<SheetRow[]>(results, 0).filter((row) => !isStaging(row));
        return {
          columns: Object.keys(kept[0]!).filter((column) => column !== "Staging"),
          tasks: kept.map((row) => row.Task!),
        };
      },
    },
    workflow: {
      tool: "excel.cleanup_staging_backlog",
      shape: general(
        "deletes the rows and columns the caller names after reading, and reads the sheet back",
      ),
      turns: [
        readBacklog,
        (results) => [
          excel("cleanup_staging_backlog", {
            path: "backlog.xlsx",
            sheet: "Backlog",
            rows: [stagingOf(results).row],
            columns: [stagingOf(results).column],
          }),
        ],
      ],
      answer: (results) => {
        const { rows } = valueOf<Cleanup>(results, 1);
        return { columns: Object.keys(rows[0]!), tasks: rows.map((row) => row.Task!) };
      },
    },
  }),
];

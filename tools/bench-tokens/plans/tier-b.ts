/**
 * Tier B of the spreadsheet suite (zcp-reference.md §8.2): eight short chains. The primitive
 * plans put independent calls in one turn (reads together, edits of different cells together)
 * and use what a result already says instead of asking again (copy_worksheet lists the sheets).
 */
import type { JsonValue } from "@zcp/runtime";
import type { SheetRow } from "../../../fixtures/workbench/src/data.ts";
import type { RangeCheck } from "../../../fixtures/workbench/src/data.ts";
import type { SheetList, WorkbookMetadata } from "../../../fixtures/workbench/src/workbook.ts";
import type { FormulaFlow } from "../../../fixtures/workbench/src/workflows/chains.ts";
import type { Call } from "../surfaces/spec.ts";
import { seeded } from "./workbook.ts";
import {
  general,
  caseShaped,
  oneCall,
  sheetNamesOf,
  valueOf,
  workflowCase,
  type WorkflowCase,
} from "./workflow-case.ts";

/** A call of a workbench tool by its name without the `excel.` prefix. */
export const excel = (name: string, args: { [key: string]: JsonValue }): Call => ({
  alias: `excel.${name}`,
  args,
});

export const TIER_B_CASES: readonly WorkflowCase[] = [
  workflowCase({
    id: "workbook_bootstrap_chain",
    tier: "B",
    prompt: `Create ops.xlsx with two worksheets, RawData then Summary, then check the workbook's metadata. Answer {"sheets": [<sheet names in order>]}.`,
    expected: { sheets: ["RawData", "Summary"] },
    workbook: { file: "ops.xlsx", sheets: ["RawData", "Summary"] },
    primitive: {
      turns: [
        () => [excel("create_workbook", { path: "ops.xlsx", sheet: "RawData" })],
        () => [excel("create_worksheet", { path: "ops.xlsx", sheet: "Summary" })],
        () => [excel("get_workbook_metadata", { path: "ops.xlsx" })],
      ],
      answer: (results) => ({ sheets: sheetNamesOf(valueOf(results, 2)) }),
    },
    workflow: oneCall(
      excel("chain_workbook_bootstrap", { path: "ops.xlsx", sheets: ["RawData", "Summary"] }),
      general("creates a workbook with the sheets named, in order"),
      (value) => ({
        sheets: sheetNamesOf(value as unknown as WorkbookMetadata),
      }),
    ),
  }),
  workflowCase({
    id: "formula_flow_chain",
    tier: "B",
    seed: seeded("calc.xlsx", {
      Calc: [
        ["Item", "Base", "Extra", "Total"],
        ["A", 3, 4],
        ["B", 5, 6],
      ],
    }),
    prompt: `In calc.xlsx, check that =B2+C2 is a valid formula for Calc!D2; if it is, put =B2+C2 in D2 and =B3+C3 in D3, then read Calc!A1:D3 back. Answer {"valid": <true|false>, "totals": [<Total of each record read back>]}.`,
    expected: { valid: true, totals: ["=B2+C2", "=B3+C3"] },
    workbook: {
      file: "calc.xlsx",
      sheets: ["Calc"],
      content: { Calc: { cells: { D2: "=B2+C2", D3: "=B3+C3", B3: 5 } } },
    },
    primitive: {
      turns: [
        () => [
          excel("validate_formula_syntax", {
            path: "calc.xlsx",
            sheet: "Calc",
            cell: "D2",
            formula: "=B2+C2",
          }),
        ],
        () => [
          excel("apply_formula", {
            path: "calc.xlsx",
            sheet: "Calc",
            cell: "D2",
            formula: "=B2+C2",
          }),
          excel("apply_formula", {
            path: "calc.xlsx",
            sheet: "Calc",
            cell: "D3",
            formula: "=B3+C3",
          }),
        ],
        () => [excel("read_data_from_excel", { path: "calc.xlsx", sheet: "Calc", range: "A1:D3" })],
      ],
      answer: (results) => ({
        valid: valueOf<{ valid: boolean }>(results, 0).valid,
        totals: valueOf<SheetRow[]>(results, 2).map((row) => row.Total!),
      }),
    },
    workflow: oneCall(
      excel("chain_formula_flow", {
        path: "calc.xlsx",
        sheet: "Calc",
        formulas: [
          { cell: "D2", formula: "=B2+C2" },
          { cell: "D3", formula: "=B3+C3" },
        ],
        readRange: "A1:D3",
      }),
      general("checks any formulas, writes them only if all are valid, reads any range back"),
      (value) => {
        const flow = value as unknown as FormulaFlow;
        return { valid: flow.valid, totals: flow.rows.map((row) => row.Total!) };
      },
    ),
  }),
  workflowCase({
    id: "layout_flow_chain",
    tier: "B",
    seed: seeded("layout.xlsx", {
      Dashboard: [["Weekly dashboard"], ["Metric", "Target", "Actual"], ["Uptime", 99.9, 99.95]],
    }),
    prompt: `In layout.xlsx, merge Dashboard!A1:D1, make the title bold and centered, then list the sheet's merged ranges. Answer {"merged": [<ranges>]}.`,
    expected: { merged: ["A1:D1"] },
    workbook: {
      file: "layout.xlsx",
      sheets: ["Dashboard"],
      content: {
        Dashboard: {
          cells: { A1: "Weekly dashboard", A2: "Metric" },
          merges: ["A1:D1"],
          bold: ["A1"],
          centered: ["A1"],
        },
      },
    },
    primitive: {
      turns: [
        () => [
          excel("merge_cells", { path: "layout.xlsx", sheet: "Dashboard", range: "A1:D1" }),
          excel("format_range", {
            path: "layout.xlsx",
            sheet: "Dashboard",
            range: "A1:D1",
            bold: true,
            horizontal: "center",
          }),
        ],
        () => [excel("get_merged_cells", { path: "layout.xlsx", sheet: "Dashboard" })],
      ],
      answer: (results) => ({ merged: valueOf<{ mergedCells: string[] }>(results, 1).mergedCells }),
    },
    workflow: oneCall(
      excel("chain_layout_flow", {
        path: "layout.xlsx",
        sheet: "Dashboard",
        range: "A1:D1",
        bold: true,
        horizontal: "center",
      }),
      general("merges any range; bold, alignment and size are parameters"),
      (value) => ({ merged: (value as { mergedCells: string[] }).mergedCells }),
    ),
  }),
  workflowCase({
    id: "sheet_maintenance_chain",
    tier: "B",
    seed: seeded("maint.xlsx", {
      Draft: [
        ["Section", "Owner"],
        ["Intro", "Ann"],
      ],
    }),
    prompt: `In maint.xlsx, rename the sheet Draft to Template, then copy it to a new sheet named "Template Copy", and list the workbook's sheets. Answer {"sheets": [<sheet names in order>]}.`,
    expected: { sheets: ["Template", "Template Copy"] },
    workbook: {
      file: "maint.xlsx",
      sheets: ["Template", "Template Copy"],
      content: {
        Template: { cells: { A1: "Section" } },
        "Template Copy": { cells: { A1: "Section", B2: "Ann" } },
      },
    },
    primitive: {
      turns: [
        () => [
          excel("rename_worksheet", { path: "maint.xlsx", oldName: "Draft", newName: "Template" }),
        ],
        () => [
          excel("copy_worksheet", {
            path: "maint.xlsx",
            source: "Template",
            target: "Template Copy",
          }),
        ],
      ],
      answer: (results) => ({ sheets: valueOf<SheetList>(results, 1).sheets }),
    },
    workflow: oneCall(
      excel("chain_sheet_maintenance", {
        path: "maint.xlsx",
        sheet: "Draft",
        newName: "Template",
        copyName: "Template Copy",
      }),
      caseShaped(
        "nothing hard-coded, but rename-then-copy is this case's recipe, not a common step",
      ),
      (value) => ({ sheets: (value as unknown as SheetList).sheets }),
    ),
  }),
  workflowCase({
    id: "table_setup_chain",
    tier: "B",
    seed: seeded("orders.xlsx", {
      Orders: [
        ["Order", "Customer", "Amount"],
        ["A-1", "Acme", 120],
        ["A-2", "Birch", 80],
        ["A-3", "Cole", 45],
      ],
    }),
    prompt: `In orders.xlsx, turn Orders!A1:C4 into a table named OrdersTable, make its header row bold, then read the table's data back. Answer {"table": "<name>", "rows": <data rows read>}.`,
    expected: { table: "OrdersTable", rows: 3 },
    workbook: {
      file: "orders.xlsx",
      sheets: ["Orders"],
      content: {
        Orders: { tables: { OrdersTable: "A1:C4" }, bold: ["A1", "B1", "C1"], cells: { C4: 45 } },
      },
    },
    primitive: {
      turns: [
        () => [
          excel("create_table", {
            path: "orders.xlsx",
            sheet: "Orders",
            range: "A1:C4",
            name: "OrdersTable",
          }),
          excel("format_range", {
            path: "orders.xlsx",
            sheet: "Orders",
            range: "A1:C1",
            bold: true,
          }),
        ],
        () => [
          excel("read_data_from_excel", { path: "orders.xlsx", sheet: "Orders", range: "A1:C4" }),
        ],
      ],
      answer: (results) => ({
        table: valueOf<{ name: string }>(results, 0).name,
        rows: valueOf<SheetRow[]>(results, 1).length,
      }),
    },
    workflow: oneCall(
      excel("chain_table_setup", {
        path: "orders.xlsx",
        sheet: "Orders",
        range: "A1:C4",
        name: "OrdersTable",
        boldHeader: true,
      }),
      general("makes any range a named table; the bold header is a parameter"),
      (value) => ({
        table: (value as { name: string }).name,
        rows: (value as { rows: number }).rows,
      }),
    ),
  }),
  workflowCase({
    id: "readback_verification_chain",
    tier: "B",
    seed: seeded("sales.xlsx", {
      Sales: [
        ["Region", "Q1", "Q2"],
        ["North", 10, 12],
        ["South", 8, 9],
        ["West", 7, 11],
      ],
    }),
    prompt: `In sales.xlsx, check that A1:C4 is a valid range of the sheet Sales, read it, and report the sheet's used range from the workbook's metadata. Answer {"valid": <true|false>, "rows": <records read>, "used_range": "<range>"}.`,
    expected: { valid: true, rows: 3, used_range: "A1:C4" },
    workbook: {
      file: "sales.xlsx",
      sheets: ["Sales"],
      content: { Sales: { cells: { A1: "Region", C4: 11 } } },
    },
    primitive: {
      // Three reads that do not depend on each other: one turn.
      turns: [
        () => [
          excel("validate_excel_range", { path: "sales.xlsx", sheet: "Sales", range: "A1:C4" }),
          excel("read_data_from_excel", { path: "sales.xlsx", sheet: "Sales", range: "A1:C4" }),
          excel("get_workbook_metadata", { path: "sales.xlsx" }),
        ],
      ],
      answer: (results) => ({
        valid: valueOf<RangeCheck>(results, 0, 0).valid,
        rows: valueOf<SheetRow[]>(results, 0, 1).length,
        used_range: valueOf<WorkbookMetadata>(results, 0, 2).sheets.find(
          (sheet) => sheet.name === "Sales",
        )!.usedRange!,
      }),
    },
    workflow: oneCall(
      excel("chain_readback_verification", { path: "sales.xlsx", sheet: "Sales", range: "A1:C4" }),
      general("checks and reads any range, with the sheet's used range"),
      (value) => {
        const readback = value as unknown as {
          valid: boolean;
          rows: SheetRow[];
          usedRange: string;
        };
        return {
          valid: readback.valid,
          rows: readback.rows.length,
          used_range: readback.usedRange,
        };
      },
    ),
  }),
  workflowCase({
    id: "row_maintenance_chain",
    tier: "B",
    seed: seeded("tracker.xlsx", {
      Tracker: [
        ["Task", "Status"],
        ["Spec", "Done"],
        ["Build", "Open"],
        ["Legacy", "Stale"],
        ["Ship", "Open"],
      ],
    }),
    prompt: `In tracker.xlsx, on the sheet Tracker, insert an empty row before row 3 and write Hotfix, In Progress into it (columns A and B); then delete the Legacy row, which is row 5 after the insertion, and read the sheet back. Answer {"tasks": [<Task of each record, in order>]}.`,
    expected: { tasks: ["Spec", "Hotfix", "Build", "Ship"] },
    workbook: {
      file: "tracker.xlsx",
      sheets: ["Tracker"],
      content: {
        Tracker: {
          cells: { A3: "Hotfix", B3: "In Progress", A4: "Build", A5: "Ship", B5: "Open", A6: null },
        },
      },
    },
    primitive: {
      turns: [
        () => [excel("insert_rows", { path: "tracker.xlsx", sheet: "Tracker", startRow: 3 })],
        // Writing row 3 and deleting row 5 touch different rows: one turn.
        () => [
          excel("write_data_to_excel", {
            path: "tracker.xlsx",
            sheet: "Tracker",
            data: [["Hotfix", "In Progress"]],
            startCell: "A3",
          }),
          excel("delete_sheet_rows", { path: "tracker.xlsx", sheet: "Tracker", startRow: 5 }),
        ],
        () => [excel("read_data_from_excel", { path: "tracker.xlsx", sheet: "Tracker" })],
      ],
      answer: (results) => ({ tasks: valueOf<SheetRow[]>(results, 2).map((row) => row.Task!) }),
    },
    workflow: oneCall(
      excel("chain_row_maintenance", {
        path: "tracker.xlsx",
        sheet: "Tracker",
        insertBefore: 3,
        values: ["Hotfix", "In Progress"],
        deleteRow: 5,
      }),
      caseShaped("rows are parameters, but insert-fill-delete-read is this case's recipe"),
      (value) => ({ tasks: (value as SheetRow[]).map((row) => row.Task!) }),
    ),
  }),
  workflowCase({
    id: "column_maintenance_chain",
    tier: "B",
    seed: seeded("scores.xlsx", {
      Scores: [
        ["Name", "Score", "Old"],
        ["Ann", 90, "x"],
        ["Bo", 85, "y"],
      ],
    }),
    prompt: `In scores.xlsx, on the sheet Scores, insert an empty column before column 2 (B) and fill it with Target, 95, 88 from row 1 down; then delete the Old column, which is column 4 (D) after the insertion, and read the sheet back. Answer {"columns": [<field names read>]}.`,
    expected: { columns: ["Name", "Target", "Score"] },
    workbook: {
      file: "scores.xlsx",
      sheets: ["Scores"],
      content: {
        Scores: { cells: { B1: "Target", B2: 95, B3: 88, C1: "Score", C2: 90, D1: null } },
      },
    },
    primitive: {
      turns: [
        () => [excel("insert_columns", { path: "scores.xlsx", sheet: "Scores", startCol: 2 })],
        () => [
          excel("write_data_to_excel", {
            path: "scores.xlsx",
            sheet: "Scores",
            data: [["Target"], [95], [88]],
            startCell: "B1",
          }),
          excel("delete_sheet_columns", { path: "scores.xlsx", sheet: "Scores", startCol: 4 }),
        ],
        () => [excel("read_data_from_excel", { path: "scores.xlsx", sheet: "Scores" })],
      ],
      answer: (results) => ({ columns: Object.keys(valueOf<SheetRow[]>(results, 2)[0]!) }),
    },
    workflow: oneCall(
      excel("chain_column_maintenance", {
        path: "scores.xlsx",
        sheet: "Scores",
        insertBefore: 2,
        values: ["Target", 95, 88],
        deleteColumn: 4,
      }),
      caseShaped("columns are parameters, but insert-fill-delete-read is this case's recipe"),
      (value) => ({ columns: Object.keys((value as SheetRow[])[0]!) }),
    ),
  }),
];

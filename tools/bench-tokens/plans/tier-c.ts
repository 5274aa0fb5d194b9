/**
 * Tier C of the spreadsheet suite (zcp-reference.md §8.2): seven explicit multi-step workflows,
 * each starting from no file. The primitive plans create the workbook first, then make every
 * edit that does not need another in one turn (write_data_to_excel creates a missing sheet, and
 * formulas go in as data), and read back last.
 */
import type { SheetRow } from "../../../fixtures/workbench/src/data.ts";
import type { FormulaCheck } from "../../../fixtures/workbench/src/formula.ts";
import type { MergeResult, TableCreated } from "../../../fixtures/workbench/src/structure.ts";
import type { SheetList, WorkbookMetadata } from "../../../fixtures/workbench/src/workbook.ts";
import type {
  CloseSummary,
  MonthlyRollup,
  SalesOpsPack,
  TemplateFill,
  TitledTable,
} from "../../../fixtures/workbench/src/workflows/reports.ts";
import { excel } from "./tier-b.ts";
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

const alphabetical = (names: readonly string[]) => [...names].sort();

const DEALS = [
  ["Acme renewal", "Proposal", 12000],
  ["Birch expansion", "Negotiation", 8500],
  ["Cole pilot", "Discovery", 3000],
  ["Dune upgrade", "Closed won", 15000],
] as const;
const KPIS = [
  ["Uptime", 99.9, 99.95, "On track"],
  ["NPS", 50, 46, "At risk"],
  ["Churn", 2, 1.8, "On track"],
  ["Tickets closed", 400, 420, "On track"],
] as const;

export const TIER_C_CASES: readonly WorkflowCase[] = [
  workflowCase({
    id: "sales_ops_weekly_pack",
    tier: "C",
    prompt: `Create sales_ops.xlsx with a sheet Pipeline listing these deals under the header Deal, Stage, Amount: Acme renewal, Proposal, 12000; Birch expansion, Negotiation, 8500; Cole pilot, Discovery, 3000; Dune upgrade, Closed won, 15000. Make Pipeline!A1:C5 a table named PipelineTable with a bold header row. Add a sheet Summary with the header Metric, Value and two rows: Deals =COUNTA(Pipeline!A2:A5) and Total amount =SUM(Pipeline!C2:C5). Then read Summary back. Answer {"table": "<name>", "summary": {"<Metric>": <Value read back>}}.`,
    expected: {
      table: "PipelineTable",
      summary: { Deals: "=COUNTA(Pipeline!A2:A5)", "Total amount": "=SUM(Pipeline!C2:C5)" },
    },
    workbook: {
      file: "sales_ops.xlsx",
      sheets: ["Pipeline", "Summary"],
      content: {
        Pipeline: {
          tables: { PipelineTable: "A1:C5" },
          bold: ["A1", "B1", "C1"],
          cells: { A1: "Deal", A5: "Dune upgrade", C5: 15000 },
        },
        Summary: {
          cells: {
            A1: "Metric",
            A3: "Total amount",
            B2: "=COUNTA(Pipeline!A2:A5)",
            B3: "=SUM(Pipeline!C2:C5)",
          },
        },
      },
    },
    primitive: {
      turns: [
        () => [excel("create_workbook", { path: "sales_ops.xlsx", sheet: "Pipeline" })],
        () => [
          excel("write_data_to_excel", {
            path: "sales_ops.xlsx",
            sheet: "Pipeline",
            data: [["Deal", "Stage", "Amount"], ...DEALS.map((deal) => [...deal])],
          }),
          excel("format_range", {
            path: "sales_ops.xlsx",
            sheet: "Pipeline",
            range: "A1:C1",
            bold: true,
          }),
          excel("write_data_to_excel", {
            path: "sales_ops.xlsx",
            sheet: "Summary",
            data: [
              ["Metric", "Value"],
              ["Deals", "=COUNTA(Pipeline!A2:A5)"],
              ["Total amount", "=SUM(Pipeline!C2:C5)"],
            ],
          }),
        ],
        // The table needs its header written; the read-back of Summary does not touch Pipeline.
        () => [
          excel("create_table", {
            path: "sales_ops.xlsx",
            sheet: "Pipeline",
            range: "A1:C5",
            name: "PipelineTable",
          }),
          excel("read_data_from_excel", { path: "sales_ops.xlsx", sheet: "Summary" }),
        ],
      ],
      answer: (results) => ({
        table: valueOf<TableCreated>(results, 2, 0).name,
        summary: byField(valueOf(results, 2, 1), "Metric", "Value"),
      }),
    },
    workflow: oneCall(
      excel("build_sales_ops_weekly_pack", {
        path: "sales_ops.xlsx",
        pipelineSheet: "Pipeline",
        header: ["Deal", "Stage", "Amount"],
        deals: DEALS.map((deal) => [...deal]),
        tableName: "PipelineTable",
        summarySheet: "Summary",
        summaryHeader: ["Metric", "Value"],
        summary: [
          ["Deals", "=COUNTA(Pipeline!A2:A5)"],
          ["Total amount", "=SUM(Pipeline!C2:C5)"],
        ],
        boldHeader: true,
      }),
      caseShaped(
        "labels and rows are parameters, but two sheets, a table on the first and the second read back, is this case's pack",
      ),
      (value) => {
        const pack = value as unknown as SalesOpsPack;
        return { table: pack.table, summary: byField(pack.summary, "Metric", "Value") };
      },
    ),
  }),
  workflowCase({
    id: "finance_close_summary",
    tier: "C",
    prompt: `Create close.xlsx with a sheet ClosePack holding the header Account, Amount and the lines Revenue 1200, COGS 450, Opex 300. Check that =B2-B3-B4 is a valid formula for ClosePack!B5; if it is, add three computed lines below: Net =B2-B3-B4, Margin =B5/B2, Total costs =B3+B4. Make A1:B4 a table named CloseTable, make the header row bold with a grey fill (D9D9D9), then read the sheet back. Answer {"valid": <true|false>, "amounts": {"<Account>": <Amount read back>}}.`,
    expected: {
      valid: true,
      amounts: {
        Revenue: 1200,
        COGS: 450,
        Opex: 300,
        Net: "=B2-B3-B4",
        Margin: "=B5/B2",
        "Total costs": "=B3+B4",
      },
    },
    workbook: {
      file: "close.xlsx",
      sheets: ["ClosePack"],
      content: {
        ClosePack: {
          tables: { CloseTable: "A1:B4" },
          bold: ["A1", "B1"],
          fill: { A1: "D9D9D9", B1: "D9D9D9" },
          cells: {
            B2: 1200,
            A5: "Net",
            B5: "=B2-B3-B4",
            B6: "=B5/B2",
            A7: "Total costs",
            B7: "=B3+B4",
          },
        },
      },
    },
    primitive: {
      turns: [
        () => [excel("create_workbook", { path: "close.xlsx", sheet: "ClosePack" })],
        () => [
          excel("write_data_to_excel", {
            path: "close.xlsx",
            sheet: "ClosePack",
            data: [
              ["Account", "Amount"],
              ["Revenue", 1200],
              ["COGS", 450],
              ["Opex", 300],
            ],
          }),
          excel("format_range", {
            path: "close.xlsx",
            sheet: "ClosePack",
            range: "A1:B1",
            bold: true,
            fillColor: "D9D9D9",
          }),
          excel("validate_formula_syntax", {
            path: "close.xlsx",
            sheet: "ClosePack",
            cell: "B5",
            formula: "=B2-B3-B4",
          }),
        ],
        () => [
          excel("write_data_to_excel", {
            path: "close.xlsx",
            sheet: "ClosePack",
            data: [
              ["Net", "=B2-B3-B4"],
              ["Margin", "=B5/B2"],
              ["Total costs", "=B3+B4"],
            ],
            startCell: "A5",
          }),
          excel("create_table", {
            path: "close.xlsx",
            sheet: "ClosePack",
            range: "A1:B4",
            name: "CloseTable",
          }),
        ],
        () => [excel("read_data_from_excel", { path: "close.xlsx", sheet: "ClosePack" })],
      ],
      answer: (results) => ({
        valid: valueOf<FormulaCheck>(results, 1, 2).valid,
        amounts: byField(valueOf(results, 3), "Account", "Amount"),
      }),
    },
    workflow: oneCall(
      excel("finalize_finance_close_summary", {
        path: "close.xlsx",
        sheet: "ClosePack",
        header: ["Account", "Amount"],
        lines: [
          { account: "Revenue", amount: 1200 },
          { account: "COGS", amount: 450 },
          { account: "Opex", amount: 300 },
        ],
        computed: [
          { account: "Net", formula: "=B2-B3-B4" },
          { account: "Margin", formula: "=B5/B2" },
          { account: "Total costs", formula: "=B3+B4" },
        ],
        tableName: "CloseTable",
        boldHeader: true,
        headerFill: "D9D9D9",
      }),
      caseShaped(
        "labels and formats are parameters, but a table over the lines with checked formulas below it is this case's layout",
      ),
      (value) => {
        const close = value as unknown as CloseSummary;
        return { valid: close.valid, amounts: byField(close.rows, "Account", "Amount") };
      },
    ),
  }),
  workflowCase({
    id: "kpi_dashboard_sheet",
    tier: "C",
    prompt: `Create kpi.xlsx with a sheet Dashboard: the title "Weekly KPI dashboard" in A1, merged across A1:D1, bold and centered; the header Metric, Target, Actual, Status in row 2, bold; and in rows 3 to 6 the KPIs Uptime 99.9 99.95 On track, NPS 50 46 At risk, Churn 2 1.8 On track, Tickets closed 400 420 On track. Then report the sheet's merged ranges and read A2:D6 back. Answer {"merged": [<ranges>], "status": {"<Metric>": "<Status read back>"}}.`,
    expected: {
      merged: ["A1:D1"],
      status: {
        Uptime: "On track",
        NPS: "At risk",
        Churn: "On track",
        "Tickets closed": "On track",
      },
    },
    workbook: {
      file: "kpi.xlsx",
      sheets: ["Dashboard"],
      content: {
        Dashboard: {
          merges: ["A1:D1"],
          bold: ["A1", "A2", "B2", "C2", "D2"],
          centered: ["A1"],
          cells: {
            A1: "Weekly KPI dashboard",
            B1: null,
            D2: "Status",
            C3: 99.95,
            A6: "Tickets closed",
            D6: "On track",
          },
        },
      },
    },
    primitive: {
      turns: [
        () => [excel("create_workbook", { path: "kpi.xlsx", sheet: "Dashboard" })],
        () => [
          excel("write_data_to_excel", {
            path: "kpi.xlsx",
            sheet: "Dashboard",
            data: [
              ["Weekly KPI dashboard"],
              ["Metric", "Target", "Actual", "Status"],
              ...KPIS.map((kpi) => [...kpi]),
            ],
          }),
          excel("merge_cells", { path: "kpi.xlsx", sheet: "Dashboard", range: "A1:D1" }),
          excel("format_range", {
            path: "kpi.xlsx",
            sheet: "Dashboard",
            range: "A1:D1",
            bold: true,
            horizontal: "center",
          }),
          excel("format_range", {
            path: "kpi.xlsx",
            sheet: "Dashboard",
            range: "A2:D2",
            bold: true,
          }),
        ],
        () => [
          excel("read_data_from_excel", { path: "kpi.xlsx", sheet: "Dashboard", range: "A2:D6" }),
        ],
      ],
      // merge_cells already lists the sheet's merged ranges afterwards: no need to ask again.
      answer: (results) => ({
        merged: valueOf<MergeResult>(results, 1, 1).mergedCells,
        status: byField(valueOf(results, 2), "Metric", "Status"),
      }),
    },
    workflow: oneCall(
      excel("build_kpi_dashboard_sheet", {
        path: "kpi.xlsx",
        sheet: "Dashboard",
        title: "Weekly KPI dashboard",
        titleRange: "A1:D1",
        header: ["Metric", "Target", "Actual", "Status"],
        rows: KPIS.map((kpi) => [...kpi]),
        boldTitle: true,
        titleAlign: "center",
        boldHeader: true,
      }),
      general(
        "a titled table sheet: title, range, header, rows and formats are parameters (the same tool as revise_revenue_model and finalize_executive_briefing)",
      ),
      (value) => {
        const dashboard = value as unknown as TitledTable;
        return {
          merged: dashboard.mergedCells,
          status: byField(dashboard.rows, "Metric", "Status"),
        };
      },
    ),
  }),
  workflowCase({
    id: "multi_sheet_monthly_rollup",
    tier: "C",
    prompt: `Create rollup.xlsx with the sheets Jan, Feb and Summary. Jan and Feb each hold the header Region, Sales and one row per region: on Jan North 120 and South 95, on Feb North 130 and South 105. Summary holds the header Region, Total and the totals North =Jan!B2+Feb!B2 and South =Jan!B3+Feb!B3. Then check the workbook's metadata and read Summary back. Answer {"sheets": [<sheet names, alphabetical>], "totals": {"<Region>": <Total read back>}}.`,
    expected: {
      sheets: ["Feb", "Jan", "Summary"],
      totals: { North: "=Jan!B2+Feb!B2", South: "=Jan!B3+Feb!B3" },
    },
    workbook: {
      file: "rollup.xlsx",
      sheets: ["Jan", "Feb", "Summary"],
      // The primitive plan creates Feb and Summary in the same turn.
      anyOrder: true,
      content: {
        Jan: { cells: { A1: "Region", A2: "North", B2: 120, B3: 95 } },
        Feb: { cells: { A1: "Region", A3: "South", B2: 130, B3: 105 } },
        Summary: {
          cells: { B1: "Total", A2: "North", B2: "=Jan!B2+Feb!B2", B3: "=Jan!B3+Feb!B3" },
        },
      },
    },
    primitive: {
      turns: [
        () => [excel("create_workbook", { path: "rollup.xlsx", sheet: "Jan" })],
        () => [
          excel("write_data_to_excel", {
            path: "rollup.xlsx",
            sheet: "Jan",
            data: [
              ["Region", "Sales"],
              ["North", 120],
              ["South", 95],
            ],
          }),
          excel("write_data_to_excel", {
            path: "rollup.xlsx",
            sheet: "Feb",
            data: [
              ["Region", "Sales"],
              ["North", 130],
              ["South", 105],
            ],
          }),
          excel("write_data_to_excel", {
            path: "rollup.xlsx",
            sheet: "Summary",
            data: [
              ["Region", "Total"],
              ["North", "=Jan!B2+Feb!B2"],
              ["South", "=Jan!B3+Feb!B3"],
            ],
          }),
        ],
        () => [
          excel("get_workbook_metadata", { path: "rollup.xlsx" }),
          excel("read_data_from_excel", { path: "rollup.xlsx", sheet: "Summary" }),
        ],
      ],
      answer: (results) => ({
        sheets: alphabetical(sheetNamesOf(valueOf<WorkbookMetadata>(results, 2, 0))),
        totals: byField(valueOf(results, 2, 1), "Region", "Total"),
      }),
    },
    workflow: oneCall(
      excel("build_multi_sheet_monthly_rollup", {
        path: "rollup.xlsx",
        header: ["Region", "Sales"],
        months: [
          {
            sheet: "Jan",
            rows: [
              ["North", 120],
              ["South", 95],
            ],
          },
          {
            sheet: "Feb",
            rows: [
              ["North", 130],
              ["South", 105],
            ],
          },
        ],
        summarySheet: "Summary",
        summaryHeader: ["Region", "Total"],
        totals: [
          ["North", "=Jan!B2+Feb!B2"],
          ["South", "=Jan!B3+Feb!B3"],
        ],
      }),
      general(
        "any number of period sheets under one header and a summary sheet, all given as rows",
      ),
      (value) => {
        const rollup = value as unknown as MonthlyRollup;
        return {
          sheets: alphabetical(rollup.sheets),
          totals: byField(rollup.summary, "Region", "Total"),
        };
      },
    ),
  }),
  workflowCase({
    id: "template_copy_and_fill",
    tier: "C",
    prompt: `Create regions.xlsx with a sheet Template holding the header Region, Target, Actual. Copy Template to two new sheets, North and South, then rename Template to MasterTemplate. Under the header, fill North with North-East 300 280 and North-West 200 210, and South with South-East 250 260 and South-West 150 140. Then read North and South back. Answer {"sheets": [<sheet names, alphabetical>], "regions": {"North": [<Region of each record>], "South": [<Region of each record>]}}.`,
    expected: {
      sheets: ["MasterTemplate", "North", "South"],
      regions: { North: ["North-East", "North-West"], South: ["South-East", "South-West"] },
    },
    workbook: {
      file: "regions.xlsx",
      sheets: ["MasterTemplate", "North", "South"],
      // The primitive plan copies North and South in the same turn.
      anyOrder: true,
      content: {
        MasterTemplate: { cells: { A1: "Region", C1: "Actual", A2: null } },
        North: { cells: { A1: "Region", C1: "Actual", A2: "North-East", B2: 300, C3: 210 } },
        South: { cells: { A1: "Region", C1: "Actual", A3: "South-West", B3: 150, C2: 260 } },
      },
    },
    primitive: {
      turns: [
        () => [excel("create_workbook", { path: "regions.xlsx", sheet: "Template" })],
        () => [
          excel("write_data_to_excel", {
            path: "regions.xlsx",
            sheet: "Template",
            data: [["Region", "Target", "Actual"]],
          }),
        ],
        () => [
          excel("copy_worksheet", { path: "regions.xlsx", source: "Template", target: "North" }),
          excel("copy_worksheet", { path: "regions.xlsx", source: "Template", target: "South" }),
        ],
        // The copies exist now: renaming their source and filling them touch different sheets.
        () => [
          excel("rename_worksheet", {
            path: "regions.xlsx",
            oldName: "Template",
            newName: "MasterTemplate",
          }),
          excel("write_data_to_excel", {
            path: "regions.xlsx",
            sheet: "North",
            data: [
              ["North-East", 300, 280],
              ["North-West", 200, 210],
            ],
            startCell: "A2",
          }),
          excel("write_data_to_excel", {
            path: "regions.xlsx",
            sheet: "South",
            data: [
              ["South-East", 250, 260],
              ["South-West", 150, 140],
            ],
            startCell: "A2",
          }),
        ],
        () => [
          excel("read_data_from_excel", { path: "regions.xlsx", sheet: "North" }),
          excel("read_data_from_excel", { path: "regions.xlsx", sheet: "South" }),
        ],
      ],
      answer: (results) => ({
        sheets: alphabetical(valueOf<SheetList>(results, 3, 0).sheets),
        regions: {
          North: valueOf<SheetRow[]>(results, 4, 0).map((row) => row.Region!),
          South: valueOf<SheetRow[]>(results, 4, 1).map((row) => row.Region!),
        },
      }),
    },
    workflow: oneCall(
      excel("apply_template_copy_and_fill", {
        path: "regions.xlsx",
        template: "Template",
        header: ["Region", "Target", "Actual"],
        fills: [
          {
            sheet: "North",
            rows: [
              ["North-East", 300, 280],
              ["North-West", 200, 210],
            ],
          },
          {
            sheet: "South",
            rows: [
              ["South-East", 250, 260],
              ["South-West", 150, 140],
            ],
          },
        ],
        renameTemplate: "MasterTemplate",
      }),
      general("a template sheet, any number of filled copies, an optional rename"),
      (value) => {
        const template = value as unknown as TemplateFill;
        return {
          sheets: alphabetical(template.sheets),
          regions: Object.fromEntries(
            template.filled.map((fill) => [fill.sheet, fill.rows.map((row) => row.Region!)]),
          ),
        };
      },
    ),
  }),
  workflowCase({
    id: "headcount_plan_restructure",
    tier: "C",
    prompt: `Create headcount.xlsx with a sheet Plan holding these rows from A1: Team, Headcount, Temp / Sales, 12, x / Support, 8, x / Temp, 0, x. Then restructure it: insert an empty row before row 3 and an empty column before column 2 (B); write Marketing, EMEA, 5 into the new row from column A, and Region, EMEA, EMEA, AMER into the new column from row 1 down; then delete the Temp row (row 5 after the insertions) and the Temp column (column 4, D, after the insertions), and read the sheet back. Answer {"columns": [<field names read>], "teams": [<Team of each record, in order>]}.`,
    expected: {
      columns: ["Team", "Region", "Headcount"],
      teams: ["Sales", "Marketing", "Support"],
    },
    workbook: {
      file: "headcount.xlsx",
      sheets: ["Plan"],
      content: {
        Plan: {
          cells: {
            B1: "Region",
            C1: "Headcount",
            A3: "Marketing",
            B3: "EMEA",
            C3: 5,
            A4: "Support",
            B4: "AMER",
            C4: 8,
            A5: null,
            D1: null,
          },
        },
      },
    },
    primitive: {
      turns: [
        () => [excel("create_workbook", { path: "headcount.xlsx", sheet: "Plan" })],
        () => [
          excel("write_data_to_excel", {
            path: "headcount.xlsx",
            sheet: "Plan",
            data: [
              ["Team", "Headcount", "Temp"],
              ["Sales", 12, "x"],
              ["Support", 8, "x"],
              ["Temp", 0, "x"],
            ],
          }),
        ],
        // Inserting a row and a column commute: one turn.
        () => [
          excel("insert_rows", { path: "headcount.xlsx", sheet: "Plan", startRow: 3 }),
          excel("insert_columns", { path: "headcount.xlsx", sheet: "Plan", startCol: 2 }),
        ],
        // The writes stay above row 5 and left of column D, and both put EMEA in B3: one turn with the deletions.
        () => [
          excel("write_data_to_excel", {
            path: "headcount.xlsx",
            sheet: "Plan",
            data: [["Marketing", "EMEA", 5]],
            startCell: "A3",
          }),
          excel("write_data_to_excel", {
            path: "headcount.xlsx",
            sheet: "Plan",
            data: [["Region"], ["EMEA"], ["EMEA"], ["AMER"]],
            startCell: "B1",
          }),
          excel("delete_sheet_rows", { path: "headcount.xlsx", sheet: "Plan", startRow: 5 }),
          excel("delete_sheet_columns", { path: "headcount.xlsx", sheet: "Plan", startCol: 4 }),
        ],
        () => [excel("read_data_from_excel", { path: "headcount.xlsx", sheet: "Plan" })],
      ],
      answer: (results) => {
        const rows = valueOf<SheetRow[]>(results, 4);
        return { columns: Object.keys(rows[0]!), teams: rows.map((row) => row.Team!) };
      },
    },
    workflow: oneCall(
      excel("restructure_headcount_plan", {
        path: "headcount.xlsx",
        sheet: "Plan",
        rows: [
          ["Team", "Headcount", "Temp"],
          ["Sales", 12, "x"],
          ["Support", 8, "x"],
          ["Temp", 0, "x"],
        ],
        insertRowBefore: 3,
        newRow: ["Marketing", "EMEA", 5],
        insertColumnBefore: 2,
        newColumn: ["Region", "EMEA", "EMEA", "AMER"],
        deleteRow: 5,
        deleteColumn: 4,
      }),
      caseShaped(
        "rows and columns are parameters, but insert-fill-delete of one row and one column is this case's recipe",
      ),
      (value) => {
        const rows = value as SheetRow[];
        return { columns: Object.keys(rows[0]!), teams: rows.map((row) => row.Team!) };
      },
    ),
  }),
  workflowCase({
    id: "revenue_model_revision",
    tier: "C",
    prompt: `Create revenue.xlsx with a sheet Model: the title "Revenue model" in A1, merged across A1:D1 and bold; the header Product, Units, Price, Revenue in row 2; Widget 120 2.5 in row 3 and Gadget 80 4 in row 4, with the Revenue formulas =B3*C3 in D3 and =B4*C4 in D4. Then read A2:D4 back. Answer {"revenue": {"<Product>": <Revenue read back>}}.`,
    expected: { revenue: { Widget: "=B3*C3", Gadget: "=B4*C4" } },
    workbook: {
      file: "revenue.xlsx",
      sheets: ["Model"],
      content: {
        Model: {
          merges: ["A1:D1"],
          bold: ["A1"],
          cells: {
            A1: "Revenue model",
            D2: "Revenue",
            A3: "Widget",
            C3: 2.5,
            B4: 80,
            D3: "=B3*C3",
            D4: "=B4*C4",
          },
        },
      },
    },
    primitive: {
      turns: [
        () => [excel("create_workbook", { path: "revenue.xlsx", sheet: "Model" })],
        () => [
          excel("write_data_to_excel", {
            path: "revenue.xlsx",
            sheet: "Model",
            data: [
              ["Revenue model"],
              ["Product", "Units", "Price", "Revenue"],
              ["Widget", 120, 2.5, "=B3*C3"],
              ["Gadget", 80, 4, "=B4*C4"],
            ],
          }),
          excel("merge_cells", { path: "revenue.xlsx", sheet: "Model", range: "A1:D1" }),
          excel("format_range", {
            path: "revenue.xlsx",
            sheet: "Model",
            range: "A1:D1",
            bold: true,
          }),
        ],
        () => [
          excel("read_data_from_excel", { path: "revenue.xlsx", sheet: "Model", range: "A2:D4" }),
        ],
      ],
      answer: (results) => ({ revenue: byField(valueOf(results, 2), "Product", "Revenue") }),
    },
    workflow: oneCall(
      excel("revise_revenue_model", {
        path: "revenue.xlsx",
        sheet: "Model",
        title: "Revenue model",
        titleRange: "A1:D1",
        header: ["Product", "Units", "Price", "Revenue"],
        rows: [
          ["Widget", 120, 2.5, "=B3*C3"],
          ["Gadget", 80, 4, "=B4*C4"],
        ],
        boldTitle: true,
      }),
      general("a titled table sheet (the same tool as build_kpi_dashboard_sheet)"),
      (value) => ({
        revenue: byField((value as unknown as TitledTable).rows, "Product", "Revenue"),
      }),
    ),
  }),
];

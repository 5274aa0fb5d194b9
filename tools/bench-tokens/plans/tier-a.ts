/**
 * Tier A of the spreadsheet suite (zcp-reference.md §8.2): sixteen single-tool cases over
 * fixtures/workbench. Each seeds its workbook with exceljs (except create_workbook), asks for one
 * primitive, and is verified on the file the run leaves, read back with exceljs.
 */
import type ExcelJS from "exceljs";
import type { JsonValue } from "@zcp/runtime";
import { workbench as registry } from "./registries.ts";
import type { Answer, BenchCase, Results } from "./case.ts";
import { openIn, seeded, type Cells } from "./workbook.ts";

const FILE = "book.xlsx";
const seed = (sheets: Record<string, Cells>, extra?: (workbook: ExcelJS.Workbook) => void) =>
  seeded(FILE, sheets, extra);
const open = (workspace: string, file = FILE): Promise<ExcelJS.Workbook> => openIn(workspace, file);

const names = (workbook: ExcelJS.Workbook) => workbook.worksheets.map((sheet) => sheet.name);
const value = (workbook: ExcelJS.Workbook, sheet: string, cell: string) =>
  workbook.getWorksheet(sheet)?.getCell(cell).value ?? null;
const first = (results: Results): JsonValue => results[0]?.[0] ?? null;
const done = (): Answer => ({ done: true });

/** A case of one call; the answer is `{done: true}` unless the case reads something. */
function single(
  id: string,
  prompt: string,
  call: { alias: string; args: { [name: string]: JsonValue } },
  check: (workbook: ExcelJS.Workbook, answer: Answer) => boolean,
  options: { seed?: BenchCase["seed"]; answer?: (results: Results) => Answer; file?: string } = {},
): BenchCase {
  return {
    id,
    tier: "A",
    registry,
    ...(options.seed ? { seed: options.seed } : {}),
    prompt,
    plans: [{ name: "primitive", turns: [() => [call]], answer: options.answer ?? done }],
    verify: async (answer, workspace) => check(await open(workspace, options.file), answer),
  };
}

const GRID: Cells = [
  ["Task", "Owner", "Status"],
  ["Spec", "Ann", "Done"],
  ["Build", "Bo", "Open"],
  ["Ship", "Cy", "Open"],
];

export const TIER_A_CASES: readonly BenchCase[] = [
  single(
    "create_workbook",
    `Create a new workbook report.xlsx. Answer {"done": true}.`,
    { alias: "excel.create_workbook", args: { path: "report.xlsx" } },
    (wb) => names(wb).join() === "Sheet1",
    { file: "report.xlsx" },
  ),
  single(
    "create_worksheet",
    `In ${FILE}, add a worksheet named Review. Answer {"done": true}.`,
    { alias: "excel.create_worksheet", args: { path: FILE, sheet: "Review" } },
    (wb) => names(wb).join() === "Sheet1,Review",
    {
      seed: seed({ Sheet1: [] }),
    },
  ),
  single(
    "write_data",
    `In ${FILE}, write a table to sheet Data at A1: header Name, Value; one row Latency, 42. Answer {"done": true}.`,
    {
      alias: "excel.write_data_to_excel",
      args: {
        path: FILE,
        sheet: "Data",
        data: [
          ["Name", "Value"],
          ["Latency", 42],
        ],
      },
    },
    (wb) =>
      value(wb, "Data", "A1") === "Name" &&
      value(wb, "Data", "B1") === "Value" &&
      value(wb, "Data", "A2") === "Latency" &&
      value(wb, "Data", "B2") === 42,
    { seed: seed({ Data: [] }) },
  ),
  single(
    "read_data",
    `In ${FILE}, read Audit!A1:B3 (first row is the header). Answer {"rows": <records read>, "first_check": <Check of the first record>}.`,
    { alias: "excel.read_data_from_excel", args: { path: FILE, sheet: "Audit", range: "A1:B3" } },
    (wb, answer) =>
      answer.rows === 2 &&
      answer.first_check === "Access review" &&
      value(wb, "Audit", "A2") === "Access review",
    {
      seed: seed({
        Audit: [
          ["Check", "Result"],
          ["Access review", "pass"],
          ["Backups", "fail"],
        ],
      }),
      answer: (results) => {
        const rows = first(results) as { Check: string }[];
        return { rows: rows.length, first_check: rows[0]!.Check };
      },
    },
  ),
  single(
    "format_range",
    `In ${FILE}, make the header Report!A1:C1 bold and centered. Answer {"done": true}.`,
    {
      alias: "excel.format_range",
      args: { path: FILE, sheet: "Report", range: "A1:C1", bold: true, horizontal: "center" },
    },
    (wb) =>
      ["A1", "B1", "C1"].every(
        (cell) =>
          wb.getWorksheet("Report")!.getCell(cell).font?.bold === true &&
          wb.getWorksheet("Report")!.getCell(cell).alignment?.horizontal === "center",
      ),
    {
      seed: seed({
        Report: [
          ["Region", "Q1", "Q2"],
          ["North", 10, 12],
        ],
      }),
    },
  ),
  single(
    "validate_formula_syntax",
    `In ${FILE}, check whether =B2+C2 is a valid formula for Calc!D2, without writing it. Answer {"valid": <true|false>}.`,
    {
      alias: "excel.validate_formula_syntax",
      args: { path: FILE, sheet: "Calc", cell: "D2", formula: "=B2+C2" },
    },
    (wb, answer) => answer.valid === true && value(wb, "Calc", "D2") === null,
    {
      seed: seed({
        Calc: [
          ["Item", "Base", "Extra", "Total"],
          ["A", 3, 4],
        ],
      }),
      answer: (results) => ({ valid: (first(results) as { valid: boolean }).valid }),
    },
  ),
  single(
    "apply_formula",
    `In ${FILE}, put the formula =B2+C2 in Calc!D2. Answer {"done": true}.`,
    {
      alias: "excel.apply_formula",
      args: { path: FILE, sheet: "Calc", cell: "D2", formula: "=B2+C2" },
    },
    (wb) => (value(wb, "Calc", "D2") as { formula?: string } | null)?.formula === "B2+C2",
    {
      seed: seed({
        Calc: [
          ["Item", "Base", "Extra", "Total"],
          ["A", 3, 4],
        ],
      }),
    },
  ),
  single(
    "create_table",
    `In ${FILE}, turn Orders!A1:B3 into a table named OrdersTable. Answer {"done": true}.`,
    {
      alias: "excel.create_table",
      args: { path: FILE, sheet: "Orders", range: "A1:B3", name: "OrdersTable" },
    },
    (wb) => {
      const table = wb.getWorksheet("Orders")!.getTable("OrdersTable") as unknown as
        { table?: { tableRef?: string; ref?: string } } | undefined;
      return (table?.table?.tableRef ?? table?.table?.ref) === "A1:B3";
    },
    {
      seed: seed({
        Orders: [
          ["Order", "Amount"],
          ["A-1", 120],
          ["A-2", 80],
        ],
      }),
    },
  ),
  single(
    "merge_cells",
    `In ${FILE}, merge Dashboard!A1:D1. Answer {"done": true}.`,
    { alias: "excel.merge_cells", args: { path: FILE, sheet: "Dashboard", range: "A1:D1" } },
    (wb) => wb.getWorksheet("Dashboard")!.model.merges.includes("A1:D1"),
    {
      seed: seed({ Dashboard: [["Weekly dashboard"]] }),
    },
  ),
  single(
    "get_merged_cells",
    `In ${FILE}, which ranges of Dashboard are merged? Answer {"merged": [<ranges>]}.`,
    { alias: "excel.get_merged_cells", args: { path: FILE, sheet: "Dashboard" } },
    (_wb, answer) => JSON.stringify(answer.merged) === '["A1:D1"]',
    {
      seed: seed({ Dashboard: [["Weekly dashboard"]] }, (wb) =>
        wb.getWorksheet("Dashboard")!.mergeCells("A1:D1"),
      ),
      answer: (results) => ({ merged: (first(results) as { mergedCells: string[] }).mergedCells }),
    },
  ),
  single(
    "rename_worksheet",
    `In ${FILE}, rename the sheet Draft to Final. Answer {"done": true}.`,
    { alias: "excel.rename_worksheet", args: { path: FILE, oldName: "Draft", newName: "Final" } },
    (wb) => names(wb).join() === "Final" && value(wb, "Final", "A1") === "Notes",
    {
      seed: seed({ Draft: [["Notes"]] }),
    },
  ),
  single(
    "copy_worksheet",
    `In ${FILE}, copy the sheet Template to a new sheet named "Template Copy". Answer {"done": true}.`,
    {
      alias: "excel.copy_worksheet",
      args: { path: FILE, source: "Template", target: "Template Copy" },
    },
    (wb) =>
      names(wb).join() === "Template,Template Copy" && value(wb, "Template Copy", "B2") === "Ann",
    { seed: seed({ Template: GRID }) },
  ),
  single(
    "insert_rows",
    `In ${FILE}, insert one empty row before row 2 of Plan. Answer {"done": true}.`,
    { alias: "excel.insert_rows", args: { path: FILE, sheet: "Plan", startRow: 2 } },
    (wb) =>
      value(wb, "Plan", "A2") === null &&
      value(wb, "Plan", "A3") === "Spec" &&
      value(wb, "Plan", "A5") === "Ship",
    {
      seed: seed({ Plan: GRID }),
    },
  ),
  single(
    "insert_columns",
    `In ${FILE}, insert one empty column before column 2 (B) of Plan. Answer {"done": true}.`,
    { alias: "excel.insert_columns", args: { path: FILE, sheet: "Plan", startCol: 2 } },
    (wb) =>
      value(wb, "Plan", "B1") === null &&
      value(wb, "Plan", "C1") === "Owner" &&
      value(wb, "Plan", "D1") === "Status",
    { seed: seed({ Plan: GRID }) },
  ),
  single(
    "delete_sheet_rows",
    `In ${FILE}, delete row 3 of Plan. Answer {"done": true}.`,
    { alias: "excel.delete_sheet_rows", args: { path: FILE, sheet: "Plan", startRow: 3 } },
    (wb) =>
      value(wb, "Plan", "A2") === "Spec" &&
      value(wb, "Plan", "A3") === "Ship" &&
      value(wb, "Plan", "A4") === null,
    {
      seed: seed({ Plan: GRID }),
    },
  ),
  single(
    "delete_sheet_columns",
    `In ${FILE}, delete column 2 (B) of Plan. Answer {"done": true}.`,
    { alias: "excel.delete_sheet_columns", args: { path: FILE, sheet: "Plan", startCol: 2 } },
    (wb) =>
      value(wb, "Plan", "A1") === "Task" &&
      value(wb, "Plan", "B1") === "Status" &&
      value(wb, "Plan", "C1") === null,
    { seed: seed({ Plan: GRID }) },
  ),
];

/**
 * Workbooks for the spreadsheet cases: seeding the workspace with exceljs before a run, and
 * checking the file a run leaves against a description of what it must hold (sheets, values,
 * formulas, tables, merges, formats). Read with the fixture's own reader and value rules.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import ExcelJS from "exceljs";
import {
  cellFormula,
  openWorkbookFile,
  ownValue,
  sheetMerges,
  sheetTables,
  type CellValue,
} from "../../../fixtures/workbench/src/workspace.ts";

export type Cells = readonly (readonly CellValue[])[];

/** Writes a workbook of the given sheets (rows from A1) into the workspace; built once, then copied for every run. */
export function seeded(
  file: string,
  sheets: Record<string, Cells>,
  extra?: (workbook: ExcelJS.Workbook) => void,
) {
  let bytes: Promise<Uint8Array> | undefined;
  const build = async (): Promise<Uint8Array> => {
    const workbook = new ExcelJS.Workbook();
    for (const [name, rows] of Object.entries(sheets)) {
      const sheet = workbook.addWorksheet(name);
      rows.forEach((row) => sheet.addRow([...row]));
    }
    extra?.(workbook);
    return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
  };
  return async (workspace: string): Promise<void> => {
    bytes ??= build();
    await writeFile(path.join(workspace, file), await bytes);
  };
}

export const openIn = (workspace: string, file: string): Promise<ExcelJS.Workbook> =>
  openWorkbookFile(path.join(workspace, file));

interface SheetSpec {
  /** Cells by A1 name: a value, a formula written "=B2+C2", or null for an empty cell. */
  readonly cells?: Readonly<Record<string, CellValue>>;
  /** Every merged range of the sheet. */
  readonly merges?: readonly string[];
  /** Every table of the sheet, name → range. */
  readonly tables?: Readonly<Record<string, string>>;
  /** Cells that must be bold. */
  readonly bold?: readonly string[];
  /** Cells that must be centered horizontally. */
  readonly centered?: readonly string[];
  /** Cells that must have a solid fill of this RGB color (e.g. "D9D9D9"). */
  readonly fill?: Readonly<Record<string, string>>;
}

export interface WorkbookSpec {
  readonly file: string;
  /** The workbook's sheets, in tab order unless `anyOrder`. */
  readonly sheets: readonly string[];
  /** Sheets a plan may create in parallel, so their order is not part of the task. */
  readonly anyOrder?: boolean;
  readonly content?: Readonly<Record<string, SheetSpec>>;
}

const show = (value: unknown) => JSON.stringify(value);

/** What is wrong with the workbook the run left (nothing when it matches `spec`). */
export async function workbookProblems(workspace: string, spec: WorkbookSpec): Promise<string[]> {
  let workbook: ExcelJS.Workbook;
  try {
    workbook = await openIn(workspace, spec.file);
  } catch (error) {
    return [`${spec.file}: cannot be read (${(error as Error).message})`];
  }
  const problems: string[] = [];
  const names = workbook.worksheets.map((sheet) => sheet.name);
  const order = (list: readonly string[]) => (spec.anyOrder ? [...list].sort() : [...list]);
  if (show(order(names)) !== show(order(spec.sheets)))
    problems.push(`sheets are ${show(names)}, expected ${show(spec.sheets)}`);
  for (const [name, want] of Object.entries(spec.content ?? {})) {
    const sheet = workbook.getWorksheet(name);
    if (!sheet) {
      problems.push(`${name}: missing`);
      continue;
    }
    for (const [ref, expected] of Object.entries(want.cells ?? {})) {
      const cell = sheet.getCell(ref);
      const actual =
        typeof expected === "string" && expected.startsWith("=")
          ? cellFormula(cell.value)
          : ownValue(cell);
      if (actual !== expected)
        problems.push(`${name}!${ref} is ${show(actual)}, expected ${show(expected)}`);
    }
    if (want.merges && show(sheetMerges(sheet)) !== show(want.merges))
      problems.push(`${name}: merges ${show(sheetMerges(sheet))}, expected ${show(want.merges)}`);
    if (want.tables) {
      const tables = Object.fromEntries(
        sheetTables(sheet).map((table) => [table.name, table.range]),
      );
      if (show(tables) !== show(want.tables))
        problems.push(`${name}: tables ${show(tables)}, expected ${show(want.tables)}`);
    }
    for (const ref of want.bold ?? [])
      if (sheet.getCell(ref).font?.bold !== true) problems.push(`${name}!${ref} is not bold`);
    for (const ref of want.centered ?? [])
      if (sheet.getCell(ref).alignment?.horizontal !== "center")
        problems.push(`${name}!${ref} is not centered`);
    for (const [ref, rgb] of Object.entries(want.fill ?? {})) {
      const fill = sheet.getCell(ref).fill as
        { type?: string; fgColor?: { argb?: string } } | undefined;
      if (
        fill?.type !== "pattern" ||
        !fill.fgColor?.argb?.toUpperCase().endsWith(rgb.toUpperCase())
      )
        problems.push(
          `${name}!${ref} fill is ${show(fill?.fgColor?.argb ?? null)}, expected ${rgb}`,
        );
    }
  }
  return problems;
}

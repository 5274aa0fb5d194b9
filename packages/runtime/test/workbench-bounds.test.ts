/** The workbench's bound on the cells one call covers, in every tool that takes a range. */
import { beforeAll, describe, expect, it } from "vitest";
import { ok, open, session, useWorkbench } from "./workbench-session.js";

useWorkbench();

describe("workbench bounds", () => {
  const BIG = "bounds/big.xlsx";
  const WHOLE = "A1:XFD1048576";
  const refusal = (range: string, cells: number) =>
    `${range} covers ${cells} cells; at most 200000 per call: split it`;

  /** The call's answer, and that it came within a second. */
  async function quick(alias: string, args: Record<string, unknown>) {
    const started = performance.now();
    const result = await session.call(alias, args);
    expect(performance.now() - started).toBeLessThan(1000);
    return result;
  }

  beforeAll(async () => {
    await ok("excel.create_workbook", { path: BIG });
    // the used area spans the whole sheet: its first and its last cell hold values
    await ok("excel.write_data_to_excel", { path: BIG, sheet: "Sheet1", data: [["first"]] });
    await ok("excel.write_data_to_excel", {
      path: BIG,
      sheet: "Sheet1",
      data: [["last"]],
      startCell: "XFD1048576",
    });
    await ok("excel.write_data_to_excel", { path: BIG, sheet: "Wide", data: [["left"]] });
    await ok("excel.write_data_to_excel", {
      path: BIG,
      sheet: "Wide",
      data: [["right"]],
      startCell: "XFD1",
    });
    await ok("excel.write_data_to_excel", { path: BIG, sheet: "Tall", data: [["top"]] });
    await ok("excel.write_data_to_excel", {
      path: BIG,
      sheet: "Tall",
      data: [["bottom"]],
      startCell: "A1048576",
    });
  });

  it("refuses a range of the whole sheet at once, with the exact error, in every tool that takes one", async () => {
    const whole = { ok: false, error: "invalid:$.range", hint: refusal(WHOLE, 17179869184) };
    const base = { path: BIG, sheet: "Sheet1", range: WHOLE };
    expect(await quick("excel.format_range", { ...base, bold: true })).toEqual(whole);
    expect(await quick("excel.read_data_from_excel", base)).toEqual(whole);
    expect(await quick("excel.create_table", base)).toEqual(whole);
    expect(await quick("excel.merge_cells", base)).toEqual(whole);
    expect(await quick("excel.chain_layout_flow", { ...base, bold: true })).toEqual(whole);
    // the validator answers in its result, as for any range no tool would take
    expect(await quick("excel.validate_excel_range", base)).toEqual({
      ok: true,
      value: { valid: false, range: WHOLE, message: refusal(WHOLE, 17179869184) },
    });
  });

  it("counts corners in any order and refuses one cell past the bound, not at it", async () => {
    // a workbook of its own: 200000 formatted cells make a file slow to load
    await ok("excel.create_workbook", { path: "bounds/edge.xlsx" });
    const base = { path: "bounds/edge.xlsx", sheet: "Sheet1", bold: true };
    // 200 × 1000 = 200000 cells: taken
    expect(await session.call("excel.format_range", { ...base, range: "GR1000:A1" })).toMatchObject(
      { ok: true, value: { range: "A1:GR1000", cells: 200000 } },
    );
    expect(await quick("excel.format_range", { ...base, range: "A1:GR1001" })).toEqual({
      ok: false,
      error: "invalid:$.range",
      hint: refusal("A1:GR1001", 200200),
    });
  });

  it("refuses a used area over the bound when no range is given", async () => {
    expect(await quick("excel.read_data_from_excel", { path: BIG, sheet: "Sheet1" })).toEqual({
      ok: false,
      error: "invalid:$.range",
      hint: refusal(WHOLE, 17179869184),
    });
    // a workflow that reads the used area first
    expect(
      await quick("excel.cleanup_staging_backlog", { path: BIG, sheet: "Sheet1", rows: [2] }),
    ).toEqual({ ok: false, error: "invalid:$.range", hint: refusal(WHOLE, 17179869184) });
  });

  it("names the parameter the area came from", async () => {
    // data: a ragged block 16384 wide and 13 rows high
    expect(
      await quick("excel.write_data_to_excel", {
        path: BIG,
        sheet: "Fresh",
        data: [Array.from({ length: 16384 }, () => 1), ...Array.from({ length: 12 }, () => [1])],
      }),
    ).toEqual({ ok: false, error: "invalid:$.data", hint: refusal("A1:XFD13", 212992) });
    // workflow parameters: refused before anything is written
    expect(
      await quick("excel.chain_formula_flow", {
        path: BIG,
        sheet: "Sheet1",
        formulas: [{ cell: "B2", formula: "=1+1" }],
        readRange: WHOLE,
      }),
    ).toEqual({ ok: false, error: "invalid:$.readRange", hint: refusal(WHOLE, 17179869184) });
    expect((await open(BIG)).getWorksheet("Sheet1")!.getCell("B2").value).toBe(null);
    expect(
      await quick("excel.build_kpi_dashboard_sheet", {
        path: "bounds/kpi.xlsx",
        sheet: "KPI",
        title: "KPIs",
        titleRange: WHOLE,
        header: ["Metric"],
        rows: [["x"]],
      }),
    ).toEqual({ ok: false, error: "invalid:$.titleRange", hint: refusal(WHOLE, 17179869184) });
    expect(
      await session.call("excel.get_workbook_metadata", { path: "bounds/kpi.xlsx" }),
    ).toMatchObject({ ok: false, error: "exec:error" });
  });

  it("bounds inserted and deleted rows and columns by the cells they move", async () => {
    // one column inserted into a sheet used down to row 1048576 adds a cell to every row
    expect(await quick("excel.insert_columns", { path: BIG, sheet: "Tall", startCol: 1 })).toEqual({
      ok: false,
      error: "invalid:$.count",
      hint: refusal("A1:A1048576", 1048576),
    });
    // rows inserted across a sheet used to column XFD
    expect(
      await quick("excel.insert_rows", { path: BIG, sheet: "Wide", startRow: 2, count: 13 }),
    ).toEqual({ ok: false, error: "invalid:$.count", hint: refusal("A2:XFD14", 212992) });
    // deleting rows that hold data over 1048575 cells; past the used rows only the used part counts
    expect(
      await quick("excel.delete_sheet_rows", {
        path: BIG,
        sheet: "Tall",
        startRow: 2,
        count: 1048575,
      }),
    ).toEqual({ ok: false, error: "invalid:$.count", hint: refusal("A2:A1048576", 1048575) });
    await ok("excel.write_data_to_excel", {
      path: BIG,
      sheet: "Small",
      data: [
        ["a", "b"],
        [1, 2],
        [3, 4],
      ],
    });
    expect(
      await ok("excel.delete_sheet_rows", {
        path: BIG,
        sheet: "Small",
        startRow: 2,
        count: 1048575,
      }),
    ).toMatchObject({ usedRange: "A1:B1" });
    expect(
      await ok("excel.delete_sheet_columns", {
        path: BIG,
        sheet: "Small",
        startCol: 2,
        count: 16383,
      }),
    ).toMatchObject({ usedRange: "A1" });
    // cells pushed off the sheet are refused, not written past its last row or column
    expect(await quick("excel.insert_rows", { path: BIG, sheet: "Tall", startRow: 1 })).toEqual({
      ok: false,
      error: "invalid:$.count",
      hint: "inserting 1 row before row 1 would move the cells of row 1048576 past row 1048576",
    });
    expect(
      await quick("excel.insert_columns", { path: BIG, sheet: "Wide", startCol: 16384 }),
    ).toEqual({
      ok: false,
      error: "invalid:$.count",
      hint: "inserting 1 column before column XFD would move the cells of column XFD past column XFD",
    });
  });
});

/** The workbench fixture's primitive tools, called through a runtime session on real .xlsx files. */
import { symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createRuntime } from "../src/index.js";
import {
  FILE,
  ok,
  open,
  outside,
  root,
  session,
  toolErrors,
  useWorkbench,
} from "./workbench-session.js";

useWorkbench();

describe("workbench", () => {
  it("runs a realistic chain through session.call", async () => {
    expect(await ok("excel.create_workbook", { path: FILE })).toEqual({
      path: FILE,
      sheet: "Sheet1",
    });
    expect((await open(FILE)).worksheets.map((s) => s.name)).toEqual(["Sheet1"]);

    // header and 60 rows, then small reads inline and a large one as a handle
    const rows = Array.from({ length: 60 }, (_, i) => [`item${i + 1}`, i + 1, (i + 1) * 10]);
    expect(
      await ok("excel.write_data_to_excel", {
        path: FILE,
        sheet: "Data",
        data: [["Name", "Qty", "Price"], ...rows],
      }),
    ).toEqual({
      sheet: "Data",
      range: "A1:C61",
      rows: 61,
      columns: 3,
    });
    expect(
      await ok("excel.read_data_from_excel", { path: FILE, sheet: "Data", range: "A1:C3" }),
    ).toEqual([
      { Name: "item1", Qty: 1, Price: 10 },
      { Name: "item2", Qty: 2, Price: 20 },
    ]);
    expect(
      await ok("excel.read_data_from_excel", {
        path: FILE,
        sheet: "Data",
        range: "A2:B2",
        header: false,
      }),
    ).toEqual([{ A: "item1", B: 1 }]);
    // A large read, for a caller that reads at most 300 tokens of a result: a handle, its first rows inline.
    const big = (await session.call(
      "excel.read_data_from_excel",
      { path: FILE, sheet: "Data" },
      { maxResultTokens: 300 },
    )) as unknown as { handle: string; meta: object; head: unknown[] };
    expect(big.handle).toMatch(/^#R\d+$/);
    expect(big.meta).toMatchObject({
      kind: "rows",
      count: 60,
      next: { op: "view", offset: big.head.length },
    });
    expect(big.head[0]).toEqual({ Name: "item1", Qty: 1, Price: 10 });
    const view = await ok("zcp.handle", {
      op: "view",
      handle: big.handle,
      offset: 58,
      limit: 5,
      columns: ["Name", "Price"],
    });
    expect(view).toEqual({
      rows: [
        { Name: "item59", Price: 590 },
        { Name: "item60", Price: 600 },
      ],
      offset: 58,
      limit: 5,
      total: 60,
    });

    // formulas: validated, written, stored
    const check = await ok("excel.validate_formula_syntax", {
      path: FILE,
      sheet: "Data",
      cell: "D2",
      formula: "=B2*C2",
    });
    expect(check).toMatchObject({
      valid: true,
      formula: "=B2*C2",
      cell: "D2",
      errors: [],
      references: ["B2", "C2"],
    });
    const bad = await ok("excel.validate_formula_syntax", {
      path: FILE,
      sheet: "Data",
      cell: "D2",
      formula: "=SUM(B2:B5",
    });
    expect(bad.valid).toBe(false);
    expect(bad.errors[0]).toMatch(/missing "\)"/);
    expect(
      (
        await ok("excel.validate_formula_syntax", {
          path: FILE,
          sheet: "Data",
          cell: "D2",
          formula: "=D2+1",
        })
      ).errors[0],
    ).toMatch(/circular/);
    expect(
      (
        await ok("excel.validate_formula_syntax", {
          path: FILE,
          sheet: "Data",
          cell: "D2",
          formula: "=Nope!A1",
        })
      ).errors[0],
    ).toMatch(/"Nope"/);
    expect(
      await ok("excel.apply_formula", { path: FILE, sheet: "Data", cell: "D2", formula: "B2*C2" }),
    ).toEqual({ sheet: "Data", cell: "D2", formula: "=B2*C2" });
    expect(
      await ok("excel.apply_formula", {
        path: FILE,
        sheet: "Data",
        cell: "E1",
        formula: "=SUM(C2:C61)",
      }),
    ).toMatchObject({ formula: "=SUM(C2:C61)" });
    let book = await open(FILE);
    expect(book.getWorksheet("Data")!.getCell("D2").value).toMatchObject({ formula: "B2*C2" });
    expect(book.getWorksheet("Data")!.getCell("E1").formula).toBe("SUM(C2:C61)");
    const refused = await session.call("excel.apply_formula", {
      path: FILE,
      sheet: "Data",
      cell: "D3",
      formula: "=B3*",
    });
    expect(refused).toMatchObject({ ok: false, error: "exec:error" });
    expect(toolErrors.at(-1)).toMatch(/is invalid/);

    // format, table
    expect(
      await ok("excel.format_range", {
        path: FILE,
        sheet: "Data",
        range: "A1:C1",
        bold: true,
        horizontal: "center",
        fillColor: "#FFFF00",
      }),
    ).toMatchObject({
      cells: 3,
      applied: ["bold", "fillColor", "horizontal"],
    });
    book = await open(FILE);
    expect(book.getWorksheet("Data")!.getCell("B1").font.bold).toBe(true);
    expect(book.getWorksheet("Data")!.getCell("C1").alignment.horizontal).toBe("center");

    await ok("excel.create_worksheet", { path: FILE, sheet: "Orders" });
    await ok("excel.write_data_to_excel", {
      path: FILE,
      sheet: "Orders",
      data: [
        ["Order", "Amount"],
        ["A-1", 5],
        ["A-2", 7],
      ],
    });
    expect(
      await ok("excel.create_table", {
        path: FILE,
        sheet: "Orders",
        range: "A1:B3",
        name: "OrdersTable",
      }),
    ).toEqual({
      sheet: "Orders",
      name: "OrdersTable",
      range: "A1:B3",
      columns: ["Order", "Amount"],
      rows: 2,
    });
    expect(
      (
        await session.call("excel.create_table", {
          path: FILE,
          sheet: "Orders",
          range: "A1:B3",
          name: "OrdersTable",
        })
      ).ok,
    ).toBe(false);
    // a further edit of the workbook keeps the table
    await ok("excel.write_data_to_excel", {
      path: FILE,
      sheet: "Orders",
      data: [["note"]],
      startCell: "E1",
    });
    book = await open(FILE);
    const tables = Object.values((book.getWorksheet("Orders") as any).tables) as any[];
    expect(tables.map((t) => [t.table.name, t.table.tableRef ?? t.table.ref])).toEqual([
      ["OrdersTable", "A1:B3"],
    ]);
    expect(
      await ok("excel.read_data_from_excel", { path: FILE, sheet: "Orders", range: "A1:B3" }),
    ).toEqual([
      { Order: "A-1", Amount: 5 },
      { Order: "A-2", Amount: 7 },
    ]);

    // merges
    await ok("excel.create_worksheet", { path: FILE, sheet: "Dashboard" });
    await ok("excel.write_data_to_excel", {
      path: FILE,
      sheet: "Dashboard",
      data: [["Title"], ["x", 1, 2, 3]],
    });
    expect(
      await ok("excel.merge_cells", { path: FILE, sheet: "Dashboard", range: "A1:D1" }),
    ).toMatchObject({ mergedCells: ["A1:D1"] });
    expect(await ok("excel.get_merged_cells", { path: FILE, sheet: "Dashboard" })).toEqual({
      sheet: "Dashboard",
      mergedCells: ["A1:D1"],
    });
    expect(
      (await session.call("excel.merge_cells", { path: FILE, sheet: "Dashboard", range: "B1:B2" }))
        .ok,
    ).toBe(false);

    // rows and columns: inserted and deleted, data and merges shift
    expect(
      await ok("excel.insert_rows", { path: FILE, sheet: "Dashboard", startRow: 1, count: 2 }),
    ).toMatchObject({ usedRange: "A3:D4", mergedCells: ["A3:D3"] });
    expect(
      await ok("excel.insert_columns", { path: FILE, sheet: "Dashboard", startCol: 2 }),
    ).toMatchObject({ usedRange: "A3:E4", mergedCells: ["A3:E3"] });
    expect(
      await ok("excel.read_data_from_excel", {
        path: FILE,
        sheet: "Dashboard",
        range: "A4:E4",
        header: false,
      }),
    ).toEqual([{ A: "x", B: null, C: 1, D: 2, E: 3 }]);
    expect(
      await ok("excel.delete_sheet_columns", {
        path: FILE,
        sheet: "Dashboard",
        startCol: 2,
        count: 2,
      }),
    ).toMatchObject({ usedRange: "A3:C4", mergedCells: ["A3:C3"] });
    expect(
      await ok("excel.delete_sheet_rows", { path: FILE, sheet: "Dashboard", startRow: 1 }),
    ).toMatchObject({ usedRange: "A2:C3", mergedCells: ["A2:C2"] });
    book = await open(FILE);
    const dash = book.getWorksheet("Dashboard")!;
    expect([
      dash.getCell("A2").value,
      dash.getCell("A3").value,
      dash.getCell("B3").value,
      dash.getCell("C3").value,
    ]).toEqual(["Title", "x", 2, 3]);
    // a table in the way is refused, not corrupted
    expect(
      (await session.call("excel.insert_rows", { path: FILE, sheet: "Orders", startRow: 2 })).ok,
    ).toBe(false);
    expect(toolErrors.at(-1)).toMatch(/table OrdersTable/);

    // worksheets: rename, copy, delete
    expect(
      await ok("excel.rename_worksheet", { path: FILE, oldName: "Dashboard", newName: "Final" }),
    ).toEqual({
      sheet: "Final",
      sheets: ["Sheet1", "Data", "Orders", "Final"],
    });
    expect(
      await ok("excel.copy_worksheet", { path: FILE, source: "Final", target: "Final Copy" }),
    ).toMatchObject({ sheets: ["Sheet1", "Data", "Orders", "Final", "Final Copy"] });
    expect(
      await ok("excel.read_data_from_excel", { path: FILE, sheet: "Final Copy", header: false }),
    ).toEqual([
      { A: "Title", B: null, C: null },
      { A: "x", B: 2, C: 3 },
    ]);
    expect(await ok("excel.get_merged_cells", { path: FILE, sheet: "Final Copy" })).toMatchObject({
      mergedCells: ["A2:C2"],
    });
    expect(await ok("excel.delete_worksheet", { path: FILE, sheet: "Sheet1" })).toEqual({
      sheet: "Sheet1",
      sheets: ["Data", "Orders", "Final", "Final Copy"],
    });

    // metadata and ranges
    const meta = await ok("excel.get_workbook_metadata", { path: FILE, includeRanges: true });
    expect(meta.sheets.map((s: any) => [s.name, s.usedRange])).toEqual([
      ["Data", "A1:E61"],
      ["Orders", "A1:E3"],
      ["Final", "A2:C3"],
      ["Final Copy", "A2:C3"],
    ]);
    expect(meta.sheets[1].tables).toEqual([{ name: "OrdersTable", range: "A1:B3" }]);
    expect(meta.sizeBytes).toBeGreaterThan(1000);
    expect(
      await ok("excel.validate_excel_range", { path: FILE, sheet: "Data", range: "C3:A1" }),
    ).toEqual({
      valid: true,
      range: "A1:C3",
      rows: 3,
      columns: 3,
      usedRange: "A1:E61",
      withinUsedRange: true,
    });
    expect(
      await ok("excel.validate_excel_range", { path: FILE, sheet: "Data", range: "A0:ZZZZ1" }),
    ).toMatchObject({ valid: false });
    book = await open(FILE);
    expect(book.worksheets.map((s) => s.name)).toEqual(["Data", "Orders", "Final", "Final Copy"]);
  });

  it("with maxResultTokens Infinity, answers a large read whole and lists no handle tool (no tool can make a handle)", async () => {
    const generated = (await import("../../../fixtures/workbench/src/zcp.gen/index.js")).default;
    const whole = createRuntime(generated, { maxResultTokens: Number.POSITIVE_INFINITY }).session();
    expect(whole.exposed.find("zcp.handle")).toBeUndefined();
    const result = await whole.call("excel.read_data_from_excel", { path: FILE, sheet: "Data" });
    expect(result.ok && "value" in result && (result.value as unknown[]).length).toBe(60);
    expect(session.exposed.find("zcp.handle")?.alias).toBe("zcp.handle");
  });

  it("refuses paths outside the workspace", async () => {
    for (const bad of ["../escape.xlsx", "/etc/x.xlsx", "a/../../b.xlsx", "notes.txt"]) {
      const result = await session.call("excel.create_workbook", { path: bad });
      expect(result).toMatchObject({ ok: false, error: "invalid:$.path" });
    }
    symlinkSync(outside, path.join(root, "link"));
    const result = await session.call("excel.create_workbook", { path: "link/out.xlsx" });
    expect(result).toMatchObject({ ok: false, error: "exec:error" });
    expect(toolErrors.at(-1)).toMatch(/outside the workspace folder .* symbolic link/);
    // the module refuses on its own too, whatever the schema says
    const { resolveWorkbookPath } = await import("../../../fixtures/workbench/src/workspace.js");
    await expect(resolveWorkbookPath("../x.xlsx")).rejects.toThrow(/outside the workspace folder/);
    await expect(resolveWorkbookPath(path.join(outside, "x.xlsx"))).rejects.toThrow(
      /outside the workspace folder/,
    );
  });

  it("answers invalid and missing arguments", async () => {
    expect(
      await session.call("excel.write_data_to_excel", { path: FILE, data: [[1]] }),
    ).toMatchObject({ ok: false, error: "missing:$.sheet" });
    expect(
      await session.call("excel.insert_rows", { path: FILE, sheet: "Data", startRow: 0 }),
    ).toMatchObject({ ok: false, error: "invalid:$.startRow" });
    expect(
      await session.call("excel.merge_cells", { path: FILE, sheet: "Data", range: "A1-B2" }),
    ).toMatchObject({ ok: false, error: "invalid:$.range" });
    expect(
      await session.call("excel.format_range", {
        path: FILE,
        sheet: "Data",
        range: "A1",
        horizontal: "middle",
      }),
    ).toMatchObject({
      ok: false,
      error: "invalid:$.horizontal",
    });
    expect(
      await session.call("excel.read_data_from_excel", { path: "missing.xlsx", sheet: "Data" }),
    ).toMatchObject({ ok: false, error: "exec:error" });
    expect(toolErrors.at(-1)).toMatch(/does not exist/);
  });
});

describe("workbench workflow tools", () => {
  it("are the workflow group: the semantic-workflow profile lists them and nothing else, the primitive group the 19 primitives (and the handle tool)", () => {
    const workflow = session.select({ profile: "semantic-workflow" }).tools;
    expect(workflow.length).toBeGreaterThanOrEqual(8);
    expect(
      workflow.every(
        (tool) => tool.groups.join() === "workflow" && tool.alias.startsWith("excel."),
      ),
    ).toBe(true);
    const primitive = session.select({ groups: ["primitive"] }).tools;
    expect(
      primitive.map((tool) => tool.alias).filter((alias) => !alias.startsWith("excel.")),
    ).toEqual(["zcp.handle"]);
    expect(primitive).toHaveLength(20);
    expect(primitive.filter((tool) => workflow.includes(tool))).toEqual([]);
  });

  it("check before they write: an invalid formula in a chain writes nothing", async () => {
    const file = "chains.xlsx";
    await ok("excel.chain_workbook_bootstrap", { path: file, sheets: ["Calc"] });
    await ok("excel.write_data_to_excel", {
      path: file,
      sheet: "Calc",
      data: [
        ["Item", "Base", "Extra", "Total"],
        ["A", 3, 4],
      ],
    });
    const result = await session.call("excel.chain_formula_flow", {
      path: file,
      sheet: "Calc",
      formulas: [
        { cell: "D2", formula: "=B2+C2" },
        { cell: "D3", formula: "=SUM(B2:B5" },
      ],
    });
    expect(result).toMatchObject({ ok: false, error: "exec:error" });
    expect(toolErrors.at(-1)).toMatch(/nothing written; invalid formulas: D3 =SUM\(B2:B5/);
    expect((await open(file)).getWorksheet("Calc")!.getCell("D2").value).toBeNull();
  });

  it("fail as their first failing step fails, with its message", async () => {
    expect(
      await session.call("excel.chain_workbook_bootstrap", {
        path: "chains.xlsx",
        sheets: ["Other"],
      }),
    ).toMatchObject({ ok: false, error: "exec:error" });
    expect(toolErrors.at(-1)).toMatch(/exists/);
    expect(
      await session.call("excel.chain_sheet_maintenance", {
        path: "chains.xlsx",
        sheet: "Missing",
        newName: "A",
        copyName: "B",
      }),
    ).toMatchObject({ ok: false });
    expect(toolErrors.at(-1)).toMatch(/"Missing" not found/);
    expect(
      await session.call("excel.chain_workbook_bootstrap", { path: "../out.xlsx", sheets: ["A"] }),
    ).toMatchObject({ ok: false, error: "invalid:$.path" });
  });
});

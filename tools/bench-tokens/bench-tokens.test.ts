/** `pnpm bench:tokens`: the accounting rules, the surfaces, and every plan passing its verifier on every surface. */
import { mkdtemp, rm } from "node:fs/promises";
import type ExcelJS from "exceljs";
import os from "node:os";
import path from "node:path";
import { parsePlannerLine } from "@zcp/runtime/codegen";
import { describe, expect, it } from "vitest";
import weather from "../../fixtures/weather/src/zcp.gen/index.ts";
import { planOf, runCase } from "./case.ts";
import { HANDLE_CASES } from "./handles.ts";
import { openSurface, SURFACES } from "./surfaces.ts";
import { bill, tokensOf, type Message } from "./transcript.ts";
import { TIER_A_CASES } from "./tier-a.ts";
import { TIER_B_CASES } from "./tier-b.ts";
import { TIER_C_CASES } from "./tier-c.ts";
import { TIER_D_CASES } from "./tier-d.ts";
import { WEATHER_CASES } from "./weather.ts";
import { seeded, workbookProblems } from "./workbook.ts";
import { WORKFLOW_SURFACES } from "./workflow-case.ts";

describe("bench:tokens accounting", () => {
  it("bills each turn the tools, the system message and every earlier message, and the reply as completion", () => {
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
    const messages: Message[] = [
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "call_1", content: "1" },
      { role: "assistant", content: "done" },
    ];
    const [m0, m1, m2, m3, m4] = messages.map(tokensOf) as [number, number, number, number, number];
    expect(bill(tools, messages)).toEqual([
      { prompt: tokensOf(tools) + m0 + m1, completion: m2 },
      { prompt: tokensOf(tools) + m0 + m1 + m2 + m3, completion: m4 },
    ]);
    expect(bill([], messages)[0]!.prompt).toBe(m0 + m1);
  });
});

describe("bench:tokens surfaces", () => {
  it("renders what each surface sends: MCP inputSchemas, strict OpenAI artifacts, or planner lines and no schema", async () => {
    const [primitive, fc, compact] = await Promise.all(["mcp-primitive", "zcp-fc", "zcp-compact"].map((name) => openSurface(name as (typeof SURFACES)[number], weather)));
    try {
      expect(primitive!.tools).toHaveLength(4);
      expect(primitive!.tools[0]).toMatchObject({ type: "function", function: { parameters: { type: "object" } } });
      expect(fc!.tools).toHaveLength(4);
      expect(fc!.tools.every((tool) => (tool as { function: { strict: boolean } }).function.strict)).toBe(true);
      expect(compact!.tools).toEqual([]);
      const lines = compact!.instructions.split("\n").filter((line) => line.startsWith("TOOL "));
      expect(lines.map((line) => parsePlannerLine(line).alias).sort()).toEqual(["math.average", "math.subtract", "unit.celsius_to_fahrenheit", "weather.get_current"]);
    } finally {
      await Promise.all([primitive, fc, compact].map((surface) => surface!.close()));
    }
  });

  it("runs every plan (weather, tiers A-D, handles) on every surface through the server, and every answer and workbook passes its verifier", async () => {
    for (const bench of [...WEATHER_CASES, ...TIER_A_CASES, ...TIER_B_CASES, ...TIER_C_CASES, ...TIER_D_CASES, ...HANDLE_CASES]) {
      const runs = [];
      for (const surface of SURFACES) runs.push(await runCase(bench, surface));
      for (const run of runs) {
        expect(run.errors, `${bench.id} on ${run.surface}`).toEqual([]);
        expect(run.problems, `${bench.id} on ${run.surface}`).toEqual([]);
        expect(run.verified, `${bench.id} on ${run.surface}`).toBe(true);
        expect(run.turns).toHaveLength(planOf(bench, run.surface).turns.length + 1);
      }
      const tokens = Object.fromEntries(runs.map((run) => [run.surface, run.tokens]));
      expect(tokens["zcp-compact"]).toBeLessThan(tokens["mcp-primitive"]!);
      // the MCP surfaces are plain servers: large results come back whole; the ZCP ones answer with a handle
      if (bench.tier === "handles") {
        const last = `"Order":"O-${bench.id.slice(bench.id.lastIndexOf("_") + 1).padStart(4, "0")}"`;
        expect(runs.find((run) => run.surface === "mcp-primitive")!.messages.some((message) => message.role === "tool" && message.content.includes(last))).toBe(true);
        expect(runs.find((run) => run.surface === "zcp-fc")!.messages.find((message) => message.role === "tool")).toMatchObject({ content: expect.stringMatching(/^\{"ok":true,"handle":"#R1","summary":"\d+ records; fields: Order, Region, Amount"/) });
      }
    }
  });

  it("a wrong plan fails its verifier, on the answer or on the workbook", async () => {
    const warmer = WEATHER_CASES[0]!;
    const wrong = { ...warmer, plan: { ...warmer.plan, turns: [() => [{ alias: "weather.get_current", args: { city: "Shanghai" } }, { alias: "weather.get_current", args: { city: "Beijing" } }], warmer.plan.turns[1]!] } };
    expect((await runCase(wrong, "zcp-fc")).verified).toBe(false);
    const merge = TIER_A_CASES.find((bench) => bench.id === "merge_cells")!;
    const wrongRange = { ...merge, plan: { ...merge.plan, turns: [() => [{ alias: "excel.merge_cells", args: { path: "book.xlsx", sheet: "Dashboard", range: "A1:C1" } }]] } };
    expect((await runCase(wrongRange, "mcp-primitive")).verified).toBe(false);
    // a workflow call with one wrong argument leaves a workbook the verifier refuses, and says why
    const bootstrap = TIER_B_CASES.find((bench) => bench.id === "workbook_bootstrap_chain")!;
    const workflow = planOf(bootstrap, "zcp-compact");
    const wrongSheets = { ...bootstrap, plans: { "zcp-compact": { ...workflow, turns: [() => [{ alias: "excel.chain_workbook_bootstrap", args: { path: "ops.xlsx", sheets: ["RawData", "Summary", "Extra"] } }]] } } };
    const run = await runCase(wrongSheets, "zcp-compact");
    expect(run.verified).toBe(false);
    expect(run.problems).toEqual(['answer {"sheets":["RawData","Summary","Extra"]}, expected {"sheets":["RawData","Summary"]}', 'sheets are ["RawData","Summary","Extra"], expected ["RawData","Summary"]']);
  });

  it("has the reference's 37 spreadsheet cases, 16/8/7/6 by tier; in B-D one workflow call against primitive calls, and the same view for every case", () => {
    expect([TIER_A_CASES, TIER_B_CASES, TIER_C_CASES, TIER_D_CASES].map((cases) => cases.length)).toEqual([16, 8, 7, 6]);
    const ids = [...TIER_A_CASES, ...TIER_B_CASES, ...TIER_C_CASES, ...TIER_D_CASES].map((bench) => bench.id);
    expect(new Set(ids).size).toBe(37);
    const groups = new Map(TIER_B_CASES[0]!.registry.registry.tools.map((tool) => [tool.alias, tool.groups.join()]));
    for (const bench of [...TIER_B_CASES, ...TIER_C_CASES, ...TIER_D_CASES]) {
      for (const surface of WORKFLOW_SURFACES) {
        expect(planOf(bench, surface).turns, bench.id).toHaveLength(1);
        expect(planOf(bench, surface).turns[0]!([]).map((call) => groups.get(call.alias)), bench.id).toEqual(["workflow"]);
      }
      expect(new Set(bench.plan.turns[0]!([]).map((call) => groups.get(call.alias))), bench.id).toEqual(new Set(["primitive"]));
      expect(bench.view).toEqual({ profile: "semantic-workflow" });
    }
    expect(new Set(TIER_A_CASES.map((bench) => JSON.stringify(bench.view)))).toEqual(new Set(['{"groups":["primitive"]}']));
  });
});

describe("bench:tokens workbook verifier", () => {
  it("names every kind of mismatch: sheets, values, formulas, merges, tables, bold, centered, fill, an unreadable file", async () => {
    const workspace = await mkdtemp(path.join(os.tmpdir(), "zcp-verifier-"));
    try {
      await seeded("v.xlsx", { Data: [["Title"], ["Name", "Value"], ["a", 1], ["b", 2]] }, (workbook) => {
        const sheet = workbook.getWorksheet("Data")!;
        sheet.mergeCells("A1:B1");
        sheet.getCell("A2").font = { bold: true };
        sheet.getCell("A2").alignment = { horizontal: "center" };
        sheet.getCell("B2").fill = { type: "pattern", pattern: "solid", fgColor: { argb: "FFD9D9D9" } };
        sheet.addTable({ name: "T", ref: "A2", headerRow: true, columns: [{ name: "Name" }, { name: "Value" }], rows: [["a", 1], ["b", 2]] });
        sheet.getCell("C4").value = { formula: "B4*2" } as ExcelJS.CellValue;
      })(workspace);
      const right = { cells: { A3: "a", B3: 1, A1: "Title", C1: null, C4: "=B4*2" }, merges: ["A1:B1"], tables: { T: "A2:B4" }, bold: ["A2"], centered: ["A2"], fill: { B2: "D9D9D9" } };
      expect(await workbookProblems(workspace, { file: "v.xlsx", sheets: ["Data"], content: { Data: right } })).toEqual([]);
      const wrong = { cells: { A3: "b", C4: "=B4*3" }, merges: ["A1:C1"], tables: { U: "A2:B4" }, bold: ["B2"], centered: ["B2"], fill: { A2: "D9D9D9" } };
      expect(await workbookProblems(workspace, { file: "v.xlsx", sheets: ["Data", "More"], content: { Data: wrong, Gone: {} } })).toEqual([
        'sheets are ["Data"], expected ["Data","More"]',
        'Data!A3 is "a", expected "b"',
        'Data!C4 is "=B4*2", expected "=B4*3"',
        'Data: merges ["A1:B1"], expected ["A1:C1"]',
        'Data: tables {"T":"A2:B4"}, expected {"U":"A2:B4"}',
        "Data!B2 is not bold",
        "Data!B2 is not centered",
        'Data!A2 fill is null, expected D9D9D9',
        "Gone: missing",
      ]);
      expect(await workbookProblems(workspace, { file: "none.xlsx", sheets: [] })).toEqual([expect.stringMatching(/^none\.xlsx: cannot be read/)]);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

/** `pnpm bench:tokens`: the accounting rules, the surfaces and their catalogs, and every plan passing its verifier on every surface that lists its tools. */
import { mkdtemp, rm } from "node:fs/promises";
import type ExcelJS from "exceljs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCase, runPlan } from "./plans/case.ts";
import { HANDLE_CASES } from "./plans/handles.ts";
import { findFigures, largeCatalog } from "./plans/catalog-large.ts";
import { closeSurfaces, openSurface } from "./surfaces/open.ts";
import {
  CATALOGS,
  CODE_PROTOCOLS,
  FIND_ALIAS,
  PROTOCOLS,
  SEARCH_PROTOCOLS,
  SURFACES,
} from "./surfaces/spec.ts";
import { NotListed, type Surface } from "./surfaces/turn.ts";
import { weather, workbench } from "./plans/registries.ts";
import { bill, CACHE, tokensOf, totals, type Message } from "./surfaces/transcript.ts";
import { TIER_A_CASES } from "./plans/tier-a.ts";
import { TIER_B_CASES } from "./plans/tier-b.ts";
import { TIER_C_CASES } from "./plans/tier-c.ts";
import { TIER_D_CASES } from "./plans/tier-d.ts";
import { WEATHER_CASES } from "./plans/weather.ts";
import { seeded, workbookProblems } from "./plans/workbook.ts";

describe("bench:tokens accounting", () => {
  const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
  const messages: Message[] = [
    { role: "system", content: "s" },
    { role: "user", content: "u" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "call_1", content: "1" },
    { role: "assistant", content: "done" },
  ];
  const [m0, m1, m2, m3, m4] = messages.map(tokensOf) as [number, number, number, number, number];

  it("bills each turn the tools, the system message and every earlier message, and the reply as completion", () => {
    const turns = bill(tools, messages);
    expect(turns.map(({ prompt, completion }) => ({ prompt, completion }))).toEqual([
      { prompt: tokensOf(tools) + m0 + m1, completion: m2 },
      { prompt: tokensOf(tools) + m0 + m1 + m2 + m3, completion: m4 },
    ]);
    expect(bill([], messages)[0]!.prompt).toBe(m0 + m1);
  });

  it("caches the prefix an earlier request sent, once it is long enough: the opening on the first turn, the previous prompt after", () => {
    // Short prompts are not cached.
    expect(bill(tools, messages).map((turn) => turn.cached)).toEqual([0, 0]);
    const long = [
      {
        ...tools[0],
        function: { ...tools[0]!.function, description: "word ".repeat(CACHE.minimumTokens) },
      },
    ];
    const turns = bill(long, messages);
    expect(turns.map((turn) => turn.cached)).toEqual([
      tokensOf(long) + m0,
      tokensOf(long) + m0 + m1,
    ]);
    const sum = totals(turns);
    expect(sum.tokens).toBe(sum.prompt + sum.completion);
    expect(sum.cached).toBeCloseTo(sum.prompt - CACHE.discount * sum.cachedPrompt + sum.completion);
  });
});

afterAll(closeSurfaces);

describe("bench:tokens surfaces", () => {
  it("renders what each surface sends: MCP inputSchemas, strict OpenAI artifacts, or planner lines and no schema", async () => {
    const surfaces = await Promise.all(
      PROTOCOLS.map((protocol) => openSurface({ protocol, catalog: "all" }, weather)),
    );
    const [mcp, fc, lean, compact] = surfaces as [Surface, Surface, Surface, Surface];
    try {
      expect(mcp.tools).toHaveLength(4);
      expect(mcp.tools[0]).toMatchObject({
        type: "function",
        function: { parameters: { type: "object" } },
      });
      for (const surface of [fc, lean])
        expect(
          surface.tools.every(
            (tool) => (tool as { function: { strict: boolean } }).function.strict,
          ),
        ).toBe(true);
      expect(compact.tools).toEqual([]);
      // No weather tool returns a handle, so there is no handle tool either.
      for (const surface of surfaces)
        expect([...surface.listed].sort()).toEqual([
          "math.average",
          "math.subtract",
          "unit.celsius_to_fahrenheit",
          "weather.get_current",
        ]);
      expect(compact.instructions).toContain("TOOL @");
    } finally {
      await Promise.all(surfaces.map((surface) => surface.close()));
    }
  });

  it("lists the same catalog on every surface (the ZCP ones add zcp.handle), and refuses a call of a tool it does not list", async () => {
    const registry = TIER_A_CASES[0]!.registry;
    for (const catalog of CATALOGS) {
      const surfaces = await Promise.all(
        PROTOCOLS.map((protocol) => openSurface({ protocol, catalog }, registry)),
      );
      try {
        const [mcp, ...zcp] = surfaces;
        expect(mcp!.listed.size).toBe(catalog === "all" ? 40 : 19);
        for (const surface of zcp)
          expect([...surface.listed].sort()).toEqual([...mcp!.listed, "zcp.handle"].sort());
        if (catalog === "primitive")
          for (const surface of surfaces)
            await expect(
              surface.turn([{ alias: "excel.chain_layout_flow", args: {} }]),
            ).rejects.toBeInstanceOf(NotListed);
      } finally {
        await Promise.all(surfaces.map((surface) => surface.close()));
      }
    }
  });

  it("executes what it bills: the CALL lines and the tool_calls JSON are parsed back and run", async () => {
    const [fc, compact] = await Promise.all(
      (["zcp-fc", "zcp-compact"] as const).map((protocol) =>
        openSurface({ protocol, catalog: "all" }, weather),
      ),
    );
    try {
      const call = { alias: "weather.get_current", args: { city: "New York" } };
      const [a, b] = [await fc!.turn([call]), await compact!.turn([call])];
      expect(b.assistant).toEqual({
        role: "assistant",
        content: 'CALL weather.get_current city="New York"',
      });
      // What ran is what the message says: an invalid city, refused the same way on both.
      expect(a.values).toEqual([null]);
      expect(b.values).toEqual([null]);
      expect(b.results[0]).toMatchObject({
        role: "user",
        content: expect.stringMatching(/^ERR c1 invalid:\$\.city/),
      });
    } finally {
      await Promise.all([fc!.close(), compact!.close()]);
    }
  });

  it("has the reference's 37 spreadsheet cases, 16/8/7/6 by tier; in B-D a primitive plan and a workflow plan that calls the case's workflow tool", () => {
    expect(
      [TIER_A_CASES, TIER_B_CASES, TIER_C_CASES, TIER_D_CASES].map((cases) => cases.length),
    ).toEqual([16, 8, 7, 6]);
    const ids = [...TIER_A_CASES, ...TIER_B_CASES, ...TIER_C_CASES, ...TIER_D_CASES].map(
      (bench) => bench.id,
    );
    expect(new Set(ids).size).toBe(37);
    const groups = new Map(
      TIER_B_CASES[0]!.registry.registry.tools.map((tool) => [tool.alias, tool.groups.join()]),
    );
    for (const bench of [...TIER_B_CASES, ...TIER_C_CASES, ...TIER_D_CASES]) {
      expect(
        bench.plans.map((plan) => plan.name),
        bench.id,
      ).toEqual(["primitive", "workflow"]);
      expect(groups.get(bench.workflow.tool), bench.id).toBe("workflow");
      expect(
        new Set(bench.plans[0]!.turns[0]!([]).map((call) => groups.get(call.alias))),
        bench.id,
      ).toEqual(new Set(["primitive"]));
    }
    expect(
      new Set(
        [...TIER_B_CASES, ...TIER_C_CASES, ...TIER_D_CASES].map((bench) => bench.workflow.tool),
      ).size,
    ).toBe(21);
  });
});

describe("bench:tokens plans", () => {
  // Every plan of every case on every surface that lists its tools, through the server; each must pass its verifier.
  for (const [label, cases] of [
    ["weather and tier A", [...WEATHER_CASES, ...TIER_A_CASES]],
    ["tiers B-D", [...TIER_B_CASES, ...TIER_C_CASES, ...TIER_D_CASES]],
    ["handles", HANDLE_CASES],
  ] as const) {
    it(`${label}: every open plan on every surface passes its verifier, and the cheapest is billed`, async () => {
      for (const bench of cases) {
        for (const surface of SURFACES) {
          const run = await runCase(bench, surface);
          const where = `${bench.id} on ${surface.protocol} (${surface.catalog})`;
          expect(run.errors, where).toEqual([]);
          expect(run.problems, where).toEqual([]);
          expect(run.verified, where).toBe(true);
          expect(run.tokens, where).toBe(
            Math.min(...run.alternatives.map((alternative) => alternative.tokens)),
          );
          // The workflow tools are open only over the full catalog.
          if (surface.catalog === "primitive" && bench.tier !== "weather")
            expect(
              run.closed.includes("workflow") ||
                bench.plans.every((plan) => plan.name !== "workflow"),
              where,
            ).toBe(true);
        }
      }
    });
  }

  it("large results: the plain MCP server sends every row, the ZCP surfaces a handle", async () => {
    const bench = HANDLE_CASES.find((candidate) => candidate.id === "region_total_2400")!;
    const whole = bench.plans.find((plan) => plan.name === "read the sheet")!;
    const mcp = (await runPlan(bench, whole, { protocol: "mcp", catalog: "all" }))!;
    expect(
      mcp.messages.some(
        (message) => message.role === "tool" && message.content.includes('"Order":"O-2400"'),
      ),
    ).toBe(true);
    const fc = (await runPlan(bench, whole, { protocol: "zcp-fc", catalog: "all" }))!;
    expect(fc.messages.find((message) => message.role === "tool")).toMatchObject({
      content: expect.stringMatching(
        /^\{"ok":true,"handle":"#R1","summary":"2400 records; fields: Order, Region, Amount"/,
      ),
    });
  });

  it("a wrong plan fails its verifier, on the answer or on the workbook", async () => {
    const warmer = WEATHER_CASES[0]!;
    const right = warmer.plans[0]!;
    const wrong = {
      ...warmer,
      plans: [
        {
          ...right,
          turns: [
            () => [
              { alias: "weather.get_current", args: { city: "Shanghai" } },
              { alias: "weather.get_current", args: { city: "Beijing" } },
            ],
            right.turns[1]!,
          ],
        },
      ],
    };
    expect((await runCase(wrong, { protocol: "zcp-fc", catalog: "all" })).verified).toBe(false);
    const merge = TIER_A_CASES.find((bench) => bench.id === "merge_cells")!;
    const wrongRange = {
      ...merge,
      plans: [
        {
          ...merge.plans[0]!,
          turns: [
            () => [
              {
                alias: "excel.merge_cells",
                args: { path: "book.xlsx", sheet: "Dashboard", range: "A1:C1" },
              },
            ],
          ],
        },
      ],
    };
    expect((await runCase(wrongRange, { protocol: "mcp", catalog: "all" })).verified).toBe(false);
    // a workflow call with one wrong argument leaves a workbook the verifier refuses, and says why
    const bootstrap = TIER_B_CASES.find((bench) => bench.id === "workbook_bootstrap_chain")!;
    const workflow = bootstrap.plans[1]!;
    const wrongSheets = {
      ...workflow,
      turns: [
        () => [
          {
            alias: "excel.chain_workbook_bootstrap",
            args: { path: "ops.xlsx", sheets: ["RawData", "Summary", "Extra"] },
          },
        ],
      ],
    };
    const run = (await runPlan(bootstrap, wrongSheets, {
      protocol: "zcp-compact",
      catalog: "all",
    }))!;
    expect(run.verified).toBe(false);
    expect(run.problems).toEqual([
      'answer {"sheets":["RawData","Summary","Extra"]}, expected {"sheets":["RawData","Summary"]}',
      'sheets are ["RawData","Summary","Extra"], expected ["RawData","Summary"]',
    ]);
    // one failing plan makes the case unverified on that surface, even when another passes
    const both = { ...bootstrap, plans: [bootstrap.plans[0]!, wrongSheets] };
    expect((await runCase(both, { protocol: "zcp-compact", catalog: "all" })).verified).toBe(false);
  });
});

/** The cases the tool-search and code-mode surfaces run: the spreadsheet tiers and the handle cases. */
const searched = [
  ...TIER_A_CASES,
  ...TIER_B_CASES,
  ...TIER_C_CASES,
  ...TIER_D_CASES,
  ...HANDLE_CASES,
];

describe("bench:tokens tool search", () => {
  const large = largeCatalog(workbench);

  it("the large catalog: 1,064 corpus listings beside the workbench, one index, corpus calls not implemented", async () => {
    expect(large.registry.tools).toHaveLength(1064 + 40);
    expect(new Set(large.registry.tools.map((tool) => tool.name)).size).toBe(1104);
    expect(large.find).toBeDefined();
    const figures = findFigures(large);
    expect(figures).toMatchObject({ tools: 1104, corpusTools: 1064 });
    expect(figures.latency.queries).toBe(2 * 1064);
    expect(figures.recall.at5).toBeGreaterThanOrEqual(figures.recall.at1);
    const surface = await openSurface({ protocol: "zcp-compact", catalog: "primitive" }, large);
    try {
      const outcome = await surface.turn([{ alias: "github.get_me", args: {} }]);
      expect(outcome.errors).toEqual([
        JSON.stringify({
          ok: false,
          error: "not_implemented",
          hint: "github.get_me is a listing from fixtures/corpus and is not implemented in this benchmark",
        }),
      ]);
    } finally {
      await surface.close();
    }
  });

  it("starts with the search tool alone, bills what a search returns, and calls only what was found", async () => {
    // mcp-find-2026 lists find and call from the start: find-2026.test.ts.
    const surfaces = await Promise.all(
      SEARCH_PROTOCOLS.filter((protocol) => protocol !== "mcp-find-2026").map((protocol) =>
        openSurface({ protocol, catalog: "primitive" }, workbench),
      ),
    );
    const [mcp, compact, fc] = surfaces as [Surface, Surface, Surface];
    try {
      for (const surface of surfaces) expect([...surface.listed]).toEqual([FIND_ALIAS]);
      expect(mcp.tools).toEqual([
        expect.objectContaining({ function: expect.objectContaining({ name: "zcp_find_tools" }) }),
      ]);
      expect(compact.tools).toEqual([]);
      expect(compact.instructions).toContain("zcp.find_tools(query:");
      expect(fc.tools).toEqual([
        expect.objectContaining({ function: expect.objectContaining({ strict: true }) }),
      ]);
      const search = { alias: FIND_ALIAS, args: { query: "merge cells" } };
      const [a, b, c] = await Promise.all(surfaces.map((surface) => surface.turn([search])));
      // The same ranker and query: the same tools found on every surface.
      for (const surface of surfaces) expect(surface.listed.has("excel.merge_cells")).toBe(true);
      expect(new Set(mcp.listed)).toEqual(
        new Set([...compact.listed].filter((alias) => alias !== "zcp.handle")),
      );
      // mcp-search: the found tools as the functions mcp lists; zcp-search: planner lines; -fc: strict artifacts.
      const functions = JSON.parse((a!.results[0] as { content: string }).content) as {
        type: string;
        function: { name: string };
      }[];
      expect(functions).toHaveLength(5);
      expect(
        functions.every((entry) => entry.type === "function" && !("strict" in entry.function)),
      ).toBe(true);
      expect((b!.results[0] as { content: string }).content).toMatch(/^RET c1 \{"tools":\["TOOL @/);
      expect((c!.results[0] as { content: string }).content).toContain('"strict":true');
      await expect(
        mcp.turn([{ alias: "excel.chain_layout_flow", args: {} }]),
      ).rejects.toBeInstanceOf(NotListed);
    } finally {
      await Promise.all(surfaces.map((surface) => surface.close()));
    }
  });

  for (const [label, registry] of [
    ["workbench", workbench],
    ["large catalog", large],
  ] as const)
    it(`${label}: every primitive plan passes its verifier on every search surface, after billed searches`, async () => {
      for (const bench of searched)
        for (const protocol of SEARCH_PROTOCOLS) {
          const run = await runCase({ ...bench, registry }, { protocol, catalog: "primitive" });
          const where = `${bench.id} on ${protocol} (${label})`;
          expect(run.errors, where).toEqual([]);
          expect(run.problems, where).toEqual([]);
          expect(run.verified, where).toBe(true);
          // A search turn first, one search per tool the plan calls, each found.
          expect(run.searches.length, where).toBeGreaterThanOrEqual(
            run.called.filter((alias) => !alias.startsWith("zcp.")).length,
          );
          expect(run.calls, where).toBeGreaterThan(run.searches.length);
        }
    }, 240_000);
});

/** The code surfaces that list one code tool and take one call of it (mcp-search-execute searches first: search-execute.test.ts). */
const ONE_PROGRAM = CODE_PROTOCOLS.filter((protocol) => protocol !== "mcp-search-execute");

describe("bench:tokens code mode", () => {
  it("lists one tool: Cloudflare's code tool with its API text, or zcp.run with ours in the system prompt", async () => {
    const [mcp, zcp] = (await Promise.all(
      ONE_PROGRAM.map((protocol) => openSurface({ protocol, catalog: "primitive" }, workbench)),
    )) as [Surface, Surface];
    try {
      const description = (mcp.tools as { function: { name: string; description: string } }[]).map(
        (tool) => tool.function,
      );
      expect(description.map((tool) => tool.name)).toEqual(["code"]);
      expect(description[0]!.description).toContain("declare const codemode: {");
      expect(description[0]!.description).toContain(
        "excel_write_data_to_excel: (input: ExcelWriteDataToExcelInput)",
      );
      expect(
        (zcp.tools as { function: { name: string } }[]).map((tool) => tool.function.name),
      ).toEqual(["zcp_run"]);
      expect(zcp.instructions).toContain("declare const tools: {");
      expect(zcp.instructions).toContain("write_data_to_excel(args: {");
      expect(zcp.instructions).not.toContain("chain_layout_flow");
    } finally {
      await Promise.all([mcp.close(), zcp.close()]);
    }
  });

  it("every case's program passes its verifier on both one-program code surfaces, in one call and the answer", async () => {
    for (const bench of searched)
      for (const protocol of ONE_PROGRAM) {
        const run = await runCase(bench, { protocol, catalog: "primitive" });
        const where = `${bench.id} on ${protocol}`;
        expect(run.errors, where).toEqual([]);
        expect(run.problems, where).toEqual([]);
        expect(run.verified, where).toBe(true);
        expect([run.plan, run.calls, run.turns.length], where).toEqual(["program", 1, 2]);
      }
  }, 240_000);

  it("large catalog: zcp-code finds each program's API text first; mcp-code's code tool describes every tool", async () => {
    const large = largeCatalog(workbench);
    for (const bench of searched) {
      const run = await runCase(
        { ...bench, registry: large },
        { protocol: "zcp-code", catalog: "primitive", discover: true },
      );
      const where = `${bench.id} on zcp-code (large)`;
      expect([run.errors, run.problems, run.verified], where).toEqual([[], [], true]);
      expect(run.searches.length, where).toBeGreaterThan(0);
      expect(
        run.searches.every((search) => search.found),
        where,
      ).toBe(true);
      expect(run.turns, where).toHaveLength(3);
    }
    const bench = TIER_C_CASES[0]!;
    const run = await runCase(
      { ...bench, registry: large },
      { protocol: "mcp-code", catalog: "primitive" },
    );
    expect([run.errors, run.problems, run.verified]).toEqual([[], [], true]);
    expect(run.toolTokens).toBeGreaterThan(100_000);
  }, 240_000);

  it("a program reads the 2,400-row log whole, and only its answer enters the transcript", async () => {
    const bench = HANDLE_CASES.find((candidate) => candidate.id === "region_total_2400")!;
    for (const protocol of CODE_PROTOCOLS) {
      const run = await runCase(bench, { protocol, catalog: "primitive" });
      // The program's result is the last tool message (mcp-search-execute's searches come first).
      const results = run.messages.filter((message) => message.role === "tool");
      expect(results.length, protocol).toBe(protocol === "mcp-search-execute" ? 3 : 1);
      expect(tokensOf(results.at(-1)!), protocol).toBeLessThan(60);
    }
  });
});

describe("bench:tokens workbook verifier", () => {
  it("names every kind of mismatch: sheets, values, formulas, merges, tables, bold, centered, fill, an unreadable file", async () => {
    const workspace = await mkdtemp(path.join(os.tmpdir(), "zcp-verifier-"));
    try {
      await seeded(
        "v.xlsx",
        { Data: [["Title"], ["Name", "Value"], ["a", 1], ["b", 2]] },
        (workbook) => {
          const sheet = workbook.getWorksheet("Data")!;
          sheet.mergeCells("A1:B1");
          sheet.getCell("A2").font = { bold: true };
          sheet.getCell("A2").alignment = { horizontal: "center" };
          sheet.getCell("B2").fill = {
            type: "pattern",
            pattern: "solid",
            fgColor: { argb: "FFD9D9D9" },
          };
          sheet.addTable({
            name: "T",
            ref: "A2",
            headerRow: true,
            columns: [{ name: "Name" }, { name: "Value" }],
            rows: [
              ["a", 1],
              ["b", 2],
            ],
          });
          sheet.getCell("C4").value = { formula: "B4*2" } as ExcelJS.CellValue;
        },
      )(workspace);
      const right = {
        cells: { A3: "a", B3: 1, A1: "Title", C1: null, C4: "=B4*2" },
        merges: ["A1:B1"],
        tables: { T: "A2:B4" },
        bold: ["A2"],
        centered: ["A2"],
        fill: { B2: "D9D9D9" },
      };
      expect(
        await workbookProblems(workspace, {
          file: "v.xlsx",
          sheets: ["Data"],
          content: { Data: right },
        }),
      ).toEqual([]);
      const wrong = {
        cells: { A3: "b", C4: "=B4*3" },
        merges: ["A1:C1"],
        tables: { U: "A2:B4" },
        bold: ["B2"],
        centered: ["B2"],
        fill: { A2: "D9D9D9" },
      };
      expect(
        await workbookProblems(workspace, {
          file: "v.xlsx",
          sheets: ["Data", "More"],
          content: { Data: wrong, Gone: {} },
        }),
      ).toEqual([
        'sheets are ["Data"], expected ["Data","More"]',
        'Data!A3 is "a", expected "b"',
        'Data!C4 is "=B4*2", expected "=B4*3"',
        'Data: merges ["A1:B1"], expected ["A1:C1"]',
        'Data: tables {"T":"A2:B4"}, expected {"U":"A2:B4"}',
        "Data!B2 is not bold",
        "Data!B2 is not centered",
        "Data!A2 fill is null, expected D9D9D9",
        "Gone: missing",
      ]);
      expect(await workbookProblems(workspace, { file: "none.xlsx", sheets: [] })).toEqual([
        expect.stringMatching(/^none\.xlsx: cannot be read/),
      ]);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

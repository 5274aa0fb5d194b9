/**
 * The token report (`zcp gen --report`) and the budget check (`--budget`):
 * - on copies of fixtures/weather and fixtures/kitchen-sink, every number of the JSON report is
 *   the o200k_base count of the written artifact entry (compact JSON), planner line or
 *   declaration in the API text; totals and group buckets are sums, but a bucket's typescript
 *   count is its tools' whole API text; the text table shows the same numbers;
 * - a report run does not take the no-change fast path;
 * - the provider limits: `checkStrictLimits` of each provider over the listing's entries, in the
 *   JSON report and as a table (its exact text on fixtures/weather);
 * - --budget passes at the selected listing's total and fails one token below, with --groups,
 *   --profile semantic-workflow (with and without workflow tools) and each --budget-format;
 *   `--budget-format openai` fails, naming the limit, on a listing over an OpenAI strict limit;
 * - bad usage exits 2 before anything is generated;
 * - the pure module: a tool without an OpenAI entry, the selection rule, the text layout.
 *
 * Each spawn of the binary costs about a second, so every block's runs start together in the
 * file's `beforeAll`, at most one per CPU (see `runs`).
 */
import fs from "node:fs";
import path from "node:path";
import { artifactSet, checkStrictLimits, type Registry } from "@zcp/runtime";
import { renderApi } from "@zcp/runtime/definition";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifactSets, type ArtifactSets } from "../src/compile/index.js";
import {
  buildReport,
  formatReport,
  reportOptions,
  type TokenReport,
} from "../src/cli/token-report.js";
import {
  type CliResult,
  copyFixture,
  generatedRegistry,
  oneJsonLine,
  runsTogether,
  runZcpAsync,
  scratchProject,
  STRICT_TSCONFIG,
} from "./helpers.js";

const runs = runsTogether();

interface JsonLine {
  ok: boolean;
  tools: number;
  cached: boolean;
  report?: TokenReport | null;
}

/** The o200k_base count, computed here independently of src/cli/token-report.ts. */
function tokens(text: string): number {
  return encode(text, { disallowedSpecial: new Set() }).length;
}

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

/** A copy of a fixture without its output, so that running `zcp gen` there writes nothing in the repository. */
function copyOf(name: string): string {
  const dir = copyFixture(name);
  temporary.push(dir);
  return dir;
}

function scratch(files: Record<string, string>): string {
  const dir = scratchProject(files);
  temporary.push(dir);
  return dir;
}

const TOOL = (alias: string, name: string, groups: string[]) => `/**
 * The ${name} tool, which returns its argument.
 *
 * @tool ${alias}${groups.length > 0 ? `\n * @groups ${groups.join(" ")}` : ""}
 * @param value The value to return.
 */
export function ${name}(value: string): string {
  return value;
}
`;

/** Tools in the workflow group, in two data groups (one in both) and in none. */
const WORKFLOW_PROJECT = {
  "zcp.config.json": "{}",
  "tsconfig.json": STRICT_TSCONFIG,
  "src/tools.ts": [
    TOOL("wf.plan_trip", "planTrip", ["workflow", "travel"]),
    TOOL("data.load", "load", ["data"]),
    TOOL("data.sum", "sum", ["data", "math"]),
    TOOL("math.add", "add", ["math"]),
    TOOL("misc.ping", "ping", []),
  ].join("\n"),
};

/** The same tools without the workflow group. */
const PLAIN_PROJECT = {
  ...WORKFLOW_PROJECT,
  "src/tools.ts": WORKFLOW_PROJECT["src/tools.ts"].replace("workflow travel", "travel"),
};

/**
 * A bucket of `tools`: sums of their counts, and the tokens of their whole API text (rendered
 * from `registry`'s definitions: named types once, with the `tools` wrapper).
 */
function sumsOf(
  registry: Registry,
  tools: readonly { alias: string; mcp: number; openai: number | null; planner: number }[],
) {
  const aliases = new Set(tools.map((tool) => tool.alias));
  return {
    tools: tools.length,
    mcp: tools.reduce((total, tool) => total + tool.mcp, 0),
    openai: tools.reduce((total, tool) => total + (tool.openai ?? 0), 0),
    planner: tools.reduce((total, tool) => total + tool.planner, 0),
    typescript: tokens(renderApi(registry.tools.filter((tool) => aliases.has(tool.alias))).text),
  };
}

for (const name of ["weather", "kitchen-sink"]) {
  describe(`--report on fixtures/${name}`, () => {
    let dir: string;
    let text: CliResult;
    let jsonRun: CliResult;
    const started = runs(async () => {
      dir = copyOf(name);
      // One after the other: both write the same output folder.
      text = await runZcpAsync(dir, ["gen", "--report", "--force"]);
      jsonRun = await runZcpAsync(dir, ["gen", "--report", "--reporter", "json", "--force"]);
    });
    beforeAll(started);

    it("counts each tool's MCP entry, OpenAI Responses entry, planner line and declaration with o200k_base", () => {
      expect(jsonRun.status, jsonRun.stderr).toBe(0);
      const line = oneJsonLine<JsonLine>(jsonRun);
      expect(line.ok).toBe(true);
      const report = line.report!;
      const out = path.join(dir, "src/zcp.gen");
      const registry = generatedRegistry(out);
      const mcp = artifactSet(registry, "mcp");
      const openai = artifactSet(registry, "openai-responses");
      const api = renderApi(registry.tools).tools;
      expect(report.tokenizer).toBe("o200k_base");
      expect(report.tools).toEqual(
        registry.tools.map((tool) => ({
          id: tool.id,
          alias: tool.alias,
          groups: tool.groups,
          mcp: tokens(JSON.stringify(mcp[tool.id])),
          openai: openai[tool.id] ? tokens(JSON.stringify(openai[tool.id])) : null,
          planner: tokens(tool.planner),
          typescript: tokens(api.get(tool.alias)!),
        })),
      );
      expect(
        report.tools.every((tool) => tool.mcp > 0 && tool.planner > 0 && tool.typescript > 0),
      ).toBe(true);
      // The declaration is cheaper than the MCP entry too.
      expect(report.tools.every((tool) => tool.typescript < tool.mcp)).toBe(true);
      // The planner line is the cheap form: cheaper than the MCP entry for every tool.
      expect(report.tools.every((tool) => tool.planner < tool.mcp)).toBe(true);
    });

    it("totals are sums over all tools, and every group's bucket sums the tools that list it", () => {
      const report = oneJsonLine<JsonLine>(jsonRun).report!;
      const registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
      const sums = (tools: TokenReport["tools"]) => sumsOf(registry, tools);
      expect(report.total).toEqual(sums(report.tools));
      // The whole text (named types once, the wrapper) is not the sum of the declarations.
      expect(report.total.typescript).toBe(tokens(renderApi(registry.tools).text));
      const names = [...new Set(report.tools.flatMap((tool) => tool.groups))].sort();
      const ungrouped = report.tools.filter((tool) => tool.groups.length === 0);
      expect(report.groups).toEqual([
        ...names.map((group) => ({
          group,
          ...sums(report.tools.filter((tool) => tool.groups.includes(group))),
        })),
        ...(ungrouped.length > 0 ? [{ group: null, ...sums(ungrouped) }] : []),
      ]);
      if (name === "kitchen-sink") {
        // tables.drop is in admin and tables: counted in both (tables: load, sum, drop, export, orders.add); ping_server has no group.
        expect(report.groups.find((group) => group.group === "admin")?.tools).toBe(1);
        expect(report.groups.find((group) => group.group === "tables")?.tools).toBe(5);
        expect(report.groups.at(-1)).toMatchObject({ group: null, tools: 1 });
      } else {
        expect(report.groups.map((group) => group.group)).toEqual(["math", "unit", "weather"]);
      }
      // No selection or budget was asked for.
      expect(report.selection).toBeUndefined();
      expect(report.budget).toBeUndefined();
    });

    it("measures all tools against each provider's strict limits", () => {
      const report = oneJsonLine<JsonLine>(jsonRun).report!;
      const registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
      expect(report.limits).toEqual(
        (["openai-responses", "openai-chat", "anthropic"] as const).map((provider) => ({
          provider,
          ...checkStrictLimits(Object.values(artifactSet(registry, provider)), provider),
        })),
      );
      // Every provider's limits are in, Anthropic's strict ones over on kitchen-sink.
      expect(report.limits.map((limits) => [limits.provider, limits.ok])).toEqual([
        ["openai-responses", true],
        ["openai-chat", true],
        ["anthropic", name === "weather"],
      ]);
    });

    it("prints an aligned table after the summary with the same numbers", () => {
      expect(text.status, text.stderr).toBe(0);
      const report = oneJsonLine<JsonLine>(jsonRun).report!;
      const lines = text.stdout.split("\n");
      expect(lines[0]).toMatch(/^zcp gen: \d+ tools?, registry /);
      expect(lines[1]).toMatch(/^tokens \(o200k_base\)/);
      expect(lines[2]).toMatch(/^tool +id +groups +mcp +openai +planner +typescript$/);
      for (const tool of report.tools) {
        const row = lines.find((line) => line.startsWith(`${tool.alias} `));
        expect(row, tool.alias).toBeDefined();
        expect(row!.split(/ +/)).toEqual([
          tool.alias,
          tool.id,
          tool.groups.join(",") || "-",
          String(tool.mcp),
          String(tool.openai ?? "-"),
          String(tool.planner),
          String(tool.typescript),
        ]);
      }
      const total = lines.find((line) => line.startsWith("total ("))!;
      expect(total.split(/ +/).slice(-4)).toEqual([
        String(report.total.mcp),
        String(report.total.openai),
        String(report.total.planner),
        String(report.total.typescript),
      ]);
      // Aligned: the numeric columns of the tool rows end at the same place.
      const rows = lines.slice(2, 3 + report.tools.length + 1);
      expect(new Set(rows.map((row) => row.length)).size).toBe(1);
      if (name === "weather") {
        const start = lines.indexOf("provider limits (strict mode, all 4 tools in one request):");
        expect(lines.slice(start - 1)).toEqual([
          "",
          "provider limits (strict mode, all 4 tools in one request):",
          "provider          limit                  actual / max",
          "openai-responses  properties                 6 / 5000  ok",
          "openai-responses  nesting                      1 / 10  ok",
          "openai-responses  characters              72 / 120000  ok",
          "openai-responses  enum values                7 / 1000  ok",
          "openai-responses  large enum characters     0 / 15000  ok",
          "openai-chat       properties                 6 / 5000  ok",
          "openai-chat       nesting                      1 / 10  ok",
          "openai-chat       characters              72 / 120000  ok",
          "openai-chat       enum values                7 / 1000  ok",
          "openai-chat       large enum characters     0 / 15000  ok",
          "openai-chat       functions                   4 / 128  ok",
          "anthropic         strict tools                 4 / 20  ok",
          "anthropic         optional parameters          1 / 24  ok",
          "anthropic         union parameters             0 / 16  ok",
          "",
        ]);
      } else {
        expect(text.stdout).toContain(
          "anthropic         optional parameters         32 / 24  OVER\n",
        );
      }
      for (const group of report.groups) {
        const row = lines.find((line) => line.startsWith(`${group.group ?? "(no group)"} `));
        expect(row!.split(/ {2,}/).map((cell) => cell.trim())).toEqual([
          group.group ?? "(no group)",
          String(group.tools),
          String(group.mcp),
          String(group.openai),
          String(group.planner),
          String(group.typescript),
        ]);
      }
    });
  });
}

describe("--report and the no-change fast path", () => {
  const results = runs(async () => {
    const dir = scratch(WORKFLOW_PROJECT);
    const first = await runZcpAsync(dir, ["gen"]);
    const cached = await runZcpAsync(dir, ["gen", "--reporter", "json"]);
    const report = await runZcpAsync(dir, ["gen", "--report", "--reporter", "json"]);
    const after = await runZcpAsync(dir, ["gen", "--reporter", "json"]);
    return { first, cached, report, after };
  });

  it("a report run generates (the fast path has nothing to count), and the fast path still works after it", async () => {
    const { first, cached, report, after } = await results();
    expect(first.status, first.stderr).toBe(0);
    expect(oneJsonLine<JsonLine>(cached).cached).toBe(true);
    expect(oneJsonLine<JsonLine>(report)).toMatchObject({
      cached: false,
      report: { total: { tools: 5 } },
    });
    // Without --report, no report field; the report run saved the fast path as usual.
    expect(oneJsonLine<JsonLine>(after)).toMatchObject({ cached: true });
    expect(oneJsonLine<JsonLine>(after)).not.toHaveProperty("report");
  });
});

describe("--budget", () => {
  const byAlias = (report: TokenReport, aliases: string[]) =>
    report.tools.filter((tool) => aliases.includes(tool.alias));
  const results = runs(async () => {
    const workflow = scratch(WORKFLOW_PROJECT);
    const plain = scratch(PLAIN_PROJECT);
    const [a, b] = await Promise.all([
      runZcpAsync(workflow, ["gen", "--report", "--reporter", "json"]),
      runZcpAsync(plain, ["gen", "--report", "--reporter", "json"]),
    ]);
    const full = oneJsonLine<JsonLine>(a).report!;
    const plainFull = oneJsonLine<JsonLine>(b).report!;
    // data or math: data.load, data.sum, math.add.
    const registry = generatedRegistry(path.join(workflow, "src/zcp.gen"));
    const selected = sumsOf(registry, byAlias(full, ["data.load", "data.sum", "math.add"]));
    const wf = sumsOf(registry, byAlias(full, ["wf.plan_trip"]));
    const budget = (dir: string, limit: number, ...args: string[]) =>
      runZcpAsync(dir, ["gen", "--budget", String(limit), ...args]);
    const named = {
      groupsAt: budget(workflow, selected.mcp, "--groups", "data,math", "--reporter", "json"),
      groupsBelow: budget(
        workflow,
        selected.mcp - 1,
        "--groups",
        "data,math",
        "--reporter",
        "json",
      ),
      plannerAt: budget(
        workflow,
        selected.planner,
        "--budget-format",
        "planner",
        "--groups",
        "math data",
        "--reporter",
        "json",
      ),
      plannerBelow: budget(
        workflow,
        selected.planner - 1,
        "--budget-format",
        "planner",
        "--groups",
        "data,math",
      ),
      typescriptAt: budget(
        workflow,
        selected.typescript,
        "--budget-format",
        "typescript",
        "--groups",
        "data,math",
        "--reporter",
        "json",
      ),
      typescriptBelow: budget(
        workflow,
        selected.typescript - 1,
        "--budget-format",
        "typescript",
        "--groups",
        "data,math",
      ),
      openaiBelow: budget(
        workflow,
        selected.openai - 1,
        "--budget-format",
        "openai",
        "--groups",
        "data,math",
      ),
      profileAt: budget(workflow, wf.mcp, "--profile", "semantic-workflow", "--reporter", "json"),
      profileBelow: budget(
        workflow,
        wf.mcp - 1,
        "--profile",
        "semantic-workflow",
        "--reporter",
        "json",
      ),
      fallbackAt: budget(
        plain,
        plainFull.total.mcp,
        "--profile",
        "semantic-workflow",
        "--reporter",
        "json",
      ),
      fallbackBelow: budget(plain, plainFull.total.mcp - 1, "--profile", "semantic-workflow"),
      // The profile applies first, then the groups: no workflow tool is in data.
      profileAndGroups: budget(
        workflow,
        0,
        "--profile",
        "semantic-workflow",
        "--groups",
        "data",
        "--reporter",
        "json",
      ),
      allAt: budget(workflow, full.total.mcp, "--reporter", "json"),
      allBelow: budget(workflow, full.total.mcp - 1),
      unknownGroup: budget(workflow, 100_000, "--groups", "data,dta"),
      // --groups with --report only shows the listing; nothing is checked.
      reportOnly: runZcpAsync(workflow, ["gen", "--report", "--groups", "dta"]),
    };
    const done = Object.fromEntries(
      await Promise.all(
        Object.entries(named).map(async ([key, promise]) => [key, await promise] as const),
      ),
    ) as { [K in keyof typeof named]: CliResult };
    return { full, plainFull, selected, wf, ...done };
  });

  it("--groups selects the tools in any of the groups; exit 0 at the total, 1 one token below", async () => {
    const {
      selected,
      groupsAt,
      groupsBelow,
      plannerAt,
      plannerBelow,
      openaiBelow,
      typescriptAt,
      typescriptBelow,
    } = await results();
    expect(groupsAt.status, groupsAt.stderr).toBe(0);
    const report = oneJsonLine<JsonLine>(groupsAt).report!;
    expect(report.selection).toMatchObject({
      profile: null,
      groups: ["data", "math"],
      workflowFallback: false,
      unknownGroups: [],
      aliases: ["data.load", "data.sum", "math.add"],
      ...selected,
    });
    expect(report.budget).toEqual({
      format: "mcp",
      limit: selected.mcp,
      tokens: selected.mcp,
      ok: true,
    });
    expect(oneJsonLine<JsonLine>(groupsAt).ok).toBe(true);

    expect(groupsBelow.status).toBe(1);
    expect(oneJsonLine<JsonLine>(groupsBelow)).toMatchObject({
      ok: false,
      report: { budget: { format: "mcp", tokens: selected.mcp, ok: false } },
    });

    expect(plannerAt.status).toBe(0);
    expect(oneJsonLine<JsonLine>(plannerAt).report!.budget).toMatchObject({
      format: "planner",
      tokens: selected.planner,
      ok: true,
    });
    expect(plannerBelow.status).toBe(1);
    // Without --report, the text output is the summary, the listing and the verdict.
    expect(plannerBelow.stdout.split("\n").filter((line) => line !== "")).toEqual([
      expect.stringMatching(/^zcp gen: 5 tools/),
      `listing: 3 of 5 tools (groups data,math): mcp ${selected.mcp}, openai ${selected.openai}, planner ${selected.planner}, typescript ${selected.typescript} tokens`,
      `budget planner: ${selected.planner} of ${selected.planner - 1} tokens, over by 1`,
    ]);
    expect(typescriptAt.status, typescriptAt.stderr).toBe(0);
    expect(oneJsonLine<JsonLine>(typescriptAt).report!.budget).toEqual({
      format: "typescript",
      limit: selected.typescript,
      tokens: selected.typescript,
      ok: true,
    });
    expect(typescriptBelow.status).toBe(1);
    expect(typescriptBelow.stdout).toContain(
      `budget typescript: ${selected.typescript} of ${selected.typescript - 1} tokens, over by 1`,
    );
    expect(openaiBelow.status).toBe(1);
    expect(openaiBelow.stdout).toContain(
      `budget openai: ${selected.openai} of ${selected.openai - 1} tokens, over by 1`,
    );
  });

  it("--profile semantic-workflow selects the workflow tools, or all tools when there are none", async () => {
    const { wf, plainFull, profileAt, profileBelow, fallbackAt, fallbackBelow, profileAndGroups } =
      await results();
    expect(profileAt.status, profileAt.stderr).toBe(0);
    expect(oneJsonLine<JsonLine>(profileAt).report!.selection).toMatchObject({
      profile: "semantic-workflow",
      groups: null,
      workflowFallback: false,
      aliases: ["wf.plan_trip"],
      ...wf,
    });
    expect(profileBelow.status).toBe(1);

    expect(fallbackAt.status).toBe(0);
    expect(oneJsonLine<JsonLine>(fallbackAt).report!.selection).toMatchObject({
      workflowFallback: true,
      tools: 5,
      mcp: plainFull.total.mcp,
    });
    expect(fallbackBelow.status).toBe(1);
    expect(fallbackBelow.stdout).toContain(
      "listing: 5 of 5 tools (profile semantic-workflow, no tool in group workflow so all kept)",
    );

    expect(profileAndGroups.status).toBe(0);
    expect(oneJsonLine<JsonLine>(profileAndGroups).report!.selection).toMatchObject({
      aliases: [],
      tools: 0,
      mcp: 0,
    });
  });

  it("--budget alone checks all tools; a --groups name no tool carries fails the check", async () => {
    const { full, allAt, allBelow, unknownGroup, reportOnly } = await results();
    expect(allAt.status).toBe(0);
    expect(oneJsonLine<JsonLine>(allAt).report!.selection).toMatchObject({
      profile: null,
      groups: null,
      tools: 5,
      mcp: full.total.mcp,
    });
    expect(allBelow.status).toBe(1);
    expect(allBelow.stdout).toContain("listing: 5 of 5 tools (all)");
    expect(unknownGroup.status).toBe(1);
    expect(unknownGroup.stdout).toContain("--groups names a group no tool carries: dta");
    expect(unknownGroup.stdout).toContain("failed: --groups names a group no tool carries");
    expect(reportOnly.status).toBe(0);
    expect(reportOnly.stdout).toContain("listing: 0 of 5 tools (groups dta)");
    expect(reportOnly.stdout).not.toContain("budget");
  });
});

/** Two tools, in groups a and b, each taking one of 501 codes: 1,002 enum values together. */
const ENUM_PROJECT = {
  "zcp.config.json": "{}",
  "tsconfig.json": STRICT_TSCONFIG,
  "src/tools.ts": `${["a", "b"]
    .map(
      (group) => `/**
 * Looks a ${group} code up.
 *
 * @tool codes.${group}
 * @groups ${group}
 * @param code The code.
 */
export function ${group}(code: Code): string {
  return code;
}
`,
    )
    .join(
      "\n",
    )}\nexport type Code = ${Array.from({ length: 501 }, (_, i) => `"c${i}"`).join(" | ")};\n`,
};

describe("--budget-format openai and OpenAI's strict limits", () => {
  let dir: string;
  const results = runs(async () => {
    dir = scratch(ENUM_PROJECT);
    const args = ["gen", "--budget", "100000", "--budget-format", "openai"];
    const over = await runZcpAsync(dir, args);
    const overJson = await runZcpAsync(dir, [...args, "--reporter", "json"]);
    return { over, overJson };
  });

  it("exits 1 naming the exceeded limit, though the tokens are within the budget", async () => {
    const { over, overJson } = await results();
    expect(over.status, over.stderr).toBe(1);
    const report = oneJsonLine<JsonLine>(overJson).report!;
    const tokens = report.selection!.openai;
    expect(over.stdout.split("\n").slice(1)).toEqual([
      `listing: 2 of 2 tools (all): mcp ${report.selection!.mcp}, openai ${tokens}, planner ${report.selection!.planner}, typescript ${report.selection!.typescript} tokens`,
      `budget openai: ${tokens} of 100000 tokens, within`,
      "budget openai: over the openai-responses strict limit on enum values: 1002 of 1000",
      "",
    ]);
    expect(overJson.status).toBe(1);
    expect(oneJsonLine<JsonLine>(overJson).ok).toBe(false);
    expect(report.budget).toEqual({
      format: "openai",
      limit: 100_000,
      tokens,
      exceeded: ["enum values"],
      ok: false,
    });
    expect(report.limits.find((limits) => limits.provider === "openai-chat")).toMatchObject({
      ok: false,
      limits: expect.arrayContaining([
        { name: "enum values", limit: 1000, actual: 1002, ok: false },
      ]),
    });
  });

  it("checks the selected listing only, and only in format openai", async () => {
    await results();
    const registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
    const report = (format: "openai" | "mcp", groups: string[] | null) =>
      buildReport(registry, artifactSets(registry), (text) => text.length, {
        table: false,
        selection: { profile: null, groups },
        budget: { limit: 100_000, format },
      });
    const oneGroup = report("openai", ["a"]);
    expect(oneGroup.budget).toMatchObject({ exceeded: [], ok: true });
    expect(oneGroup.limits[0]!.limits[3]).toEqual({
      name: "enum values",
      limit: 1000,
      actual: 501,
      ok: true,
    });
    const mcp = report("mcp", null);
    expect(mcp.budget).toEqual({ format: "mcp", limit: 100_000, tokens: mcp.total.mcp, ok: true });
    expect(mcp.limits[0]!.ok).toBe(false);
  });
});

describe("bad usage exits 2 before generating", () => {
  const cases: [string[], RegExp][] = [
    [["--budget", "abc"], /--budget must be a whole number of tokens, got "abc"/],
    [["--budget=-5"], /--budget must be a whole number of tokens, got "-5"/],
    [["--budget=1.5"], /--budget must be a whole number/],
    [["--budget", ""], /--budget must be a whole number/],
    [["--budget"], /argument missing/],
    [["--budget-format", "mcp"], /--budget-format needs --budget/],
    [
      ["--budget", "10", "--budget-format", "xml"],
      /--budget-format must be mcp, openai, planner, typescript, got "xml"/,
    ],
    [
      ["--budget", "10", "--profile", "everything"],
      /--profile must be semantic-workflow, got "everything"/,
    ],
    [["--budget", "10", "--groups", " , "], /--groups needs at least one group name/],
    [["--groups", "data"], /--profile and --groups choose the listing for --budget or --report/],
    [["--profile", "semantic-workflow"], /--profile and --groups choose the listing/],
    [["--report=yes"], /--report/],
  ];
  let dir: string;
  const results = runs(async () => {
    dir = scratch(WORKFLOW_PROJECT);
    return Promise.all(cases.map(([args]) => runZcpAsync(dir, ["gen", ...args])));
  });
  cases.forEach(([args, message], i) => {
    it(`zcp gen ${args.join(" ")}`, async () => {
      const result = (await results())[i]!;
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(fs.existsSync(path.join(dir, "src/zcp.gen"))).toBe(false);
    });
  });
});

describe("src/cli/token-report.ts", () => {
  const tool = (id: string, alias: string, groups: string[]) => ({
    id,
    alias,
    groups,
    planner: `TOOL @${id} ${alias}() -> scalar`,
    description: `The ${alias} tool.`,
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    outputSchema: null,
    outputMode: "scalar",
    handleParams: {},
    deprecated: null,
    source: { file: "src/tools.ts", export: id },
  });
  const registry = {
    version: 1,
    hash: "h",
    names: {},
    tools: [tool("a1", "a.one", ["x"]), tool("b2", "b.two", ["x", "y"]), tool("c3", "c.three", [])],
  } as unknown as Registry;
  const entry = (id: string, size: number) => ({ [id]: { name: id, pad: "x".repeat(size) } });
  const artifacts = {
    mcp: { ...entry("a1", 10), ...entry("b2", 20), ...entry("c3", 30) },
    // b2 has no OpenAI entry (ZCP1502).
    "openai-responses": { ...entry("a1", 1), ...entry("c3", 3) },
    "openai-chat": {},
    anthropic: {},
  } as unknown as ArtifactSets;
  const length = (text: string) => text.length;

  it("counts compact JSON and planner text; a tool without an OpenAI entry is null and adds nothing", () => {
    const report = buildReport(registry, artifacts, length, {
      table: true,
      selection: null,
      budget: null,
    });
    expect(report.tools[1]).toEqual({
      id: "b2",
      alias: "b.two",
      groups: ["x", "y"],
      mcp: JSON.stringify(artifacts.mcp.b2).length,
      openai: null,
      planner: registry.tools[1]!.planner.length,
      typescript: "    /** The b.two tool. */\n    two(args?: {}): Promise<void>;".length,
    });
    // A bucket's typescript count is its tools' whole API text.
    expect(report.groups[1]).toMatchObject({
      group: "y",
      typescript:
        "declare const tools: {\n  b: {\n    /** The b.two tool. */\n    two(args?: {}): Promise<void>;\n  };\n};\n"
          .length,
    });
    expect(report.total.openai).toBe(report.tools[0]!.openai! + report.tools[2]!.openai!);
    expect(report.groups.map((group) => [group.group, group.tools])).toEqual([
      ["x", 2],
      ["y", 1],
      [null, 1],
    ]);
    const text = formatReport(report, true);
    expect(text).toMatch(/^b\.two +b2 +x,y +\d+ +- +\d+ +\d+$/m);
    expect(text).toMatch(/^\(no group\) +1 /m);
    // The limits count the entries there are: two OpenAI Responses ones, none of the others.
    expect(report.limits.map(({ provider, limits }) => [provider, limits.at(-1)])).toEqual([
      ["openai-responses", { name: "large enum characters", limit: 15_000, actual: 0, ok: true }],
      ["openai-chat", { name: "functions", limit: 128, actual: 0, ok: true }],
      ["anthropic", { name: "union parameters", limit: 16, actual: 0, ok: true }],
    ]);
    expect(text).toContain(
      "provider limits (strict mode, all 3 tools in one request):\nprovider          limit                  actual / max\n",
    );
  });

  it("reportOptions reads the flags", () => {
    expect(reportOptions({})).toBeNull();
    expect(reportOptions({ report: true })).toEqual({ table: true, selection: null, budget: null });
    expect(reportOptions({ budget: "0" })).toEqual({
      table: false,
      selection: { profile: null, groups: null },
      budget: { limit: 0, format: "mcp" },
    });
    expect(reportOptions({ report: true, groups: "a, b,a" })).toEqual({
      table: true,
      selection: { profile: null, groups: ["a", "b"] },
      budget: null,
    });
    expect(reportOptions({ budget: "99999999999999999999" })).toMatch(/whole number/);
  });
});

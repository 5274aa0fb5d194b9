/**
 * The budget check (`zcp gen --budget`): it passes at the selected listing's total and fails one
 * token below, with --groups, --profile semantic-workflow (with and without workflow tools) and
 * each --budget-format; `--budget-format openai` fails, naming the limit, on a listing over an
 * OpenAI strict limit.
 *
 * Each spawn of the binary costs about a second, so every block's runs start together in the
 * file's `beforeAll`, at most one per CPU (see `runs`).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { artifactSets } from "../../src/compile/index.js";
import { buildReport, type TokenReport } from "../../src/cli/token-report.js";
import {
  type CliResult,
  generatedRegistry,
  oneJsonLine,
  runsTogether,
  runZcpAsync,
  STRICT_TSCONFIG,
  temporaryProjects,
} from "../helpers.js";
import { type JsonLine, PLAIN_PROJECT, sumsOf, WORKFLOW_PROJECT } from "./helpers.js";

const runs = runsTogether();
const { scratch } = temporaryProjects();

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

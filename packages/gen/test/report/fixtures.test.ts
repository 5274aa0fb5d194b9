/**
 * The token report (`zcp gen --report`):
 * - on copies of fixtures/weather and fixtures/kitchen-sink, every number of the JSON report is
 *   the o200k_base count of the written artifact entry (compact JSON), planner line or
 *   declaration in the API text; totals and group buckets are sums, but a bucket's typescript
 *   count is its tools' whole API text; the text table shows the same numbers;
 * - the provider limits: `checkStrictLimits` of each provider over the listing's entries, in the
 *   JSON report and as a table (its exact text on fixtures/weather);
 * - a report run does not take the no-change fast path.
 *
 * Each spawn of the binary costs about a second, so every block's runs start together in the
 * file's `beforeAll`, at most one per CPU (see `runs`).
 */
import path from "node:path";
import { artifactSet, checkStrictLimits } from "@zcp/runtime";
import { renderApi } from "@zcp/runtime/definition";
import { beforeAll, describe, expect, it } from "vitest";
import type { TokenReport } from "../../src/cli/token-report.js";
import {
  type CliResult,
  generatedRegistry,
  oneJsonLine,
  runsTogether,
  runZcpAsync,
  temporaryProjects,
} from "../helpers.js";
import { type JsonLine, sumsOf, tokens, WORKFLOW_PROJECT } from "./helpers.js";

const runs = runsTogether();
const { scratch, copyOf } = temporaryProjects();

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

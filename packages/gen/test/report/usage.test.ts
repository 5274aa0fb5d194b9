/**
 * Bad usage of --report and --budget exits 2 before anything is generated; and the pure module
 * (src/cli/token-report.ts): a tool without an OpenAI entry, the selection rule, the text layout.
 *
 * Each spawn of the binary costs about a second, so every block's runs start together in the
 * file's `beforeAll`, at most one per CPU (see `runs`).
 */
import fs from "node:fs";
import path from "node:path";
import type { Registry } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import type { ArtifactSets } from "../../src/compile/index.js";
import { buildReport, formatReport, reportOptions } from "../../src/cli/token-report.js";
import { runsTogether, runZcpAsync, temporaryProjects } from "../helpers.js";
import { WORKFLOW_PROJECT } from "./helpers.js";

const runs = runsTogether();
const { scratch } = temporaryProjects();

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

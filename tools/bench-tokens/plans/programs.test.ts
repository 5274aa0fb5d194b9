/** Code mode's programs: one per case, each run against the workbench's primitive tools in a fresh workspace, each passing its case's verifier. */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createRuntime, type JsonValue } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import { problemsOf, type Answer, type BenchCase } from "./case.ts";
import { HANDLE_CASES } from "./handles.ts";
import { PROGRAMS } from "./programs.ts";
import { workbench } from "./registries.ts";
import { TIER_A_CASES } from "./tier-a.ts";
import { TIER_B_CASES } from "./tier-b.ts";
import { TIER_C_CASES } from "./tier-c.ts";
import { TIER_D_CASES } from "./tier-d.ts";

const CASES: readonly BenchCase[] = [
  ...TIER_A_CASES,
  ...TIER_B_CASES,
  ...TIER_C_CASES,
  ...TIER_D_CASES,
  ...HANDLE_CASES,
];
const TOOLS = workbench.registry.tools;
const groupOf = new Map(TOOLS.map((tool) => [tool.alias, tool.groups]));
const WORKFLOW = TOOLS.filter((tool) => tool.groups.includes("workflow")).map((tool) => tool.alias);

type Tool = (args: unknown) => Promise<JsonValue>;
interface ToolTree {
  [key: string]: ToolTree | Tool;
}
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor as new (
  ...args: string[]
) => (tools: ToolTree) => Promise<Answer>;

/** Every registry tool as `tools.<alias parts>`, each a call through a runtime session; a failed call throws. */
function toolTree(): { tools: ToolTree; calls: string[] } {
  const runtime = createRuntime(workbench, { maxResultTokens: Number.POSITIVE_INFINITY });
  const session = runtime.session();
  const calls: string[] = [];
  const tools: ToolTree = {};
  for (const { alias } of TOOLS) {
    const parts = alias.split(".");
    let node = tools;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as ToolTree;
    node[parts.at(-1)!] = async (args: unknown) => {
      calls.push(alias);
      const r = await session.call(alias, args);
      if (!r.ok) throw new Error(r.error + ": " + r.hint);
      if (!("value" in r)) throw new Error(`${alias} answered with a handle, not a value`);
      return r.value;
    };
  }
  return { tools, calls };
}

/** Runs a case's program in a fresh workspace seeded by the case, and what its verifier says. */
async function runProgram(bench: BenchCase) {
  const named: string[] = [];
  const body = PROGRAMS[bench.id]!((alias) => {
    named.push(alias);
    return "tools." + alias;
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), `zcp-program-${bench.id}-`));
  const previous = process.env.ZCP_WORKBENCH_DIR;
  process.env.ZCP_WORKBENCH_DIR = dir;
  try {
    await bench.seed?.(dir);
    const { tools, calls } = toolTree();
    const answer = await new AsyncFunction("tools", body)(tools);
    const problems = problemsOf(await bench.verify(answer, dir));
    return { body, named, calls, answer, problems };
  } finally {
    if (previous === undefined) delete process.env.ZCP_WORKBENCH_DIR;
    else process.env.ZCP_WORKBENCH_DIR = previous;
    await rm(dir, { recursive: true, force: true });
  }
}

describe("bench:tokens programs", () => {
  it("has exactly one program per case, 43 in all", () => {
    expect(CASES).toHaveLength(43);
    expect(Object.keys(PROGRAMS).sort()).toEqual(CASES.map((bench) => bench.id).sort());
  });

  // One at a time: each run names its workspace through ZCP_WORKBENCH_DIR.
  for (const bench of CASES)
    it(`${bench.id}: the program passes the case's verifier with primitive tools only`, async () => {
      const { body, named, calls, problems } = await runProgram(bench);
      expect(problems, bench.id).toEqual([]);
      expect(calls.length, bench.id).toBeGreaterThan(0);
      for (const alias of [...named, ...calls])
        expect(groupOf.get(alias), `${bench.id}: ${alias}`).toEqual(["primitive"]);
      for (const alias of WORKFLOW) {
        expect(body, bench.id).not.toContain(alias);
        expect(body, bench.id).not.toContain(alias.replace(".", "_"));
      }
      expect(body, bench.id).not.toMatch(/console\.|require\(|fetch\(|process\./);
    });
});

/**
 * Typed dispatch: each generated dispatcher takes its tool's arguments as `types.ts` prints them
 * from the input schema (handles resolved) and passes them on as plain property reads, so tsc
 * checks every argument against the tool function's parameter. A tool changed after `zcp gen`
 * (a parameter no longer of the type its schema was made from) fails tsc on the generated
 * dispatch.ts, at that tool's call: one tool per shape the dispatcher has (a plain value, a
 * string enum, a date, a handle, an array, the whole object).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, REPO, runZcp, scratchProject, STRICT_TSCONFIG, strictTsc } from "./helpers.js";

/** `{}` placeholders are each tool's parameter type, as generated and as changed after. */
const tools = (types: readonly string[]) => {
  let next = 0;
  const type = () => types[next++]!;
  return `import type { Handle } from "@zcp/runtime";

export enum Color {
  Red = "red",
  Blue = "blue",
}

export enum Shade {
  Red = "red",
  Green = "green",
}

/** Scale. @tool t.scale */
export function scale(factor: ${type()}): number {
  return Number(factor);
}

/** Paint. @tool t.paint */
export function paint(color: ${type()}): string {
  return String(color);
}

/** Since. @tool t.since */
export function since(when: ${type()}): string {
  return String(when);
}

/** Sum. @tool t.sum */
export function sum(rows: ${type()}): number {
  return rows.value.length;
}

/** Count. @tool t.count */
export function count(tags: ${type()}): number {
  return tags.length;
}

/** Find. @tool t.find */
export const find = ({ text, limit = 10 }: { text: string; limit?: ${type()} }): string =>
  text + String(limit);
`;
};

const GENERATED = ["number", "Color", "Date", 'Handle<"table", string[]>', "string[]", "number"];
const CHANGED = ["string", "Shade", "number", 'Handle<"report", string[]>', "number[]", "string"];
/** The call each change breaks, in the order of `CHANGED`. */
const CALLS = [
  "tools.scale(",
  "tools.paint(",
  "tools.since(",
  "tools.sum(",
  "tools.count(",
  "tools.find(",
];

describe("typed dispatch", () => {
  let dir: string;
  let dispatch: string;
  const check = () =>
    strictTsc([path.join(dir, "src/zcp.gen/index.ts")], "nodenext").errors.filter((error) =>
      error.startsWith(path.join(dir, "src/zcp.gen/dispatch.ts")),
    );

  beforeAll(() => {
    dir = scratchProject({
      "zcp.config.json": "{}",
      "tsconfig.json": STRICT_TSCONFIG,
      "src/tools.ts": tools(GENERATED),
    });
    const result = runZcp(dir, ["gen"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    dispatch = fs.readFileSync(path.join(dir, "src/zcp.gen/dispatch.ts"), "utf8");
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reads each argument as a property of the tool's arguments type, with no cast", () => {
    expect(dispatch).toContain(
      'function call_t_scale(args: ToolArgs["t.scale"], _context: ToolContext): unknown {\n  return tools.scale(args.factor);\n}',
    );
    expect(dispatch).toContain('return tools.since(reviveDates(args.when, [""]));');
    expect(dispatch).toContain('args: WithHandles<ToolArgs["t.sum"], { rows: "table" }>');
    expect(dispatch).toContain("return tools.paint(asDeclared(args.color));");
    expect(dispatch).toContain("return tools.find(asDeclared(args));");
    const code = dispatch.split("\n").filter((line) => !line.startsWith("import "));
    expect(code.filter((line) => / as /.test(line))).toEqual([]);
    expect(check()).toEqual([]);
  });

  it("fails tsc at each call whose parameter changed after zcp gen", () => {
    fs.writeFileSync(path.join(dir, "src/tools.ts"), tools(CHANGED));
    const lines = dispatch.split("\n");
    const failed = check().map((error) => {
      const line = Number(/\((\d+),\d+\): error TS\d+/.exec(error)![1]);
      return CALLS.find((call) => lines[line - 1]!.includes(call));
    });
    expect(new Set(failed)).toEqual(new Set(CALLS));
  });
});

// fixtures.test.ts type-checks the golden fixtures and tools/monorepo the monorepo's; the faulty
// fixture (the server's fault tests) has typed dispatchers too.
it("type-checks the faulty fixture, generated files included", () => {
  const project = path.join(FIXTURES, "faulty/tsconfig.json");
  const tsc = spawnSync(path.join(REPO, "node_modules/.bin/tsc"), ["-p", project, "--noEmit"], {
    encoding: "utf8",
  });
  expect(tsc.stdout + tsc.stderr).toBe("");
  expect(tsc.status).toBe(0);
});

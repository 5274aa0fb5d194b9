/**
 * The type → JSON Schema mapping of constructs that had bugs or gaps: numeric index signatures
 * beside named keys, flattened `Record<number | symbol, V>` roots, the empty tuple, `object`,
 * empty-object idioms, properties typed `undefined`/`never` (the XOR idiom), interfaces extending
 * arrays, intersections of arrays (`allOf`), and template literal types (`pattern`) and keys
 * (`patternProperties`). One scratch project holds every case (one
 * `zcp gen` run). Each case states the exact schema, and three oracles judge its values: tsc
 * (each value assigned to the type, the rejected ones under `@ts-expect-error`), Ajv (2020-12,
 * strict, meta-schema checked) on the tool's input schema, and the generated validator. The
 * validator's `patternProperties` and `allOf` on hand-written schemas are keywords.test.ts's.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { JsonValue, ToolDefinition } from "@zcp/runtime";
import type { ValidatorTable } from "@zcp/runtime/codegen";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ajv,
  type CliResult,
  generatedRegistry,
  REPO,
  runZcp,
  scratchProject,
  STRICT_COMPILER_OPTIONS,
} from "../helpers.js";
import { CASES, DECLARATIONS, REFUSED, type Schema } from "./cases.js";

function toolSource(c: { id: string; type: string; root?: boolean }): string {
  const params = c.root ? `value: ${c.type}` : `value: ${c.type}, n: number`;
  return `/** Case ${c.id}. @tool */\nexport function ${c.id}(${params}): void {}\n`;
}

/** The oracle file: every value assigned to its type, the ones TypeScript rejects under `@ts-expect-error`. */
function oracleSource(): string {
  const lines = [
    `import type * as T from "../src/types.js";`,
    `import { Color } from "../src/types.js";`,
  ];
  const qualified = (type: string) =>
    type.replace(/\b(Named|Xor|Drop|Names|Scores|Labeled|Px|User)\b/g, "T.$1");
  CASES.forEach((c) => {
    const type = qualified(c.oracleType ?? c.type);
    const ok = [...(c.accepts ?? []), ...(c.refusedAnyway ?? [])];
    const no = [...(c.rejects ?? []), ...(c.acceptedAnyway ?? [])];
    ok.forEach((value, i) =>
      lines.push(`export const ${c.id}_ok${i}: ${type} = ${JSON.stringify(value)};`),
    );
    no.forEach((value, i) =>
      lines.push(
        "// @ts-expect-error",
        `export const ${c.id}_no${i}: ${type} = ${JSON.stringify(value)};`,
      ),
    );
  });
  lines.push(`export const colors = Color;`);
  return `${lines.join("\n")}\n`;
}

let dir: string;
let result: CliResult;
let tools: Map<string, ToolDefinition>;
let validators: ValidatorTable;

beforeAll(async () => {
  dir = scratchProject({
    "tsconfig.json": JSON.stringify({
      compilerOptions: STRICT_COMPILER_OPTIONS,
      include: ["src", "oracle"],
    }),
    "zcp.config.json": JSON.stringify({ include: ["src/**/*.ts"], outDir: "src/zcp.gen" }),
    "src/types.ts": DECLARATIONS,
    "src/tools.ts": `import type { Color, Named, Xor, Drop, Names, Scores, Labeled, Px, User } from "./types.js";\n\n${[
      ...CASES,
      REFUSED,
    ]
      .map(toolSource)
      .join("\n")}`,
    "oracle/values.ts": oracleSource(),
  });
  result = runZcp(dir, ["gen", "--force", "--reporter", "json"]);
  const registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
  tools = new Map(registry.tools.map((tool) => [tool.alias, tool]));
  validators = (
    (await import(pathToFileURL(path.join(dir, "src/zcp.gen/validators.ts")).href)) as {
      validators: ValidatorTable;
    }
  ).validators;
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface JsonDiagnostic {
  severity: string;
  code: string;
  message: string;
  file: string;
  line: number;
}

function diagnostics(): JsonDiagnostic[] {
  return (JSON.parse(result.stdout.trim().split("\n").at(-1)!) as { diagnostics: JsonDiagnostic[] })
    .diagnostics;
}

function caseLine(id: string): number {
  const lines = fs.readFileSync(path.join(dir, "src/tools.ts"), "utf8").split("\n");
  return lines.findIndex((line) => line.includes(`function ${id}(`)) + 1;
}

describe("type mapping", () => {
  it("tsc agrees with every case's accepted and rejected values", () => {
    const tsc = spawnSync(
      path.join(REPO, "node_modules/.bin/tsc"),
      ["-p", path.join(dir, "tsconfig.json"), "--noEmit", "--pretty", "false"],
      { cwd: dir, encoding: "utf8" },
    );
    expect(`${tsc.stdout}${tsc.stderr}`).toBe("");
    expect(tsc.status).toBe(0);
  });

  it("types.ts writes an intersection of arrays as the intersection of their types", () => {
    // tsc checked the generated types.ts with the rest of the project (the test above).
    const types = fs.readFileSync(path.join(dir, "src/zcp.gen/types.ts"), "utf8");
    expect(types).toContain("[string, number] & (string | number)[]");
    expect(types).toContain("[string, number] & string[]");
  });

  it("refuses a required never property (ZCP1202) and warns only where a case says so", () => {
    const errors = diagnostics().filter((d) => d.severity === "error");
    expect(errors.map((d) => [d.code, d.line])).toEqual([["ZCP1202", caseLine(REFUSED.id)]]);
    expect(errors[0]!.message).toContain('required property "b" has type never');
    expect(tools.has(REFUSED.id)).toBe(false);
    const warned = diagnostics().filter((d) => d.code.startsWith("ZCP12"));
    for (const c of CASES)
      expect(
        warned.filter((d) => d.line === caseLine(c.id)).map((d) => d.code),
        c.id,
      ).toEqual(c.warning ? [c.warning] : []);
  });

  for (const c of CASES) {
    it(`${c.id}: ${c.type}`, () => {
      const tool = tools.get(c.id);
      expect(tool, `tool ${c.id}`).toBeDefined();
      const input = tool!.inputSchema as Schema;
      const properties = input.properties as { [name: string]: Schema };
      expect(c.root ? input : properties.value).toEqual(c.schema);
      // Ajv compiles against the 2020-12 meta-schema (`prefixItems: []` fails it).
      const check = ajv().compile(input);
      const wrap = (value: JsonValue): JsonValue => (c.root ? value : { value, n: 1 });
      const validate = validators[tool!.id]!;
      const verdicts = (values: readonly JsonValue[] | undefined) =>
        (values ?? []).map((value) => {
          const valid = check(wrap(value));
          expect(validate(wrap(value)).ok, `validator on ${JSON.stringify(value)}`).toBe(valid);
          return valid;
        });
      for (const valid of verdicts(c.accepts)) expect(valid).toBe(true);
      for (const valid of verdicts(c.acceptedAnyway)) expect(valid).toBe(true);
      for (const valid of verdicts(c.rejects)) expect(valid).toBe(false);
      for (const valid of verdicts(c.refusedAnyway)) expect(valid).toBe(false);
    });
  }
});

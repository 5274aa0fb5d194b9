/**
 * The type → JSON Schema mapping of constructs that had bugs or gaps: numeric index signatures
 * beside named keys, flattened `Record<number | symbol, V>` roots, the empty tuple, `object`,
 * empty-object idioms, properties typed `undefined`/`never` (the XOR idiom), interfaces extending
 * arrays, intersections of arrays (`allOf`), and template literal types (`pattern`) and keys
 * (`patternProperties`). One scratch project holds every case (one
 * `zcp gen` run). Each case states the exact schema, and three oracles judge its values: tsc
 * (each value assigned to the type, the rejected ones under `@ts-expect-error`), Ajv (2020-12,
 * strict, meta-schema checked) on the tool's input schema, and the generated validator. The
 * validator's `patternProperties` and `allOf` are also checked on hand-written schemas beyond
 * what extract emits (several patterns, a pattern over a named key, open objects).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { JsonValue, ToolDefinition } from "@zcp/runtime";
import type { ValidatorTable } from "@zcp/runtime/codegen";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileValidators } from "../src/compile/index.js";
import { validatorsFile } from "../src/emit/index.js";
import {
  ajv,
  type CliResult,
  generatedRegistry,
  REPO,
  runZcp,
  scratchProject,
  STRICT_COMPILER_OPTIONS,
} from "./helpers.js";

type Schema = { readonly [keyword: string]: JsonValue };

const NUMERIC_KEY = "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$";
/** `${number}` in a template literal pattern (extract/templates.ts). */
const NUM = "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?";
/** `${string}` in a template literal pattern. */
const ANY = "[\\s\\S]*";
const CLOSED_EMPTY: Schema = {
  type: "object",
  properties: {},
  required: [],
  additionalProperties: false,
};

interface Case {
  readonly id: string;
  /** The type under test, written with the declarations of DECLARATIONS. */
  readonly type: string;
  /** The tool's one parameter (flattened into the root) instead of `value` beside `n`. */
  readonly root?: boolean;
  /** The type of the values, for tsc, where it is not `type` (a root that is not flattened). */
  readonly oracleType?: string;
  /** The schema of the value (of the root when `root`). */
  readonly schema: Schema;
  /** Values TypeScript accepts, which the schema accepts. */
  readonly accepts?: readonly JsonValue[];
  /** Values TypeScript rejects, which the schema rejects. */
  readonly rejects?: readonly JsonValue[];
  /** A documented loss: values TypeScript accepts that the schema refuses. */
  readonly refusedAnyway?: readonly JsonValue[];
  /** A documented loss: values TypeScript rejects that the schema accepts. */
  readonly acceptedAnyway?: readonly JsonValue[];
  /** The code of the warning the case gets (a documented loss), if any. */
  readonly warning?: string;
}

const DECLARATIONS = `
export enum Color { Red, Green }
export interface Named { a: string; [k: number]: string }
export type Xor = { a: string; b?: never } | { b: string; a?: never };
export type Drop<T, K> = { [P in keyof T]: P extends K ? never : T[P] };
export interface Names extends Array<string> {}
export interface Scores extends ReadonlyArray<number> {}
export interface Labeled extends Array<number> { label: string }
/** A CSS length. */
export type Px = \`\${number}px\`;
/** @pattern ^user:[a-z]+$ */
export type User = \`user:\${string}\`;
`;

const CASES: readonly Case[] = [
  {
    id: "b1_enum_object",
    type: "typeof Color",
    schema: {
      type: "object",
      title: "Color",
      properties: { Red: { type: "integer", const: 0 }, Green: { type: "integer", const: 1 } },
      required: ["Red", "Green"],
      patternProperties: { [NUMERIC_KEY]: { type: "string" } },
      additionalProperties: false,
    },
    accepts: [
      { Red: 0, Green: 1 },
      { Red: 0, Green: 1, "0": "Red", "1": "Green" },
    ],
    rejects: [
      { Red: 0, Green: 1, x: "y" },
      { Red: 0, Green: 1, "0": 5 },
      { Red: 1, Green: 1 },
    ],
  },
  {
    id: "b1_named_and_numeric",
    type: "Named",
    schema: {
      type: "object",
      title: "Named",
      properties: { a: { type: "string" } },
      required: ["a"],
      patternProperties: { [NUMERIC_KEY]: { type: "string" } },
      additionalProperties: false,
    },
    accepts: [{ a: "x" }, { a: "x", "1": "y", "-2.5": "z" }],
    rejects: [{ a: "x", b: "y" }, { a: "x", "1": 2 }, { "1": "y" }],
  },
  {
    id: "b1_pure_numeric_record",
    type: "Record<number, string>",
    schema: {
      type: "object",
      properties: {},
      required: [],
      additionalProperties: { type: "string" },
      propertyNames: { pattern: NUMERIC_KEY },
    },
    accepts: [{}, { "1": "a", "2.5": "b" }],
    rejects: [{ a: "x" }, { "1": 2 }],
  },
  {
    id: "b2_root_numeric_record",
    type: "Record<number, string>",
    root: true,
    schema: {
      type: "object",
      properties: {},
      required: [],
      additionalProperties: { type: "string" },
      propertyNames: { pattern: NUMERIC_KEY },
    },
    accepts: [{}, { "1": "a" }],
    rejects: [{ a: "x" }, { "1": 2 }],
  },
  {
    id: "b2_root_named_and_numeric",
    type: "Named",
    root: true,
    schema: {
      type: "object",
      properties: { a: { type: "string" } },
      required: ["a"],
      patternProperties: { [NUMERIC_KEY]: { type: "string" } },
      additionalProperties: false,
    },
    accepts: [{ a: "x" }, { a: "x", "1": "y" }],
    rejects: [{ a: "x", b: "y" }, { a: "x", "1": 2 }, { "1": "y" }],
  },
  {
    id: "b2_symbol_record",
    type: "Record<symbol, string>",
    schema: CLOSED_EMPTY,
    accepts: [{}],
    rejects: [{ a: "x" }],
  },
  {
    id: "b2_root_symbol_record",
    type: "Record<symbol, string>",
    root: true,
    schema: CLOSED_EMPTY,
    accepts: [{}],
    rejects: [{ a: "x" }],
  },
  {
    id: "b3_empty_tuple",
    type: "[]",
    schema: { type: "array", maxItems: 0 },
    accepts: [[]],
    rejects: [["a"], {}, "x"],
  },
  {
    id: "g1_object",
    type: "object",
    schema: { type: "object" },
    accepts: [{}, { a: 1, b: [true] }],
    rejects: ["x", 1, null],
    refusedAnyway: [[1, 2]],
  },
  {
    id: "g2_record_of_never",
    type: "Record<string, never>",
    schema: { type: "object", properties: {}, required: [], additionalProperties: false },
    accepts: [{}],
    rejects: [{ a: 1 }, []],
  },
  {
    // TypeScript reads it as `{}`; meant empty, it is the closed empty object.
    id: "g2_record_over_never",
    type: "Record<never, number>",
    schema: CLOSED_EMPTY,
    accepts: [{}],
    rejects: [null],
    refusedAnyway: [{ a: 1 }],
  },
  {
    // `{}` is "any value but null and undefined" to TypeScript: unchanged, a documented loss.
    id: "g2_empty_type",
    type: "{}",
    schema: CLOSED_EMPTY,
    accepts: [{}],
    rejects: [null],
    refusedAnyway: ["x", 1, { a: 1 }],
  },
  {
    id: "g3_xor",
    type: "Xor",
    schema: {
      anyOf: [
        {
          type: "object",
          properties: { a: { type: "string" } },
          required: ["a"],
          additionalProperties: false,
        },
        {
          type: "object",
          properties: { b: { type: "string" } },
          required: ["b"],
          additionalProperties: false,
        },
      ],
    },
    accepts: [{ a: "x" }, { b: "y" }],
    rejects: [{ a: "x", b: "y" }, {}, { a: 1 }],
  },
  {
    id: "g3_optional_undefined",
    type: "{ x: string; y?: undefined; z?: never }",
    schema: {
      type: "object",
      properties: { x: { type: "string" } },
      required: ["x"],
      additionalProperties: false,
    },
    accepts: [{ x: "a" }],
    rejects: [{ x: "a", y: null }, { x: "a", z: "b" }, {}],
  },
  {
    // The mapped type's `never` removes the key: TypeScript then accepts no value at all.
    id: "g3_mapped_never",
    type: 'Drop<{ a: string; b: number }, "b">',
    schema: {
      type: "object",
      title: "Drop",
      properties: { a: { type: "string" } },
      required: ["a"],
      additionalProperties: false,
    },
    rejects: [{ a: "x", b: 1 }, {}],
    acceptedAnyway: [{ a: "x" }],
  },
  {
    id: "g6_array_interface",
    type: "Names",
    schema: { type: "array", items: { type: "string" } },
    accepts: [[], ["a", "b"]],
    rejects: [[1], "a", {}],
  },
  {
    id: "g6_readonly_array_interface",
    type: "Scores",
    schema: { type: "array", items: { type: "number" } },
    accepts: [[], [1, 2.5]],
    rejects: [["a"], {}],
  },
  {
    // A root that is an array interface is not flattened: it is the one positional parameter.
    id: "g6_array_interface_root",
    type: "Names",
    root: true,
    oracleType: "{ value: Names }",
    schema: {
      type: "object",
      properties: { value: { type: "array", items: { type: "string" } } },
      required: ["value"],
      additionalProperties: false,
    },
    accepts: [{ value: ["a"] }],
    rejects: [{ value: [1] }, ["a"]],
  },
  {
    id: "g6_array_interface_members",
    type: "Labeled",
    schema: { type: "array", items: { type: "number" } },
    rejects: [["a"], { label: "x" }],
    acceptedAnyway: [[1, 2]],
    warning: "ZCP1208",
  },
  {
    id: "g7_tuple_and_array",
    type: "[string, number] & (string | number)[]",
    schema: {
      allOf: [
        {
          type: "array",
          prefixItems: [{ type: "string" }, { type: "number" }],
          items: false,
          minItems: 2,
          maxItems: 2,
        },
        { type: "array", items: { type: ["string", "number"] } },
      ],
    },
    accepts: [["a", 1]],
    rejects: [["a", "b"], [1, 1], ["a"], ["a", 1, 2], "ab"],
  },
  {
    id: "g7_uninhabited",
    type: "[string, number] & string[]",
    schema: {
      allOf: [
        {
          type: "array",
          prefixItems: [{ type: "string" }, { type: "number" }],
          items: false,
          minItems: 2,
          maxItems: 2,
        },
        { type: "array", items: { type: "string" } },
      ],
    },
    rejects: [
      ["a", 1],
      ["a", "b"],
    ],
  },
  {
    id: "g7_array_and_object",
    type: "string[] & { length: 2 }",
    schema: { type: "array", items: { type: "string" } },
    accepts: [["a", "b"]],
    rejects: [[1, 2], {}],
    acceptedAnyway: [["a"], ["a", "b", "c"]],
    warning: "ZCP1208",
  },
  {
    id: "t1_number_suffix",
    type: "`${number}px`",
    schema: { type: "string", pattern: `^${NUM}px$` },
    accepts: ["1px", "-2.5px", "0px", "1e3px", "1.5E-7px"],
    rejects: ["px", "abc", "1pxx", "a1px", "Infinitypx", 1, null],
    // TypeScript takes any spelling `+s` reads as finite, the pattern only JSON's; and it
    // refuses what overflows to Infinity.
    refusedAnyway: ["+1px", ".5px", "1.px", "0x1Fpx", " 1px", "1 px"],
    acceptedAnyway: ["1e400px"],
  },
  {
    id: "t1_string_prefix",
    type: "`user:${string}`",
    schema: { type: "string", pattern: `^user:${ANY}$` },
    accepts: ["user:", "user:ann", "user:a\nb", "user:😀"],
    rejects: ["admin", "User:x", " user:x", "user", 7],
  },
  {
    id: "t1_boolean_finite",
    type: "`${boolean}!`",
    schema: { type: "string", enum: ["false!", "true!"] },
    accepts: ["true!", "false!"],
    rejects: ["true", "yes!", "!"],
  },
  {
    id: "t1_boolean_number",
    type: "`${boolean}-${number}`",
    schema: { type: "string", pattern: `^(?:false-${NUM}|true-${NUM})$` },
    accepts: ["true-1", "false--2.5"],
    rejects: ["true-", "yes-1", "true-x", "true1"],
  },
  {
    id: "t1_union_placeholder",
    type: '`${"a" | "b"}.${string}`',
    schema: { type: "string", pattern: `^(?:a\\.${ANY}|b\\.${ANY})$` },
    accepts: ["a.", "b.x", "a.b.c"],
    rejects: ["c.x", "ax", "a", ".a"],
  },
  {
    id: "t1_escaped_texts",
    type: "`[${string}]?(${bigint})`",
    schema: { type: "string", pattern: `^\\[${ANY}\\]\\?\\(-?(?:0|[1-9][0-9]*)\\)$` },
    accepts: ["[x]?(1)", "[]?(-20)"],
    rejects: ["[x](1)", "x?(1)", "[x]?(1.5)", "[x]?()"],
  },
  {
    id: "t1_with_literal_and_null",
    type: '`id-${number}` | "none" | null',
    schema: { type: ["string", "null"], pattern: `^(?:id-${NUM}|none)$` },
    accepts: ["id-1", "none", null],
    rejects: ["id-", "nothing", 1],
  },
  {
    id: "t1_described_alias",
    type: "Px",
    schema: { type: "string", pattern: `^${NUM}px$`, description: "A CSS length." },
    accepts: ["1px"],
    rejects: ["px"],
  },
  {
    id: "t1_pattern_tag_wins",
    type: "User",
    schema: { type: "string", pattern: "^user:[a-z]+$" },
    accepts: ["user:ann"],
    rejects: ["admin"],
    refusedAnyway: ["user:Ann", "user:"],
  },
  {
    id: "t2_template_record",
    type: "Record<`x-${string}`, number>",
    schema: {
      type: "object",
      properties: {},
      required: [],
      patternProperties: { [`^x-${ANY}$`]: { type: "number" } },
      additionalProperties: false,
    },
    accepts: [{}, { "x-a": 1, "x-": 2 }],
    rejects: [{ "x-a": "a" }, { y: 1 }, { "X-a": 1 }],
  },
  {
    id: "t2_root_template_record",
    type: "Record<`x-${string}`, number>",
    root: true,
    schema: {
      type: "object",
      properties: {},
      required: [],
      patternProperties: { [`^x-${ANY}$`]: { type: "number" } },
      additionalProperties: false,
    },
    accepts: [{}, { "x-a": 1 }],
    rejects: [{ "x-a": "a" }, { y: 1 }],
  },
  {
    id: "t2_template_index_and_named",
    type: "{ id: number; [k: `x-${string}`]: string }",
    schema: {
      type: "object",
      properties: { id: { type: "number" } },
      required: ["id"],
      patternProperties: { [`^x-${ANY}$`]: { type: "string" } },
      additionalProperties: false,
    },
    accepts: [{ id: 1 }, { id: 1, "x-a": "s" }],
    rejects: [{ id: 1, y: "s" }, { id: 1, "x-a": 1 }, { "x-a": "s" }],
  },
  {
    id: "t2_template_and_string_index",
    type: "{ [k: string]: string | number; [k: `n-${number}`]: number }",
    schema: {
      type: "object",
      properties: {},
      required: [],
      patternProperties: { [`^n-${NUM}$`]: { type: "number" } },
      additionalProperties: { type: ["string", "number"] },
    },
    accepts: [{}, { a: "x", "n-1": 2 }],
    rejects: [{ "n-1": "x" }, { a: true }],
  },
  {
    id: "t2_template_and_numeric_index",
    type: "{ [k: number]: boolean; [k: `x-${string}`]: string }",
    schema: {
      type: "object",
      properties: {},
      required: [],
      patternProperties: {
        [NUMERIC_KEY]: { type: "boolean" },
        [`^x-${ANY}$`]: { type: "string" },
      },
      additionalProperties: false,
    },
    accepts: [{}, { "1": true, "x-a": "s" }],
    rejects: [{ "1": "s" }, { "x-a": true }, { y: "s" }],
  },
];

/** A required `never` property: no value satisfies the object, so the tool is left out. */
const REFUSED = { id: "g3_required_never", type: "{ a: string; b: never }" };

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

/** Schemas the extract stage does not emit, for the validator's general `patternProperties` and `allOf`. */
const KEYWORD_CASES: readonly { id: string; schema: Schema; values: readonly JsonValue[] }[] = [
  {
    id: "patterns_overlapping",
    schema: {
      type: "object",
      properties: { a1: { type: "string" } },
      required: [],
      patternProperties: { "^a": { type: "string", minLength: 2 }, "1$": { type: "string" } },
      additionalProperties: false,
    },
    values: [
      {},
      { a1: "xy" },
      { a1: "x" },
      { ab: "xy" },
      { b1: "x" },
      { b1: 2 },
      { ab: 2 },
      { c: "x" },
    ],
  },
  {
    id: "patterns_beside_open_object",
    schema: {
      type: "object",
      properties: {},
      required: [],
      patternProperties: { "^[0-9]+$": { type: "string" } },
      additionalProperties: { type: "boolean" },
    },
    values: [{}, { "1": "a" }, { "1": true }, { x: true }, { x: "a" }],
  },
  {
    id: "patterns_without_closing",
    schema: { type: "object", patternProperties: { "^x": { type: "string" } } },
    values: [{}, { x: "a" }, { x: 1 }, { y: 1 }, []],
  },
  {
    id: "all_of_objects",
    schema: {
      allOf: [
        { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        { type: "object", properties: { b: { type: "string" } }, required: ["b"] },
      ],
    },
    values: [{ a: "x", b: "y" }, { a: "x" }, { b: "y" }, { a: 1, b: "y" }, "x"],
  },
];

describe("generated validators on patternProperties and allOf", () => {
  it("give Ajv's verdict on every value", async () => {
    const tools = KEYWORD_CASES.map(
      (c) => ({ id: c.id, alias: c.id, inputSchema: c.schema }) as unknown as ToolDefinition,
    );
    const file = path.join(dir, "keywords.validators.ts");
    fs.writeFileSync(
      file,
      validatorsFile(
        { version: "0.0.0-test", config: "zcp.config.json" },
        compileValidators(tools),
      ),
    );
    const table = ((await import(pathToFileURL(file).href)) as { validators: ValidatorTable })
      .validators;
    // Strict, but a named property may match a pattern: both schemas apply to it.
    const oracle = new Ajv2020({ strict: true, allowMatchingProperties: true });
    for (const c of KEYWORD_CASES) {
      const check = oracle.compile(c.schema);
      for (const value of c.values)
        expect(table[c.id]!(value).ok, `${c.id} on ${JSON.stringify(value)}`).toBe(check(value));
    }
  });
});

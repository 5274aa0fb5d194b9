/**
 * The cases of the type → JSON Schema mapping (type-mapping.test.ts): the declarations they use,
 * each case's type, its exact schema, and the values the oracles judge.
 */
import type { JsonValue } from "@zcp/runtime";

export type Schema = { readonly [keyword: string]: JsonValue };

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

export interface Case {
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

export const DECLARATIONS = `
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

export const CASES: readonly Case[] = [
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
export const REFUSED = { id: "g3_required_never", type: "{ a: string; b: never }" };

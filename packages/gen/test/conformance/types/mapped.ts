/** Mapped types: over literal keys, `keyof`, with modifiers, key remapping, filtering, and key aliases. */
import type { Case } from "./case.js";

const USER = "interface User { id: string; name: string; age?: number }";

export const mapped: Case[] = [
  {
    id: "over_literals",
    type: '{ [K in "a" | "b"]: number }',
    accept: [{ a: 1, b: 2 }],
    reject: [{ a: 1 }, { a: 1, b: 2, c: 3 }],
    schema: { required: ["a", "b"] },
  },
  {
    id: "over_keyof",
    decls: USER,
    type: "{ [K in keyof User]: boolean }",
    accept: [
      { id: true, name: false },
      { id: true, name: false, age: true },
    ],
    reject: [{ id: true }, { id: 1, name: false }],
  },
  {
    id: "optional_modifier",
    type: '{ [K in "x" | "y"]?: string }',
    accept: [{}, { x: "a" }],
    reject: [{ z: "a" }],
  },
  {
    id: "remove_optional",
    decls: USER,
    type: "{ [K in keyof User]-?: User[K] }",
    accept: [{ id: "a", name: "b", age: 1 }],
    reject: [{ id: "a", name: "b" }],
  },
  {
    id: "key_remap",
    decls: "interface P { a: number; b: string }",
    type: "{ [K in keyof P as `get_${K & string}`]: P[K] }",
    accept: [{ get_a: 1, get_b: "x" }],
    reject: [
      { a: 1, b: "x" },
      { get_a: "1", get_b: "x" },
    ],
    schema: { required: ["get_a", "get_b"] },
  },
  {
    id: "filter_keys",
    decls: "interface P { a: number; b: string; c: number }",
    type: "{ [K in keyof P as P[K] extends number ? K : never]: P[K] }",
    accept: [{ a: 1, c: 2 }],
    reject: [{ a: 1, b: "x", c: 2 }, { a: 1 }],
  },
  {
    id: "generic_mapped",
    decls: "type Flags<T> = { [K in keyof T]: boolean };\ninterface O { x: string; y: number }",
    type: "Flags<O>",
    accept: [{ x: true, y: false }],
    reject: [{ x: "a", y: 1 }],
  },
  {
    id: "nullable_values",
    decls: "type Nullable<T> = { [K in keyof T]: T[K] | null };\ninterface O { x: string }",
    type: "Nullable<O>",
    accept: [{ x: null }, { x: "a" }],
    reject: [{}],
  },
  {
    id: "key_alias_pattern",
    decision: "B4",
    decls: "/** @pattern ^[a-z]+$ */\ntype Key = string;",
    type: "Record<Key, number>",
    accept: [{}, { abc: 1 }],
    constraint: [{ ABC: 1 }, { "a-b": 2 }],
    schema: { propertyNames: { pattern: "^[a-z]+$" } },
  },
  {
    id: "mapped_key_alias_pattern",
    decision: "B4",
    decls: "/** @pattern ^[a-z]+$ */\ntype Key = string;",
    type: "{ [K in Key]: string }",
    accept: [{ abc: "x" }],
    constraint: [{ Abc: "x" }],
    schema: { propertyNames: { pattern: "^[a-z]+$" } },
  },
  {
    id: "never_in_mapped",
    decision: "G3",
    decls:
      "type Only<T, K extends keyof T> = { [P in keyof T]: P extends K ? T[P] : never };\ninterface O { a: string; b: number }",
    type: 'Partial<Only<O, "a">>',
    accept: [{}, { a: "x" }],
    reject: [{ a: "x", b: 1 }],
    without: ["b"],
  },
  {
    id: "never_in_mapped_required",
    decision: "G3",
    decls:
      "type Without<T, X> = { [P in keyof T]: P extends X ? never : T[P] };\ninterface O { a: string; b: number }",
    type: 'Without<O, "b">',
    reject: [{ a: "x", b: 1 }, {}],
    loss: {
      reason:
        "a mapped `p: never` is omitted: TypeScript requires the key, no JSON value is `never`",
      schemaOnly: [{ a: "x" }],
    },
  },
  {
    id: "readonly_mapped",
    type: '{ readonly [K in "p" | "q"]: number[] }',
    accept: [{ p: [], q: [1] }],
    reject: [{ p: [] }],
  },
  {
    id: "mapped_descriptions",
    decls: "interface O {\n  /** The a value. */\n  a: string;\n}",
    type: "{ [K in keyof O]: O[K] }",
    accept: [{ a: "x" }],
    reject: [{}],
    schema: { properties: { a: { description: "The a value." } } },
  },
];

/** Literal types: string, number and boolean literals, literal unions, `as const` values. */
import type { Case } from "./case.js";

export const literals: Case[] = [
  {
    id: "string_literal",
    type: '"on"',
    accept: ["on"],
    reject: ["off", "ON", 1, null],
    schema: { const: "on" },
  },
  {
    id: "number_literal",
    type: "42",
    accept: [42],
    reject: [41, "42", 42.5],
    schema: { const: 42 },
  },
  { id: "negative_literal", type: "-1", accept: [-1], reject: [1, 0], schema: { const: -1 } },
  { id: "float_literal", type: "0.5", accept: [0.5], reject: [0.25, 1] },
  {
    id: "true_literal",
    type: "true",
    accept: [true],
    reject: [false, "true", 1],
    schema: { const: true },
  },
  { id: "false_literal", type: "false", accept: [false], reject: [true, 0, null] },
  {
    id: "string_union",
    type: '"red" | "green" | "blue"',
    accept: ["red", "green", "blue"],
    reject: ["Red", "yellow", "", 0],
    schema: { type: "string", enum: ["red", "green", "blue"] },
  },
  {
    id: "integer_union",
    type: "1 | 2 | 3",
    accept: [1, 2, 3],
    reject: [4, 1.5, "1", 0],
    schema: { type: "integer", enum: [1, 2, 3] },
  },
  {
    id: "mixed_numbers",
    type: "1 | 2.5",
    accept: [1, 2.5],
    reject: [2, "2.5"],
    schema: { type: "number" },
  },
  {
    id: "mixed_literal_kinds",
    type: '"auto" | 0 | false',
    accept: ["auto", 0, false],
    reject: ["0", true, 1, null],
  },
  {
    id: "literal_union_null",
    type: '"a" | "b" | null',
    accept: ["a", "b", null],
    reject: ["c", 0, false],
    schema: { enum: ["a", "b", null] },
  },
  {
    id: "literal_with_string",
    type: '"auto" | string',
    accept: ["auto", "anything", ""],
    reject: [1, null],
    schema: { type: "string" },
  },
  {
    id: "as_const_array",
    decls: 'const SIZES = ["s", "m", "l"] as const;',
    type: "(typeof SIZES)[number]",
    accept: ["s", "m", "l"],
    reject: ["xl", "S", 0],
    // Only the checker's resolved type is available here: its members are sorted.
    schema: { enum: ["l", "m", "s"] },
  },
  {
    id: "as_const_object_values",
    decls: "const LEVEL = { low: 1, high: 9 } as const;",
    type: "(typeof LEVEL)[keyof typeof LEVEL]",
    accept: [1, 9],
    reject: [2, "low", 10],
  },
  {
    id: "literal_property",
    type: '{ kind: "circle"; r: number }',
    accept: [{ kind: "circle", r: 1 }],
    reject: [{ kind: "square", r: 1 }, { r: 1 }, { kind: "circle" }],
  },
  {
    id: "unicode_literal",
    type: '"café" | "naïve"',
    accept: ["café", "naïve"],
    reject: ["cafe", "naive"],
  },
];

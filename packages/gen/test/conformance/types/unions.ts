/** Unions: of primitives, discriminated, of objects, with null, of arrays and literals, nested. */
import type { Case } from "./case.js";

export const unions: Case[] = [
  {
    id: "string_or_number",
    type: "string | number",
    accept: ["a", 1],
    reject: [true, null, []],
    schema: { type: ["string", "number"] },
  },
  {
    id: "three_primitives",
    type: "string | number | boolean",
    accept: ["a", 1, false],
    reject: [null, {}],
  },
  { id: "primitive_or_null", type: "number | null", accept: [1, null], reject: ["1", false] },
  {
    id: "discriminated",
    decls:
      'interface Circle { kind: "circle"; r: number }\ninterface Rect { kind: "rect"; w: number; h: number }',
    type: "Circle | Rect",
    accept: [
      { kind: "circle", r: 1 },
      { kind: "rect", w: 1, h: 2 },
    ],
    reject: [{ kind: "circle", w: 1, h: 2 }, { kind: "tri" }, { r: 1 }],
    schema: { anyOf: [{ title: "Circle" }, { title: "Rect" }] },
  },
  {
    // A union is not flattened (only a single object type is): it stays the one parameter.
    id: "discriminated_param",
    type: '{ mode: "a"; x: number } | { mode: "b"; y: string }',
    accept: [
      { mode: "a", x: 1 },
      { mode: "b", y: "s" },
    ],
    reject: [{ mode: "a", y: "s" }, { mode: "c" }],
  },
  {
    id: "object_or_string",
    type: "string | { ref: string }",
    accept: ["a", { ref: "b" }],
    reject: [{ ref: 1 }, 1],
  },
  {
    id: "array_or_object",
    type: "number[] | { n: number }",
    accept: [[1], { n: 1 }],
    reject: [["1"], { n: "1" }],
  },
  {
    id: "union_of_arrays",
    type: "string[] | number[]",
    accept: [["a"], [1], []],
    reject: [["a", 1]],
  },
  {
    id: "literal_and_object",
    type: '"none" | { size: number }',
    accept: ["none", { size: 1 }],
    reject: ["some", { size: "1" }],
  },
  {
    id: "nullable_discriminated",
    type: '{ t: "x" } | { t: "y"; v: number } | null',
    accept: [null, { t: "x" }, { t: "y", v: 1 }],
    reject: [{ t: "y" }, { t: "z" }],
  },
  {
    id: "boolean_literal_union",
    type: "true | false",
    accept: [true, false],
    reject: [0, "false"],
    schema: { type: "boolean" },
  },
  {
    id: "union_written_order",
    type: '"z" | "a" | "m"',
    accept: ["z", "a", "m"],
    reject: ["b"],
    schema: { enum: ["z", "a", "m"] },
  },
  {
    id: "nested_union_property",
    type: "{ v: string | { inner: number | null } }",
    accept: [{ v: "a" }, { v: { inner: null } }, { v: { inner: 1 } }],
    reject: [{ v: { inner: "1" } }, { v: null }],
  },
  {
    id: "overlapping_objects",
    type: "{ a: number } | { a: number; b: number }",
    accept: [{ a: 1 }, { a: 1, b: 2 }],
    reject: [{ b: 2 }, { a: 1, c: 3 }],
  },
  {
    id: "tuple_or_string",
    type: "[number, number] | string",
    accept: [[1, 2], "1,2"],
    reject: [[1], 1],
  },
];

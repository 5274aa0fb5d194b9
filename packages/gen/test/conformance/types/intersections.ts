/** Intersections: of objects, with brands, of arrays and tuples, with unions. */
import type { Case } from "./case.js";

export const intersections: Case[] = [
  {
    id: "two_objects",
    type: "{ a: number } & { b: string }",
    accept: [{ a: 1, b: "x" }],
    reject: [{ a: 1 }, { b: "x" }, { a: 1, b: "x", c: 0 }],
    schema: { required: ["a", "b"], additionalProperties: false },
  },
  {
    id: "named_objects",
    decls: "interface Id { id: string }\ninterface Stamp { at: number }",
    type: "Id & Stamp",
    accept: [{ id: "a", at: 1 }],
    reject: [{ id: "a" }],
  },
  {
    id: "overlapping_props",
    type: '{ a: string } & { a: "x" | "y" }',
    accept: [{ a: "x" }, { a: "y" }],
    reject: [{ a: "z" }],
  },
  {
    id: "intersection_root",
    use: "root",
    decls: "interface Paging { page: number }",
    type: "Paging & { q: string }",
    accept: [{ page: 1, q: "a" }],
    reject: [{ q: "a" }, { page: 1, q: "a", x: 1 }],
  },
  {
    id: "brand_string",
    type: 'string & { readonly __brand: "Email" }',
    reject: [1, null],
    loss: {
      reason: "a brand has no JSON form: the branded primitive maps to the primitive",
      schemaOnly: ["a@b.c"],
    },
    schema: { type: "string" },
  },
  {
    id: "brand_number",
    type: 'number & { readonly __brand: "Cents" }',
    reject: ["1"],
    loss: {
      reason: "a brand has no JSON form: the branded primitive maps to the primitive",
      schemaOnly: [1],
    },
    schema: { type: "number" },
  },
  {
    id: "intersection_with_union",
    type: '{ id: string } & ({ kind: "a"; a: number } | { kind: "b"; b: number })',
    accept: [
      { id: "1", kind: "a", a: 1 },
      { id: "1", kind: "b", b: 2 },
    ],
    reject: [
      { kind: "a", a: 1 },
      { id: "1", kind: "a", b: 2 },
    ],
  },
  {
    id: "tuple_and_array",
    decision: "G7",
    type: "[string, number] & (string | number)[]",
    accept: [["a", 1]],
    reject: [["a"], [1, "a"], ["a", 1, 2]],
    schema: { allOf: [{ type: "array" }, { type: "array" }] },
  },
  {
    id: "array_and_length",
    decision: "G7",
    type: "string[] & { length: 2 }",
    reject: [[1, 2], "ab"],
    warns: "ZCP1208",
    loss: {
      reason: "the array part of an array intersection whose other members do not map (warning)",
      schemaOnly: [["a"], ["a", "b", "c"]],
    },
    schema: { type: "array", items: { type: "string" } },
  },
  {
    id: "nested_intersection",
    type: "{ meta: { a: number } & { b: number } }",
    accept: [{ meta: { a: 1, b: 2 } }],
    reject: [{ meta: { a: 1 } }],
  },
  {
    id: "intersection_optional",
    type: "{ a?: number } & { b: string }",
    accept: [{ b: "x" }, { a: 1, b: "x" }],
    reject: [{ a: 1 }],
  },
  {
    id: "intersection_record",
    type: "{ id: string } & Record<string, string>",
    accept: [{ id: "a" }, { id: "a", x: "y" }],
    reject: [{ x: "y" }],
  },
];

/** Optional and nullable: `p?:`, `| undefined`, `| null`, both, defaults, and properties that can only be undefined. */
import type { Case } from "./case.js";
import { ABSENT } from "./case.js";

export const optional: Case[] = [
  {
    id: "optional_prop",
    type: "{ a?: string }",
    accept: [{}, { a: "x" }],
    reject: [{ a: 1 }, { a: null }, { b: 1 }],
    schema: { additionalProperties: false, required: [] },
  },
  {
    id: "undefined_union_prop",
    type: "{ a: string | undefined }",
    accept: [{ a: "x" }],
    reject: [{ a: null }, { a: 1 }],
    loss: {
      reason: "`p: T | undefined` is optional in the schema (JSON has no undefined)",
      schemaOnly: [{}],
    },
  },
  {
    id: "nullable_prop",
    type: "{ a: string | null }",
    accept: [{ a: "x" }, { a: null }],
    reject: [{}, { a: 1 }],
    schema: { properties: { a: { type: ["string", "null"] } }, required: ["a"] },
  },
  {
    id: "optional_nullable",
    type: "{ a?: number | null }",
    accept: [{}, { a: 1 }, { a: null }],
    reject: [{ a: "1" }],
  },
  {
    id: "nullable_object",
    type: "{ x: number } | null",
    accept: [null, { x: 1 }],
    reject: [{}, 1],
    schema: { anyOf: [{ type: "object" }, { type: "null" }] },
  },
  {
    id: "nullable_array",
    type: "{ a: string[] | null }",
    accept: [{ a: null }, { a: [] }],
    reject: [{ a: [1] }],
  },
  {
    id: "optional_param",
    type: "string | undefined",
    accept: ["x", ABSENT],
    reject: [null, 1],
  },
  {
    id: "null_param",
    type: "string | null",
    accept: ["x", null],
    reject: [1],
  },
  {
    id: "undefined_prop_omitted",
    decision: "G3",
    type: "{ a: string; b?: undefined }",
    accept: [{ a: "x" }],
    reject: [{ a: "x", b: null }, { a: "x", b: 1 }, {}],
    without: ["b"],
  },
  {
    id: "undefined_required_prop",
    decision: "G3",
    type: "{ a: string; b: undefined }",
    reject: [
      { a: "x", b: null },
      { a: "x", b: "y" },
    ],
    loss: {
      reason:
        "a property typed `undefined` is omitted: TypeScript requires the key, JSON cannot send undefined",
      schemaOnly: [{ a: "x" }],
    },
    without: ["b"],
  },
  {
    id: "optional_never",
    decision: "G3",
    type: "{ a: string; b?: never }",
    accept: [{ a: "x" }],
    reject: [
      { a: "x", b: 1 },
      { a: "x", b: null },
    ],
  },
  {
    id: "xor_idiom",
    decision: "G3",
    type: "{ a: string; b?: never } | { b: string; a?: never }",
    accept: [{ a: "x" }, { b: "y" }],
    reject: [{ a: "x", b: "y" }, {}, { a: 1 }],
  },
  {
    id: "required_never",
    decision: "G3",
    type: "{ a: string; b: never }",
    reject: [{ a: "x" }, { a: "x", b: 1 }],
    refused: "ZCP1202",
  },
  {
    id: "optional_object_prop",
    type: "{ opts?: { verbose: boolean } }",
    accept: [{}, { opts: { verbose: true } }],
    reject: [{ opts: {} }, { opts: null }],
  },
  {
    id: "root_optional",
    use: "root",
    type: "{ q: string; page?: number; size?: number | null }",
    accept: [{ q: "a" }, { q: "a", page: 2, size: null }],
    reject: [{ page: 2 }, { q: "a", page: "2x" }],
  },
  {
    id: "partial_nullable_union",
    type: "{ v?: string | number | null }",
    accept: [{}, { v: "a" }, { v: 1 }, { v: null }],
    reject: [{ v: true }, { v: [] }],
  },
];

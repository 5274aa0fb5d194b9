/**
 * Generator options: the compiler options `zcp gen` reads from the project's tsconfig, which
 * change what a written type means (without `strictNullChecks`, `string | null` is `string` to
 * the checker; `exactOptionalPropertyTypes` refuses `undefined` for an optional property).
 */
import type { Case } from "./case.js";
import { ABSENT } from "./case.js";

const LOOSE = { strict: false };
const EXACT = { exactOptionalPropertyTypes: true };

/** TypeScript without `strictNullChecks` lets `null` into every type. */
const NULL_EVERYWHERE =
  "without strictNullChecks TypeScript lets null into every type; the schema follows the written type, null only where `| null` is written";

export const options: Case[] = [
  {
    id: "loose_written_null_prop",
    compilerOptions: LOOSE,
    type: "{ a: string | null }",
    accept: [{ a: null }, { a: "x" }],
    reject: [{ a: 1 }, {}],
    schema: { properties: { a: { type: ["string", "null"] } } },
  },
  {
    id: "loose_written_null_param",
    compilerOptions: LOOSE,
    type: "number | null",
    accept: [null, 1],
    reject: ["1"],
  },
  {
    id: "loose_nullable_items",
    compilerOptions: LOOSE,
    type: "{ list: (number | null)[] }",
    accept: [{ list: [] }, { list: [1, null] }],
    reject: [{ list: ["1"] }],
  },
  {
    id: "loose_boolean_null",
    compilerOptions: LOOSE,
    type: "{ flag: boolean | null }",
    accept: [{ flag: null }, { flag: true }],
    reject: [{ flag: "true" }],
  },
  {
    id: "loose_enum_null",
    compilerOptions: LOOSE,
    decls: "enum Level {\n  Low = 1,\n  High = 2,\n}",
    type: "{ level: Level | null }",
    accept: [{ level: null }, { level: 2 }],
    reject: [{ level: "2" }],
  },
  {
    id: "loose_object_null",
    compilerOptions: LOOSE,
    type: "{ at?: { x: number } | null }",
    accept: [{}, { at: null }, { at: { x: 1 } }],
    reject: [{ at: {} }],
  },
  {
    id: "loose_union_null",
    compilerOptions: LOOSE,
    type: "{ v: string | number | null }",
    accept: [{ v: null }, { v: 1 }, { v: "a" }],
    reject: [{ v: true }],
  },
  {
    id: "loose_literals_null",
    compilerOptions: LOOSE,
    type: '"a" | "b" | null',
    accept: ["a", null],
    reject: ["c"],
  },
  {
    id: "loose_alias_null",
    compilerOptions: LOOSE,
    decls: "type Maybe<T> = T | null;\ntype Name = string | null;",
    type: "{ a: Maybe<number>; b: Name }",
    accept: [
      { a: null, b: null },
      { a: 1, b: "x" },
    ],
    reject: [{ a: "1", b: null }],
  },
  {
    id: "loose_nullable_tag",
    compilerOptions: LOOSE,
    type: "{\n  /** @minimum 1 */\n  v: number | null;\n}",
    accept: [{ v: null }, { v: 1 }],
    constraint: [{ v: 0 }],
  },
  {
    id: "loose_null_not_written",
    compilerOptions: LOOSE,
    type: "{ a: string; b: number[] }",
    accept: [{ a: "x", b: [] }],
    reject: [{ a: 1, b: [] }, { a: "x" }],
    loss: {
      reason: NULL_EVERYWHERE,
      tsOnly: [
        { a: null, b: [] },
        { a: "x", b: [null] },
      ],
    },
  },
  {
    id: "loose_undefined_union_optional",
    compilerOptions: LOOSE,
    type: "{ a: string | undefined; b?: number }",
    accept: [{ a: "x" }, { a: "x", b: 1 }],
    reject: [{ a: 1 }],
    loss: {
      reason:
        "`p: T | undefined` is optional in the schema (JSON has no undefined), with strictNullChecks or without",
      schemaOnly: [{}],
    },
  },
  {
    id: "loose_undefined_param",
    compilerOptions: LOOSE,
    type: "string | undefined",
    accept: ["x", ABSENT],
    reject: [1],
  },
  {
    id: "loose_null_undefined_prop",
    compilerOptions: LOOSE,
    type: "{ a?: number | null | undefined; b: string }",
    accept: [{ b: "x" }, { a: null, b: "x" }, { a: 1, b: "x" }],
    reject: [{ a: "1", b: "x" }],
  },
  {
    id: "loose_optional_param",
    compilerOptions: LOOSE,
    type: "{ q: string; page?: number }",
    use: "root",
    accept: [{ q: "a" }, { q: "a", page: 1 }],
    reject: [{ page: 1 }, { q: "a", page: "1" }],
  },
  {
    id: "exact_optional",
    compilerOptions: EXACT,
    type: "{ a?: string }",
    accept: [{}, { a: "x" }],
    reject: [{ a: null }, { a: 1 }],
    schema: { required: [] },
  },
  {
    id: "exact_optional_undefined",
    compilerOptions: EXACT,
    type: "{ a?: string | undefined; b?: number | null }",
    accept: [{}, { a: "x", b: null }],
    reject: [{ a: null }, { b: "1" }],
  },
  {
    id: "exact_partial",
    compilerOptions: EXACT,
    type: "Partial<{ a: number; b: string }>",
    accept: [{}, { a: 1 }],
    reject: [{ a: "1" }, { c: 1 }],
  },
  {
    id: "exact_optional_param",
    compilerOptions: EXACT,
    type: "string | undefined",
    accept: ["x", ABSENT],
    reject: [null],
  },
];

/** Utility types: Partial, Required, Readonly, Pick, Omit, Exclude, Extract, NonNullable, ReturnType, Parameters, Awaited. */
import type { Case } from "./case.js";

const USER = "interface User { id: string; name: string; age?: number }";

export const utility: Case[] = [
  {
    id: "partial",
    decls: USER,
    type: "Partial<User>",
    accept: [{}, { id: "a" }, { id: "a", name: "b", age: 1 }],
    reject: [{ id: 1 }, { x: 1 }],
    schema: { required: [] },
  },
  {
    id: "required",
    decls: USER,
    type: "Required<User>",
    accept: [{ id: "a", name: "b", age: 1 }],
    reject: [{ id: "a", name: "b" }],
    schema: { required: ["id", "name", "age"] },
  },
  {
    id: "readonly",
    decls: USER,
    type: "Readonly<User>",
    accept: [{ id: "a", name: "b" }],
    reject: [{ id: "a" }],
  },
  {
    id: "pick",
    decls: USER,
    type: 'Pick<User, "id" | "age">',
    accept: [{ id: "a" }, { id: "a", age: 2 }],
    reject: [{ id: "a", name: "b" }, {}],
  },
  {
    id: "omit",
    decls: USER,
    type: 'Omit<User, "name">',
    accept: [{ id: "a" }],
    reject: [{ id: "a", name: "b" }],
  },
  {
    id: "exclude",
    type: 'Exclude<"a" | "b" | "c", "b">',
    accept: ["a", "c"],
    reject: ["b"],
    schema: { enum: ["a", "c"] },
  },
  {
    id: "extract",
    type: 'Extract<"a" | "b" | 1, string>',
    accept: ["a", "b"],
    reject: [1],
  },
  {
    id: "non_nullable",
    type: "NonNullable<string | null | undefined>",
    accept: ["a"],
    reject: [null],
    schema: { type: "string" },
  },
  {
    id: "return_type",
    decls: "function make() { return { ok: true, n: 1 }; }",
    type: "ReturnType<typeof make>",
    accept: [
      { ok: true, n: 1 },
      { ok: false, n: 0 },
    ],
    reject: [{ ok: true }],
  },
  {
    id: "parameters",
    decls: "function f(a: string, b: number) { return a + b; }",
    type: "Parameters<typeof f>",
    accept: [["a", 1]],
    reject: [["a"], [1, "a"]],
  },
  {
    id: "awaited",
    type: "Awaited<Promise<{ v: number }>>",
    accept: [{ v: 1 }],
    reject: [{ v: "1" }],
  },
  {
    id: "partial_pick",
    decls: USER,
    type: 'Partial<Pick<User, "name">> & Pick<User, "id">',
    accept: [{ id: "a" }, { id: "a", name: "n" }],
    reject: [{ name: "n" }],
  },
  {
    id: "omit_root",
    use: "root",
    decls: USER,
    type: 'Omit<User, "age">',
    accept: [{ id: "a", name: "b" }],
    reject: [{ id: "a", name: "b", age: 1 }],
  },
  {
    id: "uppercase",
    type: 'Uppercase<"a" | "b">',
    accept: ["A", "B"],
    reject: ["a"],
  },
  {
    id: "capitalize",
    type: 'Capitalize<"red">',
    accept: ["Red"],
    reject: ["red"],
  },
  {
    id: "instance_type",
    decls: "class P { x = 0; y = 0 }",
    type: "InstanceType<typeof P>",
    accept: [{ x: 1, y: 2 }],
    reject: [{ x: 1 }],
  },
];

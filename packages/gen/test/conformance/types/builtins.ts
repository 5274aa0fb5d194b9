/** Built-ins: Date, Integer, Handle, brands, built-in classes, and return types (Promise, void, types with no JSON form). */
import type { Case } from "./case.js";
import { wire } from "./case.js";

const INSTANT = "2024-05-06T07:08:09Z";
const date = wire(INSTANT, `new Date(${JSON.stringify(INSTANT)})`);

export const builtins: Case[] = [
  {
    id: "date",
    type: "Date",
    accept: [date],
    reject: [1, "yesterday", null],
    schema: { type: "string", format: "date-time" },
  },
  {
    id: "date_in_object",
    type: "{ at: Date; note: string }",
    accept: [
      wire({ at: INSTANT, note: "" }, `{ at: new Date(${JSON.stringify(INSTANT)}), note: "" }`),
    ],
    reject: [{ at: 5, note: "" }],
  },
  {
    id: "date_nullable",
    type: "Date | null",
    accept: [null, date],
    reject: ["2024-13-45"],
  },
  {
    id: "date_array",
    type: "Date[]",
    accept: [[], wire([INSTANT], `[new Date(${JSON.stringify(INSTANT)})]`)],
    reject: [[1]],
  },
  {
    id: "integer",
    decls: 'import type { Integer } from "@zcp/runtime";',
    type: "Integer",
    accept: [0, 3, -7],
    constraint: [1.5],
    reject: ["1", true],
    schema: { type: "integer" },
  },
  {
    id: "integer_in_object",
    decls: 'import type { Integer } from "@zcp/runtime";',
    type: "{ page: Integer; size?: Integer }",
    accept: [{ page: 1 }, { page: 1, size: 10 }],
    constraint: [{ page: 1.1 }],
    reject: [{}],
  },
  {
    id: "handle",
    decls: 'import type { Handle } from "@zcp/runtime";',
    type: 'Handle<"table", string[]>',
    accept: [wire("#T1", '({} as Handle<"table", string[]>)')],
    reject: ["T1", 1, "#t1"],
    schema: { type: "string", pattern: "^#[A-Z][1-9][0-9]{0,29}$" },
  },
  {
    id: "handle_any_kind",
    decls: 'import type { Handle } from "@zcp/runtime";',
    type: "Handle",
    accept: [wire("#R22", "({} as Handle)")],
    reject: [null],
  },
  {
    id: "handle_nested",
    decls: 'import type { Handle } from "@zcp/runtime";',
    type: '{ h: Handle<"table"> }',
    reject: [{ h: 1 }],
    refused: "ZCP1206",
  },
  {
    id: "unique_symbol_brand",
    decls:
      'declare const brand: unique symbol;\ntype UserId = string & { readonly [brand]: "UserId" };',
    type: "UserId",
    reject: [1],
    loss: {
      reason: "a brand has no JSON form: the branded primitive maps to the primitive",
      schemaOnly: ["u1"],
    },
    schema: { type: "string" },
  },
  {
    id: "unresolved",
    // The directive keeps tsc's oracle quiet about the missing module; zcp must still refuse the type.
    decls: '// @ts-ignore\nimport type { Missing } from "./nowhere.js";',
    type: "Missing",
    refused: "ZCP1203",
  },
  { id: "map", type: "Map<string, number>", reject: [{}], refused: "ZCP1202" },
  { id: "set", type: "Set<string>", reject: [[]], refused: "ZCP1202" },
  { id: "promise_value", type: "{ p: Promise<number> }", reject: [{ p: 1 }], refused: "ZCP1202" },
  { id: "regexp", type: "RegExp", reject: ["a+"], refused: "ZCP1202" },
  { id: "bytes", type: "Uint8Array", reject: [[1]], refused: "ZCP1202" },
  { id: "url", type: "URL", reject: ["https://a.b"], refused: "ZCP1202" },
  {
    id: "return_promise",
    use: "return",
    type: "Promise<{ total: number }>",
    accept: [{ total: 1 }],
    reject: [{ total: "1" }, {}],
  },
  { id: "return_void", use: "return", type: "void", schema: null },
  {
    id: "return_error_or_undefined",
    decision: "B6",
    use: "return",
    type: "Error | undefined",
    schema: null,
    warns: "ZCP1207",
  },
  {
    id: "return_function",
    decision: "B6",
    use: "return",
    type: "() => number",
    schema: null,
    warns: "ZCP1207",
  },
  {
    id: "return_map",
    decision: "B6",
    use: "return",
    type: "Promise<Map<string, number>>",
    schema: null,
    warns: "ZCP1207",
  },
  {
    id: "return_date",
    use: "return",
    type: "{ at: Date }",
    accept: [wire({ at: INSTANT }, `{ at: new Date(${JSON.stringify(INSTANT)}) }`)],
    reject: [{ at: 1 }],
  },
];

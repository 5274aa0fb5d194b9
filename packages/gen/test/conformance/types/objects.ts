/** Objects: interfaces, type literals, classes' data, nesting, inheritance, closed objects, flattened roots. */
import type { Case } from "./case.js";

export const objects: Case[] = [
  {
    id: "interface",
    decls: "interface Point { x: number; y: number }",
    type: "Point",
    accept: [{ x: 0, y: 1 }],
    reject: [{ x: 0 }, { x: 0, y: "1" }, { x: 0, y: 1, z: 2 }, [0, 1], null],
    schema: { type: "object", required: ["x", "y"], additionalProperties: false, title: "Point" },
  },
  {
    id: "type_literal",
    type: "{ name: string; age: number }",
    accept: [{ name: "a", age: 1 }],
    reject: [{ name: "a" }, { name: 1, age: 1 }, { name: "a", age: 1, x: 0 }],
  },
  {
    id: "empty_interface_like",
    type: "{ a: {} }",
    accept: [{ a: {} }],
    reject: [{}, { a: null }],
  },
  {
    id: "nested",
    type: "{ outer: { inner: { leaf: boolean } } }",
    accept: [{ outer: { inner: { leaf: true } } }],
    reject: [{ outer: { inner: {} } }, { outer: { inner: { leaf: 1 } } }, { outer: {} }],
  },
  {
    id: "extends",
    decls: "interface Base { id: string }\ninterface User extends Base { name: string }",
    type: "User",
    accept: [{ id: "1", name: "a" }],
    reject: [{ name: "a" }, { id: "1" }, { id: 1, name: "a" }],
  },
  {
    id: "extends_two",
    decls:
      "interface A { a: number }\ninterface B { b: number }\ninterface C extends A, B { c: number }",
    type: "C",
    accept: [{ a: 1, b: 2, c: 3 }],
    reject: [
      { a: 1, c: 3 },
      { a: 1, b: 2, c: 3, d: 4 },
    ],
  },
  {
    id: "class_data",
    decls: 'class Item { name = ""; qty = 0; label(): string { return this.name; } }',
    type: '{ name: Item["name"]; qty: Item["qty"] }',
    accept: [{ name: "a", qty: 1 }],
    reject: [{ name: "a" }],
  },
  {
    id: "class_fields",
    decls: "class Row { constructor(public sku: string, public qty: number) {} }",
    type: "Row",
    accept: [{ sku: "a", qty: 1 }],
    reject: [{ sku: "a" }, { sku: 1, qty: 1 }],
  },
  {
    id: "readonly_props",
    type: "{ readonly id: string; readonly tags: readonly string[] }",
    accept: [{ id: "a", tags: [] }],
    reject: [{ id: "a" }, { id: "a", tags: [1] }],
  },
  {
    id: "quoted_keys",
    type: '{ "first name": string; "kebab-key": number }',
    accept: [{ "first name": "a", "kebab-key": 1 }],
    reject: [{ "first name": "a" }],
    schema: { required: ["first name", "kebab-key"] },
  },
  {
    id: "numeric_keys",
    type: "{ 1: string; 2: number }",
    accept: [{ "1": "a", "2": 3 }],
    reject: [{ "1": "a" }, { "1": 1, "2": 3 }],
  },
  {
    id: "root_interface",
    use: "root",
    decls: "interface Query { term: string; limit: number }",
    type: "Query",
    accept: [{ term: "a", limit: 1 }],
    reject: [{ term: "a" }, { term: "a", limit: 1, x: 1 }, { limit: 1 }],
    schema: { type: "object", required: ["term", "limit"], additionalProperties: false },
  },
  {
    id: "root_literal",
    use: "root",
    type: "{ a: string; b?: number }",
    accept: [{ a: "x" }, { a: "x", b: 1 }],
    reject: [{ b: 1 }, { a: "x", b: "1" }, { a: "x", c: 0 }],
  },
  {
    id: "object_array_prop",
    type: "{ rows: { sku: string; qty: number }[] }",
    accept: [{ rows: [] }, { rows: [{ sku: "a", qty: 1 }] }],
    reject: [{ rows: [{ sku: "a" }] }, { rows: {} }],
  },
  {
    id: "shared_shape",
    decls: "interface Money { amount: number; currency: string }",
    type: "{ price: Money; cost: Money }",
    accept: [{ price: { amount: 1, currency: "EUR" }, cost: { amount: 0, currency: "USD" } }],
    reject: [{ price: { amount: 1 }, cost: { amount: 0, currency: "USD" } }],
  },
  {
    id: "method_refused",
    type: "{ name: string; run(): void }",
    reject: [{ name: "a" }],
    refused: "ZCP1201",
  },
  {
    id: "function_prop_refused",
    type: "{ name: string; cb: (x: number) => void }",
    reject: [{ name: "a" }],
    refused: "ZCP1201",
  },
];

/** Recursive types: trees, lists, mutual recursion, recursive aliases, JSON-like values. */
import type { Case } from "./case.js";

export const recursion: Case[] = [
  {
    id: "tree",
    decls: "interface Node { name: string; children: Node[] }",
    type: "Node",
    accept: [
      { name: "a", children: [] },
      { name: "a", children: [{ name: "b", children: [] }] },
    ],
    reject: [{ name: "a" }, { name: "a", children: [{ name: 1, children: [] }] }],
    schema: { $ref: "#/$defs/Node" },
  },
  {
    id: "linked_list",
    decls: "interface Cell { v: number; next: Cell | null }",
    type: "Cell",
    accept: [
      { v: 1, next: null },
      { v: 1, next: { v: 2, next: null } },
    ],
    reject: [{ v: 1 }, { v: 1, next: { v: "2", next: null } }],
  },
  {
    id: "mutual",
    decls: "interface A { b?: B }\ninterface B { a?: A; n: number }",
    type: "A",
    accept: [{}, { b: { n: 1 } }, { b: { n: 1, a: { b: { n: 2 } } } }],
    reject: [{ b: {} }, { b: { n: 1, a: { b: { n: "2" } } } }],
  },
  {
    id: "recursive_alias",
    decls: "type Json = string | number | boolean | null | Json[] | { [key: string]: Json };",
    type: "Json",
    accept: [1, "a", null, [1, [2]], { a: { b: [true] } }],
    reject: [],
  },
  {
    id: "recursive_array_alias",
    decls: "type Nested = (number | Nested)[];",
    type: "Nested",
    accept: [[], [1, [2, [3]]]],
    reject: [[1, ["x"]], 1],
  },
  {
    id: "optional_recursion",
    decls: "interface Menu { label: string; sub?: Menu[] }",
    type: "Menu",
    accept: [{ label: "a" }, { label: "a", sub: [{ label: "b" }] }],
    reject: [{ label: "a", sub: [{}] }],
  },
  {
    id: "recursion_in_property",
    decls: "interface Expr { op: string; args: Expr[] }",
    type: "{ root: Expr; depth: number }",
    accept: [{ root: { op: "+", args: [] }, depth: 1 }],
    reject: [{ root: { op: "+" }, depth: 1 }],
  },
  {
    id: "recursive_description",
    decls: "/** A folder and what it holds. */\ninterface Folder { name: string; items: Folder[] }",
    type: "Folder",
    accept: [{ name: "a", items: [] }],
    reject: [{ items: [] }],
  },
  {
    id: "recursive_union",
    decls: 'type Shape = { kind: "leaf"; v: number } | { kind: "group"; parts: Shape[] };',
    type: "Shape",
    accept: [
      { kind: "leaf", v: 1 },
      { kind: "group", parts: [{ kind: "leaf", v: 2 }] },
    ],
    reject: [{ kind: "group", parts: [{ kind: "leaf" }] }],
  },
  {
    id: "recursive_root",
    use: "root",
    decls: "interface Cat { name: string; parent?: Cat }",
    type: "Cat",
    accept: [{ name: "a" }, { name: "a", parent: { name: "b" } }],
    reject: [{ name: "a", parent: {} }],
  },
  {
    id: "recursive_generic",
    decls: "interface TreeOf<T> { value: T; kids: TreeOf<T>[] }",
    type: "TreeOf<string>",
    accept: [{ value: "a", kids: [{ value: "b", kids: [] }] }],
    reject: [{ value: "a", kids: [{ value: 1, kids: [] }] }],
  },
];

/** Tuples: fixed, named, optional and rest elements, readonly, empty, nested. */
import type { Case } from "./case.js";

export const tuples: Case[] = [
  {
    id: "pair",
    type: "[string, number]",
    accept: [["a", 1]],
    reject: [["a"], [1, "a"], ["a", 1, 2], []],
    schema: {
      type: "array",
      prefixItems: [{ type: "string" }, { type: "number" }],
      items: false,
      minItems: 2,
    },
  },
  { id: "named_pair", type: "[x: number, y: number]", accept: [[0, 0]], reject: [[0], [0, "0"]] },
  {
    id: "optional_element",
    type: "[string, number?]",
    accept: [["a"], ["a", 1]],
    reject: [[], ["a", "b"], ["a", 1, 2]],
    schema: { minItems: 1, maxItems: 2 },
  },
  {
    id: "rest_element",
    type: "[string, ...number[]]",
    accept: [["a"], ["a", 1, 2, 3]],
    reject: [[], [1], ["a", "b"]],
    schema: { minItems: 1, items: { type: "number" } },
  },
  {
    id: "readonly_tuple",
    type: "readonly [boolean, boolean]",
    accept: [[true, false]],
    reject: [[true]],
  },
  { id: "single", type: "[string]", accept: [["a"]], reject: [[], ["a", "b"]] },
  {
    id: "empty",
    decision: "B3",
    type: "[]",
    accept: [[]],
    reject: [["a"], [0], {}],
    schema: { type: "array", maxItems: 0 },
    without: ["prefixItems"],
  },
  {
    id: "nested_tuple",
    type: "[[number, number], string]",
    accept: [[[1, 2], "a"]],
    reject: [[[1], "a"], [[1, 2]]],
  },
  {
    id: "tuple_of_objects",
    type: "[{ a: number }, { b: string }]",
    accept: [[{ a: 1 }, { b: "x" }]],
    reject: [[{ b: "x" }, { a: 1 }]],
  },
  {
    id: "tuple_literals",
    type: '["get" | "set", string]',
    accept: [["get", "k"]],
    reject: [["put", "k"]],
  },
  { id: "nullable_tuple", type: "[number, number] | null", accept: [null, [1, 2]], reject: [[1]] },
  {
    id: "tuple_array",
    type: "[string, number][]",
    accept: [
      [],
      [
        ["a", 1],
        ["b", 2],
      ],
    ],
    reject: [[["a"]]],
  },
  {
    id: "optional_named",
    type: "[name: string, age?: number]",
    accept: [["ann"], ["ann", 3]],
    reject: [[3]],
  },
  {
    id: "two_optionals",
    type: "[number?, number?]",
    accept: [[], [1], [1, 2]],
    reject: [[1, 2, 3], ["1"]],
  },
  {
    id: "tuple_in_object",
    type: "{ range: [number, number] }",
    accept: [{ range: [0, 10] }],
    reject: [{ range: [0] }, { range: [] }],
  },
];

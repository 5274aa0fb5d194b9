/**
 * Generated validators on `patternProperties` and `allOf` in hand-written schemas beyond what the
 * extract stage emits (several patterns, a pattern over a named key, open objects), against Ajv.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { JsonValue, ToolDefinition } from "@zcp/runtime";
import type { ValidatorTable } from "@zcp/runtime/codegen";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { compileValidators } from "../../src/compile/index.js";
import { validatorsFile } from "../../src/emit/index.js";
import { scratchProject } from "../helpers.js";
import type { Schema } from "./cases.js";

/** A scratch folder whose `@zcp/runtime` is the workspace's, for the generated module's imports. */
const dir = scratchProject({});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Schemas the extract stage does not emit, for the validator's general `patternProperties` and `allOf`. */
const KEYWORD_CASES: readonly { id: string; schema: Schema; values: readonly JsonValue[] }[] = [
  {
    id: "patterns_overlapping",
    schema: {
      type: "object",
      properties: { a1: { type: "string" } },
      required: [],
      patternProperties: { "^a": { type: "string", minLength: 2 }, "1$": { type: "string" } },
      additionalProperties: false,
    },
    values: [
      {},
      { a1: "xy" },
      { a1: "x" },
      { ab: "xy" },
      { b1: "x" },
      { b1: 2 },
      { ab: 2 },
      { c: "x" },
    ],
  },
  {
    id: "patterns_beside_open_object",
    schema: {
      type: "object",
      properties: {},
      required: [],
      patternProperties: { "^[0-9]+$": { type: "string" } },
      additionalProperties: { type: "boolean" },
    },
    values: [{}, { "1": "a" }, { "1": true }, { x: true }, { x: "a" }],
  },
  {
    id: "patterns_without_closing",
    schema: { type: "object", patternProperties: { "^x": { type: "string" } } },
    values: [{}, { x: "a" }, { x: 1 }, { y: 1 }, []],
  },
  {
    id: "all_of_objects",
    schema: {
      allOf: [
        { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        { type: "object", properties: { b: { type: "string" } }, required: ["b"] },
      ],
    },
    values: [{ a: "x", b: "y" }, { a: "x" }, { b: "y" }, { a: 1, b: "y" }, "x"],
  },
];

describe("generated validators on patternProperties and allOf", () => {
  it("give Ajv's verdict on every value", async () => {
    const tools = KEYWORD_CASES.map(
      (c) => ({ id: c.id, alias: c.id, inputSchema: c.schema }) as unknown as ToolDefinition,
    );
    const file = path.join(dir, "keywords.validators.ts");
    fs.writeFileSync(
      file,
      validatorsFile(
        { version: "0.0.0-test", config: "zcp.config.json" },
        compileValidators(tools),
      ),
    );
    const table = ((await import(pathToFileURL(file).href)) as { validators: ValidatorTable })
      .validators;
    // Strict, but a named property may match a pattern: both schemas apply to it.
    const oracle = new Ajv2020({ strict: true, allowMatchingProperties: true });
    for (const c of KEYWORD_CASES) {
      const check = oracle.compile(c.schema);
      for (const value of c.values)
        expect(table[c.id]!(value).ok, `${c.id} on ${JSON.stringify(value)}`).toBe(check(value));
    }
  });
});

/**
 * Issue 28, item 3: `zcp gen --from-mcp` takes the JSON Schema keywords an upstream may use.
 * Each case is a listed input schema and values; the generated validator (made as `zcp gen
 * --from-mcp` makes it: dialect, model, compile, emit, then imported) must give Ajv's verdict
 * on each value (Ajv2020, Ajv2019 or Ajv's draft-07 by the declared `$schema`), and each case
 * has values of both verdicts. A keyword the validator does not check is a warning (ZCP1712)
 * naming it and its path, and the validator then accepts everything Ajv accepts; an unknown
 * dialect leaves its tool out (ZCP1713); one tool never blocks another. Last, the real
 * `zcp gen --from-mcp` binary against an upstream listing that mixes such tools.
 */
import type { GeneratedModule } from "@zcp/runtime/codegen";
import type { JsonValue } from "@zcp/runtime/definition";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import type { UpstreamTool } from "../src/upstream/tool.js";
import {
  gatewayOutput,
  importGenerated,
  importWrittenGateway,
  PAYLOADS,
  scratchWithServer,
  sentinelIsUnset,
  type GatewayOutput,
} from "./generated-modules.js";
import { runZcp } from "./helpers.js";
import { writeFakeUpstream } from "./upstream-fake.js";

type Schema = { readonly [keyword: string]: JsonValue };

interface Case {
  readonly name: string;
  readonly schema: Schema;
  /** Values of the tool's arguments; Ajv decides which are valid. */
  readonly values: readonly JsonValue[];
}

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const DRAFT_2019 = "https://json-schema.org/draft/2019-09/schema";

/** An object schema with one property `v` of `schema`, and values of `v`. */
function property(name: string, schema: Schema, values: readonly JsonValue[]): Case {
  return {
    name,
    schema: { type: "object", properties: { v: schema } },
    values: values.map((v) => ({ v })),
  };
}

const COMPILED: readonly Case[] = [
  {
    name: "if_then_else",
    schema: {
      type: "object",
      properties: { kind: { type: "string" }, n: { type: "number" } },
      if: { properties: { kind: { const: "a" } }, required: ["kind"] },
      then: { required: ["n"] },
      else: { properties: { n: { maximum: 0 } } },
    },
    values: [
      { kind: "a", n: 1 },
      { kind: "a" },
      { kind: "b", n: 1 },
      { kind: "b", n: -1 },
      {},
      { n: 5 },
      { n: "5" },
    ],
  },
  property(
    "one_of",
    { oneOf: [{ type: "integer" }, { type: "number", minimum: 10 }, { type: "string" }] },
    [1, 12, 10.5, "5", "x", null, 5.5, true],
  ),
  property(
    "any_all_not",
    {
      allOf: [{ type: "string" }, { not: { const: "xy" } }],
      anyOf: [{ minLength: 2 }, { pattern: "^z" }],
    },
    ["ab", "xy", "z", "q", 1, ""],
  ),
  property("not_integer", { not: { type: "integer" } }, [1, "1", 1.5, "x", null]),
  property(
    "const_and_enum_of_json",
    { anyOf: [{ const: { a: [1, { b: null }] } }, { enum: [[1, 2], "s", { k: 1 }] }] },
    [
      { a: [1, { b: null }] },
      { a: [1] },
      [1, 2],
      [2, 1],
      { k: 1 },
      { k: 1.0 },
      { k: "1" },
      "s",
      "t",
    ],
  ),
  {
    name: "anchor_and_defs",
    schema: {
      $defs: {
        node: {
          $anchor: "node",
          type: "object",
          properties: { v: { type: "integer" }, kids: { type: "array", items: { $ref: "#node" } } },
          required: ["v"],
        },
      },
      type: "object",
      properties: { tree: { $ref: "#node" }, again: { $ref: "#/$defs/node" }, self: { $ref: "#" } },
    },
    values: [
      { tree: { v: 1, kids: [{ v: 2 }, { v: 3, kids: [] }] } },
      { tree: { v: 1, kids: [{ v: "x" }] } },
      { again: { v: 1 } },
      { again: {} },
      { self: { self: { tree: { v: 1 } } } },
      { self: { self: { tree: { v: 1.5 } } } },
    ],
  },
  {
    // A recursive reference inside a strict test: its deeper levels are strict too ("5" is no integer).
    name: "recursive_not",
    schema: {
      $defs: {
        tree: {
          type: "object",
          properties: {
            v: { type: "integer" },
            kids: { type: "array", items: { $ref: "#/$defs/tree" } },
          },
        },
      },
      type: "object",
      properties: { x: { not: { $ref: "#/$defs/tree" } }, y: { $ref: "#/$defs/tree" } },
    },
    values: [
      { x: { v: 1 } },
      { x: { v: "5" } },
      { x: { kids: [{ kids: [{ v: "5" }] }] } },
      { x: { kids: [{ kids: [{ v: 5 }] }] } },
      { x: 1 },
      { y: { kids: [{ v: 1.5 }] } },
    ],
  },
  {
    name: "draft_07",
    schema: {
      $schema: DRAFT_07,
      definitions: { pos: { type: "integer", minimum: 0 } },
      type: "object",
      properties: {
        t: {
          type: "array",
          items: [{ type: "string" }, { $ref: "#/definitions/pos" }],
          additionalItems: false,
        },
        all: { type: "array", items: { $ref: "#/definitions/pos" } },
        d: { type: "object", dependencies: { a: ["b"], c: { required: ["e"] } } },
      },
    },
    values: [
      { t: ["a", 1] },
      { t: ["a", -1] },
      { t: ["a", 1, 2] },
      { t: [1] },
      { all: [1, 2] },
      { all: [1, -2] },
      { d: { a: 1 } },
      { d: { a: 1, b: 2 } },
      { d: { c: 1 } },
      { d: { c: 1, e: 1 } },
    ],
  },
  {
    name: "draft_2019",
    schema: {
      $schema: DRAFT_2019,
      type: "object",
      properties: {
        t: { type: "array", items: [{ type: "string" }], additionalItems: { type: "integer" } },
        d: { dependentRequired: { a: ["b"] } },
      },
    },
    values: [
      { t: ["a", 1, 2] },
      { t: ["a", "b"] },
      { t: [] },
      { t: [1] },
      { d: { a: 1, b: 1 } },
      { d: { a: 1 } },
    ],
  },
  property(
    "dependent",
    {
      type: "object",
      dependentRequired: { card: ["cvc", "expiry"] },
      dependentSchemas: {
        gift: { properties: { note: { type: "string", maxLength: 3 } }, required: ["note"] },
      },
    },
    [
      {},
      { card: 1, cvc: 1, expiry: 1 },
      { card: 1, cvc: 1 },
      { gift: true, note: "hi" },
      { gift: true },
      { gift: true, note: "long" },
    ],
  ),
  property(
    "prefix_items",
    { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false },
    [["a", 1], ["a"], [], ["a", 1, 2], [1, 1], ["a", "b"]],
  ),
  property(
    "contains",
    { type: "array", contains: { type: "integer", minimum: 5 }, minContains: 2, maxContains: 3 },
    [[5, 6], [5], [], [5, 6, 7, 8], [1, 5, "6", 7], ["5", "6"], [5, 6, 7]],
  ),
  property("contains_default", { type: "array", contains: { const: "x" } }, [
    ["x"],
    [],
    ["y", "x"],
    ["y"],
  ]),
  property(
    "pattern_properties",
    {
      type: "object",
      patternProperties: { "^n_": { type: "number" } },
      propertyNames: { maxLength: 4 },
      additionalProperties: { type: "string" },
    },
    [{ n_a: 1, b: "x" }, { n_a: "x" }, { b: 1 }, { toolong: "x" }, {}],
  ),
  property(
    "unevaluated_alone",
    { type: "object", properties: { a: { type: "integer" } }, unevaluatedProperties: false },
    [{ a: 1 }, { a: 1, b: 1 }, {}, { a: "x" }],
  ),
  property("x_mcp_header", { type: "string", "x-mcp-header": "Region", enum: ["eu", "us"] }, [
    "eu",
    "us",
    "asia",
    1,
  ]),
];

/** Cases whose validator checks less than the schema: a warning each, and never refusing more. */
const FALLBACK: readonly (Case & { readonly warnings: readonly string[] })[] = [
  {
    ...property(
      "unevaluated_with_all_of",
      {
        type: "object",
        allOf: [{ properties: { a: { type: "integer" } } }],
        unevaluatedProperties: false,
      },
      [{ a: 1 }, { a: 1, b: 2 }, { a: "x" }, 1],
    ),
    warnings: [
      'ZCP1712: the generated validator of the upstream tool "unevaluated_with_all_of" does not check "unevaluatedProperties" at #/properties/v/unevaluatedProperties of its input schema; the upstream enforces it',
    ],
  },
  {
    ...property(
      "not_holding_dynamic_ref",
      { type: "string", not: { $dynamicRef: "#meta" }, minLength: 2 },
      ["ab", "a", 1],
    ),
    warnings: [
      'ZCP1712: the generated validator of the upstream tool "not_holding_dynamic_ref" does not check "not" at #/properties/v/not of its input schema (it holds "$dynamicRef" at #/properties/v/not/$dynamicRef); the upstream enforces it',
    ],
  },
  {
    ...property("remote_ref", { $ref: "https://example.com/schema.json", type: "integer" }, [
      1,
      "x",
    ]),
    warnings: [
      'ZCP1712: the generated validator of the upstream tool "remote_ref" does not check "$ref" at #/properties/v/$ref of its input schema; the upstream enforces it',
    ],
  },
];

/** The oracle for a schema, by its declared dialect. */
function oracle(schema: Schema): ValidateFunction {
  const options = { strict: false, allowUnionTypes: true };
  const instance =
    schema.$schema === DRAFT_07
      ? new Ajv(options)
      : schema.$schema === DRAFT_2019
        ? new Ajv2019(options)
        : new Ajv2020(options);
  addFormats.default(instance);
  // A remote `$ref` is not fetched: Ajv gets the document the test stands in for.
  instance.addSchema({ $id: "https://example.com/schema.json", type: "number" });
  return instance.compile(schema);
}

function listed(cases: readonly Case[]): UpstreamTool[] {
  return cases.map((c) => ({ name: c.name, description: "A case.", inputSchema: c.schema }));
}

function diagnostics(out: GatewayOutput, severity: "error" | "warning"): string[] {
  return out.diagnostics
    .filter((d) => d.severity === severity && d.code.startsWith("ZCP171"))
    .map((d) => `${d.code}: ${d.message}`);
}

describe("keywords an upstream may use, against Ajv", () => {
  const project = scratchWithServer();
  let out: GatewayOutput;
  let generated: GeneratedModule;
  beforeAll(async () => {
    out = gatewayOutput({ serverName: "kw", tools: listed([...COMPILED, ...FALLBACK]) });
    generated = await importGenerated(project, out.files);
  });
  const validator = (name: string) => {
    const tool = out.definitions.find((d) => d.source.export === name)!;
    return generated.validators[tool.id]!;
  };

  it("generates every tool, with no error and only the fallback warnings", () => {
    expect(diagnostics(out, "error")).toEqual([]);
    expect(diagnostics(out, "warning")).toEqual(FALLBACK.flatMap((c) => c.warnings));
    expect(out.definitions.map((d) => d.source.export).sort()).toEqual(
      [...COMPILED, ...FALLBACK].map((c) => c.name).sort(),
    );
  });

  for (const c of COMPILED)
    it(`compiles ${c.name}: the verdict of Ajv on every value`, () => {
      const ajv = oracle(c.schema);
      const verdicts = c.values.map((value) => {
        const result = validator(c.name)(structuredClone(value));
        expect({ value, ok: result.ok }).toEqual({ value, ok: ajv(value) });
        // Accepted values come back as they are (none of these is coerced) or fit Ajv after coercion.
        if (result.ok) expect(ajv(result.value as JsonValue)).toBe(true);
        return result.ok;
      });
      expect(new Set(verdicts)).toEqual(new Set([true, false]));
    });

  for (const c of FALLBACK)
    it(`falls back on ${c.name}: accepts all Ajv accepts, still checks the rest`, () => {
      const ajv = oracle(c.schema);
      const refusedByBoth = c.values.filter((value) => {
        const ok = validator(c.name)(structuredClone(value)).ok;
        if (ajv(value)) expect({ value, ok }).toEqual({ value, ok: true });
        return !ok && !ajv(value);
      });
      expect(refusedByBoth.length).toBeGreaterThan(0);
    });

  it("strict tests see the value as it is; what applies after them coerces", () => {
    expect(validator("not_integer")({ v: "1" })).toEqual({ ok: true, value: { v: "1" } });
    expect(validator("one_of")({ v: "5" })).toEqual({ ok: true, value: { v: "5" } });
    expect(validator("not_integer")({ v: 1 })).toEqual({
      ok: false,
      error: "invalid:$.v",
      hint: "expected not integer",
    });
    expect(validator("if_then_else")({ kind: "b", n: "-1" })).toEqual({
      ok: true,
      value: { kind: "b", n: -1 },
    });
    expect(validator("one_of")({ v: 12 })).toEqual({
      ok: false,
      error: "invalid:$.v",
      hint: "expected exactly one of: integer or number >= 10 or string",
    });
    expect(validator("dependent")({ v: { card: 1, cvc: 1 } })).toEqual({
      ok: false,
      error: "missing:$.v.expiry",
      hint: "expected a value (with card)",
    });
    expect(validator("contains")({ v: [5] })).toEqual({
      ok: false,
      error: "invalid:$.v",
      hint: "expected 2-3 items of integer >= 5",
    });
  });

  it("keeps x-mcp-header in the definition, and reads the dialect into draft 2020-12", () => {
    const header = out.definitions.find((d) => d.source.export === "x_mcp_header")!;
    expect(header.inputSchema).toEqual(COMPILED.find((c) => c.name === "x_mcp_header")!.schema);
    const draft7 = out.definitions.find((d) => d.source.export === "draft_07")!;
    expect(draft7.inputSchema).toEqual({
      definitions: { pos: { type: "integer", minimum: 0 } },
      type: "object",
      properties: {
        t: {
          type: "array",
          prefixItems: [{ type: "string" }, { $ref: "#/definitions/pos" }],
          items: false,
        },
        all: { type: "array", items: { $ref: "#/definitions/pos" } },
        d: {
          type: "object",
          dependentRequired: { a: ["b"] },
          dependentSchemas: { c: { required: ["e"] } },
        },
      },
    });
    expect(oracle(draft7.inputSchema as Schema).schema).toBeDefined();
  });

  it("leaves out only the tool of an unknown dialect (ZCP1713)", () => {
    const mixed = gatewayOutput({
      serverName: "kw",
      tools: [
        {
          name: "old",
          inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" },
        },
        {
          name: "odd_output",
          inputSchema: { type: "object" },
          outputSchema: { $schema: 7, type: "object" },
        },
        ...listed(COMPILED.slice(0, 1)),
      ],
    });
    expect(diagnostics(mixed, "error")).toEqual([
      'ZCP1713: the input schema of the upstream tool "old" declares the $schema "http://json-schema.org/draft-04/schema#", which is not a JSON Schema dialect zcp reads (2020-12, 2019-09, draft-07, draft-06); the tool is left out',
      'ZCP1713: the output schema of the upstream tool "odd_output" declares the $schema 7, which is not a JSON Schema dialect zcp reads (2020-12, 2019-09, draft-07, draft-06); the tool is left out',
    ]);
    expect(mixed.definitions.map((d) => d.source.export)).toEqual(["if_then_else"]);
  });
});

describe("hostile strings in the new keywords", () => {
  it("reach the generated code only as literals and comments", async () => {
    const [a, b, c] = [PAYLOADS[0]!, PAYLOADS[1]!, PAYLOADS[4]!];
    const schema: Schema = {
      type: "object",
      definitions: { [c]: { type: "integer" } },
      properties: {
        deps: {
          type: "object",
          dependentRequired: { [a]: [b] },
          dependentSchemas: { [b]: { properties: { [a]: { const: { [c]: [a] } } } } },
        },
        ref: { $ref: `#/definitions/${encodeURIComponent(c)}` },
        when: {
          if: { const: a },
          then: { not: { enum: [{ [b]: c }, c] } },
          else: { contains: { const: b } },
        },
      },
    };
    const out = gatewayOutput({
      serverName: "kw",
      tools: [{ name: "hostile", inputSchema: schema }],
    });
    expect(diagnostics(out, "error")).toEqual([]);
    const generated = await importGenerated(scratchWithServer(), out.files);
    const validate = generated.validators[out.definitions[0]!.id]!;
    const ajv = oracle(schema);
    for (const value of [
      { deps: { [a]: 1 } },
      { deps: { [a]: 1, [b]: 2 } },
      { deps: { [b]: 1, [a]: { [c]: [a] } } },
      { deps: { [b]: 1, [a]: { [c]: [b] } } },
      { ref: 1 },
      { ref: "x" },
      { when: a },
      { when: [b] },
      { when: [a] },
    ])
      expect({ value, ok: validate(structuredClone(value)).ok }).toEqual({ value, ok: ajv(value) });
    expect(sentinelIsUnset()).toBe(true);
  });
});

describe("zcp gen --from-mcp against an upstream that mixes such tools", () => {
  it("writes every tool it can read, warns of what the upstream enforces, and the validators work", async () => {
    const dir = scratchWithServer();
    const pick = (...names: string[]) =>
      listed([...COMPILED, ...FALLBACK].filter((c) => names.includes(c.name)));
    writeFakeUpstream(dir, [
      ...pick("if_then_else", "one_of", "x_mcp_header", "draft_07", "unevaluated_with_all_of"),
      {
        name: "old",
        description: "Draft 4.",
        inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" },
      },
    ]);
    const run = runZcp(dir, ["gen", "--from-mcp", "node fake-server.mjs", "--reporter", "json"]);
    const report = JSON.parse(run.stdout) as {
      diagnostics: { severity: string; code: string; message: string }[];
      written: string[];
    };
    expect(run.status).toBe(1);
    expect(
      report.diagnostics
        .filter((d) => d.code.startsWith("ZCP171"))
        .map((d) => `${d.severity} ${d.code}: ${d.message}`),
    ).toEqual([
      `warning ${FALLBACK[0]!.warnings[0]}`,
      'error ZCP1713: the input schema of the upstream tool "old" declares the $schema "http://json-schema.org/draft-04/schema#", which is not a JSON Schema dialect zcp reads (2020-12, 2019-09, draft-07, draft-06); the tool is left out',
    ]);
    expect(report.written).toContain("validators.js");
    const { tools, validate } = await importWrittenGateway(dir);
    expect([...tools.keys()].sort()).toEqual([
      "draft_07",
      "if_then_else",
      "one_of",
      "unevaluated_with_all_of",
      "x_mcp_header",
    ]);
    expect(validate("if_then_else", { kind: "a" })).toEqual({
      ok: false,
      error: "missing:$.n",
      hint: "expected a value",
    });
    expect(validate("one_of", { v: 12 }).ok).toBe(false);
    expect(validate("draft_07", { t: ["a", 1, 2] }).ok).toBe(false);
    expect(validate("draft_07", { t: ["a", 1] }).ok).toBe(true);
    expect(validate("x_mcp_header", { v: "eu" }).ok).toBe(true);
    expect(tools.get("x_mcp_header")!.inputSchema).toMatchObject({
      properties: { v: { "x-mcp-header": "Region" } },
    });
    expect(validate("unevaluated_with_all_of", { v: { a: 1, b: 2 } }).ok).toBe(true);
    expect(validate("unevaluated_with_all_of", { v: { a: "x" } }).ok).toBe(false);
  });
});

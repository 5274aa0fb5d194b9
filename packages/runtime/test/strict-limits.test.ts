/**
 * `checkStrictLimits`: each provider's strict limits measured over one request's entries, with
 * exact figures on small crafted entries (each limit at its value and one past it) and on the
 * workbench fixture's registry.
 */
import { describe, expect, it } from "vitest";
import { registry as workbench } from "../../../fixtures/workbench/src/zcp.gen/registry.js";
import {
  artifactSet,
  checkStrictLimits,
  type AnthropicTool,
  type JsonSchema,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  type StrictLimitProvider,
} from "@zcp/runtime";

const responses = (parameters: JsonSchema, name = "t"): OpenAIResponsesTool => ({
  type: "function",
  name,
  description: "",
  parameters,
  strict: true,
});
const chat = (parameters: JsonSchema, name = "t"): OpenAIChatTool => ({
  type: "function",
  function: { name, description: "", parameters, strict: true },
});
const anthropic = (inputSchema: JsonSchema, name = "t"): AnthropicTool => ({
  name,
  description: "",
  input_schema: { ...inputSchema, type: "object" },
});

/** An object of `count` string properties named `p0`, `p1`..., all required unless `optional`. */
function object(count: number, optional = false): JsonSchema {
  const properties = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`p${i}`, { type: "string" }]),
  );
  return {
    type: "object",
    properties,
    required: optional ? [] : Object.keys(properties),
    additionalProperties: false,
  };
}

/** Objects nested `levels` deep (the root is level 1). */
function nested(levels: number): JsonSchema {
  let schema: JsonSchema = object(0);
  for (let level = 1; level < levels; level++) schema = { ...object(0), properties: { a: schema } };
  return schema;
}

const withEnum = (values: readonly (string | number)[]): JsonSchema => ({
  ...object(0),
  properties: { e: { type: "string", enum: values } },
  required: ["e"],
});

/** The figure and verdict of the limit called `name`. */
function figure(provider: StrictLimitProvider, entries: unknown[], name: string) {
  const found = checkStrictLimits(entries as never[], provider).limits.find(
    (limit) => limit.name === name,
  );
  return found && [found.actual, found.limit, found.ok];
}

describe("checkStrictLimits: OpenAI", () => {
  it("lists every limit of the provider, in order, and is ok when all hold", () => {
    const entries = [responses(object(2)), responses(nested(3))];
    expect(checkStrictLimits(entries, "openai-responses")).toEqual({
      ok: true,
      limits: [
        { name: "properties", limit: 5000, actual: 4, ok: true },
        { name: "nesting", limit: 10, actual: 3, ok: true },
        { name: "characters", limit: 120_000, actual: 6, ok: true },
        { name: "enum values", limit: 1000, actual: 0, ok: true },
        { name: "large enum characters", limit: 15_000, actual: 0, ok: true },
      ],
    });
    expect(checkStrictLimits([], "openai-chat").limits.map((limit) => limit.name)).toEqual([
      "properties",
      "nesting",
      "characters",
      "enum values",
      "large enum characters",
      "functions",
    ]);
  });

  it("properties: 5,000 over all the request's tools", () => {
    const at = [responses(object(2500)), responses(object(2500))];
    expect(figure("openai-responses", at, "properties")).toEqual([5000, 5000, true]);
    const over = [responses(object(2500)), responses(object(2501))];
    expect(figure("openai-responses", over, "properties")).toEqual([5001, 5000, false]);
    expect(checkStrictLimits(over, "openai-responses").ok).toBe(false);
  });

  it("nesting: 10 levels, the deepest tool's", () => {
    expect(figure("openai-responses", [responses(nested(10))], "nesting")).toEqual([10, 10, true]);
    const over = [responses(nested(2)), responses(nested(11))];
    expect(figure("openai-responses", over, "nesting")).toEqual([11, 10, false]);
  });

  it("characters: property and definition names, string enum values and string consts", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        ab: { type: ["string", "number"], enum: ["xyz", 3] },
        c: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "string", const: "defg" }] },
      },
      required: ["ab", "c"],
      additionalProperties: false,
      $defs: { Node: object(1) },
    };
    // ab, xyz, c, defg, Node, p0
    expect(figure("openai-responses", [responses(schema)], "characters")).toEqual([
      2 + 3 + 1 + 4 + 4 + 2,
      120_000,
      true,
    ]);
    const named = (length: number): JsonSchema => ({
      ...object(0),
      properties: { ["n".repeat(length)]: { type: "string" } },
    });
    const at = [responses(named(60_000)), responses(named(60_000))];
    expect(figure("openai-responses", at, "characters")).toEqual([120_000, 120_000, true]);
    const over = [responses(named(60_000)), responses(named(60_001))];
    expect(figure("openai-responses", over, "characters")).toEqual([120_001, 120_000, false]);
  });

  it("enum values: 1,000 over all the request's tools", () => {
    const values = (count: number) => Array.from({ length: count }, (_, i) => i);
    const at = [responses(withEnum(values(500))), responses(withEnum(values(500)))];
    expect(figure("openai-responses", at, "enum values")).toEqual([1000, 1000, true]);
    const over = [responses(withEnum(values(500))), responses(withEnum(values(501)))];
    expect(figure("openai-responses", over, "enum values")).toEqual([1001, 1000, false]);
  });

  it("large enum characters: 15,000 in a string enum of more than 250 values", () => {
    /** `count` distinct strings of `total` characters together (`total` a multiple of `count` plus a rest). */
    const strings = (count: number, total: number) =>
      Array.from({ length: count }, (_, i) => {
        const length = Math.floor(total / count) + (i < total % count ? 1 : 0);
        return String(i).padStart(length, "x");
      });
    const at = responses(withEnum(strings(251, 15_000)));
    expect(figure("openai-responses", [at], "large enum characters")).toEqual([
      15_000,
      15_000,
      true,
    ]);
    const over = responses(withEnum(strings(251, 15_001)));
    expect(figure("openai-responses", [at, over], "large enum characters")).toEqual([
      15_001,
      15_000,
      false,
    ]);
    // 250 values are no large enum, however long; nor is an enum with a number among them.
    const long = responses(withEnum(strings(250, 20_000)));
    const mixed = responses(withEnum([...strings(251, 20_000), 1]));
    expect(figure("openai-responses", [long, mixed], "large enum characters")).toEqual([
      0,
      15_000,
      true,
    ]);
  });

  it("functions (Chat Completions): 128, reading each entry's function.parameters", () => {
    const tools = (count: number) =>
      Array.from({ length: count }, (_, i) => chat(object(1), `t${i}`));
    expect(figure("openai-chat", tools(128), "functions")).toEqual([128, 128, true]);
    expect(figure("openai-chat", tools(129), "functions")).toEqual([129, 128, false]);
    expect(figure("openai-chat", tools(129), "properties")).toEqual([129, 5000, true]);
    expect(figure("openai-responses", [], "functions")).toBeUndefined();
  });
});

describe("checkStrictLimits: Anthropic", () => {
  it("lists its three limits", () => {
    expect(checkStrictLimits([anthropic(object(3, true))], "anthropic")).toEqual({
      ok: true,
      limits: [
        { name: "strict tools", limit: 20, actual: 1, ok: true },
        { name: "optional parameters", limit: 24, actual: 3, ok: true },
        { name: "union parameters", limit: 16, actual: 0, ok: true },
      ],
    });
  });

  it("strict tools: 20", () => {
    const tools = (count: number) => Array.from({ length: count }, () => anthropic(object(1)));
    expect(figure("anthropic", tools(20), "strict tools")).toEqual([20, 20, true]);
    expect(figure("anthropic", tools(21), "strict tools")).toEqual([21, 20, false]);
  });

  it("optional parameters: 24, at every level (nested objects, items, definitions)", () => {
    const schema = (rootOptional: number): JsonSchema => ({
      ...object(rootOptional, true),
      properties: {
        ...(object(rootOptional, true).properties as object),
        inner: object(2, true),
        list: { type: "array", items: object(1, true) },
      },
      required: ["inner", "list"],
      $defs: { D: object(1, true) },
    });
    // 20 at the root, 2 in inner, 1 in the items, 1 in $defs.
    expect(figure("anthropic", [anthropic(schema(20))], "optional parameters")).toEqual([
      24,
      24,
      true,
    ]);
    expect(
      figure(
        "anthropic",
        [anthropic(schema(20)), anthropic(object(1, true))],
        "optional parameters",
      ),
    ).toEqual([25, 24, false]);
  });

  it("union parameters: 16, anyOf and type lists anywhere in the schemas", () => {
    const unions = (count: number): JsonSchema => ({
      ...object(0),
      properties: Object.fromEntries(
        Array.from({ length: count }, (_, i): [string, JsonSchema] => [
          `u${i}`,
          i % 2 === 0
            ? { type: ["string", "null"] }
            : { anyOf: [{ type: "string" }, { type: "integer" }] },
        ]),
      ),
    });
    const nestedUnion: JsonSchema = {
      ...object(0),
      properties: {
        list: { type: "array", items: { anyOf: [{ type: "string" }, { type: "null" }] } },
      },
      $defs: { D: { type: ["number", "string"] } },
    };
    // A one-type list is no union.
    const single: JsonSchema = { ...object(0), properties: { s: { type: ["string"] } } };
    const at = [anthropic(unions(14)), anthropic(nestedUnion), anthropic(single)];
    expect(figure("anthropic", at, "union parameters")).toEqual([16, 16, true]);
    expect(figure("anthropic", [...at, anthropic(unions(1))], "union parameters")).toEqual([
      17,
      16,
      false,
    ]);
  });
});

describe("checkStrictLimits on the workbench registry", () => {
  const entries = <P extends StrictLimitProvider>(provider: P) =>
    Object.values(artifactSet(workbench, provider));
  const figures = (provider: StrictLimitProvider) =>
    checkStrictLimits(entries(provider), provider).limits.map(
      (limit) => `${limit.name} ${limit.actual}/${limit.limit}${limit.ok ? "" : " OVER"}`,
    );

  it("all 40 tools in one request fit OpenAI's limits, not Anthropic's strict ones", () => {
    expect(workbench.tools).toHaveLength(40);
    const openai = [
      "properties 220/5000",
      "nesting 2/10",
      "characters 1571/120000",
      "enum values 34/1000",
      "large enum characters 0/15000",
    ];
    expect(figures("openai-responses")).toEqual(openai);
    expect(figures("openai-chat")).toEqual([...openai, "functions 40/128"]);
    expect(figures("anthropic")).toEqual([
      "strict tools 40/20 OVER",
      "optional parameters 49/24 OVER",
      "union parameters 48/16 OVER",
    ]);
  });
});

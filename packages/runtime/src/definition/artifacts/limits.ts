/**
 * The providers' published limits on strict tool schemas, measured over the entries of one
 * request (`checkStrictLimits`), and the measurement of one OpenAI schema that both this check
 * and the per-tool rule of `compile.ts` (a tool over the limits gets no OpenAI entry) use.
 *
 * OpenAI (Structured Outputs): at most 5,000 object properties, 10 levels of object nesting,
 * 120,000 characters of property names, definition names and string enum and const values,
 * 1,000 enum values, and 15,000 characters in any string enum of more than 250 values; Chat
 * Completions takes at most 128 functions. OpenAI states the schema limits per schema; for
 * function calling they are applied here to the request's tools together, the conservative
 * reading. Anthropic (strict tool use): at most 20 strict tools, 24 optional parameters and 16
 * union-typed parameters in a request.
 */
import type { JsonSchema } from "../registry.js";
import { asNode, type Node } from "./shared.js";
import type { ArtifactEntries } from "./types.js";

/** The providers whose strict mode has published limits. */
export type StrictLimitProvider = "openai-responses" | "openai-chat" | "anthropic";

/** One limit: its name (`properties`, `strict tools`, ...), its value and the request's figure. */
export interface StrictLimit {
  readonly name: string;
  readonly limit: number;
  readonly actual: number;
  /** `actual <= limit`. */
  readonly ok: boolean;
}

export interface StrictLimits {
  /** Every limit holds. */
  readonly ok: boolean;
  /** The provider's limits, in a fixed order. */
  readonly limits: readonly StrictLimit[];
}

export const OPENAI_LIMITS = {
  properties: 5000,
  nesting: 10,
  characters: 120_000,
  enumValues: 1000,
  /** A string enum of more than `largeEnum` values totals at most `largeEnumCharacters`. */
  largeEnum: 250,
  largeEnumCharacters: 15_000,
  functions: 128,
} as const;

const ANTHROPIC_LIMITS = { strictTools: 20, optional: 24, unions: 16 } as const;

/** What OpenAI's limits measure in one schema. */
interface OpenAIFigures {
  properties: number;
  /** Levels of nested objects, the root object being level 1. */
  nesting: number;
  /** Property and definition names, string enum values and string consts. */
  characters: number;
  enumValues: number;
  /** The characters of the longest string enum of more than 250 values (0: none). */
  largeEnumCharacters: number;
}

/** Measures one schema (a tool's OpenAI parameters) as OpenAI's limits count. */
export function measureOpenAI(parameters: JsonSchema): OpenAIFigures {
  const figures: OpenAIFigures = {
    properties: 0,
    nesting: 0,
    characters: 0,
    enumValues: 0,
    largeEnumCharacters: 0,
  };
  const visit = (node: Node, level: number) => {
    if (node.properties && typeof node.properties === "object") {
      figures.nesting = Math.max(figures.nesting, level);
      for (const [key, value] of Object.entries(node.properties as Node)) {
        figures.properties++;
        figures.characters += key.length;
        visit(asNode(value), level + 1);
      }
    }
    if (Array.isArray(node.enum)) {
      figures.enumValues += node.enum.length;
      let characters = 0;
      for (const value of node.enum) characters += typeof value === "string" ? value.length : 0;
      figures.characters += characters;
      if (node.enum.length > OPENAI_LIMITS.largeEnum && node.enum.every(isString))
        figures.largeEnumCharacters = Math.max(figures.largeEnumCharacters, characters);
    }
    if (typeof node.const === "string") figures.characters += node.const.length;
    if (Array.isArray(node.anyOf)) for (const branch of node.anyOf) visit(asNode(branch), level);
    if (node.items && typeof node.items === "object") visit(asNode(node.items), level);
    if (node.$defs && typeof node.$defs === "object") {
      for (const [name, def] of Object.entries(node.$defs as Node)) {
        figures.characters += name.length;
        visit(asNode(def), 1);
      }
    }
  };
  visit(asNode(parameters), 1);
  return figures;
}

/**
 * The provider's strict limits measured over `entries`, the tools of one request (every entry
 * counts, strict or not: the check asks whether the listing can be sent strict).
 */
export function checkStrictLimits<P extends StrictLimitProvider>(
  entries: readonly ArtifactEntries[P][],
  provider: P,
): StrictLimits {
  const limits: StrictLimit[] = [];
  const add = (name: string, limit: number, actual: number) =>
    limits.push({ name, limit, actual, ok: actual <= limit });
  if (provider === "anthropic") {
    let optional = 0;
    let unions = 0;
    for (const entry of entries as readonly ArtifactEntries["anthropic"][]) {
      const figures = measureAnthropic(entry.input_schema);
      optional += figures.optional;
      unions += figures.unions;
    }
    add("strict tools", ANTHROPIC_LIMITS.strictTools, entries.length);
    add("optional parameters", ANTHROPIC_LIMITS.optional, optional);
    add("union parameters", ANTHROPIC_LIMITS.unions, unions);
  } else {
    const total = { properties: 0, nesting: 0, characters: 0, enumValues: 0, largeEnum: 0 };
    for (const entry of entries) {
      const figures = measureOpenAI(
        "function" in entry
          ? (entry as ArtifactEntries["openai-chat"]).function.parameters
          : (entry as ArtifactEntries["openai-responses"]).parameters,
      );
      total.properties += figures.properties;
      total.nesting = Math.max(total.nesting, figures.nesting);
      total.characters += figures.characters;
      total.enumValues += figures.enumValues;
      total.largeEnum = Math.max(total.largeEnum, figures.largeEnumCharacters);
    }
    add("properties", OPENAI_LIMITS.properties, total.properties);
    add("nesting", OPENAI_LIMITS.nesting, total.nesting);
    add("characters", OPENAI_LIMITS.characters, total.characters);
    add("enum values", OPENAI_LIMITS.enumValues, total.enumValues);
    add("large enum characters", OPENAI_LIMITS.largeEnumCharacters, total.largeEnum);
    if (provider === "openai-chat") add("functions", OPENAI_LIMITS.functions, entries.length);
  }
  return { ok: limits.every((limit) => limit.ok), limits };
}

/**
 * Anthropic's figures of one input schema: the properties its objects do not require, and the
 * schemas that are unions (an `anyOf`, or a `type` list of more than one type), at every level
 * (nested objects, array items, definitions).
 */
function measureAnthropic(inputSchema: JsonSchema): { optional: number; unions: number } {
  let optional = 0;
  let unions = 0;
  const visit = (node: Node) => {
    if (Array.isArray(node.anyOf) || (Array.isArray(node.type) && node.type.length > 1)) unions++;
    if (node.properties && typeof node.properties === "object") {
      const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
      for (const [key, value] of Object.entries(node.properties as Node)) {
        if (!required.has(key)) optional++;
        visit(asNode(value));
      }
    }
    if (Array.isArray(node.anyOf)) for (const branch of node.anyOf) visit(asNode(branch));
    if (node.items && typeof node.items === "object") visit(asNode(node.items));
    if (node.additionalProperties && typeof node.additionalProperties === "object")
      visit(asNode(node.additionalProperties));
    if (node.$defs && typeof node.$defs === "object")
      for (const def of Object.values(node.$defs as Node)) visit(asNode(def));
  };
  visit(asNode(inputSchema));
  return { optional, unions };
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}

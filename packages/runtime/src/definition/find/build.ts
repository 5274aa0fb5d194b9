/**
 * `buildFindIndex`: the tool index as plain data (BM25F: each field's terms weighted, one
 * document length per tool), built by `zcp gen` into the generated `find.ts`, by
 * `composeGenerated` over the composed tools, and by the runtime for a module without one.
 */
import type { JsonSchema, ToolDefinition } from "../registry.js";
import { identifierTerms, tokenize } from "./tokenize.js";

export const FIND_INDEX_VERSION = 1;

/**
 * The index: `docs` are tool ids (in registry order), `lengths` each tool's weighted length,
 * `terms` (sorted) each term's postings `[docIndex, weightedTf, docIndex, weightedTf, …]` by
 * doc index. Numbers are rounded to 3 decimals, so the same tools give the same bytes.
 */
export interface FindIndex {
  readonly version: number;
  readonly docs: readonly string[];
  readonly lengths: readonly number[];
  readonly terms: { readonly [term: string]: readonly number[] };
}

/** The weight of each field's terms. */
export const FIELD_WEIGHTS = {
  alias: 3,
  title: 2,
  description: 1,
  paramName: 1.5,
  paramDescription: 0.5,
  group: 1,
} as const;

type Field = keyof typeof FIELD_WEIGHTS;

const round = (value: number): number => Math.round(value * 1000) / 1000;

/** The index of `tools`, deterministic: equal tools in equal order give equal data. */
export function buildFindIndex(tools: readonly ToolDefinition[]): FindIndex {
  const postings = new Map<string, number[]>();
  const lengths: number[] = [];
  tools.forEach((tool, doc) => {
    const { weights, length } = toolTerms(tool);
    lengths.push(length);
    for (const [term, weight] of weights) {
      const list = postings.get(term);
      if (list) list.push(doc, weight);
      else postings.set(term, [doc, weight]);
    }
  });
  const terms: { [term: string]: number[] } = {};
  for (const term of [...postings.keys()].sort()) terms[term] = postings.get(term)!;
  return { version: FIND_INDEX_VERSION, docs: tools.map((tool) => tool.id), lengths, terms };
}

interface ToolTerms {
  /** Each term's weighted frequency, rounded. */
  readonly weights: ReadonlyMap<string, number>;
  /** The weighted length, rounded. */
  readonly length: number;
}

/**
 * Each definition's terms, kept per definition object: a pure function of it (definitions are
 * not changed), so that `zcp gen --watch` tokenizes only the tools a change made anew.
 */
const TERMS = new WeakMap<ToolDefinition, ToolTerms>();

function toolTerms(tool: ToolDefinition): ToolTerms {
  let known = TERMS.get(tool);
  if (known === undefined) {
    const weights = new Map<string, number>();
    let length = 0;
    for (const [field, terms] of fieldTerms(tool)) {
      for (const term of terms) {
        weights.set(term, (weights.get(term) ?? 0) + FIELD_WEIGHTS[field]);
        length += FIELD_WEIGHTS[field];
      }
    }
    for (const [term, weight] of weights) weights.set(term, round(weight));
    TERMS.set(tool, (known = { weights, length: round(length) }));
  }
  return known;
}

/** A tool's terms per field: alias, title, description, parameters (one level nested), groups. */
function fieldTerms(tool: ToolDefinition): [Field, string[]][] {
  const fields: [Field, string[]][] = [
    ["alias", identifierTerms(tool.alias)],
    ["title", tokenize(tool.title ?? "")],
    ["description", tokenize(tool.description)],
    ["group", tool.groups.flatMap(identifierTerms)],
  ];
  for (const [name, schema] of parameters(tool.inputSchema, 2)) {
    fields.push(["paramName", identifierTerms(name)]);
    if (typeof schema.description === "string")
      fields.push(["paramDescription", tokenize(schema.description)]);
  }
  return fields;
}

/** The properties of an object schema and, `depth` levels down, of its object properties. */
function parameters(schema: JsonSchema, depth: number): [string, JsonSchema][] {
  const properties = (schema as { properties?: { [name: string]: JsonSchema } }).properties;
  if (depth === 0 || typeof properties !== "object" || properties === null) return [];
  return Object.entries(properties).flatMap(([name, property]) => [
    [name, property] as [string, JsonSchema],
    ...parameters(property, depth - 1),
  ]);
}

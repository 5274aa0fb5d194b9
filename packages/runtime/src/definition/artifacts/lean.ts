/**
 * Lean schemas, what the lean provider artifacts are compiled from: the schema with every
 * description cut to its first sentence (`firstSentence` of @zcp/runtime/codegen) and without
 * the constraints the generated validators enforce anyway, whose refusal hints state them
 * (`expected string matching ^[a-z]+$`, `expected integer >= 1`): patterns, formats, lengths,
 * ranges, multiples, item counts, unique items and property-name rules. Examples and titles go
 * too. What a call needs to be right the first time stays: types, enums and consts, required,
 * `additionalProperties`, defaults, deprecation, `$defs`/`$ref`, and a tuple's `prefixItems`
 * with its length bounds (its arity, part of its type).
 */
import { firstSentence } from "../planner/sentence.js";

/** The keywords lean schemas leave out. */
export const LEAN_DROPPED: ReadonlySet<string> = new Set([
  "pattern",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "propertyNames",
  "examples",
  "title",
]);

/** Keywords whose value is a map of schemas. */
const SCHEMA_MAPS = new Set(["properties", "$defs", "patternProperties"]);
/** Keywords whose value is a schema. */
const SCHEMAS = new Set([
  "items",
  "additionalProperties",
  "not",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);

/** Lean forms by schema object: shared schemas stay shared (and their JSON texts reused). */
const LEAN = new WeakMap<object, unknown>();

/** The lean form of a JSON Schema (a new value; the input is not changed). */
export function leanSchema<T>(schema: T): T {
  return lean(schema) as T;
}

function lean(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const known = LEAN.get(schema);
  if (known !== undefined) return known;
  const node = schema as { readonly [keyword: string]: unknown };
  const tuple = Array.isArray(node.prefixItems);
  const out: { [keyword: string]: unknown } = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined) continue;
    if (key === "description" && typeof value === "string") {
      const sentence = firstSentence(value);
      if (sentence !== "") out[key] = sentence;
    } else if (LEAN_DROPPED.has(key) && !(tuple && (key === "minItems" || key === "maxItems"))) {
      continue;
    } else if (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, lean(sub)]));
    } else if (SCHEMAS.has(key)) {
      out[key] = lean(value);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map(lean);
    } else {
      out[key] = value;
    }
  }
  LEAN.set(schema, out);
  return out;
}

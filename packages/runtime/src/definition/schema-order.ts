/**
 * The canonical keyword order of the schemas `zcp gen` writes, and of the provider entries
 * compiled from them: fixed keywords first in `KEY_ORDER`, then the rest alphabetically.
 */
import { setOwn } from "./own.js";

const KEY_ORDER = [
  "$schema",
  "$ref",
  "type",
  "title",
  "description",
  "format",
  "const",
  "enum",
  "properties",
  "required",
  "patternProperties",
  "additionalProperties",
  "propertyNames",
  "prefixItems",
  "items",
  "anyOf",
  "allOf",
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "default",
  "examples",
  "deprecated",
  "$defs",
];
const RANK = new Map(KEY_ORDER.map((key, index) => [key, index]));

type Node = { readonly [keyword: string]: unknown };

/**
 * Returns a copy of `schema` with keywords in a fixed order (then alphabetical), recursively,
 * so that the emitted JSON reads the same way everywhere. Property order is kept: it is the
 * declaration order, and planner lines and positional calls depend on it. `$defs` are sorted by
 * name.
 */
export function orderKeys<S extends Node>(schema: S): S {
  // Schemas are not changed once built, and `zcp gen` shares them between tools: order each once.
  let ordered = ORDERED.get(schema);
  if (!ordered) ORDERED.set(schema, (ordered = reorder(schema)));
  return ordered as S;
}

const ORDERED = new WeakMap<Node, Node>();

function reorder(schema: Node): Node {
  const keys = Object.keys(schema)
    .filter((key) => schema[key] !== undefined)
    .sort((a, b) => (RANK.get(a) ?? 999) - (RANK.get(b) ?? 999) || (a < b ? -1 : a > b ? 1 : 0));
  const out: { [keyword: string]: unknown } = {};
  for (const key of keys) {
    const value = schema[key];
    if (key === "properties" || key === "patternProperties" || key === "$defs") {
      const map: { [name: string]: unknown } = {};
      const entries = Object.entries(value as Node);
      if (key === "$defs") entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      // Own properties: a property named `__proto__` is a property, not the map's prototype.
      for (const [name, sub] of entries) setOwn(map, name, orderKeys(sub as Node));
      out[key] = map;
    } else if (key === "anyOf" || key === "allOf" || key === "prefixItems") {
      out[key] = (value as Node[]).map(orderKeys);
    } else if (
      (key === "items" || key === "additionalProperties" || key === "propertyNames") &&
      typeof value === "object"
    ) {
      out[key] = orderKeys(value as Node);
    } else {
      out[key] = value;
    }
  }
  return out;
}

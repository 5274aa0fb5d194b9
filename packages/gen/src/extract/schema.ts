/** extract: the mutable JSON Schema objects the extract stage builds, and their canonical key order. */

export type Schema = { [keyword: string]: unknown };

const KEY_ORDER = [
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

/**
 * Returns a copy of `schema` with keywords in a fixed order (then alphabetical), recursively,
 * so that the emitted JSON reads the same way everywhere. Property order is kept: it is the
 * declaration order, and planner lines and positional calls depend on it.
 */
export function orderKeys(schema: Schema): Schema {
  // Schemas are immutable once built and shared between tools (see SchemaCache): order each once.
  let ordered = ORDERED.get(schema);
  if (!ordered) ORDERED.set(schema, (ordered = reorder(schema)));
  return ordered;
}

const ORDERED = new WeakMap<Schema, Schema>();

function reorder(schema: Schema): Schema {
  const keys = Object.keys(schema)
    .filter((key) => schema[key] !== undefined)
    .sort((a, b) => (RANK.get(a) ?? 999) - (RANK.get(b) ?? 999) || (a < b ? -1 : a > b ? 1 : 0));
  const out: Schema = {};
  for (const key of keys) {
    const value = schema[key];
    if (key === "properties" || key === "patternProperties" || key === "$defs") {
      const map: Schema = {};
      const entries = Object.entries(value as Schema);
      if (key === "$defs") entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [name, sub] of entries) map[name] = orderKeys(sub as Schema);
      out[key] = map;
    } else if (key === "anyOf" || key === "allOf" || key === "prefixItems") {
      out[key] = (value as Schema[]).map(orderKeys);
    } else if (
      (key === "items" || key === "additionalProperties" || key === "propertyNames") &&
      typeof value === "object"
    ) {
      out[key] = orderKeys(value as Schema);
    } else {
      out[key] = value;
    }
  }
  return out;
}

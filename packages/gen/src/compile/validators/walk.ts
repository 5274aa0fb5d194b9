/**
 * compile/validators: where a JSON Schema 2020-12 schema holds other schemas, and what a local
 * `$ref` points at. One table serves every walk over a schema (the compiler's references, the
 * reduction to what it compiles, the upstream checks of patterns and dialects), so that no walk
 * misses a place the others see.
 */
import type { JsonValue } from "@zcp/runtime/definition";
import { isSchema, type Schema } from "./schema.js";

/** Keywords whose value is a schema (`one`), a list of schemas, or a map of names to schemas. */
const SUBSCHEMAS = new Map<string, "one" | "list" | "map">([
  ...[
    "not",
    "if",
    "then",
    "else",
    "items",
    "contains",
    "additionalProperties",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
  ].map((keyword) => [keyword, "one"] as const),
  ...["allOf", "anyOf", "oneOf", "prefixItems"].map((keyword) => [keyword, "list"] as const),
  ...["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"].map(
    (keyword) => [keyword, "map"] as const,
  ),
]);

/** One sub-schema: the keyword that holds it, its JSON Pointer tokens below `schema`, itself. */
export interface Sub {
  readonly keyword: string;
  readonly tokens: readonly string[];
  readonly schema: JsonValue;
}

/** The direct sub-schemas of `schema`, in keyword order. */
export function subschemas(schema: JsonValue): Sub[] {
  const out: Sub[] = [];
  if (!isSchema(schema)) return out;
  for (const keyword in schema) {
    const shape = SUBSCHEMAS.get(keyword);
    const value = schema[keyword]!;
    if (shape === "one") out.push({ keyword, tokens: [keyword], schema: value });
    else if (shape === "list" && Array.isArray(value))
      value.forEach((item, i) => out.push({ keyword, tokens: [keyword, String(i)], schema: item }));
    else if (shape === "map" && isSchema(value))
      for (const key in value) out.push({ keyword, tokens: [keyword, key], schema: value[key]! });
  }
  return out;
}

/**
 * Puts `value` where `sub` (one of `schema`'s `subschemas`) was, in `schema`: a copy being
 * built, whose lists and maps are copied on write, never changed.
 */
export function replaceSub(
  schema: { [keyword: string]: JsonValue },
  sub: Sub,
  value: JsonValue,
): void {
  const [keyword, key] = sub.tokens as [string, string?];
  const held = schema[keyword];
  if (key === undefined) schema[keyword] = value;
  else if (Array.isArray(held))
    schema[keyword] = held.map((item, i) => (String(i) === key ? value : item));
  else schema[keyword] = { ...(held as Schema), [key]: value };
}

/** A JSON Pointer fragment's token (`~` → `~0`, `/` → `~1`). */
export function pointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** `#/a/b` for `path` `#` and tokens `a`, `b`. */
export function pointerPath(path: string, tokens: readonly string[]): string {
  let out = path;
  for (const token of tokens) out += `/${pointerToken(token)}`;
  return out;
}

/**
 * What the local reference `ref` points at in `root`: `#` (the root), a JSON Pointer
 * (`#/$defs/Name`, `#/definitions/Name`, `#/properties/a`..., URI-escaped or not) or an anchor
 * (`#name`, a `$anchor` anywhere in `root`). Undefined for anything else: a reference to
 * another document is not followed.
 */
export function resolveRef(root: JsonValue, ref: string): JsonValue | undefined {
  if (!ref.startsWith("#")) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === "") return root;
  if (!fragment.startsWith("/")) return findAnchor(root, fragment);
  let at: JsonValue | undefined = root;
  for (const raw of fragment.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(at) && /^(?:0|[1-9][0-9]*)$/.test(token)) at = at[Number(token)];
    else if (isSchema(at) && Object.hasOwn(at, token)) at = at[token];
    else return undefined;
  }
  return at;
}

function findAnchor(schema: JsonValue, name: string): Schema | undefined {
  if (!isSchema(schema)) return undefined;
  if (schema.$anchor === name) return schema;
  for (const sub of subschemas(schema)) {
    const found = findAnchor(sub.schema, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every `$ref` string in `schema` and below, in order, each once. */
export function refsIn(schema: JsonValue, out = new Set<string>()): Set<string> {
  if (!isSchema(schema)) return out;
  if (typeof schema.$ref === "string") out.add(schema.$ref);
  for (const sub of subschemas(schema)) refsIn(sub.schema, out);
  return out;
}

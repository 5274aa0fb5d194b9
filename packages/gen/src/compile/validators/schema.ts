/**
 * compile/validators: what the compiler knows about JSON Schema keywords, and the facts about a
 * schema that every schema kind asks (its type list, whether it constrains anything at all).
 */
import type { JsonValue } from "@zcp/runtime/codegen";

export type Schema = { readonly [keyword: string]: JsonValue };

/** The kinds of value whose keywords apply only to them. */
export type Kind = "string" | "number" | "array" | "object";
export const KINDS: readonly Kind[] = ["string", "number", "array", "object"];
export const KIND_BITS: { readonly [kind in Kind]: number } = {
  string: 1,
  number: 2,
  array: 4,
  object: 8,
};
/** Keywords that never affect validation. */
const ANNOTATION = 16;
/** Keywords that apply to any value. */
const GENERAL = 32;

/**
 * Every keyword this compiler knows: the kind of value it constrains (a bit of KIND_BITS), or
 * GENERAL, or ANNOTATION. Any other keyword is an error: validators must not skip a constraint.
 */
const KEYWORDS = new Map<string, number>([
  ...["type", "enum", "const", "$ref", "$defs", "anyOf", "allOf"].map(
    (keyword) => [keyword, GENERAL] as const,
  ),
  ...[
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "$comment",
    "readOnly",
    "writeOnly",
    // Labels: a `$ref` is resolved in the tool's own `$defs` only (`defName`), whatever they say.
    "$id",
    "$anchor",
  ].map((keyword) => [keyword, ANNOTATION] as const),
  ...["minLength", "maxLength", "pattern", "format"].map(
    (keyword) => [keyword, KIND_BITS.string] as const,
  ),
  ...["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].map(
    (keyword) => [keyword, KIND_BITS.number] as const,
  ),
  ...["minItems", "maxItems", "uniqueItems", "prefixItems", "items"].map(
    (keyword) => [keyword, KIND_BITS.array] as const,
  ),
  ...["properties", "required", "additionalProperties", "patternProperties", "propertyNames"].map(
    (keyword) => [keyword, KIND_BITS.object] as const,
  ),
]);

/** The KEYWORDS bits of a schema's keywords, or-ed; throws on an unknown keyword. */
export function keywordBits(schema: Schema, owner: string): number {
  let bits = 0;
  for (const keyword in schema) {
    const bit = KEYWORDS.get(keyword);
    if (bit === undefined)
      throw new Error(`zcp gen: generated validators do not support "${keyword}" (${owner})`);
    bits |= bit;
  }
  return bits;
}

export function isSchema(value: JsonValue | undefined): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for schemas that accept anything: `true`, absent, or annotations only. */
export function isTrivial(schema: JsonValue | undefined): boolean {
  if (schema === undefined || schema === true) return true;
  if (!isSchema(schema)) return false;
  for (const keyword in schema)
    if (KEYWORDS.get(keyword) !== ANNOTATION && keyword !== "$defs") return false;
  return true;
}

/** `{type: "null"}` and annotations: an `anyOf` branch that is a test for null. */
export function isNullSchema(schema: JsonValue): boolean {
  if (!isSchema(schema) || schema.type !== "null") return false;
  for (const keyword in schema)
    if (keyword !== "type" && KEYWORDS.get(keyword) !== ANNOTATION) return false;
  return true;
}

/** Schemas with sub-schemas, which get deep enough to move into functions of their own. */
export function isComposite(schema: Schema): boolean {
  return (
    schema.properties !== undefined ||
    schema.additionalProperties !== undefined ||
    schema.items !== undefined ||
    schema.prefixItems !== undefined ||
    schema.anyOf !== undefined ||
    schema.allOf !== undefined ||
    schema.patternProperties !== undefined ||
    schema.propertyNames !== undefined
  );
}

export function typeList(schema: Schema): readonly string[] | null {
  const type = schema.type;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? (type as string[]) : null;
}

function kindOf(type: string): Kind | null {
  if (type === "integer" || type === "number") return "number";
  return type === "string" || type === "array" || type === "object" ? type : null;
}

/** Whether some (`all`: every) type is of `kind`. */
export function typesOfKind(types: readonly string[], kind: Kind, all: boolean): boolean {
  for (const type of types) if ((kindOf(type) === kind) !== all) return !all;
  return all;
}

export function hasType(value: JsonValue, types: readonly string[]): boolean {
  if (value === null) return types.includes("null");
  if (typeof value === "number")
    return types.includes("number") || (Number.isInteger(value) && types.includes("integer"));
  if (Array.isArray(value)) return types.includes("array");
  return types.includes(typeof value);
}

export function count(value: JsonValue | undefined): number | null {
  return typeof value === "number" ? value : null;
}

/**
 * The `$defs` name of a local reference (`#/$defs/Name`, a JSON Pointer: `~1` is `/`, `~0` is
 * `~`); other references are errors.
 */
export function defName(ref: string): string {
  const name = ref.startsWith("#/$defs/") ? ref.slice("#/$defs/".length) : null;
  if (name === null || name.includes("/"))
    throw new Error(
      `zcp gen: only "#/$defs/..." references are supported, got ${JSON.stringify(ref)}`,
    );
  return name.replace(/~1/g, "/").replace(/~0/g, "~");
}

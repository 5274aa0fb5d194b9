/**
 * compile/validators: what the compiler knows about JSON Schema keywords, and the facts about a
 * schema that every schema kind asks (its type list, whether it constrains anything at all).
 */
import type { JsonValue } from "@zcp/runtime/definition";

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
 * GENERAL, or ANNOTATION. Validators must not skip a constraint silently: any other keyword is
 * an error in a TypeScript tool's schema, and is left out of an upstream's with a warning
 * (`reduce.ts`).
 */
const KEYWORDS = new Map<string, number>([
  ...[
    "type",
    "enum",
    "const",
    "$ref",
    "$defs",
    "definitions",
    "anyOf",
    "allOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
  ].map((keyword) => [keyword, GENERAL] as const),
  ...[
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "$comment",
    "readOnly",
    "writeOnly",
    // Labels: a `$ref` is resolved in the tool's own schema only (`walk.ts`), whatever they say.
    "$id",
    "$anchor",
    "$schema",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
  ].map((keyword) => [keyword, ANNOTATION] as const),
  ...["minLength", "maxLength", "pattern", "format"].map(
    (keyword) => [keyword, KIND_BITS.string] as const,
  ),
  ...["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].map(
    (keyword) => [keyword, KIND_BITS.number] as const,
  ),
  ...[
    "minItems",
    "maxItems",
    "uniqueItems",
    "prefixItems",
    "items",
    "contains",
    "minContains",
    "maxContains",
  ].map((keyword) => [keyword, KIND_BITS.array] as const),
  ...[
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
  ].map((keyword) => [keyword, KIND_BITS.object] as const),
]);

/** Whether the compiler checks or knowingly ignores `keyword`: `x-` keywords are annotations. */
export function isKnownKeyword(keyword: string): boolean {
  return KEYWORDS.has(keyword) || keyword.startsWith("x-");
}

/** The KEYWORDS bits of a schema's keywords, or-ed; throws on an unknown keyword. */
export function keywordBits(schema: Schema, owner: string): number {
  let bits = 0;
  for (const keyword in schema) {
    const bit = keyword.startsWith("x-") ? ANNOTATION : KEYWORDS.get(keyword);
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
    if (!isAnnotation(keyword) && keyword !== "$defs" && keyword !== "definitions") return false;
  return true;
}

function isAnnotation(keyword: string): boolean {
  return keyword.startsWith("x-") || KEYWORDS.get(keyword) === ANNOTATION;
}

/** `{type: "null"}` and annotations: an `anyOf` branch that is a test for null. */
export function isNullSchema(schema: JsonValue): boolean {
  if (!isSchema(schema) || schema.type !== "null") return false;
  for (const keyword in schema) if (keyword !== "type" && !isAnnotation(keyword)) return false;
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
    schema.oneOf !== undefined ||
    schema.not !== undefined ||
    schema.if !== undefined ||
    schema.contains !== undefined ||
    schema.dependentSchemas !== undefined ||
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

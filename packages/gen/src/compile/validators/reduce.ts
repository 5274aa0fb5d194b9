/**
 * compile/validators: a listed schema (an upstream tool's) reduced to what the compiler checks.
 * A keyword it does not compile (`$dynamicRef`, an unknown keyword, `unevaluatedProperties`
 * beside an applicator, a `$ref` to another document) is left out, and so the validator checks
 * less, never more: the upstream still enforces the whole schema. Leaving a keyword out of a
 * `not`, an `if`, a `oneOf` or a `contains` would make the validator refuse more (`not: {}`
 * refuses everything), so there the whole keyword goes (with its `then`/`else`,
 * `minContains`/`maxContains`). `unevaluatedProperties` (`unevaluatedItems`) beside no
 * applicator means what `additionalProperties` (`items`) means, and is compiled as that.
 * Every keyword left out is in `dropped`, for the upstream model's warning (ZCP1712).
 */
import type { JsonValue } from "@zcp/runtime/definition";
import { isKnownKeyword, isSchema, type Schema } from "./schema.js";
import { pointerPath, refsIn, replaceSub, resolveRef, subschemas } from "./walk.js";

export interface Dropped {
  /** The keyword left out, and its JSON Pointer path in the listed schema (`#/properties/a/not`). */
  readonly keyword: string;
  readonly path: string;
  /** For a `not`, `if`, `oneOf` or `contains` left out: the keyword inside it that is not compiled. */
  readonly inner: { readonly keyword: string; readonly path: string } | null;
}

export interface Reduced {
  readonly schema: JsonValue;
  readonly dropped: readonly Dropped[];
}

/** Keywords under which leaving a constraint out would refuse more, and what goes with them. */
const EXCLUSIVE: ReadonlyMap<string, readonly string[]> = new Map([
  ["not", []],
  ["if", ["then", "else"]],
  ["oneOf", []],
  ["contains", ["minContains", "maxContains"]],
]);

/** Applicators that evaluate properties or items in place: `unevaluated*` then needs them all. */
const IN_PLACE = ["allOf", "anyOf", "oneOf", "if", "$ref", "dependentSchemas"];

/** `schema` with what the compiler does not check left out. */
export function reduce(schema: JsonValue): Reduced {
  const dropped: Dropped[] = [];
  return { schema: reduceNode(schema, schema, "#", dropped, new Map()), dropped };
}

function reduceNode(
  root: JsonValue,
  schema: JsonValue,
  path: string,
  out: Dropped[],
  refs: Map<string, Dropped["inner"]>,
): JsonValue {
  if (!isSchema(schema)) return schema;
  const kept: { [keyword: string]: JsonValue } = {};
  const skip = new Set<string>();
  for (const keyword in schema) {
    if (skip.has(keyword)) continue;
    const at = pointerPath(path, [keyword]);
    const value = schema[keyword]!;
    const partners = EXCLUSIVE.get(keyword);
    if (partners !== undefined) {
      const held = subschemas({ [keyword]: value });
      const inner = firstDropped(
        root,
        held.map((sub) => [sub.schema, pointerPath(path, sub.tokens)] as const),
        refs,
      );
      if (inner !== null) {
        out.push({ keyword, path: at, inner });
        for (const partner of partners) skip.add(partner);
        continue;
      }
    }
    const renamed = compiledAs(schema, keyword);
    if (renamed === null || (keyword === "$ref" && !resolves(root, value))) {
      out.push({ keyword, path: at, inner: null });
      continue;
    }
    kept[renamed] = value;
  }
  // Partners listed before the keyword they go with.
  for (const partner of skip) delete kept[partner];
  for (const sub of subschemas(kept)) {
    const reduced = reduceNode(root, sub.schema, pointerPath(path, sub.tokens), out, refs);
    if (reduced !== sub.schema) replaceSub(kept, sub, reduced);
  }
  const same =
    Object.keys(kept).length === Object.keys(schema).length &&
    Object.keys(kept).every((keyword) => kept[keyword] === schema[keyword]);
  return same ? schema : kept;
}

/** The keyword `keyword` is compiled as, or null when it is not compiled. */
function compiledAs(schema: Schema, keyword: string): string | null {
  if (isKnownKeyword(keyword)) return keyword;
  const inPlace = IN_PLACE.some((applicator) => schema[applicator] !== undefined);
  if (keyword === "unevaluatedProperties" && !inPlace && schema.additionalProperties === undefined)
    return "additionalProperties";
  if (
    keyword === "unevaluatedItems" &&
    !inPlace &&
    schema.items === undefined &&
    schema.contains === undefined
  )
    return "items";
  return null;
}

function resolves(root: JsonValue, ref: JsonValue): boolean {
  return typeof ref === "string" && resolveRef(root, ref) !== undefined;
}

/**
 * The first keyword that `schemas` (each at its path), or a schema they refer to, would lose;
 * null when they lose none. `refs` remembers each reference's answer (pending: null, so that a
 * cycle ends).
 */
function firstDropped(
  root: JsonValue,
  schemas: readonly (readonly [JsonValue, string])[],
  refs: Map<string, Dropped["inner"]>,
): Dropped["inner"] {
  for (const [schema, path] of schemas) {
    const out: Dropped[] = [];
    reduceNode(root, schema, path, out, refs);
    if (out.length > 0) return { keyword: out[0]!.keyword, path: out[0]!.path };
  }
  for (const [schema] of schemas)
    for (const ref of refsIn(schema)) {
      let inner = refs.get(ref);
      if (inner === undefined) {
        refs.set(ref, null);
        const target = resolveRef(root, ref);
        // An unresolved reference is reported by reduceNode, above.
        inner = target === undefined ? null : firstDropped(root, [[target, ref]], refs);
        refs.set(ref, inner);
      }
      if (inner !== null) return inner;
    }
  return null;
}

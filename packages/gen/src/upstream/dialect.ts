/**
 * upstream: a listed schema's declared `$schema` dialect, honoured by rewriting the schema into
 * draft 2020-12, the registry's dialect (the definition has no `$schema`; hosts read 2020-12).
 * No `$schema`, or 2020-12: as listed. 2019-09: an `items` list is a tuple (`prefixItems`, with
 * `additionalItems` as `items`). Draft-07 and draft-06: the same, and `dependencies` splits into
 * `dependentRequired` (a list of names) and `dependentSchemas` (a schema); `definitions` and
 * references to them stay as they are (a local reference is a JSON Pointer in every dialect).
 * Any other `$schema` is not read at all: the model leaves the tool out (ZCP1713).
 */
import type { JsonSchema, JsonValue } from "@zcp/runtime/definition";
import { isSchema, type Schema } from "../compile/validators/schema.js";
import { replaceSub, subschemas } from "../compile/validators/walk.js";

type Dialect = "2020-12" | "2019-09" | "draft-07";

/** The dialects by their meta-schema URI (without the empty fragment, `http` or `https`). */
const DIALECTS = new Map<string, Dialect>([
  ["json-schema.org/draft/2020-12/schema", "2020-12"],
  ["json-schema.org/draft/2019-09/schema", "2019-09"],
  ["json-schema.org/draft-07/schema", "draft-07"],
  ["json-schema.org/draft-06/schema", "draft-07"],
]);

/** The schema in draft 2020-12 without `$schema`, or the `$schema` value no dialect has. */
export function toDraft2020(schema: {
  readonly [keyword: string]: unknown;
}): { readonly schema: JsonSchema } | { readonly unknown: string } {
  const { $schema: declared, ...rest } = schema;
  const dialect =
    declared === undefined
      ? "2020-12"
      : typeof declared === "string"
        ? DIALECTS.get(declared.replace(/^https?:\/\//, "").replace(/#$/, ""))
        : undefined;
  if (dialect === undefined) return { unknown: JSON.stringify(declared) ?? String(declared) };
  if (dialect === "2020-12") return { schema: rest as JsonSchema };
  return { schema: rewrite(rest as JsonValue, dialect) as JsonSchema };
}

/** `schema` and every schema in it with the dialect's keywords in their 2020-12 form. */
function rewrite(schema: JsonValue, dialect: Dialect): JsonValue {
  if (!isSchema(schema)) return schema;
  const out: { [keyword: string]: JsonValue } = {};
  const tuple = Array.isArray(schema.items);
  for (const keyword in schema) {
    const value = schema[keyword]!;
    if (keyword === "items" && tuple) out.prefixItems = value;
    else if (keyword === "additionalItems") {
      // Without an `items` list, `additionalItems` has no effect.
      if (tuple) out.items = value;
    } else if (keyword === "dependencies" && dialect === "draft-07" && isSchema(value))
      for (const key in value) {
        const target = Array.isArray(value[key]) ? "dependentRequired" : "dependentSchemas";
        out[target] = { ...((out[target] as Schema | undefined) ?? {}), [key]: value[key]! };
      }
    else out[keyword] = value;
  }
  for (const sub of subschemas(out)) replaceSub(out, sub, rewrite(sub.schema, dialect));
  return out;
}

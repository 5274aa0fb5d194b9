/**
 * compile/validators: the functions of named object types. An interface (an object schema with a
 * `title` and no references) becomes one function, named after its title and the SHA-256 of its
 * schema (`check$Address$1a2b…`, all 64 hex digits), shared by every use in every tool: a type
 * used by many tools is generated once. The name is the whole hash, not a prefix, because an
 * upstream listing is input: two types whose 32-bit prefixes a listing crafted to agree would
 * otherwise get one name and fail the whole run. A name that depends on the schema alone (not on
 * the other types of the module) keeps each tool's code a function of its own definition, as
 * watch mode's memo needs.
 */
import { createHash } from "node:crypto";
import type { Schema } from "./schema.js";

export interface SharedType {
  /** The function's name. */
  readonly name: string;
}

/**
 * The names of schemas seen before. A memo of a pure function of immutable schema objects (extract
 * shares one object between every use of a type): it changes no result, only spares hashing a
 * type again for each tool that uses it.
 */
const SHARED = new WeakMap<Schema, SharedType | null>();

/** The shared function of a named object type without references, or null for other schemas (compiled in place). */
export function sharedType(schema: Schema): SharedType | null {
  if (
    typeof schema.title !== "string" ||
    schema.type !== "object" ||
    schema.properties === undefined
  )
    return null;
  let shared = SHARED.get(schema);
  if (shared === undefined) {
    const text = JSON.stringify(schema);
    if (text.includes('"$ref":')) {
      shared = null;
    } else {
      shared = {
        name: `check$${schema.title.replace(/[^A-Za-z0-9_]+/g, "_").slice(0, 40) || "object"}$${sha256(text)}`,
      };
    }
    SHARED.set(schema, shared);
  }
  return shared;
}

/**
 * The SHA-256 of `text` in hex, whole: the part of a generated name that tells apart two schemas
 * or two patterns, which must differ whenever they do (a prefix can be made to agree).
 */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

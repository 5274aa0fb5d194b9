/**
 * compile/validators: the functions of named object types. An interface (an object schema with a
 * `title` and no references) becomes one function, named after its title and a hash of its
 * schema (`check$Address$1a2b3c4d`), shared by every use in every tool: a type used by many tools
 * is generated once. Two different types with one name would call each other's code: the file's
 * assembly (`collectValidators`) refuses that.
 */
import { createHash } from "node:crypto";
import type { Schema } from "./schema.js";

export interface SharedType {
  /** The function's name. */
  readonly name: string;
  /** SHA-256 of the schema's JSON: two schemas with one name and different hashes are a collision. */
  readonly hash: string;
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
      const hash = createHash("sha256").update(text).digest("hex");
      shared = {
        name: `check$${schema.title.replace(/[^A-Za-z0-9_]+/g, "_").slice(0, 40) || "object"}$${hash.slice(0, 8)}`,
        hash,
      };
    }
    SHARED.set(schema, shared);
  }
  return shared;
}

/** The first 8 hex characters of the SHA-256 of `text` (names of pattern constants). */
export function hash8(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

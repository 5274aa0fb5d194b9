import { createHash } from "node:crypto";
import type { JsonValue, ToolDefinition } from "./registry.js";

/**
 * JSON with object keys sorted (recursively) and no whitespace: the input of every hash.
 * `memo` caches the text of objects and arrays that are known not to change while it lives
 * (`zcp gen` shares schema objects between tools and passes one per run).
 */
export function canonicalJson(
  value: JsonValue | undefined,
  memo?: WeakMap<object, string>,
): string {
  if (value === null || typeof value !== "object") {
    if (value === undefined) throw new TypeError("canonicalJson: undefined is not JSON");
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw new TypeError(`canonicalJson: ${value} is not JSON`);
    }
    return JSON.stringify(value);
  }
  const known = memo?.get(value);
  if (known !== undefined) return known;
  let text: string;
  if (Array.isArray(value)) {
    text = "[";
    for (let i = 0; i < value.length; i++)
      text += (i > 0 ? "," : "") + canonicalJson(value[i], memo);
    text += "]";
  } else {
    const record = value as { readonly [key: string]: JsonValue };
    const keys = Object.keys(record).sort();
    text = "{";
    for (const key of keys) {
      if (record[key] === undefined) continue;
      text += `${text.length > 1 ? "," : ""}${JSON.stringify(key)}:${canonicalJson(record[key], memo)}`;
    }
    text += "}";
  }
  memo?.set(value, text);
  return text;
}

/** The first 12 hex characters of the SHA-256 of `text`. */
export function sha12(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 12);
}

/**
 * A tool definition's `hash`: `sha12` of the canonical JSON of the definition without `hash`
 * and `source` (where it is declared does not change what it is). `memo` as for `canonicalJson`.
 */
export function toolHash(
  definition: Omit<ToolDefinition, "hash" | "source">,
  memo?: WeakMap<object, string>,
): string {
  return sha12(canonicalJson(definition as unknown as JsonValue, memo));
}

/**
 * The hash of a set of tools, computed from their ids and per-tool hashes alone, so that a
 * view (any subset) can be hashed without touching schemas. Order-independent.
 */
export function combineToolHashes(
  tools: Iterable<{ readonly id: string; readonly hash: string }>,
): string {
  const pairs = [...tools].map((tool) => [tool.id, tool.hash] as const);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return sha12(canonicalJson(pairs.map(([id, hash]) => [id, hash])));
}

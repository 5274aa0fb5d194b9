/**
 * The size of a value's compact JSON, in UTF-8 bytes, without making the JSON: a tool's worker
 * measures its result before it crosses to the server's thread, and a result too large to
 * send is often too large to stringify a second time within the worker's heap. It follows
 * `JSON.stringify`: `toJSON` (Dates), own enumerable string keys, `undefined`, functions and
 * symbols left out of objects and `null` in arrays, non-finite numbers as `null`, boxed
 * primitives unwrapped, and strings escaped as it escapes them (lone surrogates as `\uXXXX`).
 */

/** Bytes of `JSON.stringify(value)`, or undefined when it is not JSON (a cycle, a BigInt, nothing). */
export function jsonBytes(value: unknown): number | undefined {
  try {
    return sizeOf(value, "", new Set());
  } catch {
    // A cycle, a BigInt, a throwing toJSON or getter, or a stack too deep to walk: the
    // server's thread stringifies it and says why it is refused.
    return undefined;
  }
}

/** undefined: the value is left out (in an object) or `null` (in an array). */
function sizeOf(input: unknown, key: string, path: Set<object>): number | undefined {
  let value = input;
  if (typeof value === "object" && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") value = toJSON.call(value, key) as unknown;
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean)
    value = value.valueOf();
  switch (typeof value) {
    case "string":
      return stringBytes(value);
    case "number":
      return Number.isFinite(value) ? String(value).length : 4;
    case "boolean":
      return value ? 4 : 5;
    case "bigint":
      throw new TypeError("a BigInt is not JSON");
    case "object":
      if (value === null) return 4;
      break;
    default:
      return undefined;
  }
  const object = value as object;
  if (path.has(object)) throw new TypeError("a cycle is not JSON");
  path.add(object);
  let bytes = 2;
  if (Array.isArray(object)) {
    for (let i = 0; i < object.length; i++)
      bytes += (i > 0 ? 1 : 0) + (sizeOf(object[i], String(i), path) ?? 4);
  } else {
    let first = true;
    for (const name of Object.keys(object)) {
      const size = sizeOf((object as { [name: string]: unknown })[name], name, path);
      if (size === undefined) continue;
      bytes += (first ? 0 : 1) + stringBytes(name) + 1 + size;
      first = false;
    }
  }
  path.delete(object);
  return bytes;
}

const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x22, 0x5c]);

/** What a string's JSON does not copy as one byte a character. */
const NOT_PLAIN = /[\u0000-\u001f"\\\u007f-\uffff]/;

/** Bytes of a string's JSON: its quotes, its escapes and its UTF-8. */
function stringBytes(text: string): number {
  // Most text is plain ASCII: a regular expression finds that far faster than a loop.
  if (!NOT_PLAIN.test(text)) return text.length + 2;
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c) bytes += SHORT_ESCAPES.has(unit) ? 2 : 6;
    else if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 6;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}

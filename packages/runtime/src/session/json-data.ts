/**
 * Whether a tool's result is JSON data, and the size of its compact JSON in UTF-8 bytes, in one
 * walk and without making the JSON. JSON data is what the result is checked, stored and sent
 * as: null, booleans, strings, numbers (a non-finite one is `null`, as JSON writes it), arrays
 * and plain objects (own enumerable string keys; an `undefined` field is left out, an
 * `undefined` item is `null`), and Dates, which JSON writes as their ISO text. Anything else is
 * refused, where it is: a Map, a Set, an ArrayBuffer or typed array, an Error, a class
 * instance, a function or symbol, a BigInt, a cycle. JSON.stringify would write most of these
 * as `{}` or drop them, so the caller would get less than the tool meant; and a worker's
 * `postMessage` would carry all of them whole, past the size measured here. The call pipeline
 * (in process) and a tool's worker (before its result crosses to the server's thread) both
 * refuse with the same words.
 */
import { clip } from "../results/clip.js";
import { member } from "../codegen/validator-helpers.js";

const PATH_MAX = 200;

/**
 * The compact JSON's bytes, or the `exec:error` hint that says why the value is not JSON data
 * (`the result holds a Map at $.x: a tool returns JSON data`).
 */
type JsonData = { readonly bytes: number } | { readonly refused: string };

export function jsonData(value: unknown): JsonData {
  const walk = new Walk();
  let found: string;
  try {
    return { bytes: walk.size(value) ?? 4 };
  } catch (error) {
    // Else a getter that threw, or a value nested deeper than the stack can walk.
    found =
      error instanceof NotJson
        ? error.what
        : `a value that cannot be read (${clip(String((error as Error | undefined)?.message), 100)})`;
  }
  return { refused: `the result holds ${found} at ${walk.path()}: a tool returns JSON data` };
}

class NotJson extends Error {
  constructor(readonly what: string) {
    super(what);
  }
}

class Walk {
  /** The objects from the top to where the walk is (a cycle returns to one of them). */
  private readonly ancestors = new Set<object>();
  /** The keys from the top to where the walk is, for the path of a refusal. */
  private readonly keys: (string | number)[] = [];

  /** Where the walk is, as `$.a[0]`: at most PATH_MAX characters (a result may nest deep). */
  path(): string {
    let path = "$";
    for (const key of this.keys) {
      path += typeof key === "number" ? `[${key}]` : member(key);
      if (path.length > PATH_MAX) return clip(path, PATH_MAX);
    }
    return path;
  }

  /** undefined: the value is left out (in an object) or `null` (in an array). */
  size(value: unknown): number | undefined {
    switch (typeof value) {
      case "string":
        return stringBytes(value);
      case "number":
        return Number.isFinite(value) ? String(value).length : 4;
      case "boolean":
        return value ? 4 : 5;
      case "undefined":
        return undefined;
      case "object":
        return value === null ? 4 : this.objectSize(value);
      case "bigint":
        throw new NotJson("a BigInt");
      default:
        throw new NotJson(`a ${typeof value}`);
    }
  }

  private objectSize(object: object): number {
    if (object instanceof Date) {
      const time = object.getTime();
      return Number.isNaN(time) ? 4 : stringBytes(new Date(time).toISOString());
    }
    const proto = Object.getPrototypeOf(object) as object | null;
    const array = Array.isArray(object) && proto === Array.prototype;
    if (!array && proto !== Object.prototype && proto !== null) throw new NotJson(kindOf(object));
    if (this.ancestors.has(object)) throw new NotJson("a cycle");
    this.ancestors.add(object);
    let bytes = 2;
    if (array) {
      const items = object as unknown[];
      for (let i = 0; i < items.length; i++) {
        this.keys.push(i);
        bytes += (i > 0 ? 1 : 0) + (this.size(items[i]) ?? 4);
        this.keys.pop();
      }
    } else {
      let first = true;
      for (const name of Object.keys(object)) {
        this.keys.push(name);
        const size = this.size((object as { [name: string]: unknown })[name]);
        this.keys.pop();
        if (size === undefined) continue;
        bytes += (first ? 0 : 1) + stringBytes(name) + 1 + size;
        first = false;
      }
    }
    this.ancestors.delete(object);
    return bytes;
  }
}

/** `a Map`, `an Error`, `a Uint8Array`: the object's class, by its constructor's name. */
function kindOf(object: object): string {
  const name = (object.constructor as { name?: unknown } | undefined)?.name;
  const kind = typeof name === "string" && name !== "" ? clip(name) : "object of a class";
  // Not U: a Uint8Array, a URIError.
  return `${/^[AEIO]/.test(kind) ? "an" : "a"} ${kind}`;
}

const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x22, 0x5c]);

/** What a string's JSON does not copy as one byte a character. */
const NOT_PLAIN = /[\u0000-\u001f"\\\u007f-\uffff]/;

/** Bytes of a string's JSON: its quotes, its escapes and its UTF-8 (lone surrogates as `\uXXXX`). */
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

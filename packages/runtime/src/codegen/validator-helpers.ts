/**
 * The helpers that generated validators (`validators.ts`, written by `zcp gen`) call: errors,
 * type tests, the two documented coercions, string lengths in code points, path segments, own
 * properties, copy on write, unique items and patterns compiled on first use. Generated code
 * imports the ones it uses from `@zcp/runtime/codegen`, as it imports the format checkers
 * (`formats.ts`), instead of carrying a copy of each in every generated file.
 *
 * They are the whole run-time vocabulary of a validator besides plain operators: no schema is
 * read at run time, and each helper does one fixed thing to the value it is given.
 */
import { setOwn } from "../definition/own.js";
import type { ValidationResult } from "./validate.js";

/** The error for a value at `path` that is there but does not fit: `invalid:<path>`. */
export function invalid(path: string, hint: string): ValidationResult {
  return { ok: false, error: `invalid:${path}`, hint };
}

/** The error for a required property that is absent: `missing:<path>`. */
export function missing(path: string, hint: string): ValidationResult {
  return { ok: false, error: `missing:${path}`, hint };
}

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A JSON number: finite (JSON has no NaN or Infinity). */
export function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** A JSON integer: a number without a fractional part (`1.0` is one, as JSON Schema says). */
export function isInteger(value: unknown): value is number {
  return Number.isInteger(value);
}

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** A string holding a JSON number becomes that number; anything else stays as it is. */
export function toNumber(value: unknown): unknown {
  if (typeof value !== "string" || !NUMBER.test(value)) {
    return value;
  }
  const number = Number(value);
  return Number.isFinite(number) ? number : value;
}

/** "true" and "false" become booleans; anything else stays as it is. */
export function toBoolean(value: unknown): unknown {
  return value === "true" ? true : value === "false" ? false : value;
}

/** The length of a string in Unicode code points, as JSON Schema counts it. */
export function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A key as a path segment: `.name`, or `["other key"]`. */
export function member(key: string): string {
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** An own property (not one every object inherits, such as `constructor`). */
export function own(object: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/**
 * Copy on write: `copy` (or a new copy of `source`) with `key` set to `value`. A key
 * `__proto__` stays an own property: input never sets a prototype.
 */
export function put(
  copy: Record<string, unknown> | undefined,
  source: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  const target = copy ?? { ...source };
  setOwn(target, key, value);
  return target;
}

/**
 * A schema's `pattern`, as a `u`-flag regular expression compiled when it is first tested, not
 * when the generated module loads. zcp gen checks each pattern with the Node that runs it; an
 * older Node the module later runs on may not read newer syntax (modifiers such as `(?i:a)`
 * need Node 23): then the pattern matches nothing, so only values it checks are refused
 * (`invalid:<path>`), and the module, its other tools and its other checks all still work.
 */
export function pattern(source: string): { test(text: string): boolean } {
  // undefined: not compiled yet; null: this Node cannot compile it.
  let compiled: RegExp | null | undefined;
  return {
    test(text) {
      if (compiled === undefined) {
        try {
          compiled = new RegExp(source, "u");
        } catch {
          compiled = null;
        }
      }
      return compiled !== null && compiled.test(text);
    },
  };
}

/** The index of the first item equal (as JSON) to an earlier one, or -1. */
export function duplicateAt(items: readonly unknown[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const key = canonical(items[i]);
    if (seen.has(key)) {
      return i;
    }
    seen.add(key);
  }
  return -1;
}

/**
 * Whether `value` equals (as JSON) one of the values whose sorted-key JSON texts are `texts`
 * (`enum` and `const` values that are objects or arrays; zcp gen writes the texts).
 */
export function sameJson(value: unknown, ...texts: string[]): boolean {
  return texts.includes(canonical(value));
}

/** JSON text with sorted keys: equal JSON values, equal texts (the text of `canonicalJson`). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonical).join(",")}]`;
  }
  if (typeof value === "object" && value !== null) {
    const object = value as Record<string, unknown>;
    let text = "";
    for (const key of Object.keys(object).sort()) {
      text += `${text ? "," : ""}${JSON.stringify(key)}:${canonical(object[key])}`;
    }
    return `{${text}}`;
  }
  return JSON.stringify(value) ?? "null";
}

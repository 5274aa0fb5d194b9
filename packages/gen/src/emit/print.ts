/**
 * Prints data as TypeScript literals exactly as prettier formats them (printWidth 100, two
 * spaces, double quotes, trailing commas), without running prettier: on a 1,000-tool registry
 * (6 MB of TypeScript) prettier took 4.5 s of a 6.4 s cold run. The rules below are prettier's
 * for object and array literals; tests run prettier over every fixture's output and over
 * randomized data to check that it changes nothing.
 *
 * - Objects and arrays stay on one line when they fit (decided outside in, like prettier's
 *   groups), else one property or element per line; number-only arrays fill lines; arrays of
 *   2+ multi-entry objects or arrays always break.
 * - A string value that does not fit moves to the next line when its key is at least 5 columns.
 * - Strings take double quotes unless they contain more double than single quotes.
 * - Keys are bare when they are identifier names, else quoted.
 */
import type { JsonValue } from "@zcp/runtime/codegen";

export const PRINT_WIDTH = 100;
const TAB = 2;

/** The prettier options whose output this module reproduces (the tests' oracle). */
export const PRETTIER_STYLE = {
  parser: "typescript",
  printWidth: PRINT_WIDTH,
  trailingComma: "all",
} as const;

/** A reference to a declared identifier, printed bare. */
export class Identifier {
  constructor(readonly name: string) {}
}

export type Printable =
  JsonValue | Identifier | readonly Printable[] | { readonly [key: string]: Printable };

/** `prefix` followed by `value` and `;`, e.g. `export const x: T = {...};`, with a final newline. */
export function printStatement(prefix: string, value: Printable): string {
  return `${prefix}${printValue(value, 0, width(prefix), 1)};\n`;
}

/**
 * `value` starting at `column`, inside a block indented by `indent`, followed on its last line
 * by `trail` columns (the `,` or `;` after it).
 */
function printValue(value: Printable, indent: number, column: number, trail: number): string {
  if (value instanceof Identifier) return value.name;
  if (value === null || typeof value !== "object") return printScalar(value);
  if (Array.isArray(value)) return printArray(value as readonly Printable[], indent, column, trail);
  const flat = flatText(value, PRINT_WIDTH - column - trail);
  return flat ?? printObject(value as { readonly [key: string]: Printable }, indent);
}

function printScalar(value: string | number | boolean | null): string {
  if (typeof value === "string") return printString(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`cannot print ${value} as JSON`);
    return printNumber(value);
  }
  return String(value);
}

/** A (finite) number as prettier prints it: `1e21`, not `1e+21`. */
export function printNumber(value: number): string {
  return JSON.stringify(value).replace("e+", "e");
}

function printObject(object: { readonly [key: string]: Printable }, indent: number): string {
  const keys = Object.keys(object).filter((key) => object[key] !== undefined);
  if (keys.length === 0) return "{}";
  const inner = indent + TAB;
  const pad = " ".repeat(inner);
  let out = "{\n";
  for (const key of keys) {
    const value = object[key]!;
    const printedKey = printKey(key);
    const keyWidth = width(printedKey);
    if (typeof value === "string") {
      const text = printString(value);
      // Prettier breaks after the colon when the string does not fit, unless the key is short.
      const fits = inner + keyWidth + 2 + width(text) + 1 <= PRINT_WIDTH;
      out +=
        fits || keyWidth < TAB + 3
          ? `${pad}${printedKey}: ${text},\n`
          : `${pad}${printedKey}:\n${pad}${" ".repeat(TAB)}${text},\n`;
    } else {
      out += `${pad}${printedKey}: ${printValue(value, inner, inner + keyWidth + 2, 1)},\n`;
    }
  }
  return `${out}${" ".repeat(indent)}}`;
}

function printArray(
  items: readonly Printable[],
  indent: number,
  column: number,
  trail: number,
): string {
  if (items.length === 0) return "[]";
  const inner = indent + TAB;
  const pad = " ".repeat(inner);
  if (!mustBreak(items)) {
    const flat = flatText(items, PRINT_WIDTH - column - trail);
    if (flat !== null) return flat;
    if (items.length > 1 && items.every((item) => typeof item === "number"))
      return fill(items as number[], indent);
  }
  let out = "[\n";
  for (const item of items) out += `${pad}${printValue(item, inner, inner, 1)},\n`;
  return `${out}${" ".repeat(indent)}]`;
}

/** Prettier's rule: 2+ elements, all objects (or all arrays) with more than one entry each. */
function mustBreak(items: readonly Printable[]): boolean {
  if (items.length < 2) return false;
  const kind = (item: Printable) =>
    Array.isArray(item)
      ? "array"
      : item !== null && typeof item === "object" && !(item instanceof Identifier)
        ? "object"
        : null;
  const first = kind(items[0]!);
  return (
    first !== null &&
    items.every((item) => kind(item) === first && Object.keys(item as object).length > 1)
  );
}

/**
 * The one-line form if it is at most `budget` columns wide, else null (also when something
 * inside must break). Stops as soon as the budget is exceeded, so that deciding costs at most
 * a line's worth of work whatever the size of the value.
 */
function flatText(value: Printable, budget: number): string | null {
  if (value instanceof Identifier) return width(value.name) <= budget ? value.name : null;
  if (value === null || typeof value !== "object") {
    const text = printScalar(value);
    return width(text) <= budget ? text : null;
  }
  if (Array.isArray(value)) {
    const items = value as readonly Printable[];
    if (items.length === 0) return budget >= 2 ? "[]" : null;
    if (mustBreak(items)) return null;
    let text = "[";
    let used = 2;
    for (let i = 0; i < items.length; i++) {
      if (i > 0) used += 2;
      const part = used <= budget ? flatText(items[i]!, budget - used) : null;
      if (part === null) return null;
      used += width(part);
      text += i > 0 ? `, ${part}` : part;
    }
    return `${text}]`;
  }
  const object = value as { readonly [key: string]: Printable };
  let text = "{ ";
  let used = 4;
  let first = true;
  for (const key in object) {
    const item = object[key];
    if (item === undefined) continue;
    const head = `${first ? "" : ", "}${printKey(key)}: `;
    used += width(head);
    const part = used <= budget ? flatText(item, budget - used) : null;
    if (part === null) return null;
    used += width(part);
    text += head + part;
    first = false;
  }
  if (first) return budget >= 2 ? "{}" : null;
  return `${text} }`;
}

/** Prettier's `fill` for number arrays: as many `n,` per line as fit. */
function fill(numbers: readonly number[], indent: number): string {
  const inner = indent + TAB;
  const parts = numbers.map((n) => `${printScalar(n)},`);
  const lines: string[] = [];
  let line = parts[0]!;
  let position = inner;
  for (let i = 1; i < parts.length; i++) {
    // The pair [current, " ", next] must fit from where the current part starts.
    if (position + width(parts[i - 1]!) + 1 + width(parts[i]!) <= PRINT_WIDTH) {
      position += width(parts[i - 1]!) + 1;
      line += ` ${parts[i]}`;
    } else {
      lines.push(line);
      line = parts[i]!;
      position = inner;
    }
  }
  lines.push(line);
  const pad = " ".repeat(inner);
  return `[\n${lines.map((l) => `${pad}${l}`).join("\n")}\n${" ".repeat(indent)}]`;
}

/** ES5 identifier names (Unicode letters included), the keys prettier leaves unquoted. */
const IDENTIFIER =
  /^[$_\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{Nl}][$_\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}\u200c\u200d]*$/u;

/** An object key: bare when it is an identifier name, else a quoted string. */
export function printKey(key: string): string {
  return IDENTIFIER.test(key) ? key : printString(key);
}

/** Printed strings: generated data repeats the same ones (types, names, descriptions) often. */
const STRINGS = new Map<string, string>();
const STRINGS_MAX = 100_000;

/** A string literal with prettier's choice of quotes and escapes. */
export function printString(value: string): string {
  let printed = STRINGS.get(value);
  if (printed === undefined) {
    if (STRINGS.size >= STRINGS_MAX) STRINGS.clear();
    STRINGS.set(value, (printed = quote(value)));
  }
  return printed;
}

function quote(value: string): string {
  const raw = JSON.stringify(value).slice(1, -1);
  // Prettier's choice: double quotes unless the text holds more of them than single quotes.
  if (occurrences(raw, '"') <= occurrences(raw, "'")) return `"${raw}"`;
  // In JSON's escaping a '"' is always written '\"' and a "'" never escaped, so this swaps the
  // escapes exactly: every '\"' in `raw` is a quote of the value (a backslash of the value is
  // written '\\', which a bare '"' never follows).
  return `'${raw.replaceAll("'", "\\'").replaceAll('\\"', '"')}'`;
}

function occurrences(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) count++;
  return count;
}

/**
 * Display width as prettier measures it: emoji count 2, East Asian wide and fullwidth
 * characters 2, control characters and combining diacritics 0, everything else 1.
 */
export function width(text: string): number {
  if (ASCII.test(text)) return text.length;
  let total = 0;
  // The full emoji regex is slow: only run it when an emoji-presentation character, a variation
  // selector or a keycap mark is there (every RGI emoji has one of them).
  for (const ch of MAYBE_EMOJI.test(text) ? text.replace(EMOJI, "  ") : text) {
    const code = ch.codePointAt(0)!;
    if (code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0x300 && code <= 0x36f))
      continue;
    total += isWide(code) ? 2 : 1;
  }
  return total;
}

const ASCII = /^[\x20-\x7e]*$/;
const EMOJI = new RegExp("\\p{RGI_Emoji}", "gv");
const MAYBE_EMOJI = /[\p{Emoji_Presentation}\ufe0f\u20e3]/u;

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

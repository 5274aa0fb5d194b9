/**
 * Prints data as TypeScript literals exactly as prettier formats them (printWidth 100, two
 * spaces, double quotes, trailing commas), without running prettier, because prettier would
 * cost several times the whole run. Measured 2026-12-07 on 2 cores shared with other work (load
 * 19 to 33, so the times are inflated; runs interleaved), cold `zcp gen --force` on the
 * 1,000-tool project of tools/bench-gen (8.5 MB of TypeScript out), median of 3: 15.6 s with
 * this printer, 92.6 s with prettier 3.10.1 formatting the same output in memory (its format
 * step alone 71 s; it changed no file). Issue 32 aims at a cold run within 1.2x of the ts-morph
 * floor; prettier would make it about 6x this one's, and add 11.5 MB to gen's install, to save
 * about 470 lines (this file, `layout.ts` and the layouts in the emitters). The rules below are
 * prettier's for object and array literals; tests run prettier over every fixture's output and
 * over randomized data to check that it changes nothing.
 *
 * - Objects and arrays stay on one line when they fit (decided outside in, like prettier's
 *   groups), else one property or element per line; number-only arrays fill lines; arrays of
 *   2+ multi-entry objects or arrays always break.
 * - A string value that does not fit moves to the next line when its key is at least 5 columns.
 * - Strings take double quotes unless they contain more double than single quotes.
 * - Keys are bare when they are identifier names, else quoted (`__proto__` is computed).
 */
import { PRINT_WIDTH, printKey, printString, width, type JsonValue } from "@zcp/runtime/definition";

// The string, key and width primitives are the runtime's, shared with its TypeScript type printer.
export { PRINT_WIDTH, printString, width };
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

/**
 * `prefix` followed by `value`, `close` and `;`, e.g. `export const x: T = {...};` or
 * `export const x = f({...});`, with a final newline.
 */
export function printStatement(prefix: string, value: Printable, close = ""): string {
  return `${prefix}${printValue(value, 0, width(prefix), close.length + 1)}${close};\n`;
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

/**
 * A key of an object literal. `__proto__` is computed (`["__proto__"]`): written bare or quoted
 * it would set the literal's prototype instead of a property (a tool id in a dispatch table).
 */
function objectKey(key: string): string {
  return key === "__proto__" ? `[${printString(key)}]` : printKey(key);
}

function printObject(object: { readonly [key: string]: Printable }, indent: number): string {
  const keys = Object.keys(object).filter((key) => object[key] !== undefined);
  if (keys.length === 0) return "{}";
  const inner = indent + TAB;
  const pad = " ".repeat(inner);
  let out = "{\n";
  for (const key of keys) {
    const value = object[key]!;
    const printedKey = objectKey(key);
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
    const head = `${first ? "" : ", "}${objectKey(key)}: `;
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

/**
 * The operations on a text handle (a tool that returned a string): its size in lines and
 * characters, a view by lines (`offset`, `limit`) or by characters (`start`, `length`), and a
 * search for the lines that contain a piece of text. Pure functions of the text and the
 * caller's arguments, as in ops.ts: indexes are 0-based (line 0 is the first line; a search's
 * line numbers are the `offset`s that view them), every argument is checked at run time and
 * every problem is answered with `invalid:<argument>` and a hint, never thrown. Every answer is
 * bounded: `TEXT_VIEW_MAX_CHARS` characters of text, `GREP_MAX_LIMIT` lines of a search.
 *
 * A line ends at `\n` (a `\r` before it stays in the line); a text that ends with a line break
 * has no empty line after it, and the empty text has no line.
 */
import { failure, type CallError } from "../results/result.js";

const TEXT_VIEW_DEFAULT_LINES = 100;
const TEXT_VIEW_MAX_LINES = 1000;
const TEXT_VIEW_DEFAULT_CHARS = 4000;
/** Characters of text one view or search line answers at most. */
const TEXT_VIEW_MAX_CHARS = 20_000;
const GREP_DEFAULT_LIMIT = 20;
const GREP_MAX_LIMIT = 100;
/** Characters of the text a search finds, at most. */
const GREP_MAX_PATTERN = 200;
/** Characters of a matching line a search shows, around the first match. */
const GREP_LINE_CHARS = 200;

export interface TextCountResult {
  readonly ok: true;
  readonly lines: number;
  readonly chars: number;
}

/** A view by lines: `lines` of them from `offset`, of `total`. */
export interface LinesViewResult {
  readonly ok: true;
  readonly text: string;
  readonly offset: number;
  readonly lines: number;
  readonly total: number;
  /** Said when the one line shown was cut at `TEXT_VIEW_MAX_CHARS` characters: how to read the rest. */
  readonly cut?: string;
}

/** A view by characters: `length` of them from `start`, of `chars`. */
export interface CharsViewResult {
  readonly ok: true;
  readonly text: string;
  readonly start: number;
  readonly length: number;
  readonly chars: number;
}

interface TextViewOptions {
  readonly offset?: unknown;
  readonly limit?: unknown;
  readonly start?: unknown;
  readonly length?: unknown;
}

export interface GrepOptions {
  /** The text to find (plain text, case-sensitive), 1 to 200 characters. */
  readonly text?: string;
  /** Matching lines answered at most: 1 to `GREP_MAX_LIMIT`, `GREP_DEFAULT_LIMIT` by default. */
  readonly limit?: number;
}

export interface GrepResult {
  readonly ok: true;
  /** The first matching lines: 0-based line numbers and the line (cut around the match when long). */
  readonly matches: readonly { readonly line: number; readonly text: string }[];
  /** Lines that match in the whole text. */
  readonly total: number;
}

/** The lines of `text` (see the module's comment for where lines end). */
export function textLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export function countText(text: string): TextCountResult {
  return { ok: true, lines: textLines(text).length, chars: text.length };
}

/** A view by lines, or by characters when `start` or `length` is given (not both ways at once). */
export function viewText(
  id: string,
  text: string,
  options: TextViewOptions,
): LinesViewResult | CharsViewResult | CallError {
  const byChars = options.start !== undefined || options.length !== undefined;
  if (byChars && (options.offset !== undefined || options.limit !== undefined))
    return failure(
      "invalid:start",
      `view ${id} by lines (offset, limit) or by characters (start, length), not both`,
    );
  return byChars ? viewChars(text, options) : viewLines(text, options);
}

function viewLines(text: string, options: TextViewOptions): LinesViewResult | CallError {
  const lines = textLines(text);
  const offset = whole(options.offset, 0, 0, lines.length, "offset", () =>
    lines.length === 0
      ? "the text has no lines"
      : `the text has ${lines.length} lines (0-${lines.length - 1})`,
  );
  if (typeof offset !== "number") return offset;
  const limit = whole(options.limit, TEXT_VIEW_DEFAULT_LINES, 1, TEXT_VIEW_MAX_LINES, "limit");
  if (typeof limit !== "number") return limit;
  let shown = "";
  let count = 0;
  for (const line of lines.slice(offset, offset + limit)) {
    const next = count === 0 ? line : `${shown}\n${line}`;
    if (next.length > TEXT_VIEW_MAX_CHARS) break;
    shown = next;
    count++;
  }
  const total = lines.length;
  if (count > 0 || offset === total) return { ok: true, text: shown, offset, lines: count, total };
  // The first line alone is longer than a view: its beginning, and where to read on.
  const start = lines.slice(0, offset).reduce((sum, line) => sum + line.length + 1, 0);
  return {
    ok: true,
    text: cutAt(lines[offset]!, 0, TEXT_VIEW_MAX_CHARS),
    offset,
    lines: 1,
    total,
    cut: `line ${offset} is longer than ${TEXT_VIEW_MAX_CHARS} characters: view it by characters (start ${start})`,
  };
}

function viewChars(text: string, options: TextViewOptions): CharsViewResult | CallError {
  const start = whole(
    options.start,
    0,
    0,
    text.length,
    "start",
    () => `the text has ${text.length} characters`,
  );
  if (typeof start !== "number") return start;
  const length = whole(options.length, TEXT_VIEW_DEFAULT_CHARS, 1, TEXT_VIEW_MAX_CHARS, "length");
  if (typeof length !== "number") return length;
  const shown = cutAt(text, start, start + length);
  return { ok: true, text: shown, start, length: shown.length, chars: text.length };
}

/** The lines that contain `options.text`, the first `limit` of them, and how many there are. */
export function grepText(text: string, options: GrepOptions): GrepResult | CallError {
  const pattern: unknown = options.text;
  if (typeof pattern !== "string" || pattern.length === 0 || pattern.length > GREP_MAX_PATTERN)
    return failure(
      "invalid:text",
      `text must be the text to find, 1 to ${GREP_MAX_PATTERN} characters`,
    );
  const limit = whole(options.limit, GREP_DEFAULT_LIMIT, 1, GREP_MAX_LIMIT, "limit");
  if (typeof limit !== "number") return limit;
  const matches: { line: number; text: string }[] = [];
  let total = 0;
  for (const [line, content] of textLines(text).entries()) {
    const at = content.indexOf(pattern);
    if (at < 0) continue;
    total++;
    if (matches.length < limit) matches.push({ line, text: around(content, at) });
  }
  return { ok: true, matches, total };
}

/** A long line cut to `GREP_LINE_CHARS` characters around `at`, with `…` where it was cut. */
function around(line: string, at: number): string {
  if (line.length <= GREP_LINE_CHARS) return line;
  const from = Math.max(0, Math.min(at - GREP_LINE_CHARS / 4, line.length - GREP_LINE_CHARS));
  const shown = cutAt(line, from, from + GREP_LINE_CHARS);
  return `${from > 0 ? "…" : ""}${shown}${from + GREP_LINE_CHARS < line.length ? "…" : ""}`;
}

/** `text` from `from` to `to`, moved inward where a bound would split a surrogate pair. */
function cutAt(text: string, from: number, to: number): string {
  const isLow = (i: number) => i > 0 && i < text.length && (text.charCodeAt(i) & 0xfc00) === 0xdc00;
  const start = isLow(from) ? from + 1 : from;
  const end = isLow(to) ? to - 1 : to;
  return text.slice(start, Math.max(start, end));
}

/**
 * A whole-number argument from `min` to `max` (`fallback` when absent), or its failure; `size`
 * says the text's size when the number is past it.
 */
function whole(
  value: unknown,
  fallback: number,
  min: number,
  max: number,
  name: string,
  size?: () => string,
): number | CallError {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min)
    return failure(
      `invalid:${name}`,
      `${name} must be a whole number from ${min}, got ${shown(value)}`,
    );
  if (value > max)
    return failure(
      `invalid:${name}`,
      size
        ? `${name} ${value} is past the end: ${size()}`
        : `${name} must be at most ${max}, got ${value}`,
    );
  return value;
}

function shown(value: unknown): string {
  if (typeof value === "string")
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === "number" || typeof value === "boolean" || value === null)
    return String(value);
  return Array.isArray(value) ? "a list" : `a ${typeof value}`;
}

/**
 * The text protocol, for models that call tools by writing text instead of using a provider's
 * function calling. The model writes one line per call anywhere in its message:
 *
 *     CALL @b9634m weather.get_current city=Shanghai unit=celsius
 *     CALL weather.get_current city="New York" opts={"days": 3}
 *
 * and reads one line per result:
 *
 *     RET c1 {"temp":22}
 *     RET c2 #T1 summary="3 rows: sku, qty" kind=table size=120 ttl=10m count=3
 *     ERR c3 invalid:$.city hint="expected one of: Shanghai, Beijing"
 *
 * The grammar is documented in docs/text-formats.md ("Encodings"). `parseCalls` reads model
 * output, which may be hostile: it never throws, takes time linear in the message, and stops at
 * fixed limits (calls per message, characters per line, nesting depth) with an error.
 */
import { setOwn } from "../definition/own.js";
import type { JsonValue } from "../definition/registry.js";
import { compactJson, isJsonNumber, isSpace, readJson, shown, TextProtocolError } from "./json.js";

export { TextProtocolError };

/** CALL lines read from one message; the ones after it get a single error. */
export const MAX_CALLS_PER_MESSAGE = 64;
/** Characters (UTF-16 code units) in one CALL line. */
export const MAX_CALL_LINE_LENGTH = 65_536;
/** Nesting of arrays and objects in one value. */
export const MAX_VALUE_DEPTH = 64;

export interface ParseCallsOptions {
  readonly maxCalls?: number;
  readonly maxLineLength?: number;
  readonly maxDepth?: number;
}

export interface ParsedCall {
  /** 1-based line number in the message. */
  readonly line: number;
  readonly id: string | null;
  readonly alias: string | null;
  readonly args: Record<string, JsonValue>;
}

export interface CallLineError {
  readonly line: number;
  /** 1-based column the message points at (also written in the message). */
  readonly column: number;
  /** The line as written (its first 200 characters when it is over the length limit). */
  readonly text: string;
  readonly message: string;
}

export interface ParsedCalls {
  readonly calls: ParsedCall[];
  readonly errors: CallLineError[];
}

const ID = /^[A-Za-z0-9_]+$/;
const ALIAS = /^[A-Za-z0-9_.-]+$/;
const KEY = /^[A-Za-z_$][A-Za-z0-9_$.-]*$/;
/** Strings written without quotes in a CALL line: the planner's bare words, and handle ids. */
const BARE = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const HANDLE_ID = /^#[A-Za-z0-9_]+$/;
/** Handle meta values may also start with a digit (`ttl=10m`) when they are not a number. */
export const META_WORD = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
export const CID = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;
/** An error code is written bare unless it has white space, a control character or a leading quote. */
export const BARE_CODE = /^[^\s"\u0000-\u001f\u007f][^\s\u0000-\u001f\u007f]*$/;
const KEY_RULE =
  "a key is a name (letters, digits, _ $ . -, not starting with a digit) or a JSON string";

/**
 * Finds every line of `text` that starts with `CALL` (after optional white space) and parses
 * it; every other line is ignored. A malformed line gives an error and no call.
 */
export function parseCalls(text: string, options: ParseCallsOptions = {}): ParsedCalls {
  const maxCalls = options.maxCalls ?? MAX_CALLS_PER_MESSAGE;
  const maxLineLength = options.maxLineLength ?? MAX_CALL_LINE_LENGTH;
  const maxDepth = options.maxDepth ?? MAX_VALUE_DEPTH;
  const calls: ParsedCall[] = [];
  const errors: CallLineError[] = [];
  let seen = 0;
  let lineNumber = 0;
  for (let start = 0; start <= text.length;) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const next = end + 1;
    lineNumber++;
    let i = start;
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (text.startsWith("CALL", i) && (i + 4 === end || isSpace(text.charCodeAt(i + 4)))) {
      if (++seen > maxCalls) {
        errors.push({
          line: lineNumber,
          column: 1,
          text: excerpt(text, start, end),
          message: `more than ${maxCalls} CALL lines in one message: this line and the ones after it were not read`,
        });
        break;
      }
      if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
      if (end - start > maxLineLength) {
        errors.push({
          line: lineNumber,
          column: maxLineLength + 1,
          text: excerpt(text, start, end),
          message: `line longer than ${maxLineLength} characters`,
        });
      } else {
        const line = text.slice(start, end);
        try {
          calls.push({ line: lineNumber, ...parseCallLine(line, i - start + 4, maxDepth) });
        } catch (error) {
          if (!(error instanceof TextProtocolError)) throw error;
          errors.push({
            line: lineNumber,
            column: error.column,
            text: line,
            message: error.message,
          });
        }
      }
    }
    start = next;
  }
  return { calls, errors };
}

function excerpt(text: string, start: number, end: number): string {
  return end - start > 200 ? `${text.slice(start, start + 200)}…` : text.slice(start, end);
}

/** Parses what follows `CALL` (from `i`). */
function parseCallLine(line: string, i: number, maxDepth: number): Omit<ParsedCall, "line"> {
  let id: string | null = null;
  let alias: string | null = null;
  i = skipSpace(line, i);
  if (line[i] === "@") {
    const end = wordEnd(line, i);
    const word = line.slice(i + 1, end);
    if (!ID.test(word))
      throw fail(`invalid tool id ${shown(`@${word}`)}`, i, ": an id is letters, digits and _");
    id = word;
    i = skipSpace(line, end);
  }
  if (i < line.length && line[i] !== '"') {
    const end = wordEnd(line, i);
    const word = line.slice(i, end);
    const eq = word.indexOf("=");
    const name = eq < 0 ? word : word.slice(0, eq);
    if (name.includes("(")) {
      throw fail(
        `expected "alias key=value" but found parentheses`,
        i + name.indexOf("("),
        ": write arguments as key=value after the alias",
      );
    }
    if (eq < 0) {
      if (!ALIAS.test(word))
        throw fail(
          `invalid tool alias ${shown(word)}`,
          i,
          ": an alias is letters, digits, _ . and -",
        );
      alias = word;
      i = skipSpace(line, end);
    }
  }
  if (id === null && alias === null) throw fail(`expected @id or a tool alias after CALL`, i);
  const args: Record<string, JsonValue> = {};
  for (const pair of readPairs(line, i, maxDepth)) setOwn(args, pair.key, pair.value);
  return { id, alias, args };
}

export interface Pair {
  readonly key: string;
  readonly value: JsonValue;
  /** Index of the value's first character. */
  readonly at: number;
}

/** Reads `key=value` pairs separated by white space from `i` to the end of the line. */
export function readPairs(line: string, i: number, maxDepth: number): Pair[] {
  const pairs: Pair[] = [];
  const keys = new Set<string>();
  i = skipSpace(line, i);
  while (i < line.length) {
    const keyAt = i;
    let key: string;
    if (line[i] === '"') {
      const close = endOfString(line, i);
      key = readJson(line, i, close + 1, 1, "invalid JSON in a key") as string;
      i = close + 1;
      if (line[i] !== "=") throw fail(`expected "=" after the key ${shown(key)}`, i);
    } else {
      let j = i;
      while (j < line.length && line[j] !== "=" && !isSpace(line.charCodeAt(j))) j++;
      key = line.slice(i, j);
      if (key === "" && line[j] === "=") throw fail(`missing key before "="`, i);
      if (line[j] !== "=") {
        throw fail(
          `expected key=value, found ${shown(key)}`,
          i,
          " (a value with spaces needs double quotes)",
        );
      }
      if (!KEY.test(key)) throw fail(`invalid key ${shown(key)}`, i, `: ${KEY_RULE}`);
      i = j;
    }
    if (keys.has(key)) throw fail(`key ${shown(key)} given twice`, keyAt);
    keys.add(key);
    i++;
    const at = i;
    const [value, end] = readValue(line, i, key, maxDepth);
    if (end < line.length && !isSpace(line.charCodeAt(end))) {
      throw fail(
        `expected a space after the value of ${shown(key)}, found ${shown(line[end]!)}`,
        end,
      );
    }
    pairs.push({ key, value, at });
    i = skipSpace(line, end);
  }
  return pairs;
}

/** Reads the value that starts at `i`; returns it and the index after it. */
function readValue(line: string, i: number, key: string, maxDepth: number): [JsonValue, number] {
  if (i >= line.length || isSpace(line.charCodeAt(i))) {
    throw fail(`missing value for ${shown(key)}`, i, ' (write "" for an empty string)');
  }
  const first = line[i];
  if (first === '"' || first === "[" || first === "{") {
    const end = valueExtent(line, i, key, maxDepth);
    return [readJson(line, i, end, maxDepth, `invalid JSON in the value of ${shown(key)}`), end];
  }
  const end = wordEnd(line, i);
  const word = line.slice(i, end);
  if (word === "true") return [true, end];
  if (word === "false") return [false, end];
  if (word === "null") return [null, end];
  if (isJsonNumber(word)) {
    const number = Number(word);
    if (!Number.isFinite(number)) throw fail(`number ${shown(word)} is out of range`, i);
    return [number, end];
  }
  return [word, end];
}

/**
 * Index after the JSON string, array or object that starts at `start`, found by matching
 * brackets outside strings; reports unterminated strings, unbalanced brackets and nesting.
 */
function valueExtent(line: string, start: number, key: string, maxDepth: number): number {
  if (line[start] === '"') return endOfString(line, start) + 1;
  const opens: number[] = [];
  for (let i = start; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') i = endOfString(line, i);
    else if (ch === "[" || ch === "{") {
      if (opens.length === maxDepth)
        throw fail(`the value of ${shown(key)} is nested deeper than ${maxDepth} levels`, i);
      opens.push(i);
    } else if (ch === "]" || ch === "}") {
      const open = opens.pop()!;
      const want = line[open] === "[" ? "]" : "}";
      if (ch !== want)
        throw fail(
          `${shown(ch)}`,
          i,
          ` does not close ${shown(line[open]!)} opened at column ${open + 1}`,
        );
      if (opens.length === 0) return i + 1;
    }
  }
  const open = opens[opens.length - 1]!;
  throw fail(`unclosed ${shown(line[open]!)}`, open);
}

/** Index of the quote that closes the string opened at `quote`. */
export function endOfString(line: string, quote: number): number {
  for (let i = quote + 1; i < line.length; i++) {
    const ch = line[i];
    if (ch === "\\") i++;
    else if (ch === '"') return i;
  }
  throw fail("unterminated string starting", quote);
}

export function skipSpace(line: string, i: number): number {
  while (i < line.length && isSpace(line.charCodeAt(i))) i++;
  return i;
}

export function wordEnd(line: string, i: number): number {
  while (i < line.length && !isSpace(line.charCodeAt(i))) i++;
  return i;
}

/** `<what> at column N<tail>`, pointing at index `at`. */
export function fail(what: string, at: number, tail = ""): TextProtocolError {
  return new TextProtocolError(`${what} at column ${at + 1}${tail}`, at + 1);
}

/**
 * Writes a CALL line that `parseCalls` reads back to the same id, alias and arguments. Values
 * are compact JSON, except strings that are bare words (`Shanghai`, `#T1`). Arguments that are
 * `undefined` are left out; other values follow JSON (a non-finite number becomes `null`).
 * Throws `RangeError` when neither an id nor an alias is given, or one is not well formed.
 */
export function formatCall(
  id: string | null,
  alias: string | null,
  args: { readonly [key: string]: JsonValue | undefined } = {},
): string {
  if (id === null && alias === null)
    throw new RangeError("formatCall: give a tool id, an alias or both");
  if (id !== null && !ID.test(id)) throw new RangeError(`formatCall: invalid tool id ${shown(id)}`);
  if (alias !== null && !ALIAS.test(alias))
    throw new RangeError(`formatCall: invalid tool alias ${shown(alias)}`);
  let line = "CALL";
  if (id !== null) line += ` @${id}`;
  if (alias !== null) line += ` ${alias}`;
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined) continue;
    const bare =
      typeof value === "string" &&
      ((BARE.test(value) && !isLiteral(value)) || HANDLE_ID.test(value));
    line += ` ${KEY.test(key) ? key : JSON.stringify(key)}=${bare ? value : compactJson(value)}`;
  }
  return line;
}

export function isLiteral(word: string): boolean {
  return word === "true" || word === "false" || word === "null";
}

/**
 * Parser for planner lines, the one-line-per-tool form a native planner reads:
 *
 *     TOOL @id alias(param:type "Doc.", other:type?, unit:celsius|fahrenheit=celsius) -> handle:table -- "Doc."
 *
 * The grammar is documented in docs/text-formats.md ("Planner lines"); `zcp gen` writes the
 * lines, this module reads them back. Types are kept as the exact text of the line: the parser
 * only has to find where each one ends, which it does by tracking quotes and brackets. The
 * documentation (JSON string literals) is read back as text.
 */
import type { OutputMode } from "../registry.js";

export interface PlannerParam {
  readonly name: string;
  /** The type text, without the optional mark or default. */
  readonly type: string;
  readonly optional: boolean;
  /** The default's text as written after `=`, or null. */
  readonly default: string | null;
  /** The parameter's documentation (the first sentence of its description), or null. */
  readonly description: string | null;
}

export interface PlannerLine {
  readonly id: string;
  readonly alias: string;
  readonly params: readonly PlannerParam[];
  readonly mode: OutputMode;
  /** Handle kind after `handle:`/`auto:`, or null. */
  readonly kind: string | null;
  readonly deprecated: boolean;
  /** The tool's documentation after ` -- ` (the first sentence of its description), or null. */
  readonly description: string | null;
}

export class PlannerSyntaxError extends Error {
  override name = "PlannerSyntaxError";
}

const HEAD = /^TOOL @([A-Za-z0-9_]+) ([A-Za-z0-9_.-]+)\(/;
const TAIL = /^ -> (scalar|handle|auto)(?::([A-Za-z0-9_.-]+))?( deprecated)?(?: -- (".*"))?$/;
const OPEN = "([{";
const CLOSE = ")]}";

/** Parses one planner line; throws `PlannerSyntaxError` naming the column on malformed input. */
export function parsePlannerLine(line: string): PlannerLine {
  const head = HEAD.exec(line);
  if (!head) throw new PlannerSyntaxError(`expected "TOOL @id alias(" at column 1: ${line}`);
  const start = head[0].length;
  const end = matchingClose(line, start - 1);
  const tail = TAIL.exec(line.slice(end + 1));
  if (!tail) throw new PlannerSyntaxError(`expected " -> mode" at column ${end + 2}: ${line}`);
  const body = line.slice(start, end);
  const params =
    body === ""
      ? []
      : splitTopLevel(body, ", ", start, line).map(([text, at]) => parseParam(text, at, line));
  return {
    id: head[1]!,
    alias: head[2]!,
    params,
    mode: tail[1] as OutputMode,
    kind: tail[2] ?? null,
    deprecated: tail[3] !== undefined,
    description:
      tail[4] === undefined ? null : readDoc(tail[4], line.length - tail[4].length, line),
  };
}

function parseParam(text: string, at: number, line: string): PlannerParam {
  // Types and defaults have no white space outside quotes: the first space starts the doc.
  const space = indexTopLevel(text, " ");
  const description = space < 0 ? null : readDoc(text.slice(space + 1), at + space + 1, line);
  if (space >= 0) text = text.slice(0, space);
  const colon = text.indexOf(":");
  const name = text.slice(0, colon);
  if (colon <= 0 || !/^([A-Za-z_$][A-Za-z0-9_$]*|\*)$/.test(name)) {
    throw new PlannerSyntaxError(`expected "name:type" at column ${at + 1}: ${line}`);
  }
  let type = text.slice(colon + 1);
  let defaultText: string | null = null;
  const eq = indexTopLevel(type, "=");
  if (eq >= 0) {
    defaultText = type.slice(eq + 1);
    type = type.slice(0, eq);
  }
  const optional = defaultText !== null || type.endsWith("?");
  if (type.endsWith("?")) type = type.slice(0, -1);
  if (type === "" || defaultText === "") {
    throw new PlannerSyntaxError(`empty type or default at column ${at + 1}: ${line}`);
  }
  return { name, type, optional, default: defaultText, description };
}

/** A doc: exactly one JSON string literal, at column `at` (0-based) of the line. */
function readDoc(text: string, at: number, line: string): string {
  let value: unknown;
  try {
    value = text.startsWith('"') ? JSON.parse(text) : undefined;
  } catch {
    value = undefined;
  }
  if (typeof value !== "string")
    throw new PlannerSyntaxError(
      `expected a JSON string (the description) at column ${at + 1}: ${line}`,
    );
  return value;
}

/** Index of the bracket that closes the one at `open`, skipping quoted strings. */
function matchingClose(text: string, open: number): number {
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') i = endOfString(text, i);
    else if (OPEN.includes(ch)) stack.push(CLOSE[OPEN.indexOf(ch)]!);
    else if (CLOSE.includes(ch)) {
      if (stack.pop() !== ch)
        throw new PlannerSyntaxError(`unbalanced "${ch}" at column ${i + 1}: ${text}`);
      if (stack.length === 0) return i;
    }
  }
  throw new PlannerSyntaxError(`unclosed "${text[open]}" at column ${open + 1}: ${text}`);
}

function endOfString(text: string, quote: number): number {
  for (let i = quote + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  throw new PlannerSyntaxError(`unterminated string at column ${quote + 1}: ${text}`);
}

/** Visits the characters of `text` outside quotes and brackets until `visit` returns true. */
function forEachTopLevel(text: string, visit: (index: number) => boolean | void): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') i = endOfString(text, i);
    else if (OPEN.includes(ch)) depth++;
    else if (CLOSE.includes(ch)) depth--;
    else if (depth === 0 && visit(i) === true) return;
  }
}

function indexTopLevel(text: string, needle: string): number {
  let found = -1;
  forEachTopLevel(text, (i) => {
    if (!text.startsWith(needle, i)) return false;
    found = i;
    return true;
  });
  return found;
}

function splitTopLevel(
  text: string,
  separator: string,
  offset: number,
  line: string,
): [string, number][] {
  const parts: [string, number][] = [];
  let from = 0;
  forEachTopLevel(text, (i) => {
    if (text.startsWith(separator, i)) {
      parts.push([text.slice(from, i), offset + from]);
      from = i + separator.length;
    }
  });
  parts.push([text.slice(from), offset + from]);
  if (parts.some(([part]) => part === ""))
    throw new PlannerSyntaxError(`empty parameter in: ${line}`);
  return parts;
}

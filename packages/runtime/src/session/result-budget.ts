/**
 * Results sized to what the model can read: a call's token budget (the smallest of the tool's
 * `@maxResultTokens`, the runtime's `maxResultTokens` and the caller's), whether an `auto`
 * result fits it inline, and the first page of one that does not, which goes inline with its
 * handle. Tokens are `estimateTokens`'s (at least o200k_base's on the texts measured), counted
 * on what the model reads: a string's own text, any other value's compact JSON.
 */
import { encodeResult } from "../encoding/result.js";
import { estimateTokens } from "../encoding/tokens.js";
import { textLines } from "../handles/text.js";
import { setOwn } from "../definition/own.js";
import type { JsonValue } from "../definition/registry.js";
import { failure, type CallError, type CallResult } from "../results/result.js";

/**
 * The runtime's budget unless it sets one: results up to about 8,000 tokens stay inline. Under
 * Claude Code's warning (10,000 tokens) and its cap (25,000), and, at most 6 characters an
 * estimated token, under the 50,000 characters past which it moves a result to a file.
 */
export const DEFAULT_MAX_RESULT_TOKENS = 8000;

/** Estimated tokens of a handle's `next` (`,"next":{"op":"view","offset":1234}` is 15). */
const NEXT_TOKENS = 16;

/** Characters a text's head is taken in when not even its first line fits: a few tokens each. */
const CHUNK = 64;

/** A valid budget: a whole number from 1, or `Infinity` (every `auto` result inline). */
export function budgetError(tokens: unknown, name: string): string | undefined {
  return tokens === Number.POSITIVE_INFINITY ||
    (typeof tokens === "number" && Number.isInteger(tokens) && tokens >= 1)
    ? undefined
    : `${name} must be a whole number from 1 (or Infinity), got ${String(tokens)}`;
}

/** The smallest of the budgets that apply (absent ones do not), or the failure of a bad one. */
export function resultBudget(
  tool: number | undefined,
  runtime: number | undefined,
  caller: number | undefined,
): number | CallError {
  const bad = budgetError(caller ?? 1, "maxResultTokens");
  if (bad !== undefined) return failure("invalid:maxResultTokens", bad);
  return Math.min(
    tool ?? Number.POSITIVE_INFINITY,
    runtime ?? DEFAULT_MAX_RESULT_TOKENS,
    caller ?? Number.POSITIVE_INFINITY,
  );
}

/**
 * Whether a value the model would read as `json` (its compact JSON, `bytes` long in UTF-8) fits
 * `budget` tokens. No estimate counts more tokens than UTF-8 bytes, so a value of no more bytes
 * than the budget fits without counting.
 */
export function fitsBudget(value: JsonValue, json: string, bytes: number, budget: number): boolean {
  if (bytes <= budget) return true;
  return estimateTokens(typeof value === "string" ? value : json) <= budget;
}

type HandleResult = Extract<CallResult, { readonly handle: string }>;

/**
 * The handle answer of `value` with its first page (`head`, and `meta.next` to read on), sized
 * so that the whole answer fits `budget`; as it is when nothing fits.
 */
export function withFirstPage(
  result: HandleResult,
  value: JsonValue,
  budget: number,
): HandleResult {
  // The page takes what the handle's own text (and `next`) leaves of the budget; that text
  // counts twice, since MCP repeats the summary in the handle's resource link.
  const page = firstPage(value, budget - 2 * estimateTokens(encodeResult(result)) - NEXT_TOKENS);
  if (!page) return result;
  return {
    ...result,
    meta: page.next ? { ...result.meta, next: page.next } : result.meta,
    head: page.head,
  };
}

interface FirstPage {
  readonly head: JsonValue;
  /** The `zcp.handle` arguments that page on, when a view can. */
  readonly next?: { readonly [argument: string]: JsonValue };
}

/**
 * The start of `value` that fits `tokens`: a text's first whole lines (or, when not even its
 * first line fits, its first characters), a list's first items, a record's first fields; none
 * when nothing fits, or for a number, a boolean or null (which are never over a budget).
 */
function firstPage(value: JsonValue, tokens: number): FirstPage | undefined {
  if (tokens < 1) return undefined;
  if (typeof value === "string") return textPage(value, tokens);
  if (Array.isArray(value)) {
    // `[` and `]`, and a comma after each item.
    let used = 2;
    let count = 0;
    for (const item of value) {
      used += estimateTokens(JSON.stringify(item)) + 1;
      if (used > tokens) break;
      count++;
    }
    return count === 0
      ? undefined
      : { head: value.slice(0, count), next: { op: "view", offset: count } };
  }
  if (value !== null && typeof value === "object") {
    const head: { [key: string]: JsonValue } = {};
    let used = 2;
    for (const [key, field] of Object.entries(value)) {
      used += estimateTokens(JSON.stringify(key)) + estimateTokens(JSON.stringify(field)) + 2;
      if (used > tokens) break;
      setOwn(head, key, field);
    }
    return Object.keys(head).length === 0 ? undefined : { head };
  }
  return undefined;
}

function textPage(text: string, tokens: number): FirstPage | undefined {
  const lines = textLines(text);
  let used = 0;
  let count = 0;
  let length = 0;
  for (const line of lines) {
    // The line as JSON writes it (the head of a native or encoded result is a JSON string): its
    // quotes stand for the escaped line break, and escapes inside count as they are written.
    used += estimateTokens(JSON.stringify(line));
    if (used > tokens) break;
    count++;
    length += line.length + 1;
  }
  if (count > 0) return { head: text.slice(0, length - 1), next: { op: "view", offset: count } };
  // Not even the first line fits: its first characters, a chunk at a time.
  used = 0;
  let end = 0;
  while (end < text.length) {
    const piece = estimateTokens(JSON.stringify(text.slice(end, end + CHUNK)));
    if (used + piece > tokens) break;
    used += piece;
    end += CHUNK;
  }
  // A chunk boundary never splits a surrogate pair in the head.
  if (end > 0 && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return end === 0 ? undefined : { head: text.slice(0, end), next: { op: "view", start: end } };
}

/**
 * The text protocol's answers: the RET and ERR lines the runtime writes for the model
 * (`formatReturn`), and the reader a client or a test uses on them (`parseReturn`). The CALL
 * lines the model writes, and the line reader both directions share, are in text.ts.
 */
import type { JsonValue } from "../definition/registry.js";
import type { CallResult } from "../results/result.js";
import { compactJson, isJsonNumber, isSpace, readJson, shown } from "./json.js";
import {
  BARE_CODE,
  CID,
  endOfString,
  fail,
  isLiteral,
  MAX_VALUE_DEPTH,
  META_WORD,
  readPairs,
  skipSpace,
  wordEnd,
  type Pair,
} from "./text.js";

export interface ParsedReturn {
  readonly cid: string;
  readonly result: CallResult;
}

/**
 * Writes the line that answers call `cid`: `RET cid <json>` for a value, `RET cid #T1
 * summary="…" kind=… size=… ttl=… [count=…]` for a handle, `ERR cid <code> [hint="…"]` for an
 * error (the hint is left out when empty). Throws `RangeError` for a malformed call id or handle.
 */
export function formatReturn(cid: string, result: CallResult): string {
  if (!CID.test(cid)) throw new RangeError(`formatReturn: invalid call id ${shown(cid)}`);
  if (!result.ok) {
    const code = BARE_CODE.test(result.error) ? result.error : JSON.stringify(result.error);
    return `ERR ${cid} ${code}${result.hint === "" ? "" : ` hint=${JSON.stringify(result.hint)}`}`;
  }
  if ("handle" in result) {
    if (!/^#\S+$/.test(result.handle))
      throw new RangeError(`formatReturn: invalid handle ${shown(result.handle)}`);
    const { kind, size, ttl, count } = result.meta;
    const tail = count === undefined ? "" : ` count=${compactJson(count)}`;
    return (
      `RET ${cid} ${result.handle} summary=${JSON.stringify(result.summary)} ` +
      `kind=${metaValue(kind)} size=${compactJson(size)} ttl=${metaValue(ttl)}${tail}`
    );
  }
  // Content reads as the value its blocks are: a text line carries no media of its own.
  return `RET ${cid} ${compactJson("content" in result ? result.content : result.value)}`;
}

function metaValue(value: string): string {
  return META_WORD.test(value) && !isJsonNumber(value) && !isLiteral(value)
    ? value
    : compactJson(value);
}

/**
 * Reads a RET or ERR line written by `formatReturn` (a client and test helper). Throws
 * `TextProtocolError`, naming the column, when the line is malformed. Unknown `key=value`
 * pairs after a handle are ignored, so that a newer server can add some.
 */
export function parseReturn(
  text: string,
  options: { readonly maxDepth?: number } = {},
): ParsedReturn {
  const maxDepth = options.maxDepth ?? MAX_VALUE_DEPTH;
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  const line = text.slice(0, end);
  let i = skipSpace(line, 0);
  const word = line.slice(i, i + 3);
  if ((word !== "RET" && word !== "ERR") || !isSpace(line.charCodeAt(i + 3)))
    throw fail(`expected "RET" or "ERR"`, i);
  i = skipSpace(line, i + 3);
  const cidEnd = wordEnd(line, i);
  const cid = line.slice(i, cidEnd);
  if (!CID.test(cid)) throw fail(`invalid call id ${shown(cid)}`, i);
  i = skipSpace(line, cidEnd);
  if (i >= line.length)
    throw fail(word === "ERR" ? "expected an error code" : "expected a value or a handle", i);

  if (word === "ERR") {
    let code: string;
    let codeEnd: number;
    if (line[i] === '"') {
      codeEnd = endOfString(line, i) + 1;
      code = readJson(line, i, codeEnd, 1, "invalid JSON in the error code") as string;
      if (codeEnd < line.length && !isSpace(line.charCodeAt(codeEnd)))
        throw fail("expected a space after the error code", codeEnd);
    } else {
      codeEnd = wordEnd(line, i);
      code = line.slice(i, codeEnd);
    }
    const pairs = pairMap(readPairs(line, codeEnd, maxDepth));
    const hint = pairs.get("hint");
    if (hint !== undefined && typeof hint.value !== "string")
      throw fail("hint must be a string", hint.at);
    return {
      cid,
      result: { ok: false, error: code, hint: (hint?.value as string | undefined) ?? "" },
    };
  }

  if (line[i] === "#") {
    const handleEnd = wordEnd(line, i);
    const handle = line.slice(i, handleEnd);
    if (handle.length < 2) throw fail('expected a handle id after "#"', i);
    const pairs = pairMap(readPairs(line, handleEnd, maxDepth));
    const field = (
      key: string,
      type: "string" | "number",
      optional = false,
    ): JsonValue | undefined => {
      const pair = pairs.get(key);
      if (pair === undefined) {
        if (optional) return undefined;
        throw fail(`missing ${key}=… after handle ${shown(handle)}`, line.length);
      }
      if (typeof pair.value !== type) throw fail(`${key} must be a ${type}`, pair.at);
      return pair.value;
    };
    const summary = field("summary", "string") as string;
    const meta = {
      kind: field("kind", "string") as string,
      size: field("size", "number") as number,
      ttl: field("ttl", "string") as string,
    };
    const count = field("count", "number", true) as number | undefined;
    return {
      cid,
      result: { ok: true, handle, summary, meta: count === undefined ? meta : { ...meta, count } },
    };
  }

  return {
    cid,
    result: {
      ok: true,
      value: readJson(line, i, line.length, maxDepth, "invalid JSON in the returned value"),
    },
  };
}

function pairMap(pairs: readonly Pair[]): Map<string, Pair> {
  return new Map(pairs.map((pair) => [pair.key, pair]));
}

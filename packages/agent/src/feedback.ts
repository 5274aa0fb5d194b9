/**
 * The texts a model reads back after a tool call: the runtime's compact JSON of the result
 * (`encodeResult`), with a `received` value and a `fix` sentence added to the refusals a model
 * can correct by calling again. Keys always in the order ok, error, hint, received, fix.
 *
 *     {"ok":false,"error":"invalid:$.days","hint":"expected integer >= 1","received":0,"fix":"call weather.forecast again with $.days corrected"}
 */
import { clip, encodeResult, failure, type CallError, type CallResult } from "@zcp/runtime";

/** A string or a composite whose JSON is longer than this is described instead of echoed. */
const RECEIVED_MAX = 200;
/** How much of a JSON parser's message the hint keeps. */
const SYNTAX_MAX = 120;

/** The refusal of arguments that are not JSON text. */
export function notJson(error: unknown): CallError {
  const message = error instanceof Error ? error.message : String(error);
  return failure("invalid:$", `the arguments are not JSON (${clip(message, SYNTAX_MAX)})`);
}

/** The refusal of arguments that are JSON but not an object. */
export function notObject(value: unknown): CallError {
  return failure(
    "invalid:$",
    `the arguments must be a JSON object of named parameters, not ${kindOf(value)}`,
  );
}

/**
 * What the model reads for `result`: `encodeResult`, plus for a refusal of the arguments
 * (`missing:` / `invalid:` a `$`-path) the value received there and how to fix it, and for an
 * unknown tool which tools to call. `alias` is the called tool's (undefined when the name is
 * not in the view); `args` the arguments as sent.
 */
export function feedback(result: CallResult, alias: string | undefined, args: unknown): string {
  if (result.ok) return encodeResult(result);
  const refused = /^(missing|invalid):(\$.*)$/.exec(result.error);
  if (refused && alias !== undefined) {
    const kind = refused[1]!;
    const path = refused[2]!;
    const value = kind === "invalid" ? valueAt(args, path) : undefined;
    const received = value === undefined ? "" : `,"received":${JSON.stringify(echo(value))}`;
    const fix =
      path === "$"
        ? `call ${alias} again with one JSON object of named parameters`
        : `call ${alias} again with ${path} ${kind === "missing" ? "given" : "corrected"}`;
    return withFix(result, received, fix);
  }
  if (result.error.startsWith("unknown:"))
    return withFix(result, "", "call one of the tools you were given");
  return encodeResult(result);
}

function withFix(result: CallError, received: string, fix: string): string {
  return `${encodeResult(result).slice(0, -1)}${received},"fix":${JSON.stringify(fix)}}`;
}

/**
 * The value at a validator path (`$`, `.name`, `["other key"]`, `[0]`) in `args`, or undefined
 * when the path does not lead to one (a path the runtime clipped, a missing key).
 */
function valueAt(args: unknown, path: string): unknown {
  const segment = /^(?:\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\])/;
  let value = args;
  let rest = path.slice(1);
  while (rest.length > 0) {
    const match = segment.exec(rest);
    if (!match || typeof value !== "object" || value === null) return undefined;
    const key = match[1] ?? (match[2] !== undefined ? Number(match[2]) : JSON.parse(match[3]!));
    if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = (value as Record<string | number, unknown>)[key];
    rest = rest.slice(match[0].length);
  }
  return value;
}

/** `value`, or a short description of it when its JSON (or a string's text) is too long to echo. */
function echo(value: unknown): unknown {
  if (typeof value === "string")
    return value.length > RECEIVED_MAX ? `a string of ${count(value.length, "character")}` : value;
  if (typeof value !== "object" || value === null) return value;
  if (JSON.stringify(value).length <= RECEIVED_MAX) return value;
  return Array.isArray(value)
    ? `an array of ${count(value.length, "item")}`
    : `an object with ${count(Object.keys(value).length, "key")}`;
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

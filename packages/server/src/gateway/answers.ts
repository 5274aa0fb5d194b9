/**
 * An upstream answer the gateway cannot pass on: larger than the upstream's `maxAnswerBytes`, or
 * malformed (a line that is not JSON, JSON that is no JSON-RPC message). Such an answer fails the
 * one call it answers, and nothing else: the call is found by the id the answer carries, read at
 * the start of its line (`{"jsonrpc":"2.0","id":3,…`) or at its end (`…,"jsonrpc":"2.0","id":3}`,
 * the order the SDK's servers write), and the transport hands the client an error response for
 * that id in its place, marked as ours, which `upstream.ts` turns into the tool error. An answer
 * whose id cannot be found is dropped and logged; the call it answered ends at its time limit.
 */
import { randomUUID } from "node:crypto";
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
} from "@modelcontextprotocol/client";
import { idOfHead } from "../stdio/head-id.js";

/**
 * What an upstream's answer may take unless `maxAnswerBytes` says otherwise: 10 MiB, the SDK's
 * own stdio read buffer, so that no upstream that works with an SDK client is refused here. Not
 * more: the server's thread pays for every byte of a result (parsing, the handle store's hash
 * and serialization; about 200 ms for 10 MiB on a CI core), and a call answers at most
 * `maxResultBytes` (16 MiB) anyway.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 10 * 1024 * 1024;

/** Why an answer was refused; thrown (an HTTP body), or put in an error response for its call. */
export class AnswerFault extends Error {
  override name = "AnswerFault";
  constructor(
    /** The tool error code the call answers. */
    readonly code: "upstream_too_large" | "upstream_invalid",
    /** What the upstream answered, e.g. `more than 10485760 bytes (maxAnswerBytes)`. */
    readonly what: string,
  ) {
    super(`the upstream answered ${what}`);
  }
}

export const tooLarge = (limit: number) =>
  new AnswerFault("upstream_too_large", `more than ${limit} bytes (maxAnswerBytes)`);

/**
 * Marks our error responses: a secret of this process, never sent to an upstream, so that an
 * upstream's own error response cannot pass for one (it is an `upstream_error`).
 */
const MARK = randomUUID();

interface FaultData {
  readonly zcpGatewayFault: string;
  readonly code: AnswerFault["code"];
  readonly what: string;
}

/** The error response that fails call `id` with `fault`. */
export function faultResponse(id: string | number, fault: AnswerFault): JSONRPCMessage {
  const data: FaultData = { zcpGatewayFault: MARK, code: fault.code, what: fault.what };
  return {
    jsonrpc: "2.0",
    id,
    error: { code: ProtocolErrorCode.InternalError, message: fault.message, data },
  };
}

/**
 * The same as an SSE event, after the end of whatever event was cut: its line ended and its type
 * made one the SDK ignores (it reads `message` events only), so that its partial data is not parsed.
 */
export const faultEvent = (id: string | number, fault: AnswerFault) =>
  `\nevent: zcp-cut\n\nevent: message\ndata: ${JSON.stringify(faultResponse(id, fault))}\n\n`;

/**
 * What the SDK rejects a call with when its answer was bad, not its connection, besides its
 * `SdkError(InvalidResult)` for a result of the wrong shape: zod's error for an HTTP JSON body
 * that is no JSON-RPC message (`$ZodError` in zod 4, `ZodError` in zod 3), the SyntaxError of
 * one that does not parse. Matched by name: the SDK does not export zod's class.
 */
const WRONG_SHAPE = "an answer of the wrong shape";
const INVALID: { readonly [name: string]: string } = {
  $ZodError: WRONG_SHAPE,
  ZodError: WRONG_SHAPE,
  SyntaxError: "a body that is not JSON",
};

/**
 * The fault in a call's rejection: thrown by the bounded fetch, in one of our error responses,
 * or the SDK's own error for a malformed answer. Undefined for anything else.
 */
export function faultOf(error: unknown): AnswerFault | undefined {
  if (error instanceof AnswerFault) return error;
  if (error instanceof SdkError && error.code === SdkErrorCode.InvalidResult)
    return new AnswerFault("upstream_invalid", WRONG_SHAPE);
  if (error instanceof ProtocolError) {
    const data = error.data as Partial<FaultData> | undefined;
    if (data?.zcpGatewayFault !== MARK || data.code === undefined || data.what === undefined)
      return undefined;
    return new AnswerFault(data.code, data.what);
  }
  const name = (error as Error | undefined)?.name;
  const what = name !== undefined && Object.hasOwn(INVALID, name) ? INVALID[name] : undefined;
  return what !== undefined ? new AnswerFault("upstream_invalid", what) : undefined;
}

/** The id of the JSON-RPC message whose line starts with `head` and ends with `tail`, if either tells it. */
export function idOfLine(head: string, tail: string): string | number | undefined {
  const first = idOfHead(head);
  if (typeof first === "string" || typeof first === "number") return first;
  const last = LAST_ID.exec(tail);
  if (last === null) return undefined;
  if (last[1] !== undefined) return Number(last[1]);
  try {
    return JSON.parse(last[2]!) as string;
  } catch {
    return undefined; // an invalid escape: no id to tell
  }
}

/**
 * The top-level object's last member `"id"` (maybe followed by `"jsonrpc"`), at the very end of
 * the line: preceded by `,` or `{` (a quote inside a string is escaped, so that `"id"` there is
 * not matched), and followed by the one `}` that closes the line.
 */
const LAST_ID =
  /[,{]\s*"id"\s*:\s*(?:(-?\d{1,15})|("(?:[^"\\]|\\.){0,256}"))\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/;

/**
 * What a call takes (`CallOptions`) and what one that did not finish synchronously gives
 * (`Pending`): shared by the call pipeline (call.ts), the built-ins and the interfaces of
 * host.ts, which therefore need not import the pipeline (nor it them).
 */
import type { CallerIdentity } from "../codegen/context.js";
import type { CallResult } from "../results/result.js";
import type { CallInput } from "./input.js";

export interface CallOptions {
  /** Cancels the call: it answers `cancelled`, and the tool's context signal aborts. */
  readonly signal?: AbortSignal;
  /** Time limit in ms (default: the runtime's); past it the call answers `timeout`. */
  readonly timeoutMs?: number;
  /** Receives the tool's progress reports. */
  readonly onProgress?: (
    done: number,
    total: number | undefined,
    message: string | undefined,
  ) => void;
  /**
   * An `auto` tool answers its value inline whatever its size, up to `maxResultBytes`: a
   * program's calls, whose values never reach the transcript. `handle`-mode tools still answer
   * handles. Default false.
   */
  readonly inline?: boolean;
  /**
   * The caller's limit on an `auto` result's size in tokens (e.g. what its host reads of a tool
   * result): a whole number from 1 (or Infinity). The call's budget is the smallest of this,
   * the tool's `@maxResultTokens` and the runtime's `maxResultTokens`; a result over it becomes a
   * handle whose first page goes inline. Any other value answers `invalid:maxResultTokens`.
   */
  readonly maxResultTokens?: number;
  /** Receives the tool's log lines. */
  readonly onLog?: (level: "debug" | "info" | "warning" | "error", message: string) => void;
  /**
   * Called with a handle value's size before `zcp.handle` reads it (`read`, `view`): a
   * transport's response budget may refuse the read (throw or reject: the call rejects with
   * that error) or put it off (a promise) before the value is read.
   */
  readonly reserve?: (bytes: number) => void | Promise<void>;
  /**
   * How the tool's questions (`ToolContext.elicit`, `sample`, `roots`) reach the call's client;
   * none: each refuses with `unsupported:<kind>`.
   */
  readonly input?: CallInput;
  /**
   * Who makes the call (the tool's `context.caller`), from the request's verified authorization:
   * the surface's to fill in, never the client's to claim. Default: anonymous, no scopes.
   */
  readonly caller?: CallerIdentity;
}

/**
 * A call that did not finish synchronously. `answer` settles with what the caller gets (at once
 * on timeout, cancellation or close); `stopped` settles once the call's tool has stopped (for a
 * call that ran no tool: with the answer).
 */
export class Pending<T = CallResult> {
  constructor(
    readonly answer: Promise<T>,
    readonly stopped: Promise<unknown>,
  ) {}
}

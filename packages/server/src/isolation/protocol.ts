/**
 * What the main thread and a tool worker send each other. Everything here crosses a thread
 * boundary by structured clone, which keeps plain data only: no classes, no functions, and (so
 * that no brand depends on how it is spelled) handles travel as `{ id, kind, value }` and are
 * re-branded in the worker.
 */
import type { MessagePort } from "node:worker_threads";
import type { CallerIdentity, ClientOffers } from "@zcp/runtime";

/**
 * The pool's `workerData`: which generated module the workers import, or which modules they
 * import and compose (`composeGenerated`, as the server's thread does, so tool ids agree).
 */
export type WorkerData =
  | {
      /** File URL of `zcp.gen/index.{js,ts}`. */
      readonly module: string;
    }
  | {
      /** File URLs of several `zcp.gen/index.{js,ts}`, in the order they are composed. */
      readonly modules: readonly string[];
    };

/** One call, as the worker receives it. */
export interface WorkerTask {
  readonly toolId: string;
  readonly args: { readonly [name: string]: unknown };
  /** Names of the arguments that are handles, sent as `PlainHandle`s. */
  readonly handles: readonly string[];
  readonly sessionId: string;
  /** The call's `context.config` (the runtime's, cloned for each call) and `context.caller`. */
  readonly config: unknown;
  readonly caller: CallerIdentity;
  /**
   * The result's limit (`maxResultBytes`): a larger result is refused in the worker with the
   * runtime's `exec:too_large`, so that it never crosses to the server's thread.
   */
  readonly maxResultBytes: number;
  /** What the call's client answers: the worker's context refuses the rest at once. */
  readonly offers: ClientOffers;
  /** The call's channel: `ToTool` messages come in, `FromTool` messages go out. */
  readonly port: MessagePort;
}

export interface PlainHandle {
  readonly id: string;
  readonly kind: string;
  readonly value: unknown;
}

/** Sent to the worker when the call's signal aborts: the reason's message (`timeout`, ...). */
export interface Abort {
  readonly abort: string;
}

/** The context's questions a tool asks its client, asked again in the server's thread. */
export type AskKind = "elicit" | "sample" | "roots";

/**
 * The answer to the tool's question `id` (an `Ask`): the context's checked value, or what it
 * threw (a ToolError as plain data, an Error's message).
 */
export type Answer =
  | { readonly answer: number; readonly value: unknown }
  | { readonly answer: number; readonly error: PlainToolError | { readonly message: string } };

/** What the server's thread sends a running tool. */
export type ToTool = Abort | Answer;

/**
 * What a running tool sends its caller: progress and log lines, and last what it returned (on
 * this port rather than as the pool's task result: a value that cannot be cloned then fails in
 * the tool's `postMessage`, where it is caught, not in the pool's, which would end the worker),
 * with the summary it set apart (`withSummary`'s symbol key does not survive the clone).
 */
export type FromTool =
  | { readonly done: unknown; readonly summary: string | null }
  | {
      readonly progress: readonly [
        done: number,
        total: number | undefined,
        message: string | undefined,
      ];
    }
  | { readonly log: readonly ["debug" | "info" | "warning" | "error", string] }
  /** A question of the tool's context, which the server's thread puts to the client. */
  | { readonly ask: { readonly id: number; readonly kind: AskKind; readonly args: unknown[] } };

/** A `ToolError` as it crosses back (the class does not survive the clone). */
export interface PlainToolError {
  readonly name: "ToolError";
  readonly code: string;
  readonly message: string;
}

/**
 * An error with Node's system error properties (`code`, `syscall`), as it crosses back: a clone
 * of an `Error` keeps its message and stack only, and the runtime's `exposeError` reads these.
 */
export interface PlainSystemError {
  readonly name: "SystemError";
  readonly message: string;
  readonly stack: string | undefined;
  readonly code: string;
  readonly syscall: string;
}

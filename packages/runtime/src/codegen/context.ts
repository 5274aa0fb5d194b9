import type { CONTEXT_BRAND } from "../definition/brands.js";

/**
 * The context a tool receives when one of its parameters is typed `ToolContext`. `zcp gen`
 * recognises the type by its brand property, leaves the parameter out of every schema and
 * records its position, so the dispatcher can pass it in.
 */
export interface ToolContext {
  /** Brand that marks the context type for `zcp gen`; never read at run time. */
  readonly [CONTEXT_BRAND]: true;
  /** Id of the session the call belongs to. */
  readonly sessionId: string;
  /** Aborted when the call is cancelled, times out, or its session closes. */
  readonly signal: AbortSignal;
  /** Reports progress of a long call to the client, when the surface supports it. */
  progress(done: number, total?: number, message?: string): void;
  /** Writes a log line for the client, when the surface supports it. */
  log(level: "debug" | "info" | "warning" | "error", message: string): void;
}

import type { CONTEXT_BRAND } from "../definition/brands.js";
import type {
  AskOptions,
  ClientOffers,
  ElicitResult,
  ElicitSchema,
  Root,
  SampleRequest,
  SampleResult,
} from "./input.js";

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
  /** Which of `elicit`, `sample` and `roots` the call's client answers (each throws when it does not). */
  readonly clientOffers: ClientOffers;
  /**
   * Asks the user to fill in a form (MCP elicitation). Throws a `ToolError`
   * `unsupported:elicitation` when the client does not offer it. On the 2026-07-28 era the
   * call answers the client's question first and runs again from the start once it is
   * answered: see docs/runtime.md, "Asking the client".
   */
  elicit<S extends ElicitSchema>(
    message: string,
    schema: S,
    options?: AskOptions,
  ): Promise<ElicitResult<S>>;
  /** Asks the client's model for a completion (MCP sampling); `unsupported:sampling` without it. */
  sample(request: SampleRequest, options?: AskOptions): Promise<SampleResult>;
  /** The roots (folders) the client offers (MCP roots); `unsupported:roots` without them. */
  roots(options?: AskOptions): Promise<readonly Root[]>;
}

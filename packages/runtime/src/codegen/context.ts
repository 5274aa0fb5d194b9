import type { CONTEXT_BRAND, PROMPT_CONTEXT_BRAND } from "../definition/brands.js";
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
 * records its position, so the dispatcher can pass it in. `Config` is the type of the server's
 * configuration as the tool reads it (`ToolContext<MyConfig>`); the application supplies the
 * value (`createRuntime(generated, { config })`, `zcp-serve --config-file`).
 */
export interface ToolContext<Config = unknown> {
  /** Brand that marks the context type for `zcp gen`; never read at run time. */
  readonly [CONTEXT_BRAND]: true;
  /** Id of the session the call belongs to. */
  readonly sessionId: string;
  /** Aborted when the call is cancelled, times out, or its session closes. */
  readonly signal: AbortSignal;
  /**
   * The server's configuration, as the embedding application or `zcp-serve` supplied it
   * (`RuntimeOptions.config`); undefined when none was. Shared by every call: not to be changed.
   */
  readonly config: Config;
  /** Who makes the call, as far as the surface knows (an anonymous caller: no subject, no scopes). */
  readonly caller: CallerIdentity;
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

/**
 * The context a prompt receives when its last parameter is typed `PromptContext`: it asks the
 * client as a tool's context does (`elicit`, `sample`, `roots`; `clientOffers` says which it
 * answers), on a 2025 session with requests on the `prompts/get` stream, on 2026-07-28 by an
 * `input_required` answer after which the prompt runs again from the start. A question the
 * client cannot answer makes `prompts/get` fail with -32021 (a missing client capability).
 */
export interface PromptContext extends Pick<
  ToolContext,
  "signal" | "clientOffers" | "elicit" | "sample" | "roots"
> {
  /** Brand that marks the prompt context type for `zcp gen`; never read at run time. */
  readonly [PROMPT_CONTEXT_BRAND]: true;
}

/**
 * The caller of a tool, from the request's verified authorization (`CallOptions.caller`): the
 * surface that received the call fills it in; nothing here comes from the call's arguments.
 */
export interface CallerIdentity {
  /** Who the authorization names (e.g. a token's subject), when the server verified one. */
  readonly subject?: string;
  /** The scopes the authorization grants, when the server knows them; else empty. */
  readonly scopes: readonly string[];
}

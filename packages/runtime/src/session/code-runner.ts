/**
 * What the runtime expects of a code-mode sandbox (`RuntimeOptions.code`, e.g. `@zcp/code`'s
 * `createCodeRunner()`) and what it gives one: the contract both sides of `zcp.run` share
 * (code-tool.ts runs the built-in; host.ts names the option).
 */
import type { CallResult } from "../results/result.js";

/**
 * What a program's sandbox may do with the session that runs it: call its tools, know which
 * exist, and know when to stop.
 */
export interface ProgramHost {
  /** The session that runs the program (a runner shares its workers fairly among sessions). */
  readonly sessionId: string;
  /**
   * Calls a tool as the session would (exposure, approval, scopes, validation all apply); a tool
   * that declares `x-mcp-header` answers `forbidden:<alias>`: only a direct call carries its
   * headers.
   */
  call(alias: string, args: unknown, options?: { signal?: AbortSignal }): Promise<CallResult>;
  /**
   * The aliases bound under the program's `tools`: the session's exposed view, built-ins
   * included, zcp.run excluded. A tool that declares `x-mcp-header` stays bound, so that a
   * program calling it learns why it is refused.
   */
  readonly aliases: readonly string[];
  /** Aborts when the `zcp.run` call is cancelled or its session closes: the program must stop. */
  readonly signal: AbortSignal;
}

/**
 * Runs one program (the `code` of a `zcp.run` call) against `host` and answers the call's
 * result; never rejects for the program's own failures (they are `CallError`s).
 */
export type CodeRunner = (code: string, host: ProgramHost) => Promise<CallResult>;

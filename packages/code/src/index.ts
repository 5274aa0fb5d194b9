/**
 * `@zcp/code`: code mode for zcp. `createCodeRunner()` is a `CodeRunner` for the runtime's
 * `code` option: each `zcp.run` program runs in a fresh QuickJS context, in a worker thread,
 * with its tool calls made by the session that runs it.
 */
export { createCodeRunner, WATCHDOG_GRACE_MS } from "./runner.js";
export type { PooledCodeRunner } from "./runner.js";
export { DEFAULT_LIMITS, DEFAULT_WORKERS } from "./options.js";
export type { CodeOptions, RunLimits } from "./options.js";
export { runProgram } from "./sandbox.js";
export type { RunRequest, ToolBridge } from "./sandbox.js";

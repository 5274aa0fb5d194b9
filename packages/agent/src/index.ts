/**
 * `@zcp/agent`: the provider-neutral part of the adapters. A model's tool calls run through a
 * zcp session (`runToolCalls`), the texts the model reads back, and the agent loop each
 * provider's `runAgent` drives (`runLoop`). The providers are the subpaths `@zcp/agent/openai`
 * and `@zcp/agent/anthropic`.
 */
export { runToolCalls } from "./calls.js";
export type { AgentHooks, RunOptions, ToolCall, ToolOutcome } from "./calls.js";
export { AgentError, runLoop } from "./loop.js";
export type { AgentErrorCode, Conversation, LoopOptions, LoopResult, Reply } from "./loop.js";
export { NO_USAGE } from "./usage.js";
export type { Usage } from "./usage.js";

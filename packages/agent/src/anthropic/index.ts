/**
 * `@zcp/agent/anthropic`: a zcp session's tools for the Anthropic Messages API (typed with the
 * official SDK's types; install `@anthropic-ai/sdk`). The tools of a request (`messagesTools`),
 * a response's tool use run through the session (`runToolUses`, `toolResults`), streamed
 * responses assembled (`assembleMessage`), and the agent loop (`runAgent`).
 */
export { runAgent } from "./agent.js";
export type { AgentResult, RunAgentOptions } from "./agent.js";
export { runToolUses, toolCalls, toolResults, usageOf } from "./messages.js";
export type { ToolUseOptions, ToolUseResult } from "./messages.js";
export { assembleMessage } from "./stream.js";
export { FIND_TOOLS, messagesTools } from "./tools.js";
export type { MessagesToolsOptions, ToolSearch } from "./tools.js";

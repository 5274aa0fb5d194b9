/**
 * `@zcp/agent/openai`: a zcp session's tools for the OpenAI Responses and Chat Completions APIs
 * (`responsesTools`, `chatTools`, and `toolChoice` / `chatToolChoice` for a tool list stable
 * across stages), and the agent loop over each (`runAgent`, `runChatAgent`). Needs the `openai`
 * package (an optional peer of `@zcp/agent`); its types are the inputs and outputs here.
 */
export { runAgent } from "./responses.js";
export type { ResponsesAgentOptions, ResponsesAgentResult } from "./responses.js";
export { runChatAgent } from "./chat.js";
export type { ChatAgentOptions, ChatAgentResult } from "./chat.js";
export { chatToolChoice, chatTools, responsesTools, toolChoice } from "./tools.js";
export type { ResponsesToolsOptions, ToolsOptions } from "./tools.js";

/**
 * Type-level conformance: the artifact entry types of `@zcp/runtime` are assignable to the
 * official SDKs' tool types, so an artifact entry can be passed to the SDK as it is.
 *
 * This file is not run: `tsc -p tsconfig.json --noEmit` type-checks it (it is under
 * packages/gen/test). Each check is written twice, as an assignment and as an `Assert`, so a
 * failure names the SDK type in the tsc error.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { Tool as McpSdkTool } from "@modelcontextprotocol/sdk/types.js";
import type OpenAI from "openai";
import type { AnthropicTool, McpTool, OpenAIChatTool, OpenAIResponsesTool } from "@zcp/runtime";

/** True when `T` is assignable to `U`. */
type Assignable<T, U> = [T] extends [U] ? true : false;
type Assert<T extends true> = T;

// OpenAI Responses API: `client.responses.create({ tools: [entry] })`.
type OpenAIResponsesFunctionTool = OpenAI.Responses.FunctionTool;
export type ResponsesToolOk = Assert<Assignable<OpenAIResponsesTool, OpenAIResponsesFunctionTool>>;
export const responsesTool: OpenAIResponsesFunctionTool = {} as OpenAIResponsesTool;
export const responsesToolInList: OpenAI.Responses.Tool = {} as OpenAIResponsesTool;

// OpenAI Chat Completions: `client.chat.completions.create({ tools: [entry] })`.
type OpenAIChatFunctionTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;
export type ChatToolOk = Assert<Assignable<OpenAIChatTool, OpenAIChatFunctionTool>>;
export type ChatToolInUnionOk = Assert<
  Assignable<OpenAIChatTool, OpenAI.Chat.Completions.ChatCompletionTool>
>;
export const chatTool: OpenAIChatFunctionTool = {} as OpenAIChatTool;
export const chatFunction: OpenAI.FunctionDefinition = {} as OpenAIChatTool["function"];

// Anthropic Messages API: `client.messages.create({ tools: [entry] })`.
export type AnthropicToolOk = Assert<Assignable<AnthropicTool, Anthropic.Tool>>;
export type AnthropicToolUnionOk = Assert<Assignable<AnthropicTool, Anthropic.Messages.ToolUnion>>;
export const anthropicTool: Anthropic.Messages.Tool = {} as AnthropicTool;
// With its examples (a tool's `@example` arguments).
export type AnthropicExamplesOk = Assert<
  Assignable<Required<AnthropicTool>["input_examples"], Anthropic.Messages.Tool["input_examples"]>
>;

// MCP `tools/list` result entry (the SDK's zod-inferred `Tool`).
// Note: `JsonSchema` is an index-signature type, and TypeScript does not relate a source index
// signature to a target's optional properties, so the SDK's `inputSchema.properties`
// (`Record<string, object>`) and `required` (`string[]`) are not checked here (nor Anthropic's
// `required`); artifacts.test.ts checks the emitted entries with the SDK's zod ToolSchema.
export type McpToolOk = Assert<Assignable<McpTool, McpSdkTool>>;
export const mcpTool: McpSdkTool = {} as McpTool;

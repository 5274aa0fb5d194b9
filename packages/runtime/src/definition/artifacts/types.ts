/**
 * Provider artifacts: the tool listings each provider takes, one entry per tool. Their shapes,
 * the providers' names, and a set (`{ [toolId]: entry }`).
 */
import type { JsonSchema, JsonValue } from "../registry.js";

/** OpenAI Responses API function tool. */
export interface OpenAIResponsesTool {
  readonly type: "function";
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /** False only for tools strict mode cannot express (open-ended objects, `unknown` values). */
  readonly strict: boolean;
}

/** OpenAI Chat Completions function tool. */
export interface OpenAIChatTool {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonSchema;
    readonly strict: boolean;
  };
}

/** Anthropic Messages API tool. */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: JsonSchema & { readonly type: "object" };
  /** The tool's example arguments (`ToolDefinition.examples`), when it has any. */
  readonly input_examples?: { readonly [param: string]: JsonValue }[];
}

/** Gemini function declaration (the OpenAPI 3.0 subset of `parameters`). */
export interface GeminiFunctionDeclaration {
  readonly name: string;
  readonly description: string;
  readonly parameters?: JsonSchema;
}

/** MCP `tools/list` entry. */
export interface McpTool {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema & { readonly type: "object" };
  readonly outputSchema?: JsonSchema & { readonly type: "object" };
  readonly annotations?: {
    readonly readOnlyHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint?: boolean;
  };
  /** zcp's groups and stages of the tool, each present only when it has some; `deprecated: true` for a deprecated tool. */
  readonly _meta?: {
    readonly groups?: readonly string[];
    readonly stages?: readonly string[];
    readonly deprecated?: true;
    /** Claude Code's limit on the tool's result, raised for a tool whose budget needs it. */
    readonly "anthropic/maxResultSizeChars"?: number;
  };
}

export interface ArtifactEntries {
  readonly "openai-responses": OpenAIResponsesTool;
  readonly "openai-chat": OpenAIChatTool;
  readonly anthropic: AnthropicTool;
  readonly gemini: GeminiFunctionDeclaration;
  readonly mcp: McpTool;
}

export type ArtifactProvider = keyof ArtifactEntries;

export const ARTIFACT_PROVIDERS: readonly ArtifactProvider[] = [
  "openai-responses",
  "openai-chat",
  "anthropic",
  "gemini",
  "mcp",
];

/** One provider's set: entries by tool id. A tool the provider cannot express has no entry. */
export type ArtifactSet<P extends ArtifactProvider> = {
  readonly [toolId: string]: ArtifactEntries[P];
};

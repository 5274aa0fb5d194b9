/**
 * Provider artifacts: the tool listings `zcp gen` compiles for each provider, one entry per tool,
 * stored as `artifacts/<provider>.json` beside the generated registry (`{ [toolId]: entry }`).
 * The generated `artifacts.ts` exposes them through `artifactLoader`, which reads a provider's
 * file on first use and keeps it: nothing is computed at run time, and a server that never
 * talks to Gemini never parses the Gemini file.
 */
import fs from "node:fs";
import type { JsonSchema } from "./registry.js";

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
    readonly title?: string;
    readonly readOnlyHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
  };
  readonly _meta: { readonly groups: readonly string[]; readonly stages: readonly string[] };
}

export interface ArtifactEntries {
  readonly "openai-responses": OpenAIResponsesTool;
  readonly "openai-chat": OpenAIChatTool;
  readonly anthropic: AnthropicTool;
  readonly gemini: GeminiFunctionDeclaration;
  readonly mcp: McpTool;
}

export type ArtifactProvider = keyof ArtifactEntries;

export const ARTIFACT_PROVIDERS: readonly ArtifactProvider[] = ["openai-responses", "openai-chat", "anthropic", "gemini", "mcp"];

/** One provider's file: entries by tool id. A tool the provider cannot express has no entry. */
export type ArtifactSet<P extends ArtifactProvider> = { readonly [toolId: string]: ArtifactEntries[P] };

export interface ArtifactLoader {
  load<P extends ArtifactProvider>(provider: P): ArtifactSet<P>;
}

/** Reads `<base><provider>.json` on first use of each provider. */
export function artifactLoader(base: URL): ArtifactLoader {
  const loaded = new Map<ArtifactProvider, unknown>();
  return {
    load<P extends ArtifactProvider>(provider: P): ArtifactSet<P> {
      let set = loaded.get(provider);
      if (set === undefined) {
        if (!ARTIFACT_PROVIDERS.includes(provider)) throw new RangeError(`unknown artifact provider "${provider}"`);
        set = JSON.parse(fs.readFileSync(new URL(`${provider}.json`, base), "utf8")) as unknown;
        loaded.set(provider, set);
      }
      return set as ArtifactSet<P>;
    },
  };
}

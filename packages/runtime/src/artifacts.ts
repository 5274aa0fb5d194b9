/**
 * Provider artifacts: the tool listings `zcp gen` compiles for each provider, one entry per tool
 * (`{ [toolId]: entry }`). The generated `artifacts.ts` holds each provider's set as JSON text,
 * so the artifacts travel with the code through any compiler or bundler; `artifactLoader`
 * parses a provider's text on first use and keeps it: nothing is computed at run time, and a
 * server that never talks to Gemini never parses the Gemini set.
 *
 * The lean sets (the same entries with first-sentence descriptions and without the constraints
 * the generated validators enforce) are in a module of their own, the generated `lean.ts`, so
 * that a server that does not use them never loads their text: its loader is
 * `withLeanArtifacts(artifacts, hash, leanTexts)`.
 */
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

export const ARTIFACT_PROVIDERS: readonly ArtifactProvider[] = [
  "openai-responses",
  "openai-chat",
  "anthropic",
  "gemini",
  "mcp",
];

/** One provider's file: entries by tool id. A tool the provider cannot express has no entry. */
export type ArtifactSet<P extends ArtifactProvider> = {
  readonly [toolId: string]: ArtifactEntries[P];
};

export interface ArtifactLoadOptions {
  /** The lean set instead of the full one (only from a loader with `hasLean`). */
  readonly lean?: boolean;
}

export interface ArtifactLoader {
  /** The hash of the registry the artifacts were compiled for. */
  readonly hash: string;
  /** A provider's set; `{ lean: true }` throws a RangeError on a loader without lean sets. */
  load<P extends ArtifactProvider>(provider: P, options?: ArtifactLoadOptions): ArtifactSet<P>;
  /** Whether the lean sets are loaded (true for the loader of the generated `lean.ts`). */
  readonly hasLean?: boolean;
}

/** Each provider's artifact set as JSON text, as the generated `artifacts.ts` holds it. */
export type ArtifactTexts = { readonly [P in ArtifactProvider]: string };

/** Parses a provider's set from `texts` on its first use. `hash` is the registry's. */
export function artifactLoader(hash: string, texts: ArtifactTexts): ArtifactLoader {
  const parse = parser(texts);
  return {
    hash,
    hasLean: false,
    load<P extends ArtifactProvider>(
      provider: P,
      options: ArtifactLoadOptions = {},
    ): ArtifactSet<P> {
      if (options.lean === true) throw new RangeError(NO_LEAN);
      return parse(provider);
    },
  };
}

const NO_LEAN =
  'no lean artifacts: generate them ("leanArtifacts": true in the zcp gen configuration) and create the runtime from zcp.gen/lean.js (its default export) instead of zcp.gen/index.js';

/**
 * `full` (the generated `artifacts.ts` loader) with the lean sets of `leanTexts` beside it, each
 * parsed on its first use. What the generated `lean.ts` exports. `hash` is the registry's the
 * lean sets were compiled for: a RangeError when it is not `full`'s (files of different runs).
 */
export function withLeanArtifacts(
  full: ArtifactLoader,
  hash: string,
  leanTexts: ArtifactTexts,
): ArtifactLoader {
  if (hash !== full.hash) {
    throw new RangeError(
      `lean.ts was generated for registry ${hash}, artifacts.ts for ${full.hash}: the generated files come from different runs, run zcp gen`,
    );
  }
  const parseLean = parser(leanTexts);
  return {
    hash: full.hash,
    hasLean: true,
    load<P extends ArtifactProvider>(
      provider: P,
      options: ArtifactLoadOptions = {},
    ): ArtifactSet<P> {
      return options.lean === true ? parseLean(provider) : full.load(provider);
    },
  };
}

function parser(texts: ArtifactTexts): <P extends ArtifactProvider>(provider: P) => ArtifactSet<P> {
  const loaded = new Map<ArtifactProvider, unknown>();
  return <P extends ArtifactProvider>(provider: P): ArtifactSet<P> => {
    let set = loaded.get(provider);
    if (set === undefined) {
      if (!ARTIFACT_PROVIDERS.includes(provider))
        throw new RangeError(`unknown artifact provider "${provider}"`);
      set = JSON.parse(texts[provider]) as unknown;
      loaded.set(provider, set);
    }
    return set as ArtifactSet<P>;
  };
}

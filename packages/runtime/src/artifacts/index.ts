/**
 * Provider artifacts, derived from the registry: `artifactSet(registry, provider)` compiles the
 * provider's entry of every tool of `registry` by the provider rules (`compile.ts`) on first use
 * and keeps the set for as long as the registry object lives. Nothing is stored in the generated
 * module: a runtime, each of its views and `composeGenerated` get the entries of exactly the
 * tools they serve, and a server that never talks to Gemini never compiles a Gemini entry.
 */
import type { Registry } from "../registry.js";
import { compileEntries, compileLeanEntries } from "./compile.js";
import {
  ARTIFACT_PROVIDERS,
  type ArtifactEntries,
  type ArtifactProvider,
  type ArtifactSet,
} from "./types.js";

export { compileEntries, compileLeanEntries } from "./compile.js";
export type { ArtifactIssue, CompiledEntries, ToolEntries } from "./compile.js";
export { LEAN_DROPPED, leanSchema } from "./lean.js";
export { ARTIFACT_PROVIDERS } from "./types.js";
export type {
  AnthropicTool,
  ArtifactEntries,
  ArtifactProvider,
  ArtifactSet,
  GeminiFunctionDeclaration,
  McpTool,
  OpenAIChatTool,
  OpenAIResponsesTool,
} from "./types.js";

export interface ArtifactSetOptions {
  /**
   * The lean entries: first sentences of the descriptions, and none of the constraints the
   * generated validators enforce (`leanSchema`). Default false.
   */
  readonly lean?: boolean;
}

/** Each registry's sets, by provider (`<provider>:lean` for a lean set). */
const SETS = new WeakMap<Registry, Map<string, ArtifactSet<ArtifactProvider>>>();

/**
 * The provider's entries for the tools of `registry`, by tool id in registry order (a tool the
 * provider cannot take has none), compiled on first use. Throws a RangeError for an unknown
 * provider.
 */
export function artifactSet<P extends ArtifactProvider>(
  registry: Registry,
  provider: P,
  options: ArtifactSetOptions = {},
): ArtifactSet<P> {
  if (!ARTIFACT_PROVIDERS.includes(provider))
    throw new RangeError(`unknown artifact provider "${provider}"`);
  let sets = SETS.get(registry);
  if (sets === undefined) SETS.set(registry, (sets = new Map()));
  const lean = options.lean === true;
  const key = lean ? `${provider}:lean` : provider;
  let set = sets.get(key) as ArtifactSet<P> | undefined;
  if (set === undefined) {
    const full = lean ? artifactSet(registry, provider) : null;
    const entries: { [toolId: string]: ArtifactEntries[P] } = {};
    for (const tool of registry.tools) {
      const entry = full
        ? full[tool.id] && compileLeanEntries(tool, { [provider]: full[tool.id] })[provider]
        : compileEntries(tool, [provider]).entries[provider];
      if (entry) entries[tool.id] = entry as ArtifactEntries[P];
    }
    sets.set(key, (set = entries));
  }
  return set;
}

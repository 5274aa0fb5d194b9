/**
 * Provider artifacts, derived from the registry: `artifactSet(registry, provider)` compiles the
 * provider's entry of every tool of `registry` by the provider rules (`compile.ts`) on first use
 * and keeps the set for as long as the registry object lives. Nothing is stored in the generated
 * module: a runtime, each of its views and `composeGenerated` get the entries of exactly the
 * tools they serve, and a server that never talks to Gemini never compiles a Gemini entry.
 */
import type { Registry, ToolDefinition } from "../registry.js";
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
export { checkStrictLimits } from "./limits.js";
export type { StrictLimit, StrictLimitProvider, StrictLimits } from "./limits.js";
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
 * Each definition's entries, by the same keys (null: the provider takes no such tool), kept per
 * definition object: a pure function of it (definitions are not changed), so that registries
 * sharing definitions (a composition without prefixes, `zcp gen --watch`'s successive runs)
 * compile each entry once.
 */
const ENTRIES = new WeakMap<
  ToolDefinition,
  Map<string, ArtifactEntries[ArtifactProvider] | null>
>();

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
    const entries: { [toolId: string]: ArtifactEntries[P] } = {};
    for (const tool of registry.tools) {
      const entry = toolEntry(tool, provider, lean);
      if (entry) entries[tool.id] = entry;
    }
    sets.set(key, (set = entries));
  }
  return set;
}

/** One tool's entry for the provider (lean: from its full one, which must exist), or null. */
function toolEntry<P extends ArtifactProvider>(
  tool: ToolDefinition,
  provider: P,
  lean: boolean,
): ArtifactEntries[P] | null {
  let known = ENTRIES.get(tool);
  if (known === undefined) ENTRIES.set(tool, (known = new Map()));
  const key = lean ? `${provider}:lean` : provider;
  let entry = known.get(key);
  if (entry === undefined) {
    if (lean) {
      const full = toolEntry(tool, provider, false);
      entry = full && (compileLeanEntries(tool, { [provider]: full })[provider] ?? null);
    } else {
      entry = compileEntries(tool, [provider]).entries[provider] ?? null;
    }
    known.set(key, entry);
  }
  return entry as ArtifactEntries[P] | null;
}

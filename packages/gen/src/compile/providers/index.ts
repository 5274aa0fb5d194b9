/**
 * compile: the provider artifacts of every tool, as one `{ [toolId]: entry }` set per provider,
 * with a diagnostic naming the tool wherever a provider cannot take it as it is. The provider
 * rules are the runtime's (`compileEntries` of @zcp/runtime/codegen), which derives the same
 * entries from the registry when it serves them; here they give the diagnostics, the token
 * report (`--report`) and, with `"jsonFiles": true`, the `artifacts/<provider>.json` files.
 *
 * With `lean`, beside each set its lean variant (`compileLeanEntries`): a tool has a lean entry
 * exactly where it has a full one, and the diagnostics are the full entries'.
 */
import {
  ARTIFACT_PROVIDERS,
  compileEntries,
  compileLeanEntries,
  type ArtifactEntries,
  type ArtifactIssue,
  type ArtifactProvider,
  type ToolDefinition,
  type ToolEntries,
} from "@zcp/runtime/codegen";
import { diagnostic, type Code, type Diagnostic, type Severity } from "../../diagnostics.js";
import type { Site } from "../../model/index.js";

export type ArtifactSets = { [P in ArtifactProvider]: { [toolId: string]: ArtifactEntries[P] } };

export type Entries = ToolEntries;

/** One tool's entries (absent where the provider cannot take it) and the diagnostics that say why. */
export interface ToolArtifacts {
  readonly entries: Entries;
  readonly diagnostics: readonly Diagnostic[];
}

const emptySets = (): ArtifactSets => ({
  "openai-responses": {},
  "openai-chat": {},
  anthropic: {},
  gemini: {},
  mcp: {},
});

/**
 * The per-tool work of `compileArtifacts`: a tool's entries depend on its definition and site
 * only, its lean entries on its definition only, so the pipeline's memo hands in memoized steps
 * in watch mode.
 */
export interface ArtifactSteps {
  tool(tool: ToolDefinition, site: Site): ToolArtifacts;
  lean(tool: ToolDefinition, entries: Entries): Entries;
}

export const ARTIFACT_STEPS: ArtifactSteps = { tool: compileToolArtifacts, lean: compileLean };

export interface Artifacts {
  readonly sets: ArtifactSets;
  /** The lean sets, or null when not asked for. */
  readonly lean: ArtifactSets | null;
  readonly diagnostics: Diagnostic[];
}

/** Every tool's entries, as one set per provider; with `lean`, the lean sets too. */
export function compileArtifacts(
  tools: readonly ToolDefinition[],
  sites: ReadonlyMap<ToolDefinition, Site>,
  lean: boolean,
  steps: ArtifactSteps = ARTIFACT_STEPS,
): Artifacts {
  const sets = emptySets();
  const leanSets = lean ? emptySets() : null;
  const diagnostics: Diagnostic[] = [];
  for (const tool of tools) {
    const compiled = steps.tool(tool, sites.get(tool)!);
    diagnostics.push(...compiled.diagnostics);
    add(sets, tool.id, compiled.entries);
    if (leanSets) add(leanSets, tool.id, steps.lean(tool, compiled.entries));
  }
  return { sets, lean: leanSets, diagnostics };
}

function add(sets: ArtifactSets, id: string, entries: Entries): void {
  for (const provider of ARTIFACT_PROVIDERS) {
    const entry = entries[provider];
    if (entry) (sets[provider] as { [id: string]: unknown })[id] = entry;
  }
}

/** One tool's entries and the diagnostics about them, at the tool's declaration. */
export function compileToolArtifacts(tool: ToolDefinition, site: Site): ToolArtifacts {
  const { entries, issues } = compileEntries(tool);
  return {
    entries,
    diagnostics: issues.map((issue) => issueDiagnostic(tool, issue, site)),
  };
}

/** The lean entries of a tool whose full ones are `entries`. */
export function compileLean(tool: ToolDefinition, entries: Entries): Entries {
  return compileLeanEntries(tool, entries);
}

/** ZCP1501 (not strict), ZCP1502 (over OpenAI's limits), ZCP1503 (no Gemini entry). */
function issueDiagnostic(tool: ToolDefinition, issue: ArtifactIssue, site: Site): Diagnostic {
  const at = (severity: Severity, code: Code, text: string) =>
    diagnostic(severity, code, `${tool.alias}: ${text}`, site);
  switch (issue.kind) {
    case "openai-not-strict":
      return at(
        "warning",
        "ZCP1501",
        `OpenAI strict mode cannot express it (${issue.reason}); its OpenAI entries are sent with strict: false`,
      );
    case "openai-limits":
      return at(
        "error",
        "ZCP1502",
        `its OpenAI schema exceeds the provider's limits: ${issue.exceeded.join(", ")}; it has no OpenAI entries`,
      );
    case "gemini-inexpressible":
      return at(
        "warning",
        "ZCP1503",
        `Gemini cannot declare it (${issue.reason}); it has no Gemini entry`,
      );
  }
}

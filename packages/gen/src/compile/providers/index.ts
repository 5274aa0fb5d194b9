/**
 * compile: the provider artifacts of every tool, as one `{ [toolId]: entry }` set per provider,
 * with a diagnostic naming the tool wherever a provider cannot take it as it is.
 *
 * OpenAI, Anthropic and Gemini entries carry the short description (the first paragraph): it is
 * sent with every request. MCP entries carry the full description, which hosts show to people.
 *
 * With `leanArtifacts` in the config, beside each set its lean variant (`lean.ts`): every
 * provider's entry compiled from the lean schema, with the tool's first sentence as its
 * description. Lean entries are compiled by the same provider rules, only when asked for; a tool
 * has a lean entry exactly where it has a full one, and the diagnostics are the full entries'.
 */
import {
  ARTIFACT_PROVIDERS,
  firstSentence,
  type ArtifactEntries,
  type ArtifactProvider,
  type ToolDefinition,
} from "@zcp/runtime/codegen";
import { diagnostic, type Code, type Diagnostic, type Severity } from "../../diagnostics.js";
import { anthropicInputSchema } from "./anthropic.js";
import { geminiParameters } from "./gemini.js";
import { mcpTool } from "./mcp.js";
import { openaiLimits, openaiParameters } from "./openai.js";
import { leanSchema } from "./lean.js";
import { Inexpressible } from "./shared.js";
import { orderKeys, type Schema } from "../../extract/index.js";
import type { Site } from "../../model/index.js";

export type ArtifactSets = { [P in ArtifactProvider]: { [toolId: string]: ArtifactEntries[P] } };

export type Entries = { -readonly [P in ArtifactProvider]?: ArtifactEntries[P] };

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
  /** The lean sets (`leanArtifacts` in the config), or null when not asked for. */
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
  const compiledTools: [ToolDefinition, ToolArtifacts][] = [];
  for (const tool of tools) {
    const compiled = steps.tool(tool, sites.get(tool)!);
    compiledTools.push([tool, compiled]);
    diagnostics.push(...compiled.diagnostics);
    for (const provider of ARTIFACT_PROVIDERS) {
      const entry = compiled.entries[provider];
      if (entry) (sets[provider] as { [id: string]: unknown })[tool.id] = entry;
    }
  }
  if (leanSets) {
    for (const [tool, compiled] of compiledTools) {
      const entries = steps.lean(tool, compiled.entries);
      for (const provider of ARTIFACT_PROVIDERS) {
        const entry = entries[provider];
        if (entry) (leanSets[provider] as { [id: string]: unknown })[tool.id] = entry;
      }
    }
  }
  return { sets, lean: leanSets, diagnostics };
}

/** One tool's entries and the diagnostics about them, at the tool's declaration. */
export function compileToolArtifacts(tool: ToolDefinition, site: Site): ToolArtifacts {
  const diagnostics: Diagnostic[] = [];
  const diagnose = (severity: Severity, code: Code, message: string) =>
    diagnostics.push(diagnostic(severity, code, `${tool.alias}: ${message}`, site));
  return { entries: compileEntries(tool, diagnose), diagnostics };
}

/** The lean entries of a tool whose full ones are `entries`. */
export function compileLean(tool: ToolDefinition, entries: Entries): Entries {
  const lean = compileEntries(
    {
      ...tool,
      description: firstSentence(tool.description),
      descriptionShort: firstSentence(tool.description),
      inputSchema: leanSchema(tool.inputSchema),
      outputSchema: tool.outputSchema && leanSchema(tool.outputSchema),
    },
    () => {},
  );
  // Where the full entry is left out (ZCP1502: over OpenAI's limits), the lean one is too, so that
  // the two sets list the same tools.
  for (const provider of ARTIFACT_PROVIDERS) if (!entries[provider]) delete lean[provider];
  return lean;
}

function compileEntries(
  tool: ToolDefinition,
  diagnose: (severity: Severity, code: Code, message: string) => void,
): Entries {
  const entries: Entries = {};
  const description = tool.descriptionShort;

  const openai = openaiParameters(tool.inputSchema);
  const parameters = ordered(openai.parameters);
  const exceeded = openaiLimits(parameters);
  if (openai.notStrict)
    diagnose(
      "warning",
      "ZCP1501",
      `OpenAI strict mode cannot express it (${openai.notStrict}); its OpenAI entries are sent with strict: false`,
    );
  if (exceeded.length > 0) {
    diagnose(
      "error",
      "ZCP1502",
      `its OpenAI schema exceeds the provider's limits: ${exceeded.join(", ")}; it has no OpenAI entries`,
    );
  } else {
    const fn = { name: tool.name, description, parameters, strict: openai.strict };
    entries["openai-responses"] = { type: "function", ...fn };
    entries["openai-chat"] = { type: "function", function: fn };
  }

  entries.anthropic = {
    name: tool.name,
    description,
    input_schema: ordered(
      anthropicInputSchema(tool.inputSchema),
    ) as ArtifactEntries["anthropic"]["input_schema"],
  };

  try {
    const declared = geminiParameters(tool.inputSchema);
    entries.gemini = {
      name: tool.name,
      description,
      ...(declared ? { parameters: ordered(declared) } : {}),
    };
  } catch (error) {
    if (!(error instanceof Inexpressible)) throw error;
    diagnose(
      "warning",
      "ZCP1503",
      `Gemini cannot declare it (${error.message}); it has no Gemini entry`,
    );
  }

  entries.mcp = mcpTool(tool);
  return entries;
}

/** Artifact schemas read in the same keyword order as the registry's. */
function ordered<T>(schema: T): T {
  return orderKeys(schema as Schema) as T;
}

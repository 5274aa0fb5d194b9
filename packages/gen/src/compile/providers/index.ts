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
import { ARTIFACT_PROVIDERS, firstSentence, type ArtifactEntries, type ArtifactProvider, type ToolDefinition } from "@zcp/runtime/codegen";
import { diagnostic, type Code, type Diagnostic, type Severity } from "../../diagnostics.js";
import { anthropicInputSchema } from "./anthropic.js";
import { geminiParameters } from "./gemini.js";
import { mcpTool } from "./mcp.js";
import { openaiLimits, openaiParameters } from "./openai.js";
import { leanSchema } from "./lean.js";
import { Inexpressible } from "./shared.js";
import { orderKeys, type Schema } from "../../extract/schema.js";
import { declarationOf } from "../../model.js";

export type ArtifactSets = { [P in ArtifactProvider]: { [toolId: string]: ArtifactEntries[P] } };

type Entries = { -readonly [P in ArtifactProvider]?: ArtifactEntries[P] };

/** One tool's entries (absent where the provider cannot take it) and the diagnostics that say why. */
export interface ToolArtifacts {
  readonly entries: Entries;
  /** The lean entries, compiled when first asked for (`leanArtifacts` in the config). */
  lean?: Entries;
  readonly diagnostics: readonly Diagnostic[];
}

const emptySets = (): ArtifactSets => ({ "openai-responses": {}, "openai-chat": {}, anthropic: {}, gemini: {}, mcp: {} });

/**
 * `cache` keeps each definition's artifacts: they depend on nothing else (the root is fixed
 * for a generator), so watch mode compiles only the tools that changed.
 */
export function compileArtifacts(
  tools: readonly ToolDefinition[],
  root: string,
  cache: WeakMap<ToolDefinition, ToolArtifacts> = new WeakMap(),
): { sets: ArtifactSets; lean: () => ArtifactSets; diagnostics: Diagnostic[] } {
  const sets = emptySets();
  const diagnostics: Diagnostic[] = [];
  const compiledTools: [ToolDefinition, ToolArtifacts][] = [];
  for (const tool of tools) {
    let compiled = cache.get(tool);
    if (!compiled) cache.set(tool, (compiled = compileTool(tool, root)));
    compiledTools.push([tool, compiled]);
    diagnostics.push(...compiled.diagnostics);
    for (const provider of ARTIFACT_PROVIDERS) {
      const entry = compiled.entries[provider];
      if (entry) (sets[provider] as { [id: string]: unknown })[tool.id] = entry;
    }
  }
  const lean = () => {
    const out = emptySets();
    for (const [tool, compiled] of compiledTools) {
      compiled.lean ??= compileLean(tool, compiled.entries);
      for (const provider of ARTIFACT_PROVIDERS) {
        const entry = compiled.lean[provider];
        if (entry) (out[provider] as { [id: string]: unknown })[tool.id] = entry;
      }
    }
    return out;
  };
  return { sets, lean, diagnostics };
}

function compileTool(tool: ToolDefinition, root: string): ToolArtifacts {
  const diagnostics: Diagnostic[] = [];
  const report = (severity: Severity, code: Code, message: string) =>
    diagnostics.push(diagnostic(severity, code, `${tool.alias}: ${message}`, declarationOf(tool, root)));
  return { entries: compileEntries(tool, report), diagnostics };
}

/** The lean entries of a tool whose full ones are `entries`. */
function compileLean(tool: ToolDefinition, entries: Entries): Entries {
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

function compileEntries(tool: ToolDefinition, report: (severity: Severity, code: Code, message: string) => void): Entries {
  const entries: Entries = {};
  const description = tool.descriptionShort;

  const openai = openaiParameters(tool.inputSchema);
  const parameters = ordered(openai.parameters);
  const exceeded = openaiLimits(parameters);
  if (openai.notStrict) report("warning", "ZCP1501", `OpenAI strict mode cannot express it (${openai.notStrict}); its OpenAI entries are sent with strict: false`);
  if (exceeded.length > 0) {
    report("error", "ZCP1502", `its OpenAI schema exceeds the provider's limits: ${exceeded.join(", ")}; it has no OpenAI entries`);
  } else {
    const fn = { name: tool.name, description, parameters, strict: openai.strict };
    entries["openai-responses"] = { type: "function", ...fn };
    entries["openai-chat"] = { type: "function", function: fn };
  }

  entries.anthropic = { name: tool.name, description, input_schema: ordered(anthropicInputSchema(tool.inputSchema)) as ArtifactEntries["anthropic"]["input_schema"] };

  try {
    const declared = geminiParameters(tool.inputSchema);
    entries.gemini = { name: tool.name, description, ...(declared ? { parameters: ordered(declared) } : {}) };
  } catch (error) {
    if (!(error instanceof Inexpressible)) throw error;
    report("warning", "ZCP1503", `Gemini cannot declare it (${error.message}); it has no Gemini entry`);
  }

  entries.mcp = mcpTool(tool);
  return entries;
}

/** Artifact schemas read in the same keyword order as the registry's. */
function ordered<T>(schema: T): T {
  return orderKeys(schema as Schema) as T;
}

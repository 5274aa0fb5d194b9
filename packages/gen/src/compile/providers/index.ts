/**
 * compile: the provider artifacts of every tool, as one `{ [toolId]: entry }` set per provider,
 * with a diagnostic naming the tool wherever a provider cannot take it as it is.
 *
 * OpenAI, Anthropic and Gemini entries carry the short description (the first paragraph): it is
 * sent with every request. MCP entries carry the full description, which hosts show to people.
 */
import { ARTIFACT_PROVIDERS, type ArtifactEntries, type ArtifactProvider, type ToolDefinition } from "@zcp/runtime/codegen";
import { diagnostic, type Code, type Diagnostic, type Severity } from "../../diagnostics.js";
import { anthropicInputSchema } from "./anthropic.js";
import { geminiParameters } from "./gemini.js";
import { mcpTool } from "./mcp.js";
import { openaiLimits, openaiParameters } from "./openai.js";
import { Inexpressible } from "./shared.js";
import { orderKeys, type Schema } from "../../extract/schema.js";
import { declarationOf } from "../../model.js";

export type ArtifactSets = { [P in ArtifactProvider]: { [toolId: string]: ArtifactEntries[P] } };

/** One tool's entries (absent where the provider cannot take it) and the diagnostics that say why. */
export interface ToolArtifacts {
  readonly entries: { readonly [P in ArtifactProvider]?: ArtifactEntries[P] };
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * `cache` keeps each definition's artifacts: they depend on nothing else (the root is fixed
 * for a generator), so watch mode compiles only the tools that changed.
 */
export function compileArtifacts(
  tools: readonly ToolDefinition[],
  root: string,
  cache: WeakMap<ToolDefinition, ToolArtifacts> = new WeakMap(),
): { sets: ArtifactSets; diagnostics: Diagnostic[] } {
  const sets: ArtifactSets = { "openai-responses": {}, "openai-chat": {}, anthropic: {}, gemini: {}, mcp: {} };
  const diagnostics: Diagnostic[] = [];
  for (const tool of tools) {
    let compiled = cache.get(tool);
    if (!compiled) cache.set(tool, (compiled = compileTool(tool, root)));
    diagnostics.push(...compiled.diagnostics);
    for (const provider of ARTIFACT_PROVIDERS) {
      const entry = compiled.entries[provider];
      if (entry) (sets[provider] as { [id: string]: unknown })[tool.id] = entry;
    }
  }
  return { sets, diagnostics };
}

function compileTool(tool: ToolDefinition, root: string): ToolArtifacts {
  const entries: { -readonly [P in ArtifactProvider]?: ArtifactEntries[P] } = {};
  const diagnostics: Diagnostic[] = [];
  const report = (severity: Severity, code: Code, message: string) =>
    diagnostics.push(diagnostic(severity, code, `${tool.alias}: ${message}`, declarationOf(tool, root)));
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
  return { entries, diagnostics };
}

/** Artifact schemas read in the same keyword order as the registry's. */
function ordered<T>(schema: T): T {
  return orderKeys(schema as Schema) as T;
}

/**
 * compile: the provider artifacts of every tool, as one `{ [toolId]: entry }` set per provider,
 * with a diagnostic naming the tool wherever a provider cannot take it as it is.
 *
 * OpenAI, Anthropic and Gemini entries carry the short description (the first paragraph): it is
 * sent with every request. MCP entries carry the full description, which hosts show to people.
 */
import path from "node:path";
import type { ArtifactEntries, ArtifactProvider, ToolDefinition } from "@zcp/runtime";
import { diagnostic, type Code, type Diagnostic, type Severity } from "../../diagnostics.js";
import { anthropicInputSchema } from "./anthropic.js";
import { geminiParameters } from "./gemini.js";
import { mcpTool } from "./mcp.js";
import { openaiLimits, openaiParameters } from "./openai.js";
import { Inexpressible } from "./shared.js";
import { orderKeys, type Schema } from "../../extract/schema.js";

export type ArtifactSets = { [P in ArtifactProvider]: { [toolId: string]: ArtifactEntries[P] } };

export function compileArtifacts(tools: readonly ToolDefinition[], root: string): { sets: ArtifactSets; diagnostics: Diagnostic[] } {
  const sets: ArtifactSets = { "openai-responses": {}, "openai-chat": {}, anthropic: {}, gemini: {}, mcp: {} };
  const diagnostics: Diagnostic[] = [];
  for (const tool of tools) {
    const report = (severity: Severity, code: Code, message: string) =>
      diagnostics.push(diagnostic(severity, code, `${tool.alias}: ${message}`, { file: path.join(root, tool.source.file), line: tool.source.line, column: 1 }));
    const description = tool.descriptionShort;

    const openai = openaiParameters(tool.inputSchema);
    const parameters = ordered(openai.parameters);
    const exceeded = openaiLimits(parameters);
    if (openai.notStrict) report("warning", "ZCP1501", `OpenAI strict mode cannot express it (${openai.notStrict}); its OpenAI entries are sent with strict: false`);
    if (exceeded.length > 0) {
      report("error", "ZCP1502", `its OpenAI schema exceeds the provider's limits: ${exceeded.join(", ")}; it has no OpenAI entries`);
    } else {
      const fn = { name: tool.name, description, parameters, strict: openai.strict };
      sets["openai-responses"][tool.id] = { type: "function", ...fn };
      sets["openai-chat"][tool.id] = { type: "function", function: fn };
    }

    sets.anthropic[tool.id] = { name: tool.name, description, input_schema: ordered(anthropicInputSchema(tool.inputSchema)) as ArtifactEntries["anthropic"]["input_schema"] };

    try {
      const declared = geminiParameters(tool.inputSchema);
      sets.gemini[tool.id] = { name: tool.name, description, ...(declared ? { parameters: ordered(declared) } : {}) };
    } catch (error) {
      if (!(error instanceof Inexpressible)) throw error;
      report("warning", "ZCP1503", `Gemini cannot declare it (${error.message}); it has no Gemini entry`);
    }

    sets.mcp[tool.id] = mcpTool(tool);
  }
  return { sets, diagnostics };
}

/** Artifact schemas read in the same keyword order as the registry's. */
function ordered<T>(schema: T): T {
  return orderKeys(schema as Schema) as T;
}

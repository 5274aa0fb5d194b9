/**
 * The provider rules applied to one tool: its entry for each provider, compiled from its
 * definition alone, and what a provider cannot take as it is (`zcp gen` reports each issue as a
 * diagnostic at the tool's declaration).
 *
 * OpenAI, Anthropic and Gemini entries carry the short description (the first paragraph): it is
 * sent with every request. MCP entries carry the full description, which hosts show to people.
 *
 * Anthropic entries carry the tool's example arguments as `input_examples` (Anthropic takes them
 * on custom tools, which every entry here is).
 *
 * Lean entries are every provider's entry compiled by the same rules from the lean schemas
 * (`lean.ts`), with the tool's first sentence as its description and without examples; a tool
 * has a lean entry exactly where it has a full one.
 */
import { firstSentence } from "../planner/sentence.js";
import type { ToolDefinition } from "../registry.js";
import { orderKeys } from "../schema-order.js";
import { anthropicInputSchema } from "./anthropic.js";
import { geminiParameters } from "./gemini.js";
import { leanSchema } from "./lean.js";
import { mcpTool } from "./mcp.js";
import { openaiLimits, openaiParameters } from "./openai.js";
import { Inexpressible } from "./shared.js";
import { ARTIFACT_PROVIDERS, type ArtifactEntries, type ArtifactProvider } from "./types.js";

/** A tool's entries by provider; a provider that cannot take the tool has none. */
export type ToolEntries = { -readonly [P in ArtifactProvider]?: ArtifactEntries[P] };

/** Why a provider leaves a tool out, or takes it in a weaker form. */
export type ArtifactIssue =
  /** OpenAI strict mode cannot express the schema: its OpenAI entries have `strict: false`. */
  | { readonly kind: "openai-not-strict"; readonly reason: string }
  /** The OpenAI schema is over the provider's published limits: no OpenAI entries. */
  | { readonly kind: "openai-limits"; readonly exceeded: readonly string[] }
  /** Gemini function declarations cannot express the schema: no Gemini entry. */
  | { readonly kind: "gemini-inexpressible"; readonly reason: string };

export interface CompiledEntries {
  readonly entries: ToolEntries;
  readonly issues: readonly ArtifactIssue[];
}

/** The tool's entries for `providers` (default all), and the issues met on the way. */
export function compileEntries(
  tool: ToolDefinition,
  providers: readonly ArtifactProvider[] = ARTIFACT_PROVIDERS,
): CompiledEntries {
  const entries: ToolEntries = {};
  const issues: ArtifactIssue[] = [];
  const description = tool.descriptionShort;

  if (providers.includes("openai-responses") || providers.includes("openai-chat")) {
    const openai = openaiParameters(tool.inputSchema);
    const parameters = orderKeys(openai.parameters);
    const exceeded = openaiLimits(parameters);
    if (openai.notStrict) issues.push({ kind: "openai-not-strict", reason: openai.notStrict });
    if (exceeded.length > 0) {
      issues.push({ kind: "openai-limits", exceeded });
    } else {
      const fn = { name: tool.name, description, parameters, strict: openai.strict };
      if (providers.includes("openai-responses"))
        entries["openai-responses"] = { type: "function", ...fn };
      if (providers.includes("openai-chat"))
        entries["openai-chat"] = { type: "function", function: fn };
    }
  }

  if (providers.includes("anthropic")) {
    entries.anthropic = {
      name: tool.name,
      description,
      input_schema: orderKeys(
        anthropicInputSchema(tool.inputSchema),
      ) as ArtifactEntries["anthropic"]["input_schema"],
      ...(tool.examples?.length ? { input_examples: [...tool.examples] } : {}),
    };
  }

  if (providers.includes("gemini")) {
    try {
      const declared = geminiParameters(tool.inputSchema);
      entries.gemini = {
        name: tool.name,
        description,
        ...(declared ? { parameters: orderKeys(declared) } : {}),
      };
    } catch (error) {
      if (!(error instanceof Inexpressible)) throw error;
      issues.push({ kind: "gemini-inexpressible", reason: error.message });
    }
  }

  if (providers.includes("mcp")) entries.mcp = mcpTool(tool);
  return { entries, issues };
}

/**
 * The lean entries of a tool whose full entries are `full`, for the providers `full` has: where
 * a full entry is left out (over OpenAI's limits), the lean one is too, so that the full and the
 * lean sets list the same tools.
 */
export function compileLeanEntries(tool: ToolDefinition, full: ToolEntries): ToolEntries {
  const providers = ARTIFACT_PROVIDERS.filter((provider) => full[provider] !== undefined);
  const sentence = firstSentence(tool.description);
  // Lean entries leave examples out, as lean schemas do.
  const { examples: _examples, ...rest } = tool;
  return compileEntries(
    {
      ...rest,
      description: sentence,
      descriptionShort: sentence,
      inputSchema: leanSchema(tool.inputSchema),
      outputSchema: tool.outputSchema && leanSchema(tool.outputSchema),
    },
    providers,
  ).entries;
}

/**
 * model: extracted tools → validated `ToolDefinition`s (aliases, ids, provider names, hashes),
 * sorted by alias. Duplicate ids, aliases or provider names are errors at every source
 * involved, and those tools are left out.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { canonicalJson, firstSentence, SENTENCE_MAX, sha12, type JsonValue, type ToolDefinition } from "@zcp/runtime/codegen";
import { renderPlannerLine } from "@zcp/runtime/codegen";
import { diagnostic, relativePath, type Code, type Diagnostic } from "./diagnostics.js";
import { firstParagraph } from "./extract/jsdoc.js";
import { snakeCase, type ExtractedTool } from "./extract/tool.js";

const ID_LENGTH = 6;
/** Canonical JSON of schema objects, which are immutable and shared between tools. */
const CANONICAL = new WeakMap<object, string>();
/**
 * Where each definition's tool is declared, for diagnostics about it after the model (provider
 * artifacts). Kept in memory only: a definition, and so every emitted file, names the tool's file
 * and export but no line, so that moving a tool in its file changes no output.
 */
const DECLARED_AT = new WeakMap<ToolDefinition, { readonly file: string; readonly line: number; readonly column: number }>();

/**
 * `cache` maps an extracted tool to its definition: a definition depends on nothing else (the
 * root is fixed for a generator), so watch mode reuses them instead of re-hashing every tool.
 */
export function buildModel(
  tools: readonly ExtractedTool[],
  root: string,
  cache: WeakMap<ExtractedTool, ToolDefinition> = new WeakMap(),
): { definitions: ToolDefinition[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const drafts = tools.map((tool) => {
    const alias = tool.alias ?? snakeCase(tool.exportName);
    return { tool, alias, id: tool.id ?? deriveId(alias), name: providerName(alias) };
  });
  const rejected = new Set<ExtractedTool>();
  // The runtime's built-in tools (zcp.handle, id "zh") own the `zcp.` namespace.
  for (const draft of drafts) {
    if (draft.alias.startsWith("zcp.") || draft.alias.startsWith("zcp_") || draft.id === "zh") {
      rejected.add(draft.tool);
      const what = draft.id === "zh" ? `id "zh"` : `alias "${draft.alias}"`;
      diagnostics.push(diagnostic("error", "ZCP1404", `${what} is reserved for the runtime's built-in tools (the zcp. namespace); choose another`, { file: draft.tool.file, line: draft.tool.line, column: draft.tool.column }));
    }
  }
  const checkUnique = (key: "id" | "alias" | "name", code: Code, what: string) => {
    const groups = new Map<string, typeof drafts>();
    for (const draft of drafts) groups.set(draft[key], [...(groups.get(draft[key]) ?? []), draft]);
    for (const [value, group] of groups) {
      // Equal aliases give equal derived ids and names: one ZCP1402 says it all.
      if (group.length < 2 || (key !== "alias" && new Set(group.map((draft) => draft.alias)).size < 2)) continue;
      for (const draft of group) {
        rejected.add(draft.tool);
        const others = group.filter((other) => other !== draft).map((other) => `${relativePath(root, other.tool.file)}:${other.tool.line}`);
        const hint = key === "id" ? "; set a distinct @id" : key === "name" ? `; aliases ${group.map((d) => `"${d.alias}"`).join(" and ")} both become "${value}"` : "";
        diagnostics.push(diagnostic("error", code, `${what} "${value}" is also declared at ${others.join(", ")}${hint}`, { file: draft.tool.file, line: draft.tool.line, column: draft.tool.column }));
      }
    }
  };
  checkUnique("alias", "ZCP1402", "duplicate tool alias");
  checkUnique("id", "ZCP1401", "duplicate tool id");
  checkUnique("name", "ZCP1403", "provider tool name");

  const definitions = drafts
    .filter((draft) => !rejected.has(draft.tool))
    .map(({ tool, alias, id, name }) => {
      let definition = cache.get(tool);
      if (!definition) {
        cache.set(tool, (definition = define(tool, alias, id, name, root)));
        DECLARED_AT.set(definition, { file: tool.file, line: tool.line, column: tool.column });
      }
      return definition;
    })
    .sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));
  return { definitions, diagnostics };
}

function define(tool: ExtractedTool, alias: string, id: string, name: string, root: string): ToolDefinition {
  const draft: Omit<ToolDefinition, "hash" | "planner" | "plannerBare"> = {
    id,
    alias,
    name,
    title: tool.title,
    descriptionShort: shortDescription(tool.description),
    description: tool.description,
    inputSchema: tool.inputSchema as ToolDefinition["inputSchema"],
    outputSchema: tool.outputSchema as ToolDefinition["outputSchema"],
    outputMode: tool.outputMode,
    handleKind: tool.handleKind,
    handleParams: tool.handleParams,
    defaults: tool.defaults,
    flags: tool.flags,
    groups: tool.groups,
    stages: tool.stages,
    scopes: tool.scopes,
    deprecated: tool.deprecated,
    call: tool.call,
    dates: tool.dates,
    source: { file: relativePath(root, tool.file), export: tool.exportName },
  };
  // With documentation (the default listing) and the bare signature: the runtime picks one, it
  // never takes a line apart.
  const planner = renderPlannerLine(draft);
  const plannerBare = renderPlannerLine(draft, { toolDocs: false, paramDocs: false });
  const { source, ...hashed } = draft;
  return { ...draft, planner, plannerBare, source, hash: sha12(canonicalJson({ ...hashed, planner, plannerBare } as unknown as JsonValue, CANONICAL)) };
}

/**
 * The declaration of a definition's tool (absolute file, 1-based line and column), for
 * diagnostics; line 1 of its file for a definition not built by `buildModel` in this process (one
 * read back from a registry.json).
 */
export function declarationOf(tool: ToolDefinition, root: string): { file: string; line: number; column: number } {
  return DECLARED_AT.get(tool) ?? { file: path.join(root, tool.source.file), line: 1, column: 1 };
}

/** Short, stable id from the alias alone: renaming a tool changes its id, editing it does not. */
export function deriveId(alias: string): string {
  const digest = createHash("sha256").update(`zcp-id:${alias}`).digest();
  return digest.readBigUInt64BE(0).toString(36).padStart(ID_LENGTH, "0").slice(0, ID_LENGTH);
}

/** Provider-safe name: `^[A-Za-z0-9_-]{1,64}$`, dots and other characters become `_`. */
export function providerName(alias: string): string {
  return alias.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

/** The first paragraph, or its first sentence (`firstSentence`, cut at 300 characters) when the paragraph is longer. */
function shortDescription(description: string): string {
  const paragraph = firstParagraph(description);
  return paragraph.length <= SENTENCE_MAX ? paragraph : firstSentence(paragraph);
}

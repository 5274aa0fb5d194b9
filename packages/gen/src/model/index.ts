/**
 * model: the stage's entry. Extracted tools → validated `ToolDefinition`s (aliases, ids,
 * provider names, hashes, planner lines), sorted by alias. Duplicate ids, aliases or provider
 * names are errors at every source involved, and those tools are left out. Where each
 * definition's tool is declared (`sites`) goes along for diagnostics of later stages; no
 * definition, and so no emitted file, names a line, so that moving a tool in its file changes no
 * output.
 */
import type { JsonValue, ToolDefinition } from "@zcp/runtime/definition";
import { serverConfig } from "./config.js";
import { diagnostic, relativePath, type Code, type Diagnostic } from "../diagnostics.js";
import { snakeCase, type ExtractedTool } from "../extract/index.js";
import { defineTool, type Draft, type ModelSettings } from "./define.js";
import { deriveId, providerName } from "./names.js";

export { completeDefinition, defineTool } from "./define.js";
export { deriveId, toolBaseName, toolNames } from "./names.js";

/** Where a tool is declared: absolute file, 1-based line and column. */
export interface Site {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export interface Model {
  readonly definitions: ToolDefinition[];
  readonly diagnostics: Diagnostic[];
  /** The declaration of each definition's tool. */
  readonly sites: ReadonlyMap<ToolDefinition, Site>;
  /** The extracted tool each definition is made of (compile checks its `@example` tags). */
  readonly origins: ReadonlyMap<ToolDefinition, ExtractedTool>;
  /** The schema of the server configuration the tools read (`serverConfig`); null: none. */
  readonly config: JsonValue | null;
}

/**
 * The per-tool work of `buildModel`. A definition depends on its draft only (the settings are
 * fixed for a generator): the pipeline's memo hands in a memoized `define` in watch mode.
 */
export interface ModelSteps {
  define(draft: Draft, settings: ModelSettings): ToolDefinition;
}

/** The ids of the runtime's built-in tools. */
export const BUILTIN_IDS: readonly string[] = ["zh", "zf", "zr", "zc"];

const MODEL_STEPS: ModelSteps = { define: defineTool };

export function buildModel(
  tools: readonly ExtractedTool[],
  settings: ModelSettings,
  steps: ModelSteps = MODEL_STEPS,
): Model {
  const { root } = settings;
  const diagnostics: Diagnostic[] = [];
  const drafts = tools.map(draftOf);
  const rejected = new Set<ExtractedTool>();
  // The runtime's built-in tools (zcp.handle "zh", zcp.find_tools "zf", zcp.run "zr", zcp.call_tool "zc") own the `zcp.` namespace.
  for (const draft of drafts) {
    const builtinId = BUILTIN_IDS.includes(draft.id);
    if (draft.alias.startsWith("zcp.") || draft.alias.startsWith("zcp_") || builtinId) {
      rejected.add(draft.tool);
      const what = builtinId ? `id "${draft.id}"` : `alias "${draft.alias}"`;
      diagnostics.push(
        diagnostic(
          "error",
          "ZCP1404",
          `${what} is reserved for the runtime's built-in tools (the zcp. namespace); choose another`,
          siteOf(draft.tool),
        ),
      );
    }
  }
  const checkUnique = (key: "id" | "alias" | "name", code: Code, what: string) => {
    const groups = new Map<string, Draft[]>();
    for (const draft of drafts) {
      const group = groups.get(draft[key]);
      if (group) group.push(draft);
      else groups.set(draft[key], [draft]);
    }
    for (const [value, group] of groups) {
      // Equal aliases give equal derived ids and names: one ZCP1402 says it all.
      if (
        group.length < 2 ||
        (key !== "alias" && new Set(group.map((draft) => draft.alias)).size < 2)
      )
        continue;
      for (const draft of group) {
        rejected.add(draft.tool);
        const others = group
          .filter((other) => other !== draft)
          .map((other) => `${relativePath(root, other.tool.file)}:${other.tool.line}`);
        const hint =
          key === "id"
            ? "; set a distinct @id"
            : key === "name"
              ? `; aliases ${group.map((d) => `"${d.alias}"`).join(" and ")} both become "${value}"`
              : "";
        diagnostics.push(
          diagnostic(
            "error",
            code,
            `${what} "${value}" is also declared at ${others.join(", ")}${hint}`,
            siteOf(draft.tool),
          ),
        );
      }
    }
  };
  checkUnique("alias", "ZCP1402", "duplicate tool alias");
  checkUnique("id", "ZCP1401", "duplicate tool id");
  checkUnique("name", "ZCP1403", "provider tool name");
  const server = serverConfig(
    drafts.filter((draft) => !rejected.has(draft.tool)),
    root,
  );
  diagnostics.push(...server.diagnostics);
  for (const draft of server.rejected) rejected.add(draft.tool);

  const sites = new Map<ToolDefinition, Site>();
  const origins = new Map<ToolDefinition, ExtractedTool>();
  const definitions = drafts
    .filter((draft) => !rejected.has(draft.tool))
    .map((draft) => {
      const definition = steps.define(draft, settings);
      sites.set(definition, siteOf(draft.tool));
      origins.set(definition, draft.tool);
      return definition;
    })
    .sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));
  return { definitions, diagnostics, sites, origins, config: server.schema };
}

/**
 * Each extracted tool's draft: a memo of a pure function of an immutable object (the names
 * depend on the tool's alias, id and export name alone). Watch mode keeps unchanged tools'
 * extractions, so their names are not derived again (an id is a hash) on every run.
 */
const DRAFTS = new WeakMap<ExtractedTool, Draft>();

function draftOf(tool: ExtractedTool): Draft {
  let draft = DRAFTS.get(tool);
  if (draft === undefined) {
    const alias = tool.alias ?? snakeCase(tool.exportName);
    draft = { tool, alias, id: tool.id ?? deriveId(alias), name: providerName(alias) };
    DRAFTS.set(tool, draft);
  }
  return draft;
}

function siteOf(tool: ExtractedTool): Site {
  return { file: tool.file, line: tool.line, column: tool.column };
}

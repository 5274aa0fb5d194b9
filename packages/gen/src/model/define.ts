/**
 * model: one tool's `ToolDefinition`: its documentation in short, its planner lines (with and
 * without docs, `renderPlannerLine` of `@zcp/runtime/definition`) and its hash. A definition depends
 * on its extracted tool, its alias, id and name, and the config's folder and `describe` only. Its `examples` are
 * not here: they are checked by the tool's validator, and compile completes the definition with
 * them (`compile/examples.ts`).
 */
import {
  firstSentence,
  renderPlannerLine,
  SENTENCE_MAX,
  toolHash,
  type ToolDefinition,
} from "@zcp/runtime/definition";
import type { Describe } from "../config.js";
import { relativePath } from "../diagnostics.js";
import type { ExtractedTool } from "../extract/index.js";

/** A tool with the names the model gave it, before its definition is built. */
export interface Draft {
  readonly tool: ExtractedTool;
  readonly alias: string;
  readonly id: string;
  readonly name: string;
}

/** What every definition of a run shares: the config's folder and its `describe` default. */
export interface ModelSettings {
  /** Sources are relative to it. */
  readonly root: string;
  /** A tool's `@describe` when it has none. */
  readonly describe: Describe;
}

/**
 * Canonical JSON of schema objects seen before. A memo of a pure function of immutable objects
 * (schemas are shared between tools): it changes no result, only spares serialising a shared
 * schema again for each tool.
 */
const CANONICAL = new WeakMap<object, string>();

/**
 * The definition of `draft`'s tool. Under `@describe full` (the tool's, else the settings'),
 * provider entries and planner lines carry the whole description, not its first sentence.
 */
export function defineTool(
  { tool, alias, id, name }: Draft,
  { root, describe }: ModelSettings,
): ToolDefinition {
  const full = (tool.describe ?? describe) === "full";
  const draft: Omit<ToolDefinition, "hash" | "planner" | "plannerBare"> = {
    id,
    alias,
    name,
    title: tool.title,
    descriptionShort: full ? tool.description : shortDescription(tool.description),
    description: tool.description,
    inputSchema: tool.inputSchema as ToolDefinition["inputSchema"],
    outputSchema: tool.outputSchema as ToolDefinition["outputSchema"],
    ...(tool.content ? { content: tool.content } : {}),
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
    // Only when set: a definition without a budget hashes as before the field existed.
    ...(tool.maxResultTokens !== null ? { maxResultTokens: tool.maxResultTokens } : {}),
    source: {
      file: relativePath(root, tool.file),
      export: tool.exportName,
      // Absent without `@throws`: a definition is the same as before the field existed.
      ...(tool.throws.length > 0
        ? {
            errors: tool.throws.map((thrown) => ({
              file: relativePath(root, thrown.file),
              export: thrown.export,
              code: thrown.code,
            })),
          }
        : {}),
    },
  };
  return completeDefinition(draft, full);
}

/**
 * A definition from everything but its planner lines and hash: the lines with documentation
 * (the default listing) and the bare signature (the runtime picks one, it never takes a line
 * apart), and the hash over the rest without `source`.
 */
export function completeDefinition(
  draft: Omit<ToolDefinition, "hash" | "planner" | "plannerBare">,
  fullDocs = false,
): ToolDefinition {
  const planner = renderPlannerLine(draft, { fullDocs });
  const plannerBare = renderPlannerLine(draft, { toolDocs: false, paramDocs: false });
  const { source, ...hashed } = draft;
  return {
    ...draft,
    planner,
    plannerBare,
    source,
    hash: toolHash({ ...hashed, planner, plannerBare }, CANONICAL),
  };
}

/** The first paragraph, or its first sentence (`firstSentence`, cut at 300 characters) when the paragraph is longer. */
export function shortDescription(description: string): string {
  const paragraph = description.split("\n\n", 1)[0] ?? "";
  return paragraph.length <= SENTENCE_MAX ? paragraph : firstSentence(paragraph);
}

/**
 * The definition of a built-in tool (`zcp.find_tools`, `zcp.run`) from what its planner line
 * needs and its names: the fields no built-in uses (groups, stages, flags…) filled in, its planner
 * lines rendered, and its hash computed as `zcp gen` computes any tool's.
 */
import { toolHash } from "./hash.js";
import { renderPlannerLine } from "./planner/render.js";
import type { ToolDefinition } from "./registry.js";

/** What a built-in has of its own; it is `scalar`, takes no handles and has no defaults. */
export type PlannedBuiltin = Pick<ToolDefinition, "id" | "alias" | "inputSchema" | "description">;

export function builtinDefinition(
  own: PlannedBuiltin,
  names: {
    readonly name: string;
    readonly title: string;
    readonly descriptionShort: string;
    readonly export: string;
  },
): ToolDefinition {
  const planned = {
    ...own,
    outputMode: "scalar",
    handleKind: "generic",
    handleParams: {},
    defaults: {},
    deprecated: null,
  } as const;
  const base = {
    ...planned,
    name: names.name,
    title: names.title,
    descriptionShort: names.descriptionShort,
    outputSchema: null,
    flags: [],
    groups: [],
    stages: [],
    scopes: [],
    planner: renderPlannerLine(planned),
    plannerBare: renderPlannerLine(planned, { toolDocs: false, paramDocs: false }),
    call: { kind: "object", context: null },
    dates: [],
  } satisfies Omit<ToolDefinition, "hash" | "source">;
  return { ...base, hash: toolHash(base), source: { file: "@zcp/runtime", export: names.export } };
}

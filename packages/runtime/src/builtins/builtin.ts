/**
 * What the runtime's built-in tools (`zcp.handle`, `zcp.find_tools`, `zcp.call_tool`, `zcp.run`) share: the
 * definition of one from what its planner line needs and its names (the fields no built-in uses,
 * groups, stages, flags…, filled in, its planner lines rendered, its hash computed as `zcp gen`
 * computes any tool's), and its provider entries from its parameter schemas, written out: the
 * runtime compiles nothing for them.
 */
import type { ArtifactEntries, ArtifactProvider } from "../definition/artifacts/index.js";
import { toolHash } from "../definition/hash.js";
import { renderPlannerLine } from "../definition/planner/render.js";
import type { JsonSchema, ToolDefinition } from "../definition/registry.js";

/** A built-in's parameters: name → JSON Schema. */
export type BuiltinProperties = {
  readonly [name: string]: { readonly [keyword: string]: unknown };
};

const BOUNDS = ["minLength", "maxLength", "minimum", "maximum"];

/** `props` without their length and range keywords (for lean entries and the providers without bounds: the tool checks them itself). */
export const withoutBounds = (props: BuiltinProperties): BuiltinProperties =>
  Object.fromEntries(
    Object.entries(props).map(([name, schema]) => [
      name,
      Object.fromEntries(Object.entries(schema).filter(([key]) => !BOUNDS.includes(key))),
    ]),
  );

/** An object schema of `props` with `required`; `OBJECT` (Gemini's spelling) has no `additionalProperties`. */
export const objectSchema = (
  props: BuiltinProperties,
  required: readonly string[],
  type: "object" | "OBJECT" = "object",
): JsonSchema =>
  ({
    type,
    properties: props,
    required: [...required],
    ...(type === "object" ? { additionalProperties: false } : {}),
  }) as unknown as JsonSchema;

/** The parameter schema each provider's entry carries. */
export interface BuiltinSchemas {
  /** OpenAI strict (Responses and Chat Completions). */
  readonly openai: JsonSchema;
  readonly anthropic: JsonSchema;
  readonly gemini: JsonSchema;
  readonly mcp: JsonSchema;
}

/**
 * A built-in's entry for every provider: its name, `description`, the schemas, and on MCP its
 * title, `annotations` and empty groups and stages. `strict: false` for a schema OpenAI's strict
 * mode cannot express (an open-ended object), sent as written, as for a registry tool.
 */
export function builtinEntries(
  definition: ToolDefinition,
  description: string,
  schemas: BuiltinSchemas,
  annotations: { readonly [hint: string]: boolean },
  strict = true,
): { [P in ArtifactProvider]: ArtifactEntries[P] } {
  const openai = { name: definition.name, description, parameters: schemas.openai, strict };
  return {
    "openai-responses": { type: "function", ...openai },
    "openai-chat": { type: "function", function: openai },
    anthropic: {
      name: definition.name,
      description,
      input_schema: schemas.anthropic as ArtifactEntries["anthropic"]["input_schema"],
    },
    gemini: { name: definition.name, description, parameters: schemas.gemini },
    mcp: {
      name: definition.name,
      title: definition.title!,
      description,
      inputSchema: schemas.mcp as ArtifactEntries["mcp"]["inputSchema"],
      annotations,
    },
  };
}

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

/**
 * A plain JSON Schema tool listing as ZCP planner lines and as lean JSON: the same renderer and
 * the same lean transform `zcp gen` uses. A planner line is fed with the tool's name as alias
 * and id source, its description, its `inputSchema`, and the `default` of each top-level
 * property (planner lines show defaults as `name:type=value`). Results are unknown for MCP
 * tools, so every line ends in `-> scalar`.
 */
import { deriveId, leanSchema } from "@zcp/gen";
import {
  firstSentence,
  parsePlannerLine,
  renderPlannerLine,
  type PlannerLineOptions,
} from "@zcp/runtime/definition";
import type { JsonSchema, McpTool } from "./corpus.ts";

type PlannerInput = Parameters<typeof renderPlannerLine>[0];

/** What a planner line carries besides the signature. */
export type PlannerDocs = "none" | "tool" | "all";

const OPTIONS: Record<PlannerDocs, PlannerLineOptions> = {
  none: { toolDocs: false, paramDocs: false },
  tool: { toolDocs: true, paramDocs: false },
  all: { toolDocs: true, paramDocs: true },
};

/** The tool's planner line: bare (`none`), with the tool's first sentence (`tool`), or with the parameters' too (`all`, what `zcp gen` writes). */
export function plannerLine(tool: McpTool, docs: PlannerDocs = "all"): string {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const defaults = Object.fromEntries(
    Object.entries(properties)
      .filter(
        ([, property]) =>
          typeof property === "object" && property !== null && property.default !== undefined,
      )
      .map(([name, property]) => [name, property.default]),
  );
  return renderPlannerLine(
    {
      id: deriveId(tool.name),
      alias: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputMode: "scalar",
      handleKind: "generic",
      handleParams: {},
      defaults,
      deprecated: null,
    } as unknown as PlannerInput,
    OPTIONS[docs],
  );
}

/** The tool as a lean listing entry: its description's first sentence, its schema without the constraints validators enforce (see docs/generated-files.md, "Lean artifacts"). */
export function leanTool(tool: McpTool): McpTool {
  return {
    name: tool.name,
    description: firstSentence(tool.description),
    inputSchema: leanSchema(tool.inputSchema),
  };
}

/** Whether the runtime's parser reads the line back (names outside the grammar do not). */
export function parsesBack(line: string): boolean {
  try {
    parsePlannerLine(line);
    return true;
  } catch {
    return false;
  }
}

/**
 * A plain JSON Schema tool listing as ZCP planner lines: the same renderer `zcp gen` uses, fed
 * with the tool's name as alias and id source, its `inputSchema`, and the `default` of each
 * top-level property (planner lines show defaults as `name:type=value`). Results are unknown
 * for MCP tools, so every line ends in `-> scalar`.
 */
import { deriveId } from "@zcp/gen";
import { parsePlannerLine, renderPlannerLine } from "@zcp/runtime/codegen";
import type { JsonSchema, McpTool } from "./corpus.ts";

type PlannerInput = Parameters<typeof renderPlannerLine>[0];

export function plannerLine(tool: McpTool): string {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
  const defaults = Object.fromEntries(
    Object.entries(properties).filter(([, property]) => typeof property === "object" && property !== null && property.default !== undefined).map(([name, property]) => [name, property.default]),
  );
  return renderPlannerLine({
    id: deriveId(tool.name),
    alias: tool.name,
    inputSchema: tool.inputSchema,
    outputMode: "scalar",
    handleKind: "generic",
    handleParams: {},
    defaults,
    deprecated: null,
  } as unknown as PlannerInput);
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

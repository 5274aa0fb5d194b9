import type { ToolDefinition } from "../definition/registry.js";

/**
 * Whether a view of `tools` needs `zcp.handle`: one of them produces handles (an `auto` tool
 * does not when `maxResultTokens` is infinite: every result is inline) or takes them.
 */
export function makesOrTakesHandles(
  tools: readonly ToolDefinition[],
  maxResultTokens: number,
): boolean {
  const autoMakesHandles = Number.isFinite(maxResultTokens);
  return tools.some(
    (tool) =>
      tool.outputMode === "handle" ||
      (tool.outputMode === "auto" && autoMakesHandles) ||
      Object.keys(tool.handleParams).length > 0,
  );
}

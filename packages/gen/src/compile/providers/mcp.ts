/**
 * MCP `tools/list` entries. The input schema is the canonical one (inlined, `$defs` only for
 * recursion); the output schema is listed only when it describes an object, as MCP requires of
 * `structuredContent`. Flags become the standard annotations; groups and stages go in `_meta`.
 */
import type { McpTool, ToolDefinition } from "@zcp/runtime";

export function mcpTool(tool: ToolDefinition): McpTool {
  const annotations: { -readonly [K in keyof NonNullable<McpTool["annotations"]>]: NonNullable<McpTool["annotations"]>[K] } = {};
  if (tool.title) annotations.title = tool.title;
  if (tool.flags.includes("readonly")) annotations.readOnlyHint = true;
  if (tool.flags.includes("destructive")) annotations.destructiveHint = true;
  if (tool.flags.includes("idempotent")) annotations.idempotentHint = true;
  const output = tool.outputSchema;
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema as McpTool["inputSchema"],
    ...(output && output.type === "object" ? { outputSchema: output as McpTool["outputSchema"] } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    _meta: { groups: tool.groups, stages: tool.stages },
  };
}

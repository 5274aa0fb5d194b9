/**
 * MCP `tools/list` entries. The input schema is the canonical one (inlined, `$defs` only for
 * recursion); the output schema is listed only for scalar tools whose result is an object (MCP
 * requires `structuredContent` to match it, and a handle result is not the value). Flags become
 * the standard annotations; the title is the entry's own `title` only (MCP reads it before
 * `annotations.title`: a second copy costs the model its tokens again); groups and stages go in
 * `_meta`, each only when the tool has some, and no `_meta` when it has neither.
 *
 * A tool whose `@maxResultTokens` lets a result pass Claude Code's 50,000 characters (past which
 * it moves a tool result to a file and shows the model a preview) also states
 * `anthropic/maxResultSizeChars` in `_meta`, which raises that limit for the tool (to at most
 * 500,000): at most `CHARS_PER_TOKEN` characters an estimated token.
 *
 * A deprecated tool (`@deprecated [note]`) says so where the model reads, first in its
 * description (`Deprecated: <note>` and a blank line, or `Deprecated.` without a note: MCP has
 * no field for it, and a host shows the model the description only), and where a program reads,
 * `_meta.deprecated: true`.
 */
import { HINT_FLAGS, type ToolDefinition } from "../registry.js";
import type { McpTool } from "./types.js";

/** Characters an estimated token stands for at most (`estimateTokens`: five letters and a space). */
const CHARS_PER_TOKEN = 6;
/** Claude Code's own limit on a tool result's characters, and the most `maxResultSizeChars` raises it to. */
const HOST_RESULT_CHARS = 50_000;
const MAX_RESULT_SIZE_CHARS = 500_000;

export function mcpTool(tool: ToolDefinition): McpTool {
  const annotations: { -readonly [K in keyof NonNullable<McpTool["annotations"]>]?: boolean } = {};
  for (const flag of Object.keys(HINT_FLAGS) as (keyof typeof HINT_FLAGS)[]) {
    if (tool.flags.includes(flag)) annotations[HINT_FLAGS[flag]] = true;
    else if (tool.flags.includes(`!${flag}`)) annotations[HINT_FLAGS[flag]] = false;
  }
  const output = tool.outputSchema;
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: deprecationNote(tool) + tool.description,
    inputSchema: tool.inputSchema as McpTool["inputSchema"],
    // Only a scalar tool's result is its value: a handle or auto result may be a handle.
    ...(output && output.type === "object" && tool.outputMode === "scalar"
      ? { outputSchema: output as McpTool["outputSchema"] }
      : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    ...meta(tool),
  };
}

/** What a deprecated tool's description starts with ("" for a tool that is not). */
function deprecationNote(tool: ToolDefinition): string {
  if (tool.deprecated === null) return "";
  return `${tool.deprecated === "" ? "Deprecated." : `Deprecated: ${tool.deprecated}`}\n\n`;
}

/**
 * `_meta` with the tool's groups, stages and deprecation, each only when it has one, and the
 * result size a host needs to allow; nothing when none of them.
 */
function meta(tool: ToolDefinition): Pick<McpTool, "_meta"> {
  const chars = (tool.maxResultTokens ?? 0) * CHARS_PER_TOKEN;
  const fields = {
    ...(tool.groups.length > 0 ? { groups: tool.groups } : {}),
    ...(tool.stages.length > 0 ? { stages: tool.stages } : {}),
    ...(tool.deprecated !== null ? { deprecated: true as const } : {}),
    ...(chars > HOST_RESULT_CHARS
      ? { "anthropic/maxResultSizeChars": Math.min(chars, MAX_RESULT_SIZE_CHARS) }
      : {}),
  };
  return Object.keys(fields).length > 0 ? { _meta: fields } : {};
}

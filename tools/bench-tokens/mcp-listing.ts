/**
 * An MCP server's tools as a host hands them to a model, shared by `pnpm bench:tokens` and
 * `pnpm bench:gateway`: every page of `tools/list` through the official SDK client, and each tool
 * as the Chat Completions function a host sends for it.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/** An MCP tool as the Chat Completions function a host sends for it. */
export const mcpFunction = (tool: {
  name: string;
  description?: string;
  inputSchema: unknown;
}) => ({
  type: "function",
  function: { name: tool.name, description: tool.description ?? "", parameters: tool.inputSchema },
});

/** Every page of the server's `tools/list`. */
export async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor !== undefined ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/**
 * An MCP server's tools as a host hands them to a model, shared by `pnpm bench:tokens` and
 * `pnpm bench:gateway`: every page of `tools/list` through an official SDK client (v1 or v2:
 * what the benchmark needs of one is `McpClient`), and each tool as the Chat Completions
 * function a host sends for it.
 */

/** An MCP tool as `tools/list` lists it (the fields a host reads). */
export interface McpTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: unknown;
  readonly outputSchema?: unknown;
}

/** What the benchmark asks of an MCP client; the v1 and v2 SDK `Client`s both have it. */
export interface McpClient {
  listTools(params?: {
    cursor?: string;
  }): Promise<{ readonly tools: readonly McpTool[]; readonly nextCursor?: string }>;
  callTool(params: {
    name: string;
    arguments?: Record<string, unknown>;
  }): Promise<{ readonly [key: string]: unknown }>;
  close(): Promise<void>;
}

/** An MCP tool as the Chat Completions function a host sends for it. */
export const mcpFunction = (tool: McpTool) => ({
  type: "function",
  function: { name: tool.name, description: tool.description ?? "", parameters: tool.inputSchema },
});

/** Every page of the server's `tools/list`. */
export async function listAllTools(client: McpClient): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor !== undefined ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

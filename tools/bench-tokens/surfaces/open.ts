/**
 * The surfaces of `pnpm bench:tokens`: a protocol (how the model learns and calls its tools)
 * over a catalog (which tools it is given, the same on every protocol). Each renders exactly
 * what a model receives, bills the assistant message the plan's calls make, parses that billed
 * message back and executes what it parsed, for real, through our server, in process:
 *
 * - `mcp`: the official SDK `Client` talking to our MCP surface over an in-memory transport,
 *   served as a plain MCP server would be (every result whole, so no handles and no handle
 *   tool); the request carries every listed tool as a Chat Completions function built from its
 *   MCP `inputSchema`, with its description; a result is the text of the `CallToolResult`
 *   content, as hosts pass it on. The assistant's `tool_calls` are parsed and sent as `tools/call`.
 * - `zcp-fc`: the native surface; the request carries the `openai-chat` strict artifacts that
 *   `tools/list` returns for the catalog; a result is the compact encoding of the runtime's
 *   result (a handle and its summary for a large one).
 * - `zcp-fc-lean`: the same, asking `tools/list` for lean artifacts (`lean: true`: the first
 *   sentence of each description, no constraints the generated validators enforce anyway),
 *   which the runtime derives from the registry as it does the full ones.
 * - `zcp-compact`: the native surface with no tool definitions at all: the planner lines
 *   `tools/list` returns (format `compact`, with their documentation) go in the system prompt,
 *   the model writes `CALL` lines, which are parsed with the runtime's `parseCalls`, and reads
 *   `RET` lines.
 * - Tool search (`mcp-search`, `zcp-search`, `zcp-search-fc`): each request lists only
 *   `zcp.find_tools`; what a search finds becomes callable (mcp.ts, native.ts). On MCP
 *   2026-07-28 (`mcp-find-2026`) a listing may not change: each request lists `zcp_find_tools`
 *   and `zcp_call_tool`, a find answers the found tools' names, descriptions and input schemas as its result text, and
 *   a found tool is called through `zcp_call_tool`.
 * - Code mode (`mcp-code`, Cloudflare's `codeMcpServer` over a plain MCP server;
 *   `mcp-search-execute`, Cloudflare's `search` and `execute` over the same server
 *   (search-execute.ts); `zcp-code`, `zcp.run` with the view's API text): each request lists the
 *   tools that run programs (codemode.ts, zcp-code.ts); all run them in one sandbox.
 *
 * Catalogs: `all`, every tool of the registry (the 19 primitives and the 21 workflow tools of
 * the workbench), and `primitive`, the same without the `workflow` group (an MCP server that
 * does not expose it, or a host's tool filter; a native client's `excludeGroups`). The ZCP
 * surfaces also list the runtime's handle tool, `zcp.handle`, which answers large results.
 * A plan may call only what its surface lists: a call of anything else throws `NotListed`.
 */
import type { GeneratedModule } from "@zcp/runtime";
import { codeConnections, mcpCodeSurface } from "./codemode.ts";
import { connections, mcpSurface } from "./mcp.ts";
import { zcpSurface } from "./native.ts";
import { closeSandbox } from "./sandbox.ts";
import type { SurfaceSpec } from "./spec.ts";
import type { Surface } from "./turn.ts";
import { zcpCodeSurface } from "./zcp-code.ts";

/** Closes the shared MCP connections and the code surfaces' sandbox. */
export async function closeSurfaces(): Promise<void> {
  const all = [...connections.values()].flatMap((byCatalog) => [...byCatalog.values()]);
  connections.clear();
  const code = [...codeConnections.values()].flatMap((byServer) => [...byServer.values()]);
  codeConnections.clear();
  await Promise.all([...all, ...code].map(async (connection) => (await connection).close()));
  await closeSandbox();
}

export async function openSurface(spec: SurfaceSpec, generated: GeneratedModule): Promise<Surface> {
  switch (spec.protocol) {
    case "mcp":
    case "mcp-search":
    case "mcp-find-2026":
      return mcpSurface(generated, spec.catalog, spec.protocol);
    case "mcp-code":
    case "mcp-search-execute":
      return mcpCodeSurface(generated, spec.catalog, spec.protocol);
    case "zcp-code":
      return zcpCodeSurface(generated, spec.catalog, spec.discover === true);
    default:
      return zcpSurface(spec.protocol, generated, spec.catalog);
  }
}

/**
 * The MCP surfaces (`mcp`, `mcp-search`, `mcp-find-2026`): the official SDK `Client` talking to
 * our MCP server in process, served as a plain MCP server would be (every result whole, so no
 * handles and no handle tool). The request carries every listed tool as a Chat Completions
 * function built from its MCP `inputSchema`, with its description; a result is the text of the
 * `CallToolResult` content, as hosts pass it on. The assistant's `tool_calls` are parsed and
 * sent as `tools/call`. `mcp-search` starts from the discover view, whose listing grows with
 * what a search finds; on MCP 2026-07-28 (`mcp-find-2026`) a listing may not change: each
 * request lists `zcp_find_tools` and `zcp_call_tool`, a find answers the found tools' names,
 * descriptions and input schemas as its result text, and a found tool is called through
 * `zcp_call_tool`.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { createRuntime, type GeneratedModule, type JsonValue, type Runtime } from "@zcp/runtime";
import { createFetchHandler, createMcpServer, type McpServerOptions } from "@zcp/server";
import { listAllTools, mcpFunction, type McpClient, type McpTool as Tool } from "./mcp-listing.ts";
import { CATALOG_EXCLUDES, FIND_ALIAS, type Call, type Catalog } from "./spec.ts";
import type { Message, ToolCallMessage } from "./transcript.ts";
import { callId, checkListed, fcAssistant, fcExecuted, type Surface } from "./turn.ts";

/** On a 2026-07-28 discover view, the tool that calls what a find answered. */
const CALL_TOOL_NAME = "zcp_call_tool";

interface McpListing {
  /** The listed tools as Chat Completions functions. */
  readonly tools: readonly unknown[];
  /** The listing's MCP tools as the server sent them (JSON), to compare listings byte for byte. */
  readonly bytes: string;
  readonly aliases: ReadonlySet<string>;
}

interface McpConnection extends McpListing {
  readonly runtime: Runtime;
  readonly client: McpClient;
  /** Lists the tools again (a search grows a discover view). */
  list(): Promise<McpListing>;
  readonly close: () => Promise<void>;
}

/**
 * The view an MCP connection serves: `plain`, the catalog; `discover`, the 2025-era discover
 * view, whose listing starts with the search tool alone and grows with what it finds; `fixed`,
 * the 2026-07-28 discover view, whose listing is `zcp_find_tools` and `zcp_call_tool`, always.
 */
type McpView = "plain" | "discover" | "fixed";

/** The runtime of a plain MCP server: every result whole (no handles, so no handle tool), `view` of the catalog. */
export function mcpRuntime(generated: GeneratedModule, catalog: Catalog, view: McpView): Runtime {
  const mcp = {
    excludeGroups: [...CATALOG_EXCLUDES[catalog]],
    ...(view === "plain" ? {} : { profile: "discover" }),
  };
  return createRuntime(generated, {
    exposure: { defaults: { mcp } },
    maxResultTokens: Number.POSITIVE_INFINITY,
  });
}

/** A plain MCP server (`mcpRuntime`) and a client connected to it, on the era `view` is served on. */
async function connectMcp(
  generated: GeneratedModule,
  catalog: Catalog,
  view: McpView = "plain",
): Promise<McpConnection> {
  const runtime = mcpRuntime(generated, catalog, view);
  const { client, close } =
    view === "fixed" ? await connectModern(runtime) : await connectLegacy(runtime);
  const list = async (): Promise<McpListing> => {
    const listed = await listAllTools(client);
    return {
      tools: listed.map(mcpFunction),
      bytes: JSON.stringify(listed),
      aliases: new Set(listed.map((tool) => runtime.tool(tool.name)!.alias)),
    };
  };
  return { runtime, client, ...(await list()), list, close };
}

/** A 2025-era connection: zcp's MCP server (one session) and the v2 SDK client (its default, 2025 handshake), in memory. */
export async function connectLegacy(
  runtime: Runtime,
): Promise<{ client: McpClient; close: () => Promise<void> }> {
  const server = createMcpServer(runtime);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.server.connect(serverSide);
  const client = new Client({ name: "bench-tokens", version: "0.1.0" });
  await client.connect(clientSide);
  return { client, close: () => server.close() };
}

/** Where the 2026-07-28 client sends its requests (never dialled: its fetch is the handler's). */
const MODERN_ENDPOINT = "http://localhost/mcp";

/**
 * A 2026-07-28 connection: the official v2 client pinned to 2026-07-28 (no fallback), talking
 * to zcp's web-standard handler in process, the way the v2 SDK's testing guide serves one: the
 * transport's `fetch` is the handler's, so nothing is dialled. The handler serves the runtime's
 * MCP view as the era requires, with no session: a discover view is fixed (find + call).
 */
export async function connectModern(
  runtime: Runtime,
  options: McpServerOptions = {},
): Promise<{ client: McpClient; close: () => Promise<void> }> {
  const handler = createFetchHandler(runtime, options);
  const transport = new StreamableHTTPClientTransport(new URL(MODERN_ENDPOINT), {
    fetch: (url, init) => {
      // A network client sends Host (the handler checks it); a Request built here has none.
      const request = new Request(url, init);
      request.headers.set("host", new URL(MODERN_ENDPOINT).host);
      return handler.fetch(request);
    },
  });
  const client = new Client(
    { name: "bench-tokens", version: "0.1.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(transport);
  return {
    client,
    close: async () => {
      await client.close();
      await handler.close();
    },
  };
}

/**
 * One MCP connection per registry, catalog and view, shared by every run: an MCP server serves
 * many conversations, and these tools keep no state between calls (the workspace is read from
 * the environment at each call); a fixed view's finds change nothing either. Connecting costs
 * more than most runs; `closeSurfaces` ends them. (A 2025 discover view grows with its
 * session's finds: `mcp-search` connects per run.)
 */
export const connections = new Map<GeneratedModule, Map<string, Promise<McpConnection>>>();

function mcpConnection(
  generated: GeneratedModule,
  catalog: Catalog,
  view: Exclude<McpView, "discover">,
): Promise<McpConnection> {
  const byCatalog = connections.get(generated) ?? new Map<string, Promise<McpConnection>>();
  connections.set(generated, byCatalog);
  const key = `${catalog} ${view}`;
  if (!byCatalog.has(key)) byCatalog.set(key, connectMcp(generated, catalog, view));
  return byCatalog.get(key)!;
}

/** The text of a `CallToolResult`'s content, as hosts pass it on. */
export const resultText = (answer: { readonly [key: string]: unknown }) =>
  (answer.content as { type: string; text?: string }[])
    .filter((block) => block.type === "text")
    .map((block) => block.text ?? "")
    .join("\n");

/** The MCP surfaces: a plain server, and tool search on each era. */
export type McpProtocol = "mcp" | "mcp-search" | "mcp-find-2026";

/**
 * `mcp-find-2026`'s function call of `call`: a found tool through `zcp_call_tool` (its MCP name
 * and its arguments), the listed tools by their own names.
 */
function findCallAssistant(
  calls: readonly Call[],
  runtime: Runtime,
  listing: ReadonlySet<string>,
  first: number,
): Message {
  const toolCalls: ToolCallMessage[] = calls.map((call, i) => {
    const name = runtime.tool(call.alias)!.name;
    const listedItself = listing.has(call.alias);
    return {
      id: callId(first + i),
      type: "function",
      function: {
        name: listedItself ? name : CALL_TOOL_NAME,
        arguments: JSON.stringify(listedItself ? call.args : { name, arguments: call.args }),
      },
    };
  });
  return { role: "assistant", content: null, tool_calls: toolCalls };
}

/** The names a find answered (`{ tools: [{ name, ... }] }` on MCP). */
const foundTools = (value: JsonValue): string[] =>
  ((value as { tools?: { name: string }[] } | null)?.tools ?? []).map((tool) => tool.name);

export async function mcpSurface(
  generated: GeneratedModule,
  catalog: Catalog,
  protocol: McpProtocol,
): Promise<Surface> {
  const connection =
    protocol === "mcp-search"
      ? await connectMcp(generated, catalog, "discover")
      : await mcpConnection(generated, catalog, protocol === "mcp" ? "plain" : "fixed");
  const { runtime, client, tools } = connection;
  // What the model may call: what the listing shows, and (2026) what its finds answered.
  const listed = new Set(connection.aliases);
  const listing = new Set(connection.aliases);
  let next = 1;
  return {
    protocol,
    catalog,
    instructions: "",
    tools,
    listed,
    async turn(calls) {
      checkListed(calls, listed);
      const first = next;
      next += calls.length;
      const assistant =
        protocol === "mcp-find-2026"
          ? findCallAssistant(calls, runtime, listing, first)
          : fcAssistant(calls, runtime, first);
      const answers = await Promise.all(
        fcExecuted(assistant).map((call) =>
          client.callTool({ name: call.name, arguments: call.args }),
        ),
      );
      const results: Message[] = [];
      const values: JsonValue[] = [];
      const errors: string[] = [];
      const executed = fcExecuted(assistant);
      answers.forEach((answer, i) => {
        const text = resultText(answer);
        const value = answer.isError === true ? null : valueOf(text, runtime, executed[i]!);
        // A 2025 search answers MCP definitions, and the host lists the found tools: it hands the
        // model them as the functions it lists (title, annotations and _meta are not sent). A
        // 2026 find lists nothing: its text is the tool result, as any tool's.
        const content =
          protocol === "mcp-search" && calls[i]!.alias === FIND_ALIAS && value !== null
            ? JSON.stringify((value as unknown as { tools: Tool[] }).tools.map(mcpFunction))
            : text;
        if (protocol === "mcp-find-2026" && calls[i]!.alias === FIND_ALIAS && value !== null)
          for (const name of foundTools(value)) listed.add(runtime.tool(name)!.alias);
        results.push({ role: "tool", tool_call_id: callId(first + i), content });
        if (value === null) errors.push(text);
        values.push(value);
      });
      if (protocol === "mcp-search")
        for (const alias of (await connection.list()).aliases) listed.add(alias);
      // The 2026-07-28 era's promise, checked after every turn: the listing never changes.
      if (protocol === "mcp-find-2026" && (await connection.list()).bytes !== connection.bytes)
        throw new Error("mcp-find-2026: tools/list changed after a turn");
      return { assistant, results, values, errors };
    },
    close: async () => {
      if (protocol === "mcp-search") await connection.close();
    },
  };
}

/**
 * The value an MCP tool result's text stands for: a tool whose result is a string sends the text
 * itself (plain, as a plain MCP server does), any other tool its compact JSON. A call through
 * `zcp.call_tool` answers what the tool it names answers.
 */
function valueOf(
  text: string,
  runtime: Runtime,
  call: { readonly name: string; readonly args: { readonly [name: string]: unknown } },
): JsonValue {
  let tool = runtime.tool(call.name);
  if (tool?.alias === "zcp.call_tool" && typeof call.args["name"] === "string")
    tool = runtime.tool(call.args["name"]);
  return tool?.outputSchema?.type === "string" ? text : (JSON.parse(text) as JsonValue);
}

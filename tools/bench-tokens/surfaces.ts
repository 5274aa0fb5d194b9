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
 *   `zcp.find_tools`; what a search finds becomes callable (`mcpSurface`, `zcpSurface`). On MCP
 *   2026-07-28 (`mcp-find-2026`) a listing may not change: each request lists `zcp_find_tools`
 *   and `zcp_call_tool`, a find answers the found tools' names, descriptions and input schemas as its result text, and
 *   a found tool is called through `zcp_call_tool`.
 * - Code mode (`mcp-code`, Cloudflare's `codeMcpServer` over a plain MCP server;
 *   `mcp-search-execute`, Cloudflare's `search` and `execute` over the same server
 *   (search-execute.ts); `zcp-code`, `zcp.run` with the view's API text): each request lists the
 *   tools that run programs (`mcpCodeSurface`, `zcpCodeSurface`); all run them in one sandbox.
 *
 * Catalogs: `all`, every tool of the registry (the 19 primitives and the 21 workflow tools of
 * the workbench), and `primitive`, the same without the `workflow` group (an MCP server that
 * does not expose it, or a host's tool filter; a native client's `excludeGroups`). The ZCP
 * surfaces also list the runtime's handle tool, `zcp.handle`, which answers large results.
 * A plan may call only what its surface lists: a call of anything else throws `NotListed`.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
// @cloudflare/codemode builds its servers on the v1 SDK's McpServer: they are reached with the
// v1 client and in-memory transport.
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as V1InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer as V1McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { codeMcpServer, openApiMcpServer } from "@cloudflare/codemode/mcp";
import { createCodeRunner, type PooledCodeRunner } from "@zcp/code";
import {
  createRuntime,
  encodeResult,
  formatCall,
  formatReturn,
  parseCalls,
  type CallResult,
  type GeneratedModule,
  type JsonValue,
  type ProgramHost,
  type Runtime,
} from "@zcp/runtime";
import { providerName } from "@zcp/runtime/definition";
import {
  createFetchHandler,
  createMcpServer,
  createNativeSession,
  type NativeSession,
} from "@zcp/server";
import { listAllTools, mcpFunction, type McpClient, type McpTool as Tool } from "./mcp-listing.ts";
import * as searchExecute from "./search-execute.ts";
import type { Message, ToolCallMessage } from "./transcript.ts";

export const PROTOCOLS = ["mcp", "zcp-fc", "zcp-fc-lean", "zcp-compact"] as const;
export type Protocol = (typeof PROTOCOLS)[number];
/** The tool-search surfaces: each request lists only a search tool; what a search finds becomes callable. */
export const SEARCH_PROTOCOLS = [
  "mcp-search",
  "mcp-find-2026",
  "zcp-search",
  "zcp-search-fc",
] as const;
export type SearchProtocol = (typeof SEARCH_PROTOCOLS)[number];
/** The code-mode surfaces: each request lists one tool that runs a program against the others. */
export const CODE_PROTOCOLS = ["mcp-code", "mcp-search-execute", "zcp-code"] as const;
export type CodeProtocol = (typeof CODE_PROTOCOLS)[number];
export type AnyProtocol = Protocol | SearchProtocol | CodeProtocol;
export const isSearch = (protocol: AnyProtocol): protocol is SearchProtocol =>
  (SEARCH_PROTOCOLS as readonly string[]).includes(protocol);
export const isCode = (protocol: AnyProtocol): protocol is CodeProtocol =>
  (CODE_PROTOCOLS as readonly string[]).includes(protocol);

/**
 * How a program (programs.ts) is written on each code surface: the tool it is sent to, the
 * expression that calls a tool, and the code the tool takes. On `mcp-code` that is Cloudflare's
 * form: an async arrow function calling `codemode.<name>`, the name being the MCP tool's as
 * `@cloudflare/codemode` writes it (dots, dashes and spaces as `_`); on `zcp-code` the body of
 * an async function calling `tools.<alias>`, as `zcp.run` takes it.
 */
export const PROGRAM_FORMS: {
  readonly [P in CodeProtocol]: {
    readonly tool: string;
    readonly name: (alias: string) => string;
    readonly code: (body: string) => string;
  };
} = {
  "mcp-code": {
    tool: "code",
    name: (alias) => `codemode.${providerName(alias).replace(/-/g, "_")}`,
    code: (body) => `async () => {\n${body}\n}`,
  },
  "mcp-search-execute": searchExecute.EXECUTE_FORM,
  "zcp-code": { tool: "zcp.run", name: (alias) => `tools.${alias}`, code: (body) => body },
};
/** Whether the agent searches before its program: `zcp-code` from the discover view, and `mcp-search-execute`. */
export const searchesFirst = (spec: SurfaceSpec): boolean =>
  spec.discover === true || spec.protocol === "mcp-search-execute";
/** The search tool on every search surface (on MCP under its provider name `zcp_find_tools`). */
export const FIND_ALIAS = "zcp.find_tools";
/** On a 2026-07-28 discover view, the tool that calls what a find answered. */
const CALL_TOOL_NAME = "zcp_call_tool";
export const CATALOGS = ["all", "primitive"] as const;
export type Catalog = (typeof CATALOGS)[number];
/** The groups a catalog leaves out, the same on every protocol. */
export const CATALOG_EXCLUDES: { readonly [C in Catalog]: readonly string[] } = {
  all: [],
  primitive: ["workflow"],
};

export interface SurfaceSpec {
  readonly protocol: AnyProtocol;
  readonly catalog: Catalog;
  /** zcp-code only: start from the discover view and load the API text with `zcp.find_tools` (for a large registry). */
  readonly discover?: boolean;
}

export const SURFACES: readonly SurfaceSpec[] = CATALOGS.flatMap((catalog) =>
  PROTOCOLS.map((protocol) => ({ protocol, catalog })),
);

export interface Call {
  readonly alias: string;
  readonly args: { readonly [name: string]: JsonValue };
}

interface TurnOutcome {
  /** The assistant message that makes the calls: what is billed, and what was parsed and executed. */
  readonly assistant: Message;
  /** The messages that carry the results back, in call order. */
  readonly results: readonly Message[];
  /** Each call's value as the model reads it (null for an error; for a handle, its id, summary and meta), for the plan's next turn. */
  readonly values: readonly JsonValue[];
  /** Calls that failed, with the error text the model would read. */
  readonly errors: readonly string[];
}

export interface Surface extends SurfaceSpec {
  /** What this surface adds to the shared system prompt (empty when it needs nothing). */
  readonly instructions: string;
  /** The tool definitions every request carries. */
  readonly tools: readonly unknown[];
  /** The aliases of the tools the listing shows (on a search surface: the search tool and what the searches found so far). */
  readonly listed: ReadonlySet<string>;
  /** How the agent makes one round of searches for `queries` (default: one `zcp.find_tools` call each). */
  readonly searchCalls?: (queries: readonly string[]) => Call[];
  /** After the searches, the calls that read what the found tools take, where the searches answered less. */
  readonly detailCalls?: (aliases: readonly string[]) => Call[];
  turn(calls: readonly Call[]): Promise<TurnOutcome>;
  close(): Promise<void>;
}

/** A plan called a tool its surface does not list: the plan is not open to that surface. */
export class NotListed extends Error {
  override name = "NotListed";
}

/** A call as parsed back from the billed assistant message: the tool's name as written, and its arguments. */
interface Executed {
  readonly name: string;
  readonly args: { [name: string]: JsonValue };
}

const callId = (n: number) => `call_${n}`;

function checkListed(calls: readonly Call[], listed: ReadonlySet<string>): void {
  for (const call of calls)
    if (!listed.has(call.alias)) throw new NotListed(`${call.alias} is not listed`);
}

/** The function-calling message of `calls`, with the provider-safe names the listing uses. */
function fcAssistant(calls: readonly Call[], runtime: Runtime, first: number): Message {
  const toolCalls: ToolCallMessage[] = calls.map((call, i) => ({
    id: callId(first + i),
    type: "function",
    function: { name: runtime.tool(call.alias)!.name, arguments: JSON.stringify(call.args) },
  }));
  return { role: "assistant", content: null, tool_calls: toolCalls };
}

/** The calls a function-calling message makes, read back from its JSON. */
const fcExecuted = (assistant: Message): Executed[] =>
  (assistant.role === "assistant" ? (assistant.tool_calls ?? []) : []).map((call) => ({
    name: call.function.name,
    args: JSON.parse(call.function.arguments) as Executed["args"],
  }));

/** The calls a text message makes, read back with the runtime's CALL-line parser. */
function compactExecuted(text: string): Executed[] {
  const parsed = parseCalls(text);
  if (parsed.errors.length > 0)
    throw new Error(
      `the billed CALL lines do not parse: ${parsed.errors.map((error) => error.message).join("; ")}`,
    );
  return parsed.calls.map((call) => ({ name: call.alias ?? call.id!, args: call.args }));
}

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
    inlineMaxBytes: Number.POSITIVE_INFINITY,
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
): Promise<{ client: McpClient; close: () => Promise<void> }> {
  const handler = createFetchHandler(runtime);
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
const connections = new Map<GeneratedModule, Map<string, Promise<McpConnection>>>();

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

/** The sandbox every code surface runs its programs in (so that they differ in API and protocol only). */
let sandbox: PooledCodeRunner | undefined;
const programs = (): PooledCodeRunner => (sandbox ??= createCodeRunner());

/** Closes the shared MCP connections and the code surfaces' sandbox. */
export async function closeSurfaces(): Promise<void> {
  const all = [...connections.values()].flatMap((byCatalog) => [...byCatalog.values()]);
  connections.clear();
  const code = [...codeConnections.values()].flatMap((byServer) => [...byServer.values()]);
  codeConnections.clear();
  await Promise.all([...all, ...code].map(async (connection) => (await connection).close()));
  await sandbox?.close();
  sandbox = undefined;
}

/** The text of a `CallToolResult`'s content, as hosts pass it on. */
const resultText = (answer: { readonly [key: string]: unknown }) =>
  (answer.content as { type: string; text?: string }[])
    .filter((block) => block.type === "text")
    .map((block) => block.text ?? "")
    .join("\n");

/** The MCP surfaces: a plain server, and tool search on each era. */
type McpProtocol = "mcp" | "mcp-search" | "mcp-find-2026";

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

async function mcpSurface(
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
      answers.forEach((answer, i) => {
        const text = resultText(answer);
        const value = answer.isError === true ? null : (JSON.parse(text) as JsonValue);
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
 * `mcp-code` and `mcp-search-execute`, the anchors: Cloudflare's Code Mode over a plain MCP
 * server, each served by `@cloudflare/codemode`'s own server: `codeMcpServer` lists the server's
 * tools, writes their TypeScript API from their MCP `inputSchema`s into the description of its
 * one `code` tool, and answers a program's return value as its text; `openApiMcpServer` serves
 * Cloudflare's `search` and `execute` over the same tools as an OpenAPI spec (search-execute.ts).
 * Their executor is our sandbox (a Cloudflare Worker loader does not exist on Node): the same
 * QuickJS runner as `zcp-code`, with each provider object of theirs (`codemode`, or
 * `openApiMcpServer`'s host bridge) bound to its functions, which call through MCP clients.
 */
/**
 * What a Worker isolate offers Cloudflare's sandbox code and QuickJS does not: `structuredClone`
 * (`openApiMcpServer`'s spec resolver copies each resolved `$ref` with it). The spec is JSON, so
 * a JSON round trip is the same copy.
 */
const WORKER_GLOBALS =
  "const structuredClone = (value) => (value === undefined ? value : JSON.parse(JSON.stringify(value)));\n";

const codemodeExecutor = {
  async execute(code: string, resolved: unknown) {
    const providers = resolved as readonly {
      name: string;
      fns: Record<string, (args: unknown) => Promise<unknown>>;
    }[];
    const fns = new Map<string, (args: unknown) => Promise<unknown>>(
      providers.flatMap((provider) =>
        Object.entries(provider.fns).map(([name, fn]) => [`${provider.name}.${name}`, fn] as const),
      ),
    );
    const host: ProgramHost = {
      sessionId: "mcp-code",
      aliases: [...fns.keys()],
      signal: new AbortController().signal,
      call: async (name, args) => {
        try {
          return { ok: true, value: (await fns.get(name)!(args)) as JsonValue };
        } catch (error) {
          return { ok: false, error: "exec:error", hint: (error as Error).message };
        }
      },
    };
    const bind = providers.map((provider) => `const ${provider.name} = tools.${provider.name};\n`);
    const answer = await programs()(
      `${WORKER_GLOBALS}${bind.join("")}return await (${code})();`,
      host,
    );
    if (!answer.ok) return { result: undefined, error: encodeResult(answer) };
    const { value, logs } = (answer as unknown as { value: { value: unknown; logs?: string[] } })
      .value;
    return { result: value, ...(logs ? { logs } : {}) };
  },
};

interface CodemodeConnection {
  readonly client: V1Client;
  readonly listed: readonly Tool[];
  /** The runtime of the plain MCP server the programs' calls reach. */
  readonly runtime: Runtime;
  readonly close: () => Promise<void>;
}

/** A Code Mode server of Cloudflare's (`protocol`) over a plain MCP server of `generated`, and a client connected to it. */
async function connectCodemode(
  generated: GeneratedModule,
  catalog: Catalog,
  protocol: "mcp-code" | "mcp-search-execute",
): Promise<CodemodeConnection> {
  const runtime = createRuntime(generated, {
    exposure: { defaults: { mcp: { excludeGroups: [...CATALOG_EXCLUDES[catalog]] } } },
    inlineMaxBytes: Number.POSITIVE_INFINITY,
  });
  // codeMcpServer reads one page of tools/list: the server lists all of them on one.
  const upstream = createMcpServer(runtime, { pageSize: generated.registry.tools.length + 3 });
  const closing: (() => Promise<void>)[] = [() => upstream.close()];
  let server: V1McpServer;
  if (protocol === "mcp-code") {
    // codeMcpServer connects the server it wraps to its v1 in-memory transport and lists it with
    // its v1 client: our v2 SDK `Server` serves that 2025 handshake as an `McpServer` would.
    server = await codeMcpServer({
      server: upstream.server as unknown as V1McpServer,
      executor: codemodeExecutor,
    });
  } else {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await upstream.server.connect(serverSide);
    const upstreamClient = new Client({ name: "bench-tokens-openapi", version: "0.1.0" });
    await upstreamClient.connect(clientSide);
    closing.push(() => upstreamClient.close());
    server = openApiMcpServer({
      spec: searchExecute.catalogSpec(await listAllTools(upstreamClient), runtime),
      executor: codemodeExecutor,
      request: searchExecute.toolRequest((params) => upstreamClient.callTool(params)),
    });
  }
  const [clientSide, serverSide] = V1InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new V1Client({ name: "bench-tokens", version: "0.1.0" });
  await client.connect(clientSide);
  const { tools: listed } = await client.listTools();
  return {
    client,
    listed,
    runtime,
    close: async () => {
      await client.close();
      for (const close of closing.reverse()) await close();
    },
  };
}

/** One Code Mode server per protocol, registry and catalog, shared by every run, as the plain MCP one (its tools keep no state). */
const codeConnections = new Map<GeneratedModule, Map<string, Promise<CodemodeConnection>>>();

async function mcpCodeSurface(
  generated: GeneratedModule,
  catalog: Catalog,
  protocol: "mcp-code" | "mcp-search-execute",
): Promise<Surface> {
  const byServer = codeConnections.get(generated) ?? new Map<string, Promise<CodemodeConnection>>();
  codeConnections.set(generated, byServer);
  const key = `${protocol} ${catalog}`;
  if (!byServer.has(key)) byServer.set(key, connectCodemode(generated, catalog, protocol));
  const { client, listed, runtime } = await byServer.get(key)!;
  const tools = listed.map(mcpFunction);
  // The code tools, and (mcp-search-execute) the registry tools its searches have found.
  const listedNames = new Set(listed.map((tool) => tool.name));
  const search = protocol === "mcp-search-execute";
  let next = 1;
  return {
    protocol,
    catalog,
    instructions: "",
    tools,
    listed: listedNames,
    ...(search
      ? {
          searchCalls: searchExecute.searchCalls,
          detailCalls: (aliases: readonly string[]) =>
            searchExecute.detailCalls(aliases.map((alias) => runtime.tool(alias)!.name)),
        }
      : {}),
    async turn(calls) {
      checkListed(calls, listedNames);
      const first = next;
      next += calls.length;
      const assistant: Message = {
        role: "assistant",
        content: null,
        tool_calls: calls.map((call, i) => ({
          id: callId(first + i),
          type: "function",
          function: { name: call.alias, arguments: JSON.stringify(call.args) },
        })),
      };
      const answers = await Promise.all(
        fcExecuted(assistant).map((call) =>
          client.callTool({ name: call.name, arguments: call.args }),
        ),
      );
      const texts = answers.map(resultText);
      const values = answers.map((answer, i) =>
        answer.isError === true ? null : (JSON.parse(texts[i]!) as JsonValue),
      );
      // What a search answered is what the agent may call.
      if (search)
        values.forEach((value, i) => {
          if (calls[i]!.alias === "search")
            for (const name of searchExecute.foundNames(value))
              listedNames.add(runtime.tool(name)!.alias);
        });
      return {
        assistant,
        results: texts.map((text, i) => ({
          role: "tool",
          tool_call_id: callId(first + i),
          content: text,
        })),
        values,
        errors: texts.filter((_, i) => answers[i]!.isError === true),
      };
    },
    close: async () => {},
  };
}

/**
 * `zcp-code`: native ZCP with the runtime's `zcp.run` over our sandbox: every request carries
 * `zcp.run`'s strict artifact (OpenAI function calling) and, in the system prompt, the view's
 * API text (`tools/list` format `typescript`: the tool author's types, first sentences,
 * defaults); the program's calls are the session's own, their large values stay in the program;
 * a result is the runtime's compact encoding of `zcp.run`'s `{ value }`.
 */
async function zcpCodeSurface(
  generated: GeneratedModule,
  catalog: Catalog,
  discover: boolean,
): Promise<Surface> {
  const excludeGroups = [...CATALOG_EXCLUDES[catalog]];
  const runtime = createRuntime(generated, {
    exposure: {
      defaults: { native: { excludeGroups, ...(discover ? { profile: "discover" } : {}) } },
    },
    code: programs(),
  });
  const native = createNativeSession(runtime);
  await rpc<unknown>(native, "initialize", discover ? { findFormat: "typescript" } : {});
  const functions = await rpc<{ tools: { function: { name: string } }[] }>(native, "tools/list", {
    format: "openai-chat",
  });
  const run = runtime.tool(PROGRAM_FORMS["zcp-code"].tool)!;
  // The API text up front, or (discover) only the search and run tools, the text found on demand.
  const sent = discover ? [run, runtime.tool(FIND_ALIAS)!] : [run];
  const api = discover
    ? ""
    : (await rpc<{ tools: string }>(native, "tools/list", { format: "typescript" })).tools;
  // What the session lets a program call (the client's knowledge, not sent): in a discover view,
  // the tools found so far.
  const aliases = async () =>
    (await rpc<{ tools: { alias: string }[] }>(native, "tools/list", { format: "json" })).tools.map(
      (tool) => tool.alias,
    );
  const listed = new Set(await aliases());
  let next = 1;
  return {
    protocol: "zcp-code",
    catalog,
    instructions: discover ? "" : `Programs for ${run.name} call these tools:\n${api}`,
    tools: functions.tools.filter((entry) =>
      sent.some((tool) => tool.name === entry.function.name),
    ),
    listed,
    async turn(calls) {
      checkListed(calls, listed);
      const first = next;
      next += calls.length;
      const assistant = fcAssistant(calls, runtime, first);
      const answers = await Promise.all(
        fcExecuted(assistant).map((call) =>
          rpc<CallResult>(native, "tools/call", { name: call.name, arguments: call.args }),
        ),
      );
      const outcome = {
        assistant,
        results: answers.map((answer, i): Message => ({
          role: "tool",
          tool_call_id: callId(first + i),
          content: encodeResult(answer),
        })),
        // A program's value is what it returned; a search's, what it found.
        values: answers.map((answer, i) =>
          !answer.ok || !("value" in answer)
            ? null
            : calls[i]!.alias === run.alias
              ? (answer.value as { value: JsonValue }).value
              : answer.value,
        ),
        errors: answers.filter((answer) => !answer.ok).map((answer) => encodeResult(answer)),
      };
      if (discover) for (const alias of await aliases()) listed.add(alias);
      return outcome;
    },
    close: () => native.close(),
  };
}

async function rpc<T>(
  native: NativeSession,
  method: string,
  params: Record<string, unknown>,
): Promise<T> {
  const response = (await native.handle({ jsonrpc: "2.0", id: 1, method, params })) as {
    result?: unknown;
    error?: { message: string };
  };
  if (response.error) throw new Error(`${method}: ${response.error.message}`);
  return response.result as T;
}

async function zcpSurface(
  protocol: Exclude<AnyProtocol, McpProtocol | CodeProtocol>,
  generated: GeneratedModule,
  catalog: Catalog,
): Promise<Surface> {
  const lean = protocol === "zcp-fc-lean";
  const compact = protocol === "zcp-compact" || protocol === "zcp-search";
  const search = isSearch(protocol);
  const excludeGroups = [...CATALOG_EXCLUDES[catalog]];
  // A search surface's catalog is its policy (what a search can ever find), as on mcp-search.
  const runtime = createRuntime(
    generated,
    search ? { exposure: { defaults: { native: { profile: "discover", excludeGroups } } } } : {},
  );
  const native = createNativeSession(runtime);
  await rpc<unknown>(native, "initialize", search && !compact ? { findFormat: "openai-chat" } : {});
  const select = !search && excludeGroups.length > 0 ? { excludeGroups } : {};
  const listing = await rpc<{ tools: string | unknown[] }>(native, "tools/list", {
    ...select,
    format: compact ? "compact" : "openai-chat",
    ...(lean ? { lean: true } : {}),
  });
  // The same view as JSON, for the aliases it lists (the client's knowledge, not sent to the model).
  const aliases = async () =>
    (
      await rpc<{ tools: { alias: string }[] }>(native, "tools/list", { ...select, format: "json" })
    ).tools.map((tool) => tool.alias);
  const listed = new Set(await aliases());
  let next = 1;
  return {
    protocol,
    catalog,
    instructions: compact ? compactInstructions(listing.tools as string) : "",
    tools: compact ? [] : (listing.tools as unknown[]),
    listed,
    async turn(calls) {
      checkListed(calls, listed);
      const first = next;
      next += calls.length;
      const assistant: Message = compact
        ? {
            role: "assistant",
            content: calls.map((call) => formatCall(null, call.alias, call.args)).join("\n"),
          }
        : fcAssistant(calls, runtime, first);
      const executed = compact ? compactExecuted(assistant.content!) : fcExecuted(assistant);
      const answers = await Promise.all(
        executed.map((call) =>
          rpc<CallResult>(native, "tools/call", { name: call.name, arguments: call.args }),
        ),
      );
      // A handle result's value is what the model reads of it: the id, the summary and the meta.
      const values = answers.map((answer): JsonValue =>
        !answer.ok
          ? null
          : "value" in answer
            ? answer.value
            : { handle: answer.handle, summary: answer.summary, meta: { ...answer.meta } },
      );
      const errors = answers.filter((answer) => !answer.ok).map((answer) => encodeResult(answer));
      const results: Message[] = compact
        ? [
            {
              role: "user",
              content: answers.map((answer, i) => formatReturn(`c${i + 1}`, answer)).join("\n"),
            },
          ]
        : answers.map((answer, i) => ({
            role: "tool",
            tool_call_id: callId(first + i),
            content: encodeResult(answer),
          }));
      if (search) for (const alias of await aliases()) listed.add(alias);
      return { assistant, results, values, errors };
    },
    close: () => native.close(),
  };
}

/** The instructions zcp-compact needs, since it has no function calling: the grammar and the tools. */
export function compactInstructions(plannerLines: string): string {
  return [
    "Call tools by writing one line per call: CALL <alias> name=value ... (values are JSON; bare words need no quotes).",
    "Calls in one message run in parallel. Results come back as RET c<n> <json> (or ERR c<n> <code> hint=...), c1 for your first call.",
    "Tools:",
    plannerLines,
  ].join("\n");
}

/** zcp-compact's instructions with planner lines without documentation (`docs: false`): not a surface, a size to compare. */
export async function bareCompactInstructions(
  generated: GeneratedModule,
  catalog: Catalog,
): Promise<string> {
  const native = createNativeSession(createRuntime(generated));
  await rpc<unknown>(native, "initialize", {});
  const select =
    CATALOG_EXCLUDES[catalog].length > 0 ? { excludeGroups: [...CATALOG_EXCLUDES[catalog]] } : {};
  const listing = await rpc<{ tools: string }>(native, "tools/list", {
    ...select,
    format: "compact",
    docs: false,
  });
  await native.close();
  return compactInstructions(listing.tools);
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

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
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
// @cloudflare/codemode builds its servers on the v1 SDK's McpServer: they are reached with the
// v1 client and in-memory transport.
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as V1InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { McpServer as V1McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { codeMcpServer, openApiMcpServer } from "@cloudflare/codemode/mcp";
import {
  createRuntime,
  encodeResult,
  type GeneratedModule,
  type JsonValue,
  type ProgramHost,
  type Runtime,
} from "@zcp/runtime";
import { createMcpServer } from "@zcp/server";
import { resultText } from "./mcp.ts";
import { listAllTools, mcpFunction, type McpTool as Tool } from "./mcp-listing.ts";
import { programs } from "./sandbox.ts";
import * as searchExecute from "./search-execute.ts";
import { CATALOG_EXCLUDES, type Catalog } from "./spec.ts";
import type { Message } from "./transcript.ts";
import { callId, checkListed, fcExecuted, type Surface } from "./turn.ts";

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
    maxResultTokens: Number.POSITIVE_INFINITY,
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
export const codeConnections = new Map<GeneratedModule, Map<string, Promise<CodemodeConnection>>>();

export async function mcpCodeSurface(
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

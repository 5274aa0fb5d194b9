/**
 * The callers the dispatch benchmark compares, all calling the weather fixture's
 * `math.subtract(a, b)` with `a = i`, `b = 1` for call number `i`, and each checking the
 * answer (`i - 1`) so that no variant can skip work:
 *
 * - direct: the tool function itself (the floor), and the same call awaited;
 * - session: `session.call("math.subtract", { a, b })` on a zcp runtime in process;
 * - sdk: the official MCP SDK's `McpServer`, the tool registered with a zod raw shape, called
 *   by the SDK `Client` over `InMemoryTransport`;
 * - zcpMcp: the zcp runtime behind the SDK's low-level `Server` (tools/call → session.call,
 *   tools/list → session.exposed.artifacts("mcp")), called by the same kind of `Client`;
 * - worker: `session.call` on a runtime whose tools run in worker threads (`@zcp/server`'s
 *   worker executor, zcp-serve's default `--isolation worker`), the workers importing the
 *   compiled generated module named by BENCH_WORKER_MODULE;
 * - program, session100, emptyProgram (code.ts): code mode, measured per run rather than per
 *   call: a `zcp.run` program making 100 calls, 100 session.calls on the same runtime, and an
 *   empty program.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { createRuntime, type CallResult, type Session } from "@zcp/runtime";
import { createWorkerExecutor } from "@zcp/server";
import { z } from "zod";
import { subtract } from "../../fixtures/weather/src/math.js";
import generated from "../../fixtures/weather/src/zcp.gen/index.js";
import { createCodeVariants } from "./code.js";
import type { Variant } from "./variant-shape.js";

export interface Variants {
  readonly list: readonly Variant[];
  /** Checks made once at set-up: what each MCP side lists, and an error path. */
  readonly checks: Record<string, string>;
  close(): Promise<void>;
}

const MCP_NAME = "math_subtract";

function wrong(what: string, i: number, got: unknown): never {
  throw new Error(`${what}: call ${i} answered ${JSON.stringify(got)}, expected ${i - 1}`);
}

/** The text an MCP tools/call result carries: zcp's value (or error) as compact JSON. */
function toCallToolResult(result: CallResult): CallToolResult {
  if (!result.ok)
    return {
      content: [{ type: "text", text: JSON.stringify({ error: result.error, hint: result.hint }) }],
      isError: true,
    };
  const body =
    "handle" in result
      ? { handle: result.handle, summary: result.summary, meta: result.meta }
      : "content" in result
        ? result.content
        : result.value;
  return { content: [{ type: "text", text: JSON.stringify(body) }] };
}

/** The text of a tools/call result's first content item, if it is text. */
function textOf(result: unknown): string | undefined {
  const content = (result as { content?: unknown }).content;
  const first = Array.isArray(content)
    ? (content[0] as { type?: unknown; text?: unknown } | undefined)
    : undefined;
  return first?.type === "text" && typeof first.text === "string" ? first.text : undefined;
}

export async function createVariants(): Promise<Variants> {
  // (b) zcp in process.
  const runtime = createRuntime(generated);
  const session: Session = runtime.session();

  // (e) zcp with its tools in worker threads, as zcp-serve runs them by default.
  const workerModule = process.env["BENCH_WORKER_MODULE"];
  if (workerModule === undefined) throw new Error("BENCH_WORKER_MODULE is not set");
  const executor = createWorkerExecutor({ module: workerModule });
  const workerSession = createRuntime(generated, { executor }).session();

  // (c) the MCP SDK's McpServer, written the usual way.
  const sdkServer = new McpServer({ name: "bench-dispatch-sdk", version: "0.0.0" });
  sdkServer.registerTool(
    MCP_NAME,
    {
      description: "Subtract b from a.",
      inputSchema: {
        a: z.number().describe("The number to subtract from."),
        b: z.number().describe("The number to subtract."),
      },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    async ({ a, b }) => ({ content: [{ type: "text", text: JSON.stringify(subtract(a, b)) }] }),
  );
  const sdkClient = await connect(sdkServer, "bench-dispatch-sdk-client");

  // (d) zcp behind the SDK's low-level Server.
  const mcpSession = runtime.session({ surface: "mcp" });
  const zcpServer = new Server(
    { name: "bench-dispatch-zcp", version: "0.0.0" },
    { capabilities: { tools: { listChanged: true } } },
  );
  zcpServer.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: mcpSession.exposed.artifacts("mcp") as never,
  }));
  zcpServer.setRequestHandler(CallToolRequestSchema, async (request) =>
    toCallToolResult(await mcpSession.call(request.params.name, request.params.arguments ?? {})),
  );
  const zcpClient = await connect(zcpServer, "bench-dispatch-zcp-client");

  // Set-up checks: both MCP servers list the tool, and refuse bad arguments as a tool error.
  const checks: Record<string, string> = {};
  for (const [key, client] of [
    ["sdk", sdkClient],
    ["zcpMcp", zcpClient],
  ] as const) {
    const { tools } = await client.listTools();
    if (!tools.some((tool) => tool.name === MCP_NAME))
      throw new Error(`${key}: ${MCP_NAME} is not listed`);
    const bad = (await client.callTool({
      name: MCP_NAME,
      arguments: { a: "x", b: 1 },
    })) as CallToolResult;
    if (!bad.isError)
      throw new Error(`${key}: a bad argument was not refused: ${JSON.stringify(bad)}`);
    checks[`${key}: tools/list`] = tools.map((tool) => tool.name).join(", ");
    checks[`${key}: a = "x" answers`] = `isError, ${(textOf(bad) ?? "").slice(0, 200)}`;
  }
  // (f)-(h) code mode: one code runner and a session of a runtime that has it.
  const code = createCodeVariants();

  const badSession = await session.call("math.subtract", { a: "x", b: 1 });
  checks['session: a = "x" answers'] = JSON.stringify(badSession);
  Object.assign(checks, await code.checks());

  const list: Variant[] = [
    {
      key: "direct",
      label: "(a) direct call of the tool function (floor)",
      transport: false,
      call: (i) => {
        const value = subtract(i, 1);
        if (value !== i - 1) wrong("direct", i, value);
      },
    },
    {
      key: "directAwait",
      label: "(a') the same, awaited (floor of an async API)",
      transport: false,
      call: async (i) => {
        const value = await subtract(i, 1);
        if (value !== i - 1) wrong("direct awaited", i, value);
      },
    },
    {
      key: "session",
      label: '(b) zcp session.call("math.subtract", {a, b}) in process',
      transport: false,
      call: async (i) => {
        const result = await session.call("math.subtract", { a: i, b: 1 });
        if (!result.ok || !("value" in result) || result.value !== i - 1)
          wrong("session.call", i, result);
      },
    },
    {
      key: "sdk",
      label: "(c) MCP SDK McpServer + zod, SDK Client over InMemoryTransport",
      transport: true,
      call: async (i) => {
        const result = await sdkClient.callTool({ name: MCP_NAME, arguments: { a: i, b: 1 } });
        if (textOf(result) !== String(i - 1)) wrong("McpServer", i, result);
      },
    },
    {
      key: "zcpMcp",
      label: "(d) zcp behind SDK low-level Server, SDK Client over InMemoryTransport",
      transport: true,
      call: async (i) => {
        const result = await zcpClient.callTool({ name: MCP_NAME, arguments: { a: i, b: 1 } });
        if (textOf(result) !== String(i - 1)) wrong("zcp behind Server", i, result);
      },
    },
    {
      key: "worker",
      label: '(e) zcp session.call("math.subtract", {a, b}), the tool in a worker thread',
      transport: true,
      call: async (i) => {
        const result = await workerSession.call("math.subtract", { a: i, b: 1 });
        if (!result.ok || !("value" in result) || result.value !== i - 1)
          wrong("session.call through the worker executor", i, result);
      },
    },
    ...code.list,
  ];
  return {
    list,
    checks,
    async close() {
      await sdkClient.close();
      await zcpClient.close();
      await session.close();
      await mcpSession.close();
      await workerSession.close();
      await executor.close();
      await code.close();
    },
  };
}

async function connect(
  server: { connect(transport: InMemoryTransport): Promise<void> },
  name: string,
): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name, version: "0.0.0" });
  await client.connect(clientTransport);
  return client;
}

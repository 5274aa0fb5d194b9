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
 *   `zcp.find_tools`; what a search finds becomes callable (`mcpSurface`, `zcpSurface`).
 * - Code mode (`mcp-code`, Cloudflare's `codeMcpServer` over a plain MCP server; `zcp-code`,
 *   `zcp.run` with the view's API text): each request lists one tool that runs a program
 *   (`mcpCodeSurface`, `zcpCodeSurface`); both run programs in the same sandbox.
 *
 * Catalogs: `all`, every tool of the registry (the 19 primitives and the 21 workflow tools of
 * the workbench), and `primitive`, the same without the `workflow` group (an MCP server that
 * does not expose it, or a host's tool filter; a native client's `excludeGroups`). The ZCP
 * surfaces also list the runtime's handle tool, `zcp.handle`, which answers large results.
 * A plan may call only what its surface lists: a call of anything else throws `NotListed`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { codeMcpServer } from "@cloudflare/codemode/mcp";
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
import { providerName } from "@zcp/runtime/codegen";
import { createMcpServer, createNativeSession, type NativeSession } from "@zcp/server";
import { listAllTools, mcpFunction } from "./mcp-listing.ts";
import type { Message, ToolCallMessage } from "./transcript.ts";

export const PROTOCOLS = ["mcp", "zcp-fc", "zcp-fc-lean", "zcp-compact"] as const;
export type Protocol = (typeof PROTOCOLS)[number];
/** The tool-search surfaces: each request lists only a search tool; what a search finds becomes callable. */
export const SEARCH_PROTOCOLS = ["mcp-search", "zcp-search", "zcp-search-fc"] as const;
export type SearchProtocol = (typeof SEARCH_PROTOCOLS)[number];
/** The code-mode surfaces: each request lists one tool that runs a program against the others. */
export const CODE_PROTOCOLS = ["mcp-code", "zcp-code"] as const;
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
  "zcp-code": { tool: "zcp.run", name: (alias) => `tools.${alias}`, code: (body) => body },
};
/** The search tool on every search surface (on MCP under its provider name `zcp_find_tools`). */
export const FIND_ALIAS = "zcp.find_tools";
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
  readonly aliases: ReadonlySet<string>;
}

interface McpConnection extends McpListing {
  readonly runtime: Runtime;
  readonly client: Client;
  /** Lists the tools again (a search grows a discover view). */
  list(): Promise<McpListing>;
  readonly close: () => Promise<void>;
}

/**
 * A plain MCP server and a client connected to it: every result whole (no handles, so no handle
 * tool); with `discover`, each session's listing starts with the search tool alone.
 */
async function connectMcp(
  generated: GeneratedModule,
  catalog: Catalog,
  discover = false,
): Promise<McpConnection> {
  const mcp = {
    excludeGroups: [...CATALOG_EXCLUDES[catalog]],
    ...(discover ? { profile: "discover" } : {}),
  };
  const runtime = createRuntime(generated, {
    exposure: { defaults: { mcp } },
    inlineMaxBytes: Number.POSITIVE_INFINITY,
  });
  const server = createMcpServer(runtime);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.server.connect(serverSide);
  const client = new Client({ name: "bench-tokens", version: "0.1.0" });
  await client.connect(clientSide);
  const list = async (): Promise<McpListing> => {
    const listed = await listAllTools(client);
    return {
      tools: listed.map(mcpFunction),
      aliases: new Set(listed.map((tool) => runtime.tool(tool.name)!.alias)),
    };
  };
  return { runtime, client, ...(await list()), list, close: () => server.close() };
}

/**
 * One MCP connection per registry and catalog, shared by every run: an MCP server serves many
 * conversations, and these tools keep no state between calls (the workspace is read from the
 * environment at each call). Connecting costs more than most runs; `closeSurfaces` ends them.
 * (A search surface's view is its session's state: it connects per run.)
 */
const connections = new Map<GeneratedModule, Map<Catalog, Promise<McpConnection>>>();

function mcpConnection(generated: GeneratedModule, catalog: Catalog): Promise<McpConnection> {
  const byCatalog = connections.get(generated) ?? new Map<Catalog, Promise<McpConnection>>();
  connections.set(generated, byCatalog);
  if (!byCatalog.has(catalog)) byCatalog.set(catalog, connectMcp(generated, catalog));
  return byCatalog.get(catalog)!;
}

/** The sandbox both code surfaces run their programs in (so that they differ in API and protocol only). */
let sandbox: PooledCodeRunner | undefined;
const programs = (): PooledCodeRunner => (sandbox ??= createCodeRunner());

/** Closes the shared MCP connections and the code surfaces' sandbox. */
export async function closeSurfaces(): Promise<void> {
  const all = [...connections.values()].flatMap((byCatalog) => [...byCatalog.values()]);
  connections.clear();
  const code = [...codeConnections.values()].flatMap((byCatalog) => [...byCatalog.values()]);
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

async function mcpSurface(
  generated: GeneratedModule,
  catalog: Catalog,
  search: boolean,
): Promise<Surface> {
  const connection = search
    ? await connectMcp(generated, catalog, true)
    : await mcpConnection(generated, catalog);
  const { runtime, client, tools } = connection;
  const listed = new Set(connection.aliases);
  let next = 1;
  return {
    protocol: search ? "mcp-search" : "mcp",
    catalog,
    instructions: "",
    tools,
    listed,
    async turn(calls) {
      checkListed(calls, listed);
      const first = next;
      next += calls.length;
      const assistant = fcAssistant(calls, runtime, first);
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
        // A search answers MCP definitions; the host hands the model the found tools as the
        // functions it would list them as (title, annotations and _meta are not sent).
        const content =
          calls[i]!.alias === FIND_ALIAS && value !== null
            ? JSON.stringify(
                (value as { tools: Parameters<typeof mcpFunction>[0][] }).tools.map(mcpFunction),
              )
            : text;
        results.push({ role: "tool", tool_call_id: callId(first + i), content });
        if (value === null) errors.push(text);
        values.push(value);
      });
      if (search) for (const alias of (await connection.list()).aliases) listed.add(alias);
      return { assistant, results, values, errors };
    },
    close: async () => {
      if (search) await connection.close();
    },
  };
}

/**
 * `mcp-code`, the anchor: Cloudflare's Code Mode over a plain MCP server, with
 * `@cloudflare/codemode`'s own `codeMcpServer`: it lists the server's tools, writes their
 * TypeScript API from their MCP `inputSchema`s into the description of its one `code` tool,
 * and answers a program's return value as its text. Its executor is our sandbox (a Cloudflare
 * Worker loader does not exist on Node): the same QuickJS runner as `zcp-code`, with the
 * `codemode` object bound to the server's tools, called through its MCP client.
 */
/** A Code Mode server over a plain MCP server of `generated`, and a client connected to it. */
async function connectMcpCode(
  generated: GeneratedModule,
  catalog: Catalog,
): Promise<{
  readonly client: Client;
  readonly listed: readonly Tool[];
  readonly close: () => Promise<void>;
}> {
  const runtime = createRuntime(generated, {
    exposure: { defaults: { mcp: { excludeGroups: [...CATALOG_EXCLUDES[catalog]] } } },
    inlineMaxBytes: Number.POSITIVE_INFINITY,
  });
  // codeMcpServer reads one page of tools/list: the server lists all of them on one.
  const upstream = createMcpServer(runtime, { pageSize: generated.registry.tools.length + 3 });
  const executor = {
    async execute(code: string, providers: unknown) {
      const fns = Object.assign(
        {},
        ...(
          providers as { name: string; fns: Record<string, (args: unknown) => Promise<unknown>> }[]
        )
          .filter((provider) => provider.name === "codemode")
          .map((provider) => provider.fns),
      ) as Record<string, (args: unknown) => Promise<unknown>>;
      const host: ProgramHost = {
        sessionId: "mcp-code",
        aliases: Object.keys(fns),
        signal: new AbortController().signal,
        call: async (name, args) => {
          try {
            return { ok: true, value: (await fns[name]!(args)) as JsonValue };
          } catch (error) {
            return { ok: false, error: "exec:error", hint: (error as Error).message };
          }
        },
      };
      const answer = await programs()(`const codemode = tools;\nreturn await (${code})();`, host);
      if (!answer.ok) return { result: undefined, error: encodeResult(answer) };
      const { value, logs } = (answer as unknown as { value: { value: unknown; logs?: string[] } })
        .value;
      return { result: value, ...(logs ? { logs } : {}) };
    },
  };
  // codeMcpServer connects the server it wraps to an in-memory transport, which our SDK
  // `Server` does as an `McpServer` would.
  const server = await codeMcpServer({
    server: upstream.server as unknown as McpServer,
    executor,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "bench-tokens", version: "0.1.0" });
  await client.connect(clientSide);
  const { tools: listed } = await client.listTools();
  return {
    client,
    listed,
    close: async () => {
      await client.close();
      await upstream.close();
    },
  };
}

/** One Code Mode server per registry and catalog, shared by every run, as the plain MCP one (its tools keep no state). */
const codeConnections = new Map<GeneratedModule, Map<Catalog, ReturnType<typeof connectMcpCode>>>();

async function mcpCodeSurface(generated: GeneratedModule, catalog: Catalog): Promise<Surface> {
  const byCatalog =
    codeConnections.get(generated) ?? new Map<Catalog, ReturnType<typeof connectMcpCode>>();
  codeConnections.set(generated, byCatalog);
  if (!byCatalog.has(catalog)) byCatalog.set(catalog, connectMcpCode(generated, catalog));
  const { client, listed } = await byCatalog.get(catalog)!;
  const tools = listed.map(mcpFunction);
  const listedNames = new Set(listed.map((tool) => tool.name));
  let next = 1;
  return {
    protocol: "mcp-code",
    catalog,
    instructions: "",
    tools,
    listed: listedNames,
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
      return {
        assistant,
        results: texts.map((text, i) => ({
          role: "tool",
          tool_call_id: callId(first + i),
          content: text,
        })),
        values: answers.map((answer, i) =>
          answer.isError === true ? null : (JSON.parse(texts[i]!) as JsonValue),
        ),
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
  protocol: Exclude<AnyProtocol, "mcp" | "mcp-search" | CodeProtocol>,
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
      return mcpSurface(generated, spec.catalog, spec.protocol === "mcp-search");
    case "mcp-code":
      return mcpCodeSurface(generated, spec.catalog);
    case "zcp-code":
      return zcpCodeSurface(generated, spec.catalog, spec.discover === true);
    default:
      return zcpSurface(spec.protocol, generated, spec.catalog);
  }
}

/**
 * The MCP surface: one runtime session behind one MCP session, served by the official SDK's
 * low-level `Server` (v1). Nothing is compiled here: `tools/list` hands out the precompiled MCP
 * entries of the session's exposed view, `tools/call` runs the runtime's call pipeline and
 * shapes its `CallResult` as a `CallToolResult`, and handles are readable as resources.
 *
 * - value   → text: the value's compact JSON; `structuredContent`: the value when it is a plain object
 * - handle  → text: `encodeResult(result)` (id, summary, meta) + a `resource_link` to `zcp://handle/<session>/<%23T1>`
 * - error   → `isError: true`, text: `encodeResult(result)` (`{"ok":false,"error":"invalid:$.city","hint":"…"}`)
 * - unknown tool → JSON-RPC error -32602 (a protocol error in MCP's terms, not a tool result)
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  type CallToolResult,
  type ContentBlock,
  type ListResourcesResult,
  type ListToolsResult,
  type LoggingLevel,
  type ReadResourceResult,
  type Resource,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { encodeResult, type CallResult, type Runtime, type Session } from "@zcp/runtime";

/** MCP's code for a resource that does not exist (spec: resources, error handling). */
export const RESOURCE_NOT_FOUND = -32002;

/** The scheme and authority of handle URIs: `zcp://handle/<runtime session id>/<url-encoded handle id>`. */
export const HANDLE_URI_PREFIX = "zcp://handle/";

/** The URI template of handle resources, as `resources/templates/list` lists it. */
export const HANDLE_URI_TEMPLATE = `${HANDLE_URI_PREFIX}{session}/{handle}`;

const DEFAULT_PAGE_SIZE = 100;

export interface McpServerOptions {
  /** `serverInfo.name` (default `zcp`). */
  readonly name?: string;
  /** `serverInfo.version` (default `0.1.0`). */
  readonly version?: string;
  /** Sent to the host in the `initialize` result. */
  readonly instructions?: string;
  /** Items per page of `tools/list` and `resources/list` (default 100). */
  readonly pageSize?: number;
  /** The exposure-policy surface of the runtime session (default `mcp`). */
  readonly surface?: string;
  /** The session's initial stage. */
  readonly stage?: string;
  /** Called with each new runtime session, before the client can use it (e.g. to set its stage). */
  readonly onSession?: (session: Session) => void;
}

/** An MCP server bound to its runtime session. */
export interface ZcpMcpServer {
  /** The SDK server: `connect` it to a transport. */
  readonly server: Server;
  /** The runtime session every request of this MCP session runs in. */
  readonly session: Session;
  /** Closes the server (and its transport) and the runtime session, dropping its handles. */
  close(): Promise<void>;
  /** `tools/call` requests running now. */
  readonly running: number;
  /** Resolves once no `tools/call` runs (at once when none does); for a graceful shutdown. */
  idle(): Promise<void>;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The SDK server only validates elicitation answers with its JSON Schema validator, and builds
 * an Ajv instance per server when given none (about 0.25 ms and 30 KB per MCP session). This
 * surface never elicits, so it gets a validator that refuses to be used.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error("zcp: this server does not elicit, so it validates no elicitation answers");
  },
};

/** The URI of a handle of a session. */
export function handleUri(sessionId: string, handle: string): string {
  return `${HANDLE_URI_PREFIX}${encodeURIComponent(sessionId)}/${encodeURIComponent(handle)}`;
}

/** `{ sessionId, handle }` of a handle URI, or undefined when the text is not one. */
export function parseHandleUri(uri: string): { readonly sessionId: string; readonly handle: string } | undefined {
  if (!uri.startsWith(HANDLE_URI_PREFIX)) return undefined;
  const parts = uri.slice(HANDLE_URI_PREFIX.length).split("/");
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  try {
    return { sessionId: decodeURIComponent(parts[0]), handle: decodeURIComponent(parts[1]) };
  } catch {
    return undefined;
  }
}

/**
 * A new runtime session (surface `mcp`) and an SDK `Server` serving it. Connect `server` to one
 * transport; when the transport closes, the runtime session closes too.
 */
export function createMcpServer(runtime: Runtime, options: McpServerOptions = {}): ZcpMcpServer {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`createMcpServer: pageSize must be a positive integer, got ${String(pageSize)}`);
  const session = runtime.session({ surface: options.surface ?? "mcp", ...(options.stage !== undefined ? { stage: options.stage } : {}) });
  const server = new Server(
    { name: options.name ?? "zcp", version: options.version ?? "0.1.0" },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, logging: {} },
      jsonSchemaValidator: NO_ELICITATION,
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    },
  );
  const handles = new IssuedHandles();
  // Log lines of a call go out on that call's stream, at or above the level the client set.
  let logLevel: LoggingLevel = "debug";
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    logLevel = request.params.level;
    return {};
  });

  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const view = session.exposed;
    const entries = view.artifacts("mcp");
    const offset = readCursor(request.params?.cursor, `t${view.hash}`, entries.length);
    const end = offset + pageSize;
    // The precompiled entries are MCP tools as they are (`zcp gen` leaves handle tools without an outputSchema).
    const result: ListToolsResult = { tools: entries.slice(offset, end) as Tool[] };
    if (end < entries.length) result.nextCursor = writeCursor(`t${view.hash}`, end);
    return result;
  });

  let running = 0;
  const idle: (() => void)[] = [];
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    let result: CallResult;
    running++;
    try {
      result = await session.call(name, args ?? {}, callOptions(name, extra, () => logLevel));
    } finally {
      if (--running === 0) for (const resolve of idle.splice(0)) resolve();
    }
    if (!result.ok && result.error === `unknown:${name}`) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return toCallToolResult(result, session.id, handles);
  });

  server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    const after = readCursor(request.params?.cursor, "r", Number.MAX_SAFE_INTEGER);
    const page = handles.after(after, pageSize + 1);
    const result: ListResourcesResult = { resources: page.slice(0, pageSize).map((entry) => entry.resource) };
    if (page.length > pageSize) result.nextCursor = writeCursor("r", page[pageSize - 1]!.seq);
    return result;
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: HANDLE_URI_TEMPLATE,
        name: "zcp-handle",
        title: "ZCP handle",
        description: "A result a tool kept in the runtime (a handle such as #T1), as JSON. Only this session's handles can be read.",
        mimeType: "application/json",
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    const parsed = parseHandleUri(uri);
    // Another session's URI gets the same answer as one that never existed: nothing leaks.
    if (!parsed || parsed.sessionId !== session.id) throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
    const read = await runtime.handles.read(session.id, parsed.handle);
    if (!read.ok) {
      if (read.error.startsWith("expired:")) handles.forget(parsed.handle);
      throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${read.hint}`, { uri });
    }
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(read.value) ?? "null" }] };
  });

  const unsubscribe = session.onChange(() => {
    // Only a connected server can notify; a change before `initialize` is seen by the first list.
    if (server.transport) server.sendToolListChanged().catch(() => undefined);
  });

  // Released handles leave resources/list, however they were released.
  const stopForgetting = runtime.handles.onRelease((sessionId, id) => {
    if (sessionId === session.id) handles.forget(id);
  });
  let closed = false;
  const closeSession = async () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    stopForgetting();
    await session.close();
  };
  server.onclose = () => void closeSession();
  options.onSession?.(session);
  return {
    server,
    session,
    async close() {
      await server.close();
      await closeSession();
    },
    get running() {
      return running;
    },
    idle() {
      return running === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}

/** The result as MCP shows it; a handle is also remembered for `resources/list`. */
function toCallToolResult(result: CallResult, sessionId: string, handles: IssuedHandles): CallToolResult {
  if (!result.ok) return { content: [{ type: "text", text: encodeResult(result) }], isError: true };
  if ("handle" in result) {
    const resource: Resource = {
      uri: handleUri(sessionId, result.handle),
      name: result.handle,
      description: result.summary,
      mimeType: "application/json",
      size: result.meta.size,
    };
    handles.add(result.handle, resource);
    const content: ContentBlock[] = [
      { type: "text", text: encodeResult(result) },
      { type: "resource_link", ...resource },
    ];
    return { content };
  }
  const out: CallToolResult = { content: [{ type: "text", text: JSON.stringify(result.value) ?? "null" }] };
  if (isRecord(result.value)) out.structuredContent = result.value;
  return out;
}

/** Cancellation, progress and log lines of a call, wired to the MCP request. */
function callOptions(name: string, extra: Extra, level: () => LoggingLevel) {
  const token = extra._meta?.progressToken;
  return {
    signal: extra.signal,
    onProgress:
      token === undefined
        ? undefined
        : (progress: number, total: number | undefined, message: string | undefined) => {
            const params = { progressToken: token, progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) };
            extra.sendNotification({ method: "notifications/progress", params }).catch(() => undefined);
          },
    onLog: (lineLevel: "debug" | "info" | "warning" | "error", message: string) => {
      if (LOG_LEVELS.indexOf(lineLevel) < LOG_LEVELS.indexOf(level())) return;
      extra.sendNotification({ method: "notifications/message", params: { level: lineLevel, logger: name, data: message } }).catch(() => undefined);
    },
  };
}

/** MCP's (syslog's) levels, least severe first. */
const LOG_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/**
 * The handles this session was given, in the order it got them, for `resources/list`. Listing
 * them does not read the store (a read is a use and would keep them alive), so a handle that
 * expired or was evicted since may still be listed; reading it answers "not found".
 */
class IssuedHandles {
  private readonly byId = new Map<string, { readonly seq: number; readonly resource: Resource }>();
  private seq = 0;

  add(id: string, resource: Resource): void {
    this.byId.delete(id);
    this.byId.set(id, { seq: ++this.seq, resource });
  }

  forget(id: string): void {
    this.byId.delete(id);
  }

  /** Up to `count` entries issued after sequence number `after`. */
  after(after: number, count: number): { readonly seq: number; readonly resource: Resource }[] {
    const out: { readonly seq: number; readonly resource: Resource }[] = [];
    for (const entry of this.byId.values()) {
      if (entry.seq <= after) continue;
      out.push(entry);
      if (out.length === count) break;
    }
    return out;
  }
}

/**
 * Cursors are opaque to clients: base64url of `<scope>:<position>`. A tools cursor's scope holds
 * the view's hash, so a cursor from before a stage change is refused (list again from the start).
 */
function writeCursor(scope: string, position: number): string {
  return Buffer.from(`${scope}:${position}`, "utf8").toString("base64url");
}

function readCursor(cursor: string | undefined, scope: string, limit: number): number {
  if (cursor === undefined) return 0;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const match = /^(.*):([1-9][0-9]{0,14})$/.exec(text);
  if (!match || match[1] !== scope || Number(match[2]) >= limit || writeCursor(scope, Number(match[2])) !== cursor) {
    throw new ProtocolError(ErrorCode.InvalidParams, "Invalid cursor: it was not issued by this listing, or the listing changed since; list again without a cursor");
  }
  return Number(match[2]);
}

/**
 * A JSON-RPC error answer. The SDK sends any thrown error's `code`, `message` and `data`; its own
 * `McpError` would prefix the message with "MCP error <code>: ", which clients add again.
 */
export class ProtocolError extends Error {
  override name = "ProtocolError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

function isRecord(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

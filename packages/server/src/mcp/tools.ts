/**
 * Tools over MCP: `tools/list` hands out the MCP entries of the session's exposed view (which
 * the runtime derives from the registry once; paginated), `tools/call` runs the runtime's call pipeline and shapes its `CallResult` as a
 * `CallToolResult`, `logging/setLevel` sets the level of the calls' log lines.
 *
 * - value   → text: the value's compact JSON; `structuredContent`: the value when it is a plain object
 * - handle  → text: `encodeResult(result)` (id, summary, meta) + a `resource_link` to `zcp://handle/%23T1`
 * - error   → `isError: true`, text: `encodeResult(result)` (`{"ok":false,"error":"invalid:$.city","hint":"…"}`)
 * - unknown tool → JSON-RPC error -32602 (a protocol error in MCP's terms, not a tool result)
 *
 * `tools/call` is the server's fallback request handler rather than a handler registered with the
 * SDK's `CallToolRequestSchema`: the SDK parses a registered handler's request with that schema
 * and answers a mismatch (`arguments` that is an array, a string, null…) with -32603 and the
 * validator's text. Here the params are checked by hand and answered -32602 in plain words;
 * the arguments go to the runtime as they came (its depth check runs before any recursion).
 *
 * With a session store, the session's state (found tools, stage) is saved before a call's
 * answer goes out, so that no answer is acknowledged that another replica does not see; when
 * the store cannot save it, the call answers `unavailable:store` (the client tries again).
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  ErrorCode,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
  type CallToolResult,
  type ContentBlock,
  type JSONRPCRequest,
  type ListToolsResult,
  type LoggingLevel,
  type Resource,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { clip, encodeResult, failure, type CallResult, type Session } from "@zcp/runtime";
import { ProtocolError } from "./errors.js";
import { readCursor, writeCursor } from "./paging.js";
import { reserveFor } from "../budget.js";
import { handleUri, type IssuedHandles } from "./resources.js";

/** The `tools/call` requests of a session that are running. */
export interface RunningCalls {
  readonly running: number;
  /** Resolves once no call runs (at once when none does). */
  idle(): Promise<void>;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** MCP's (syslog's) levels, least severe first. */
const LOG_LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** Registers `logging/setLevel`, `tools/list` and `tools/call` for the session. */
export function serveTools(
  server: Server,
  session: Session,
  handles: IssuedHandles,
  pageSize: number,
): RunningCalls {
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
    // The derived entries are MCP tools as they are (the rules leave handle tools without an outputSchema).
    const result: ListToolsResult = { tools: entries.slice(offset, end) as Tool[] };
    if (end < entries.length) result.nextCursor = writeCursor(`t${view.hash}`, end);
    return result;
  });

  let running = 0;
  const idle: (() => void)[] = [];
  const callTool = async (request: JSONRPCRequest, extra: Extra): Promise<CallToolResult> => {
    const { name, args } = callParams(request.params);
    let result: CallResult;
    // `zcp.handle` reserves what it reads from this request's response budget (budget.ts).
    const reserve = reserveFor(server.transport, extra.requestId);
    running++;
    try {
      result = await session.call(name, args, {
        ...callOptions(name, extra, () => logLevel),
        ...(reserve ? { reserve } : {}),
      });
    } finally {
      if (--running === 0) for (const resolve of idle.splice(0)) resolve();
    }
    if (!result.ok && result.error === `unknown:${clip(name)}`)
      throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${clip(name)}`);
    try {
      await session.save();
    } catch {
      result = failure("unavailable:store", "the shared store is unreachable; try again shortly");
    }
    return toCallToolResult(result, handles);
  };
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method === "tools/call") return callTool(request, extra);
    // What the SDK answers when no handler is found.
    throw new ProtocolError(ErrorCode.MethodNotFound, "Method not found");
  };

  return {
    get running() {
      return running;
    },
    idle() {
      return running === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}

/** A `tools/call`'s name and arguments, or the -32602 answer its params get. */
function callParams(params: JSONRPCRequest["params"]): {
  readonly name: string;
  readonly args: { readonly [name: string]: unknown };
} {
  const name: unknown = params?.["name"];
  if (typeof name !== "string")
    throw new ProtocolError(ErrorCode.InvalidParams, "Invalid params: name must be a string");
  const args: unknown = params?.["arguments"];
  if (args === undefined) return { name, args: {} };
  if (!isRecord(args))
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      "Invalid params: arguments must be an object of named parameters",
    );
  return { name, args };
}

/** The result as MCP shows it; a handle is also remembered for `resources/list`. */
function toCallToolResult(result: CallResult, handles: IssuedHandles): CallToolResult {
  if (!result.ok) return { content: [{ type: "text", text: encodeResult(result) }], isError: true };
  if ("handle" in result) {
    const resource: Resource = {
      uri: handleUri(result.handle),
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
  const out: CallToolResult = {
    content: [{ type: "text", text: JSON.stringify(result.value) ?? "null" }],
  };
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
            const params = {
              progressToken: token,
              progress,
              ...(total !== undefined ? { total } : {}),
              ...(message !== undefined ? { message } : {}),
            };
            extra
              .sendNotification({ method: "notifications/progress", params })
              .catch(() => undefined);
          },
    onLog: (lineLevel: "debug" | "info" | "warning" | "error", message: string) => {
      if (LOG_LEVELS.indexOf(lineLevel) < LOG_LEVELS.indexOf(level())) return;
      extra
        .sendNotification({
          method: "notifications/message",
          params: { level: lineLevel, logger: name, data: message },
        })
        .catch(() => undefined);
    },
  };
}

function isRecord(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

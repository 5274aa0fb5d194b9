/**
 * The MCP surface: one runtime session behind one MCP session, served by the official SDK's
 * low-level `Server` (v1). Nothing is compiled here: `tools/list` hands out the MCP entries of
 * the session's exposed view (the runtime's, derived once from the registry), `tools/call` runs the runtime's call pipeline
 * (tools.ts), and handles are readable as resources (resources.ts). This module wires them to
 * one SDK `Server` and ties its life to the runtime session's.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { Runtime, Session } from "@zcp/runtime";
import type { ResponseLimits } from "../budget.js";
import { invalidParams } from "./errors.js";
import { IssuedHandles, serveHandleResources } from "./resources.js";
import { serveTools } from "./tools.js";

const DEFAULT_PAGE_SIZE = 100;

/** The MCP surface's options; its transports count answers within the `ResponseLimits` (budget.ts). */
export interface McpServerOptions extends ResponseLimits {
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

/** `createMcpServer`'s options: the server's, and the runtime session to serve when there is one. */
export interface CreateMcpServerOptions extends McpServerOptions {
  /**
   * An existing runtime session to serve (e.g. one `runtime.resume` gave back) instead of a new
   * one; `surface`, `stage` and `onSession` do not apply to it.
   */
  readonly session?: Session;
}

/** An MCP server bound to its runtime session. */
export interface ZcpMcpServer {
  /** The SDK server: `connect` it to a transport. */
  readonly server: Server;
  /** The runtime session every request of this MCP session runs in. */
  readonly session: Session;
  /**
   * Closes the server (and its transport) and the runtime session, dropping its handles; with
   * `keep`, the runtime session is only unloaded from this process (`Session.close`'s `keep`:
   * its handles and stored state stay for another replica).
   */
  close(options?: { readonly keep?: boolean }): Promise<void>;
  /** `tools/call` requests running now. */
  readonly running: number;
  /** Resolves once no `tools/call` runs (at once when none does); for a graceful shutdown. */
  idle(): Promise<void>;
}

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

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * The SDK's `Protocol.setRequestHandler` stores each handler behind
 * `parseWithCompat(schema, request)`, which throws the ZodError of a mismatch, and
 * `Protocol._onrequest` answers a thrown error without a numeric `code` as -32603 with its
 * message: zod's JSON dump of the issues. That holds for every method the SDK parses with a
 * schema, `initialize` (registered by the `Server` constructor) and `ping` (by `Protocol`'s)
 * included. So, once every handler is registered, each entry of the server's (private) handler
 * map is wrapped: a ZodError about the request's params becomes -32602 with a short message
 * (errors.ts). `tools/call` is the fallback handler (tools.ts), not in the map.
 */
function answerSchemaMismatches(server: Server): void {
  const handlers: unknown = (server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map))
    throw new Error("zcp: the SDK Server has no request handler map (_requestHandlers) to wrap");
  for (const [method, handler] of handlers as Map<string, RequestHandler>)
    handlers.set(method, async (request: unknown, extra: unknown) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        throw invalidParams(error) ?? error;
      }
    });
}

/**
 * A new runtime session (surface `mcp`), or `options.session`, and an SDK `Server` serving it.
 * Connect `server` to one transport; when the transport closes, the runtime session closes too.
 */
export function createMcpServer(
  runtime: Runtime,
  options: CreateMcpServerOptions = {},
): ZcpMcpServer {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(
      `createMcpServer: pageSize must be a positive integer, got ${String(pageSize)}`,
    );
  const session =
    options.session ??
    runtime.session({
      surface: options.surface ?? "mcp",
      ...(options.stage !== undefined ? { stage: options.stage } : {}),
    });
  const server = new Server(
    { name: options.name ?? "zcp", version: options.version ?? "0.1.0" },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, logging: {} },
      jsonSchemaValidator: NO_ELICITATION,
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    },
  );
  const handles = new IssuedHandles();
  const calls = serveTools(server, session, handles, pageSize);
  serveHandleResources(server, runtime, session, handles, pageSize);
  answerSchemaMismatches(server);

  const unsubscribe = session.onChange(() => {
    // Only a connected server can notify; a change before `initialize` is seen by the first list.
    if (server.transport) server.sendToolListChanged().catch(() => undefined);
  });

  // Released handles leave resources/list, however they were released.
  const stopForgetting = runtime.handles.onRelease((sessionId, id) => {
    if (sessionId === session.id) handles.forget(id);
  });
  // Set by close({ keep }) before the server closes: its onclose then unloads, not ends.
  let keep = false;
  // Once, and every caller waits for the same end (a DELETE is answered after it).
  let closing: Promise<void> | undefined;
  const closeSession = (): Promise<void> =>
    (closing ??= (async () => {
      unsubscribe();
      stopForgetting();
      await session.close(undefined, { keep });
    })());
  server.onclose = () => void closeSession();
  if (!options.session) options.onSession?.(session);
  return {
    server,
    session,
    async close(closeOptions = {}) {
      keep = closeOptions.keep ?? false;
      await server.close();
      await closeSession();
    },
    get running() {
      return calls.running;
    },
    idle: () => calls.idle(),
  };
}

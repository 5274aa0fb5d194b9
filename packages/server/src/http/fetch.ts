/**
 * Both HTTP surfaces as one web-standard handler, `fetch(request) → Response`: it runs wherever
 * `Request` and `Response` do (Node, Bun, Deno); http/node.ts adapts it to `node:http`.
 *
 *   /mcp     MCP over Streamable HTTP (http/mcp.ts)
 *   /zcp     the native ZCP surface, with `native` (native/http.ts)
 *   GET /healthz `{"status":"ok"}`; GET /readyz `{"status":"ready"}` (503 once closing)
 *
 * Every request to /mcp and /zcp is checked before anything else: Host, Origin and the bearer
 * token (http/guards.ts). The health endpoints hold no data and are not checked.
 */
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { Runtime } from "@zcp/runtime";
import type { McpServerOptions } from "../mcp/server.js";
import { createNativeFetchHandler, type NativeFetchOptions } from "../native/http.js";
import { json, jsonRpcError } from "./body.js";
import { createGuard } from "./guards.js";
import { DEFAULT_IDLE_MS, DEFAULT_MAX_SESSIONS } from "./idle.js";
import { McpSessions } from "./mcp.js";

export interface FetchHandlerOptions extends McpServerOptions {
  /** The MCP endpoint (default `/mcp`). */
  readonly path?: string;
  /**
   * Host header values accepted on the endpoint: a name (`localhost`, `[::1]`: any port) or a
   * name with a port (`example.com:8443`: that port only). Default: `localhost`, `127.0.0.1`,
   * `[::1]`; a server listening on another interface must list the names clients use.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Origin header values accepted (exact, e.g. `https://app.example.com`). A request without
   * Origin (not from a browser) is accepted. Default: origins whose host is a loopback name.
   */
  readonly allowedOrigins?: readonly string[];
  /** Largest request body in bytes (default 1 MiB); larger ones get 413. */
  readonly maxBodyBytes?: number;
  /** Open sessions at most (default 1,000); an `initialize` beyond gets 503. */
  readonly maxSessions?: number;
  /** A session with no request for this long is closed (default 30 minutes). */
  readonly idleTimeoutMs?: number;
  /** Unexpected errors (default: `console.error`, i.e. stderr). */
  readonly onError?: (error: unknown) => void;
  /**
   * A static bearer token: every /mcp request must carry `Authorization: Bearer <token>`, or gets
   * 401 with `WWW-Authenticate: Bearer`. Compared in constant time. Default: none (no check).
   */
  readonly token?: string;
  /** Serve the MCP surface on `path` (default true). */
  readonly mcp?: boolean;
  /**
   * Serve the native ZCP surface too, on `POST /zcp` (or `nativePath`), behind the same Host,
   * Origin and token checks. With a token, native sessions are bound to its holder.
   */
  readonly native?: boolean | NativeFetchOptions;
  readonly nativePath?: string;
}

export interface ZcpFetchHandler {
  /** Answers one request. Never rejects: an unexpected error is a 500 (and goes to `onError`). */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Open MCP sessions. */
  readonly sessionCount: number;
  /** Ends every session (MCP and native; running calls answer `cancelled`); `initialize` gets 503 from now on. */
  close(): Promise<void>;
  /**
   * A graceful `close`: refuses new sessions (503) at once, lets the POST requests in progress
   * (running calls) finish for up to `graceMs`, then does what `close` does.
   */
  shutdown(graceMs: number): Promise<void>;
}

const DEFAULT_PATH = "/mcp";
const DEFAULT_MAX_BODY = 1024 * 1024;

/** The web-standard handler of both surfaces over HTTP: `fetch(request) → Response`. */
export function createFetchHandler(
  runtime: Runtime,
  options: FetchHandlerOptions = {},
): ZcpFetchHandler {
  const path = options.path ?? DEFAULT_PATH;
  const onError = options.onError ?? ((error: unknown) => console.error("zcp server:", error));
  const guard = createGuard(options);
  const mcp = new McpSessions(runtime, options, {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY,
    maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_MS,
    onError,
  });
  const nativeOptions = options.native === true ? {} : options.native || undefined;
  const native = nativeOptions
    ? createNativeFetchHandler(runtime, {
        ...(options.name !== undefined ? { name: options.name } : {}),
        onError,
        ...nativeOptions,
        // The token was checked: its holder is the one identity sessions are bound to.
        ...(options.token !== undefined ? { identity: () => "token" } : {}),
      })
    : undefined;
  const nativePath = options.nativePath ?? "/zcp";

  const route = (request: Request): Response | Promise<Response> => {
    const pathname = pathOf(request.url);
    if (options.mcp !== false && pathname === path) return guard(request) ?? mcp.handle(request);
    if (native && pathname === nativePath) return guard(request) ?? native.fetch(request);
    const read = request.method === "GET" || request.method === "HEAD";
    if (pathname === "/healthz" && read) return json(200, { status: "ok" });
    if (pathname === "/readyz" && read)
      return mcp.closing ? json(503, { status: "closing" }) : json(200, { status: "ready" });
    return json(404, { error: "not found" });
  };

  const endSessions = async (): Promise<void> => {
    await Promise.allSettled([mcp.close(), native?.close()]);
  };

  return {
    fetch: async (request) => {
      try {
        return await route(request);
      } catch (error) {
        onError(error);
        return json(500, jsonRpcError(ErrorCode.InternalError, "Internal error"));
      }
    },
    get sessionCount() {
      return mcp.size;
    },
    async close() {
      mcp.stop();
      await endSessions();
    },
    async shutdown(graceMs) {
      mcp.stop();
      await mcp.drained(graceMs);
      await endSessions();
    },
  };
}

/**
 * The path of a serialized absolute URL (a `Request`'s `url`, which is one): what
 * `new URL(url).pathname` answers, without parsing the URL again.
 */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  const fragment = url.indexOf("#", start);
  const end = Math.min(query === -1 ? url.length : query, fragment === -1 ? url.length : fragment);
  return url.slice(start, end);
}

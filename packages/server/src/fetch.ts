/**
 * Both HTTP surfaces as one web-standard handler, `fetch(request) → Response`: it runs wherever
 * `Request` and `Response` do (Node, Bun, Deno); node/server.ts adapts it to `node:http` (`@zcp/server/node`).
 *
 *   /mcp     MCP over Streamable HTTP, both eras (mcp/http.ts)
 *   /zcp     the native ZCP surface, with `native` (native/http.ts)
 *   GET /healthz `{"status":"ok"}`; GET /readyz `{"status":"ready"}` (503 once closing, and,
 *            with a session store, while the store does not answer within 500 ms: a replica
 *            that cannot reach it serves no session)
 *
 * Every request to /mcp and /zcp is checked before anything else: Host, Origin and the bearer
 * token (http/guards.ts). The health endpoints hold no data and are not checked.
 *
 * The POSTs in progress on both surfaces are counted (drain.ts) for `shutdown`: it refuses new
 * sessions, waits for them up to the grace, ends the runtime sessions (running calls answer
 * `cancelled`), waits for those answers to be out, and only then closes the MCP sessions' streams.
 */
import { ProtocolErrorCode as ErrorCode } from "@modelcontextprotocol/server";
import type { CallerIdentity, Runtime } from "@zcp/runtime";
import { responseLimitsOf } from "./budget.js";
import { DEFAULT_MAX_BATCH, DEFAULT_MAX_MESSAGE_BYTES } from "./limits.js";
import type { McpServerOptions } from "./mcp/server.js";
import type { McpCaller, McpView } from "./mcp/stateless.js";
import { createNativeFetchHandler, type NativeFetchOptions } from "./native/http.js";
import { json, jsonRpcError, whenEnded } from "./http/body.js";
import { createGuard } from "./http/guards.js";
import { FLUSH_MS, InFlight, SHUTTING_DOWN } from "./http/drain.js";
import {
  DEFAULT_IDLE_MS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_CLIENT,
} from "./http/idle.js";
import { McpSessions } from "./mcp/http.js";
import { storeAnswers } from "./mcp/session-store.js";

export interface FetchHandlerOptions extends McpServerOptions {
  /** The MCP endpoint (default `/mcp`), serving the view of `surface` and `stage`. */
  readonly path?: string;
  /**
   * More views, each on an endpoint of its own: `<path>/<name>` (e.g. `/mcp/review`) serves
   * `surface` (an exposure-policy surface: its default selection) in `stage`. A 2025 session
   * stays on the endpoint it was opened on; a 2026-07-28 listing is the same for every request
   * to one endpoint (and authorization). Names: letters, digits, `-`, `_`.
   */
  readonly views?: { readonly [name: string]: McpView };
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
  /** Messages in one MCP batch at most (default 50, as on `/zcp`); a larger batch gets 400 -32600. */
  readonly maxBatch?: number;
  /**
   * Open MCP sessions at most (default 1,000). An `initialize` beyond closes the least recently
   * active session without a POST in progress (its next request gets 404: its client starts
   * over); it gets 503 only when every session has one.
   */
  readonly maxSessions?: number;
  /**
   * Open MCP sessions of one client at most (default 100), likewise: the client's own least
   * recently active idle session makes room. The client is the bearer identity (with `token`:
   * one for every holder), else `clientKey(request)`.
   */
  readonly maxSessionsPerClient?: number;
  /**
   * Who sends the request, for `maxSessionsPerClient` without a token (both surfaces). Default:
   * one client for everyone; `createHttpServer` gives the remote address.
   */
  readonly clientKey?: (request: Request) => string;
  /** A session with no request for this long is closed (default 30 minutes). */
  readonly idleTimeoutMs?: number;
  /** Unexpected errors (default: `console.error`, i.e. stderr). */
  readonly onError?: (error: unknown) => void;
  /**
   * A static bearer token: every /mcp request must carry `Authorization: Bearer <token>`, or gets
   * 401 with `WWW-Authenticate: Bearer`. Compared in constant time. Default: none (no check).
   */
  readonly token?: string;
  /**
   * Who a 2026-07-28 MCP request comes from, as the server verified it (an identity the
   * embedding server's own authentication established; the request passed the Host, Origin and
   * token checks before): its handles are bound to it, and it is the `authorization` of
   * `McpCaller`; native sessions are bound to it too (a request it finds no identity in is
   * anonymous). Default: the token's holder when `token` is set, else nobody: an anonymous
   * caller's handles are owned by its client (`clientKey`, the remote address over `node:http`),
   * with unguessable ids.
   */
  readonly identify?: (request: Request) => string | undefined;
  /**
   * Who a request's calls come from, as the tools read it (`ctx.caller`: a subject and scopes),
   * from the authorization the embedding server verified (both MCP eras and the native surface;
   * a 2025 MCP session takes the request that opened it). Default: with `identify`, its answer
   * as the subject and no scopes; else anonymous. The static `token` names nobody: it gives no
   * subject.
   */
  readonly callerIdentity?: (request: Request) => CallerIdentity | undefined;
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
  /**
   * Ends every session (MCP and native; running calls answer `cancelled`, and those answers are
   * sent); `initialize` gets 503 from now on. `shutdown(0)`.
   */
  close(): Promise<void>;
  /**
   * A graceful `close`: refuses new sessions (503, `/readyz` too) at once, lets the POST requests
   * in progress on both surfaces finish for up to `graceMs`, then does what `close` does.
   */
  shutdown(graceMs: number): Promise<void>;
}

const DEFAULT_PATH = "/mcp";
/** The caller `identify` names (its subject, no scopes), as the tools read it; without it, none. */
function identifiedCaller(
  identify: FetchHandlerOptions["identify"],
): ((request: Request) => CallerIdentity | undefined) | undefined {
  if (!identify) return undefined;
  return (request) => {
    const subject = identify(request);
    return subject === undefined ? undefined : { subject, scopes: [] };
  };
}

/** The native identity of a request `identify` finds no identity in. */
const ANONYMOUS = "\u0000anonymous";

/** The web-standard handler of both surfaces over HTTP: `fetch(request) → Response`. */
export function createFetchHandler(
  runtime: Runtime,
  options: FetchHandlerOptions = {},
): ZcpFetchHandler {
  const path = options.path ?? DEFAULT_PATH;
  const views = viewsOf(path, options);
  // The token was checked: its holder is the caller whose handles are kept apart.
  const identify =
    options.identify ?? (options.token !== undefined ? () => options.token : () => undefined);
  // Where a request comes from: its own slots and budget on the 2026-07-28 era.
  const addressOf = options.clientKey ?? (() => "");
  const callerIdentity = options.callerIdentity ?? identifiedCaller(options.identify);
  const callerOf = (request: Request): McpCaller => {
    const authorization = identify(request);
    const client = addressOf(request);
    const identity = callerIdentity?.(request);
    return {
      client,
      ...(authorization !== undefined ? { authorization } : {}),
      ...(identity !== undefined ? { identity } : {}),
    };
  };
  const onError = options.onError ?? ((error: unknown) => console.error("zcp server:", error));
  const guard = createGuard(options);
  // Both surfaces count their answers within the same limits (budget.ts).
  const responseLimits = responseLimitsOf(options);
  // The token was checked: its holder is the one identity sessions are bound to.
  const clientKey = options.token !== undefined ? () => "token" : (options.clientKey ?? (() => ""));
  const mcp = new McpSessions(
    runtime,
    { ...options, privateLists: options.token !== undefined || options.identify !== undefined },
    {
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      maxBatch: options.maxBatch ?? DEFAULT_MAX_BATCH,
      maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
      maxSessionsPerClient: options.maxSessionsPerClient ?? DEFAULT_MAX_SESSIONS_PER_CLIENT,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_MS,
      onError,
      clientKey,
      ...(callerIdentity ? { callerIdentity } : {}),
      ...responseLimits,
    },
  );
  const nativeOptions = options.native === true ? {} : options.native || undefined;
  const native = nativeOptions
    ? createNativeFetchHandler(runtime, {
        ...(options.name !== undefined ? { name: options.name } : {}),
        onError,
        clientKey,
        ...responseLimits,
        ...nativeOptions,
        ...(callerIdentity ? { callerIdentity } : {}),
        // Native sessions are bound to the same identity as MCP callers' handles.
        ...(options.identify !== undefined
          ? { identity: (request: Request) => options.identify!(request) ?? ANONYMOUS }
          : options.token !== undefined
            ? { identity: () => "token" }
            : {}),
      })
    : undefined;
  const nativePath = options.nativePath ?? "/zcp";
  const posts = new InFlight();
  let closing = false;
  const store = runtime.options.sessions;
  const ready = async (): Promise<Response> =>
    store && !(await storeAnswers(store))
      ? json(503, { status: "not ready", reason: "the session store is unreachable" })
      : json(200, { status: "ready" });

  /** The answer of a POST, counted in progress until its body has ended. */
  const counted = async (answer: () => Promise<Response>): Promise<Response> => {
    const ended = posts.begin();
    try {
      return whenEnded(await answer(), ended);
    } catch (error) {
      ended();
      throw error;
    }
  };
  const route = (request: Request): Response | Promise<Response> => {
    const pathname = pathOf(request.url);
    const post = request.method === "POST";
    const view = options.mcp !== false ? views.get(pathname) : undefined;
    if (view) {
      const refused = guard(request);
      if (refused) return refused;
      return post
        ? counted(() => mcp.handle(request, view, callerOf(request)))
        : mcp.handle(request, view, callerOf(request));
    }
    if (native && pathname === nativePath)
      return guard(request) ?? counted(() => native.fetch(request));
    const read = request.method === "GET" || request.method === "HEAD";
    if (pathname === "/healthz" && read) return json(200, { status: "ok" });
    if (pathname === "/readyz" && read) return closing ? json(503, { status: "closing" }) : ready();
    return json(404, { error: "not found" });
  };

  let stopped: Promise<void> | undefined;
  const stop = async (graceMs: number): Promise<void> => {
    closing = true;
    mcp.stop();
    native?.stop();
    await posts.drained(graceMs);
    // Running calls answer `cancelled` (native sessions end with their runtime sessions) ...
    await Promise.allSettled([mcp.endCalls(SHUTTING_DOWN), native?.close(SHUTTING_DOWN)]);
    // ... and those answers go out on their streams before the streams close.
    await posts.drained(FLUSH_MS);
    await mcp.close();
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
    close() {
      return (stopped ??= stop(0));
    },
    shutdown(graceMs) {
      return (stopped ??= stop(graceMs));
    },
  };
}

const VIEW_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The MCP endpoints by path: `path` for the default view, `<path>/<name>` for each named one. */
function viewsOf(path: string, options: FetchHandlerOptions): Map<string, McpView> {
  const views = new Map<string, McpView>([
    [
      path,
      {
        surface: options.surface ?? "mcp",
        ...(options.stage !== undefined ? { stage: options.stage } : {}),
      },
    ],
  ]);
  for (const [name, view] of Object.entries(options.views ?? {})) {
    if (!VIEW_NAME.test(name))
      throw new RangeError(
        `createFetchHandler: view name "${name.slice(0, 64)}" must be 1 to 64 letters, digits, - or _`,
      );
    views.set(`${path.replace(/\/$/, "")}/${name}`, view);
  }
  return views;
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

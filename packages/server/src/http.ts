/**
 * MCP over Streamable HTTP on `node:http`: one SDK transport, one SDK server and one runtime
 * session per MCP session (`mcp-session-id`, a random UUID from `crypto`).
 *
 *   POST   /mcp     JSON-RPC; an `initialize` without a session id opens a session; answers are SSE
 *   GET    /mcp     the session's stream of server notifications (SSE)
 *   DELETE /mcp     ends the session and its runtime session (its handles are dropped)
 *   GET    /healthz `{"status":"ok"}`; GET /readyz `{"status":"ready"}` (503 once closing)
 *
 * Every /mcp request is checked before anything else: its Host must be an allowed host and its
 * Origin, when it has one, an allowed origin (DNS-rebinding protection; 403 otherwise); with a
 * `token`, it must carry `Authorization: Bearer <token>` (401 with `WWW-Authenticate: Bearer` otherwise). Bodies
 * over `maxBodyBytes` get 413, malformed JSON a JSON-RPC -32700 error; neither ends the session.
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ErrorCode, isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Runtime } from "@zcp/runtime";
import { createMcpServer, type McpServerOptions, type ZcpMcpServer } from "./mcp.js";
import { createNativeHttpHandler, type NativeHttpOptions } from "./native/http.js";
import { readBody, reply } from "./body.js";
import { beginRequest, DEFAULT_IDLE_MS, DEFAULT_MAX_SESSIONS, idleActivity, sweepIdle, type Activity } from "./idle.js";

export interface HttpOptions extends McpServerOptions {
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
  readonly native?: boolean | NativeHttpOptions;
  readonly nativePath?: string;
}

export interface McpHttpServer extends http.Server {
  /**
   * Ends every MCP session (and its runtime session: running calls answer `cancelled`), stops
   * accepting connections and closes the remaining ones; `callback` runs once it has stopped.
   */
  close(callback?: (error?: Error) => void): this;
  /** Open MCP sessions. */
  readonly sessionCount: number;
  /**
   * A graceful `close`: stops listening and refuses new sessions (503) at once, lets the POST
   * requests in progress (running calls) finish for up to `graceMs`, then does what `close`
   * does. Resolves once the server has stopped.
   */
  shutdown(graceMs: number): Promise<void>;
}

export interface ServeHttpOptions extends HttpOptions {
  /** Default 0: a free port. */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
}

const DEFAULT_PATH = "/mcp";
const DEFAULT_MAX_BODY = 1024 * 1024;
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

interface Entry extends Activity {
  readonly mcp: ZcpMcpServer;
  readonly transport: StreamableHTTPServerTransport;
}

/** An `http.Server` serving `runtime` over Streamable HTTP; the caller listens (see `serveHttp`). */
export function createHttpServer(runtime: Runtime, options: HttpOptions = {}): McpHttpServer {
  const path = options.path ?? DEFAULT_PATH;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS;
  const onError = options.onError ?? ((error: unknown) => console.error("zcp server:", error));
  const hostAllowed = hostCheck(options.allowedHosts ?? LOOPBACK);
  const originAllowed = originCheck(options.allowedOrigins);
  const authorized = tokenCheck(options.token);
  const sessions = new Map<string, Entry>();
  let closing = false;
  /** POST requests on the endpoint in progress, and who waits for there to be none. */
  let posts = 0;
  const drained: (() => void)[] = [];

  const openSession = async (): Promise<Entry> => {
    const mcp = createMcpServer(runtime, options);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        if (!closing) sessions.set(id, entry);
      },
    });
    // Whatever closes the transport (DELETE, close(), the idle sweep) forgets the session; the
    // SDK server's onclose then closes the runtime session.
    transport.onclose = () => {
      if (transport.sessionId !== undefined && sessions.get(transport.sessionId) === entry) sessions.delete(transport.sessionId);
    };
    const entry: Entry = { mcp, transport, ...idleActivity() };
    await mcp.server.connect(transport);
    return entry;
  };

  /** Host, Origin (DNS-rebinding protection) and bearer token, for every endpoint that serves tools. */
  const refused = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const refusal = !hostAllowed(req.headers.host) ? `Invalid Host header: ${String(req.headers.host)}` : !originAllowed(req.headers.origin) ? `Invalid Origin header: ${String(req.headers.origin)}` : undefined;
    if (refusal !== undefined) {
      reply(res, 403, rpcError(-32000, `Forbidden: ${refusal}`));
      return true;
    }
    if (!authorized(req.headers.authorization)) {
      res.setHeader("www-authenticate", 'Bearer realm="zcp"');
      reply(res, 401, rpcError(-32000, "Unauthorized: a valid bearer token is required"));
      return true;
    }
    return false;
  };

  const nativeOptions = options.native === true ? {} : options.native || undefined;
  const native = nativeOptions
    ? createNativeHttpHandler(runtime, {
        ...(options.name !== undefined ? { name: options.name } : {}),
        onError,
        ...nativeOptions,
        // The token was checked: its holder is the one identity sessions are bound to.
        ...(options.token !== undefined ? { identity: () => "token" } : {}),
      })
    : undefined;
  const nativePath = options.nativePath ?? "/zcp";

  const handleMcp = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (refused(req, res)) return;
    const sessionHeader = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    let entry = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && !entry) return reply(res, 404, rpcError(-32001, "Session not found"));
    let body: unknown;
    if (req.method === "POST") {
      const read = await readBody(req, maxBody);
      if (read.kind === "aborted") return;
      if (read.kind === "too-large") {
        res.setHeader("connection", "close");
        req.resume(); // discard the rest, so that the client reads the answer
        return reply(res, 413, rpcError(-32000, `Payload Too Large: the body must not exceed ${maxBody} bytes`));
      }
      try {
        body = JSON.parse(read.text);
      } catch {
        return reply(res, 400, rpcError(ErrorCode.ParseError, "Parse error: the body is not JSON"));
      }
      if (!entry) {
        if (!isInitializeRequest(body)) return reply(res, 400, rpcError(-32000, "Bad Request: no valid mcp-session-id; start a session with initialize"));
        if (closing) return reply(res, 503, rpcError(-32000, "Service Unavailable: the server is closing"));
        if (sessions.size >= maxSessions) return reply(res, 503, rpcError(-32000, "Service Unavailable: too many open sessions"));
        entry = await openSession();
      }
    } else if (req.method === "GET" || req.method === "DELETE") {
      if (!entry) return reply(res, 400, rpcError(-32000, "Bad Request: the mcp-session-id header is required"));
    } else {
      res.setHeader("allow", "GET, POST, DELETE");
      return reply(res, 405, rpcError(-32000, "Method not allowed"));
    }
    const current = entry;
    const ended = beginRequest(current);
    const post = req.method === "POST";
    if (post) posts++;
    res.once("close", () => {
      ended();
      if (post && --posts === 0) for (const resolve of drained.splice(0)) resolve();
    });
    await current.transport.handleRequest(req, res, body);
    // An initialize the transport refused (bad Accept, ...) opened no session, and one that
    // finished while close() ran was not kept: close them. (After a DELETE this does nothing.)
    const opened = current.transport.sessionId;
    if (opened === undefined || sessions.get(opened) !== current) await current.mcp.close();
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    let handled: Promise<void> | void;
    if (options.mcp !== false && url.pathname === path) handled = handleMcp(req, res);
    else if (native && url.pathname === nativePath) handled = refused(req, res) ? undefined : native(req, res);
    else if (url.pathname === "/healthz" && (req.method === "GET" || req.method === "HEAD")) handled = reply(res, 200, { status: "ok" });
    else if (url.pathname === "/readyz" && (req.method === "GET" || req.method === "HEAD")) handled = closing ? reply(res, 503, { status: "closing" }) : reply(res, 200, { status: "ready" });
    else handled = reply(res, 404, { error: "not found" });
    Promise.resolve(handled).catch((error: unknown) => {
      onError(error);
      if (!res.headersSent) reply(res, 500, rpcError(ErrorCode.InternalError, "Internal error"));
      else res.destroy();
    });
  }) as McpHttpServer;

  // Closing the SDK server closes its transport, whose onclose forgets the session.
  const sweep = sweepIdle(sessions, idleMs, (_id, entry) => void entry.mcp.close().catch(onError));

  const close = server.close.bind(server);
  Object.defineProperty(server, "sessionCount", { get: () => sessions.size });
  const endSessions = async () => {
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.allSettled([...open.map((entry) => entry.mcp.close()), native?.close()]);
  };
  server.close = function closeAll(callback?: (error?: Error) => void) {
    closing = true;
    clearInterval(sweep);
    void endSessions().then(() => {
      close(callback);
      // The sessions' streams have ended; what is left are idle keep-alive sockets and sockets
      // that never sent a request, which would hold the server open until their timeouts.
      server.closeAllConnections();
    });
    return server;
  };
  server.shutdown = async (graceMs: number) => {
    closing = true;
    clearInterval(sweep);
    // Stop listening now; the callback runs once every connection has ended (below).
    const stopped = new Promise<void>((resolve) => close(() => resolve()));
    if (posts > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise<void>((resolve) => drained.push(resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    await endSessions();
    server.closeAllConnections();
    await stopped;
  };
  return server;
}

/** Creates the server and listens (default `127.0.0.1`, a free port); resolves once listening. */
export async function serveHttp(runtime: Runtime, options: ServeHttpOptions = {}): Promise<{ readonly server: McpHttpServer; readonly url: URL }> {
  const server = createHttpServer(runtime, options);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const name = host.includes(":") ? `[${host}]` : host;
  return { server, url: new URL(`http://${name}:${port}${options.path ?? DEFAULT_PATH}`) };
}

/** Whether an Authorization header carries the token (always true without one). */
function tokenCheck(token: string | undefined): (header: string | undefined) => boolean {
  if (token === undefined) return () => true;
  // Digests have equal lengths, so timingSafeEqual compares them without leaking the token's length.
  const expected = createHash("sha256").update(token, "utf8").digest();
  return (header) => {
    const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
    return match !== null && timingSafeEqual(createHash("sha256").update(match[1]!, "utf8").digest(), expected);
  };
}

function rpcError(code: number, message: string) {
  return { jsonrpc: "2.0", error: { code, message }, id: null };
}

/** The host part of a Host header (`[::1]` keeps its brackets), lower-cased. */
function hostName(host: string): string {
  const text = host.toLowerCase();
  if (text.startsWith("[")) return text.slice(0, text.indexOf("]") + 1);
  const colon = text.indexOf(":");
  return colon === -1 ? text : text.slice(0, colon);
}

function hostCheck(allowed: readonly string[]): (host: string | undefined) => boolean {
  const exact = new Set(allowed.map((entry) => entry.toLowerCase()).filter((entry) => hostName(entry) !== entry));
  const names = new Set(allowed.map((entry) => entry.toLowerCase()).filter((entry) => hostName(entry) === entry));
  return (host) => host !== undefined && (exact.has(host.toLowerCase()) || names.has(hostName(host)));
}

function originCheck(allowed: readonly string[] | undefined): (origin: string | undefined) => boolean {
  const exact = allowed && new Set(allowed.map((entry) => entry.toLowerCase().replace(/\/$/, "")));
  return (origin) => {
    if (origin === undefined) return true;
    if (exact) return exact.has(origin.toLowerCase());
    try {
      const url = new URL(origin);
      return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK.includes(url.hostname);
    } catch {
      return false;
    }
  };
}

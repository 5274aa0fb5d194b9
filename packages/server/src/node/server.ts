/**
 * The web-standard handlers on `node:http`, the thin adapter (as Hono's and tRPC's are):
 * `nodeListener(fetch)` turns each `IncomingMessage` into a `Request` (node-request.ts) and
 * writes the `Response` to the `ServerResponse` (node-response.ts). On it, `createHttpServer` /
 * `serveHttp` serve both surfaces (http/fetch.ts) with a graceful `shutdown(graceMs)`, and
 * `createNativeHttpHandler` is the native route alone (native/http.ts) as a `(req, res)` handler.
 * Their options and behaviour are the handlers', plus an `identity(req)` that reads the
 * `IncomingMessage`, and the remote address as the default `clientKey` (per-client session caps).
 * Both bound the request bodies still arriving, per remote address and in time (arriving.ts).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Runtime } from "@zcp/runtime";
import { createNativeFetchHandler, type NativeFetchOptions } from "../native/http.js";
import { ArrivingBodies, type BodyLimits } from "./arriving.js";
import { json, jsonRpcError } from "../http/body.js";
import { FLUSH_MS, InFlight } from "../http/drain.js";
import { createFetchHandler, type FetchHandlerOptions } from "../fetch.js";
import { toRequest, type IncomingRequest } from "./request.js";
import { writeResponse } from "./response.js";

export interface NativeHttpOptions extends Omit<NativeFetchOptions, "identity"> {
  /**
   * Who sends the request (e.g. from a verified bearer token), or null when nobody is
   * authenticated (401). A session is bound to the identity that opened it.
   */
  readonly identity?: (req: http.IncomingMessage) => string | null;
}

export interface NativeHttpHandler {
  (req: http.IncomingMessage, res: http.ServerResponse): void;
  /** Open native sessions. */
  readonly sessionCount: number;
  /** Ends every session (and its runtime session: running calls answer `cancelled`); later requests get 503. */
  close(): Promise<void>;
}

export interface HttpOptions extends Omit<FetchHandlerOptions, "native">, BodyLimits {
  /**
   * Serve the native ZCP surface too, on `POST /zcp` (or `nativePath`), behind the same Host,
   * Origin and token checks. With a token, native sessions are bound to its holder.
   */
  readonly native?: boolean | NativeHttpOptions;
}

export interface McpHttpServer extends http.Server {
  /**
   * Ends every session (and its runtime session: running calls answer `cancelled`, and those
   * answers are written), stops accepting connections and closes the remaining ones; `callback`
   * runs once it has stopped. `shutdown(0)`.
   */
  close(callback?: (error?: Error) => void): this;
  /** Open MCP sessions. */
  readonly sessionCount: number;
  /**
   * A graceful `close`: stops listening and refuses new sessions (503) at once, lets the POST
   * requests in progress on /mcp and /zcp finish for up to `graceMs`, then ends every session
   * (calls still running answer `cancelled`), writes those answers, and closes every connection.
   * Resolves once the server has stopped.
   */
  shutdown(graceMs: number): Promise<void>;
}

export interface ServeHttpOptions extends HttpOptions {
  /** Default 0: a free port. */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
}

/** An `http.Server` serving `runtime` over Streamable HTTP; the caller listens (see `serveHttp`). */
export function createHttpServer(runtime: Runtime, options: HttpOptions = {}): McpHttpServer {
  const onError = options.onError ?? ((error: unknown) => console.error("zcp server:", error));
  const incoming = new WeakMap<Request, http.IncomingMessage>();
  const native =
    typeof options.native === "object"
      ? nativeFetchOptions(options.native, incoming)
      : options.native;
  const handler = createFetchHandler(runtime, {
    ...options,
    native,
    onError,
    clientKey: options.clientKey ?? remoteAddress(incoming),
  });
  /** Responses not written to the end yet: a shutdown closes sockets once they are. */
  const writing = new InFlight();
  const server = http.createServer(
    nodeListener(
      (request, req) => {
        incoming.set(request, req);
        return handler.fetch(request);
      },
      onError,
      new ArrivingBodies(options),
      writing,
    ),
  ) as McpHttpServer;

  const close = server.close.bind(server);
  let stopping: Promise<Error | undefined> | undefined;
  const stop = (graceMs: number) =>
    (stopping ??= (async () => {
      // Stop listening now; the callback runs once every connection has ended (below).
      const stopped = new Promise<Error | undefined>((resolve) => close(resolve));
      await handler.shutdown(graceMs);
      // The sessions' answers and streams have ended; their last bytes reach the sockets.
      await writing.drained(FLUSH_MS);
      await lastWrites();
      // What is left are idle keep-alive sockets and sockets that never sent a request, which
      // would hold the server open until their timeouts.
      server.closeAllConnections();
      return stopped;
    })());
  Object.defineProperty(server, "sessionCount", { get: () => handler.sessionCount });
  server.close = function closeAll(callback?: (error?: Error) => void) {
    void stop(0).then((error) => callback?.(error));
    return server;
  };
  server.shutdown = async (graceMs: number) => {
    await stop(graceMs);
  };
  return server;
}

/** Creates the server and listens (default `127.0.0.1`, a free port); resolves once listening. */
export async function serveHttp(
  runtime: Runtime,
  options: ServeHttpOptions = {},
): Promise<{ readonly server: McpHttpServer; readonly url: URL }> {
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
  return { server, url: new URL(`http://${name}:${port}${options.path ?? "/mcp"}`) };
}

/** A `(req, res)` handler for `POST /zcp`; the caller mounts it on its `node:http` server (no Host/Origin checks: mount it behind yours). */
export function createNativeHttpHandler(
  runtime: Runtime,
  options: NativeHttpOptions & BodyLimits = {},
): NativeHttpHandler {
  const incoming = new WeakMap<Request, http.IncomingMessage>();
  const native = createNativeFetchHandler(runtime, {
    ...nativeFetchOptions(options, incoming),
    clientKey: options.clientKey ?? remoteAddress(incoming),
  });
  const onError = options.onError ?? ((error: unknown) => console.error("zcp native:", error));
  const handler = nodeListener(
    (request, req) => {
      incoming.set(request, req);
      return native.fetch(request);
    },
    onError,
    new ArrivingBodies(options),
  ) as NativeHttpHandler;
  Object.defineProperty(handler, "sessionCount", { get: () => native.sessionCount });
  handler.close = () => native.close();
  return handler;
}

/** The options with `identity` asked of the `IncomingMessage` each `Request` came from. */
function nativeFetchOptions(
  options: NativeHttpOptions,
  incoming: WeakMap<Request, http.IncomingMessage>,
): NativeFetchOptions {
  const { identity, ...rest } = options;
  return identity ? { ...rest, identity: (request) => identity(incoming.get(request)!) } : rest;
}

/** The client key of a Request: the remote address of the connection it came on. */
function remoteAddress(
  incoming: WeakMap<Request, http.IncomingMessage>,
): (request: Request) => string {
  return (request) => incoming.get(request)?.socket.remoteAddress ?? "";
}

/**
 * A `node:http` request listener that answers with `fetch`, once `bodies` admits the request;
 * `writing` counts the responses until written.
 */
function nodeListener(
  fetch: (request: Request, req: http.IncomingMessage) => Promise<Response>,
  onError: (error: unknown) => void,
  bodies: ArrivingBodies,
  writing?: InFlight,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    if (writing) res.once("close", writing.begin());
    if (!bodies.admit(req, res)) return;
    let request: IncomingRequest;
    try {
      request = toRequest(req);
    } catch {
      // Methods a Request cannot have (TRACE, TRACK).
      void writeResponse(
        json(405, jsonRpcError(-32000, "Method not allowed"), { allow: "GET, POST, DELETE" }),
        res,
      );
      return;
    }
    res.once("close", () => {
      if (!res.writableFinished) request.clientGone();
    });
    fetch(request, req)
      // A late body was answered 408 already (arriving.ts): the handler's answer has no one to go to.
      .then((response) =>
        res.headersSent
          ? response.body?.cancel().catch(() => undefined)
          : writeResponse(response, res),
      )
      .catch((error: unknown) => {
        onError(error);
        if (!res.headersSent)
          void writeResponse(json(500, jsonRpcError(-32603, "Internal error")), res);
        else res.destroy();
      });
  };
}

/** One turn of the event loop: the writes of the streams that just ended reach their sockets. */
function lastWrites(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

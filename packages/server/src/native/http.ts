/**
 * The native ZCP surface over HTTP: `POST /zcp` with a JSON-RPC message or batch, answered with
 * JSON. `createNativeHttpHandler` returns a `(req, res)` handler for a server to mount on its
 * path (the handler does not look at the path).
 *
 * - A body without `zcp-session-id` must start with `initialize`: the server opens a native
 *   session (one runtime session) and returns its id, a random UUID, in `zcp-session-id`.
 *   Session ids come from the server only; a client cannot choose one.
 * - With `identity(req)`, a session belongs to the identity that opened it: another identity
 *   (or none) gets the same 404 as an unknown session, and a request without identity gets 401.
 * - 404 unknown session, 413 body over `maxBodyBytes`, 400 not JSON, 405 not POST, 503 too many
 *   sessions; 202 without a body when a request held only notifications.
 */
import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { Runtime } from "@zcp/runtime";
import { DEFAULT_MAX_MESSAGE_BYTES, PARSE_ERROR, rpcError, SERVER_ERROR, SESSION_HEADER, SESSION_NOT_FOUND } from "./protocol.js";
import { createNativeSession, type NativeSession, type NativeSessionOptions } from "./session.js";
import { readBody, reply } from "../body.js";
import { beginRequest, DEFAULT_IDLE_MS, DEFAULT_MAX_SESSIONS, idleActivity, sweepIdle, type Activity } from "../idle.js";

export interface NativeHttpOptions extends NativeSessionOptions {
  /** Largest request body in bytes (default 1 MiB); larger ones get 413. */
  readonly maxBodyBytes?: number;
  /** Open sessions at most (default 1,000); an `initialize` beyond gets 503. */
  readonly maxSessions?: number;
  /** A session with no request for this long is closed (default 30 minutes). */
  readonly idleTimeoutMs?: number;
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
  /** Ends every session (and its runtime session); later requests get 503. */
  close(): Promise<void>;
}

interface Entry extends Activity {
  readonly native: NativeSession;
  readonly identity: string | null;
}

/** A handler for `POST /zcp`; the caller mounts it on its `node:http` server. */
export function createNativeHttpHandler(runtime: Runtime, options: NativeHttpOptions = {}): NativeHttpHandler {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS;
  const onError = options.onError ?? ((error: unknown) => console.error("zcp native:", error));
  const sessions = new Map<string, Entry>();
  let closing = false;
  let sweep: NodeJS.Timeout | undefined;

  const forget = (id: string, entry: Entry): void => {
    if (sessions.get(id) === entry) sessions.delete(id);
    void entry.native.close().catch(onError);
  };

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (req.method !== "POST") {
      res.setHeader("allow", "POST");
      return reply(res, 405, rpcError(null, SERVER_ERROR, "Method not allowed: use POST"));
    }
    if (closing) return reply(res, 503, rpcError(null, SERVER_ERROR, "Service Unavailable: the server is closing"));
    let identity: string | null = null;
    if (options.identity) {
      identity = options.identity(req);
      if (identity === null) return reply(res, 401, rpcError(null, SERVER_ERROR, "Unauthorized"));
    }
    const header = req.headers[SESSION_HEADER];
    const sessionId = Array.isArray(header) ? header[0] : header;
    let entry = sessionId === undefined ? undefined : sessions.get(sessionId);
    // Another identity's session answers exactly as one that does not exist.
    if (entry && entry.identity !== identity) entry = undefined;
    if (sessionId !== undefined && !entry) return reply(res, 404, rpcError(null, SESSION_NOT_FOUND, "Session not found: start a new session with initialize"));

    const read = await readBody(req, maxBody);
    if (read.kind === "aborted") return;
    if (read.kind === "too-large") {
      res.setHeader("connection", "close");
      req.resume();
      return reply(res, 413, rpcError(null, SERVER_ERROR, `Payload Too Large: the body must not exceed ${maxBody} bytes`));
    }
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch {
      return reply(res, 400, rpcError(null, PARSE_ERROR, "Parse error: the body is not JSON"));
    }

    let id = sessionId;
    if (!entry) {
      if (!startsWithInitialize(body)) return reply(res, 400, rpcError(null, SERVER_ERROR, `Bad Request: no ${SESSION_HEADER}; start a session with initialize`));
      if (sessions.size >= maxSessions) return reply(res, 503, rpcError(null, SERVER_ERROR, "Service Unavailable: too many open sessions"));
      id = randomUUID();
      entry = { native: createNativeSession(runtime, options), identity, ...idleActivity() };
      sessions.set(id, entry);
      sweep ??= sweepIdle(sessions, idleMs, forget);
    }
    const current = entry;
    const ended = beginRequest(current);
    try {
      const response = await current.native.handle(body);
      // session/close, or close() while this request ran.
      if (current.native.closed || closing) forget(id!, current);
      res.setHeader(SESSION_HEADER, id!);
      if (response === undefined) {
        res.writeHead(202).end();
        return;
      }
      return reply(res, 200, response);
    } finally {
      ended();
    }
  };

  const handler = ((req: http.IncomingMessage, res: http.ServerResponse): void => {
    serve(req, res).catch((error: unknown) => {
      onError(error);
      if (!res.headersSent) reply(res, 500, rpcError(null, -32603, "Internal error"));
      else res.destroy();
    });
  }) as NativeHttpHandler;
  Object.defineProperty(handler, "sessionCount", { get: () => sessions.size });
  handler.close = async () => {
    closing = true;
    if (sweep) clearInterval(sweep);
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.allSettled(open.map((entry) => entry.native.close()));
  };
  return handler;
}

function startsWithInitialize(body: unknown): boolean {
  const first: unknown = Array.isArray(body) ? body[0] : body;
  return first !== null && typeof first === "object" && !Array.isArray(first) && (first as { method?: unknown }).method === "initialize";
}


/**
 * The native ZCP surface over HTTP, web-standard: `POST /zcp` with a JSON-RPC message or batch,
 * answered with JSON. `createNativeFetchHandler` returns `fetch(request) → Response` for a server
 * to mount on its path (the handler does not look at the path); `createNativeHttpHandler`
 * (http/node.ts) is the same as a `node:http` `(req, res)` handler.
 *
 * - A body without `zcp-session-id` must start with `initialize`: the server opens a native
 *   session (one runtime session) and returns its id, a random UUID, in `zcp-session-id`.
 *   Session ids come from the server only; a client cannot choose one.
 * - With `identity(request)`, a session belongs to the identity that opened it: another identity
 *   (or none) gets the same 404 as an unknown session, and a request without identity gets 401.
 * - A new session makes room for itself (http/idle.ts): beyond `maxSessionsPerClient` (per
 *   identity, else `clientKey(request)`) or `maxSessions`, the least recently active session
 *   without a request in progress is closed (its next request gets 404); 503 when none can be.
 * - The request's signal is the calls': a client that goes away cancels the calls of its request.
 * - A request's answers count against the session's response budget (budget.ts) until the client
 *   has read them to their end (or gone away), so answers left unread hold it.
 * - 404 unknown session, 413 body over `maxBodyBytes`, 400 not JSON, 405 not POST, 503 no room or
 *   closing; 202 without a body when a request held only notifications.
 * - With a session store (`RuntimeOptions.sessions`), any replica serves any request of a
 *   session (http/store.ts): the session id is the runtime session's; a session unknown here is
 *   resumed from the store (its identity, kept as the session's data, must be the request's), a
 *   session known here is refreshed first (gone elsewhere: 404), and the state is saved before
 *   the answer goes out (503 when the store is unreachable, for any of these, or has no room
 *   for a new session). Evicting, expiring and shutting down only unload sessions (the store
 *   bounds what it keeps by its own counts); `session/close` ends them everywhere.
 */
import type { JsonValue, Runtime, Session } from "@zcp/runtime";
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  rpcError,
  SERVER_ERROR,
  SESSION_HEADER,
  SESSION_NOT_FOUND,
} from "./protocol.js";
import { createNativeSession, type NativeSession, type NativeSessionOptions } from "./session.js";
import type { RequestBudget } from "../budget.js";
import { json, readJson, whenEnded, type ErrorAnswer } from "../http/body.js";
import {
  beginRequest,
  DEFAULT_IDLE_MS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_CLIENT,
  idleActivity,
  makeRoom,
  sweepIdle,
  type Activity,
  type Sweep,
} from "../http/idle.js";
import { Resumptions, STORE_FULL, STORE_UNREACHABLE } from "../http/store.js";

export interface NativeFetchOptions extends NativeSessionOptions {
  /** Largest request body in bytes (default 1 MiB); larger ones get 413. */
  readonly maxBodyBytes?: number;
  /**
   * Open sessions at most (default 1,000). An `initialize` beyond closes the least recently
   * active session without a request in progress; it gets 503 when there is none.
   */
  readonly maxSessions?: number;
  /** Open sessions of one client at most (default 100), likewise (see `clientKey`). */
  readonly maxSessionsPerClient?: number;
  /**
   * Who the client is, for `maxSessionsPerClient`, when there is no `identity` (the identity is
   * the client then). Default: one client for everyone; the `node:http` adapters give the
   * remote address.
   */
  readonly clientKey?: (request: Request) => string;
  /** A session with no request for this long is closed (default 30 minutes). */
  readonly idleTimeoutMs?: number;
  /**
   * Who sends the request (e.g. from a verified bearer token), or null when nobody is
   * authenticated (401). A session is bound to the identity that opened it.
   */
  readonly identity?: (request: Request) => string | null;
}

export interface NativeFetchHandler {
  /** Answers one `POST /zcp` request. Never rejects: an unexpected error is a 500 (and goes to `onError`). */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Open native sessions. */
  readonly sessionCount: number;
  /** Ends every session (and its runtime session: running calls answer `cancelled`); later requests get 503. */
  close(): Promise<void>;
}

/** The handler as a server mounts it, with the steps of a graceful shutdown (http/fetch.ts). */
export interface NativeRoutes extends NativeFetchHandler {
  /** Refuses new sessions (503) from now on; the open ones are served on. */
  stop(): void;
  /** `close()`, with `reason` as the hint running calls answer `cancelled` with. */
  close(reason?: string): Promise<void>;
}

interface Entry extends Activity {
  readonly native: NativeSession;
  readonly identity: string | null;
}

/** The request, admitted: its session (undefined: it opens one), the caller's identity and the parsed body. */
interface Admitted {
  readonly id: string | undefined;
  readonly entry: Entry | undefined;
  /** Ends the request of `entry`, counted from its admission. */
  readonly ended: (() => void) | undefined;
  readonly identity: string | null;
  readonly body: unknown;
}

/** An error answer of the native surface: `{"jsonrpc":"2.0","id":null,"error":{code,message}}`. */
const refuse: ErrorAnswer = (status, code, message, headers) =>
  json(status, rpcError(null, code, message), headers);

/** The handler of `POST /zcp`; the caller mounts it on its path. */
export function createNativeFetchHandler(
  runtime: Runtime,
  options: NativeFetchOptions = {},
): NativeRoutes {
  const route = new NativeRoute(runtime, options);
  return {
    fetch: (request) => route.fetch(request),
    get sessionCount() {
      return route.sessionCount;
    },
    stop: () => route.stop(),
    close: (reason) => route.close(reason),
  };
}

class NativeRoute {
  readonly #sessions = new Map<string, Entry>();
  readonly #maxBody: number;
  readonly #onError: (error: unknown) => void;
  /** New sessions are refused (stop()). */
  #stopping = false;
  /** Every request is refused (close()). */
  #closed = false;
  #sweep: Sweep | undefined;
  /** Sessions live in a store: this process only loads and unloads them. */
  readonly #shared: boolean;
  readonly #resumptions = new Resumptions<Entry | Response | undefined>();

  constructor(
    private readonly runtime: Runtime,
    private readonly options: NativeFetchOptions,
  ) {
    this.#shared = runtime.options.sessions !== undefined;
    this.#maxBody = options.maxBodyBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#onError = options.onError ?? ((error: unknown) => console.error("zcp native:", error));
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  async fetch(request: Request): Promise<Response> {
    try {
      return await this.#serve(request);
    } catch (error) {
      this.#onError(error);
      return refuse(500, -32603, "Internal error");
    }
  }

  stop(): void {
    this.#stopping = true;
    if (this.#sweep) clearInterval(this.#sweep);
  }

  async close(reason?: string): Promise<void> {
    this.stop();
    this.#closed = true;
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(
      open.map((entry) => entry.native.close(reason, { keep: this.#shared })),
    );
  }

  async #serve(request: Request): Promise<Response> {
    const admitted = await this.#admit(request);
    if (admitted instanceof Response) return admitted;
    const { body } = admitted;
    let { id, entry, ended } = admitted;
    const opening = !entry;
    if (!entry) {
      if (!startsWithInitialize(body))
        return refuse(
          400,
          SERVER_ERROR,
          `Bad Request: no ${SESSION_HEADER}; start a session with initialize`,
        );
      if (this.#stopping)
        return refuse(503, SERVER_ERROR, "Service Unavailable: the server is closing");
      const opened = this.#open(request, admitted.identity);
      if (typeof opened === "string")
        return refuse(503, SERVER_ERROR, `Service Unavailable: ${opened}`);
      [id, entry] = opened;
      ended = beginRequest(entry, true);
    }
    const current = entry;
    // The answers hold the session's response budget (budget.ts) until the client has read them
    // to their end, not only while they are made: a client that does not read cannot pile up
    // more than the budget.
    const budget = current.native.budget.request();
    try {
      return whenEnded(await this.#answer(id!, current, opening, body, request, budget), () =>
        budget.end(),
      );
    } catch (error) {
      budget.end();
      throw error;
    } finally {
      ended!();
    }
  }

  /** The answer of session `id` to `body`, counted against `budget`; saved first with a store. */
  async #answer(
    id: string,
    current: Entry,
    opening: boolean,
    body: unknown,
    request: Request,
    budget: RequestBudget,
  ): Promise<Response> {
    const response = await current.native.handleJson(body, { signal: request.signal, budget });
    // session/close, or close() while this request ran.
    if (current.native.closed || this.#closed) this.#forget(id, current);
    else if (this.#shared)
      try {
        // Closed elsewhere meanwhile (the save found it gone): closed here too, at once. A new
        // session, whose id nobody has yet, is not saved only when the store has no room.
        if (!(await current.native.session.save(current.client))) {
          this.#forget(id, current);
          if (opening) return refuse(503, SERVER_ERROR, STORE_FULL);
        }
      } catch {
        // Saved nowhere, a new session would exist on this replica only: it is not opened.
        if (opening) this.#forget(id, current);
        return refuse(503, SERVER_ERROR, STORE_UNREACHABLE);
      }
    if (response === undefined)
      return new Response(null, { status: 202, headers: { [SESSION_HEADER]: id } });
    return jsonParts(response, { [SESSION_HEADER]: id });
  }

  /**
   * The session a request goes on to (its request counted from before its body is read, so that
   * it is not closed for room meanwhile) and its parsed body; or the answer that refuses it.
   */
  async #admit(request: Request): Promise<Admitted | Response> {
    if (request.method !== "POST")
      return refuse(405, SERVER_ERROR, "Method not allowed: use POST", { allow: "POST" });
    if (this.#closed)
      return refuse(503, SERVER_ERROR, "Service Unavailable: the server is closing");
    let identity: string | null = null;
    if (this.options.identity) {
      identity = this.options.identity(request);
      if (identity === null) return refuse(401, SERVER_ERROR, "Unauthorized");
    }
    const id = request.headers.get(SESSION_HEADER) ?? undefined;
    const found = id === undefined ? undefined : await this.#find(id, identity, request);
    if (found instanceof Response) return found;
    const entry = found;
    const ended = entry && beginRequest(entry, true);
    const read = await readJson(request, this.#maxBody, refuse);
    if (read instanceof Response) {
      ended?.();
      return read;
    }
    return { id, entry, ended, identity, body: read.json };
  }

  /**
   * The session of a request's id: the one open here (refreshed from the store, if any), or
   * resumed from the store; else the 404 (or, the store unreachable, the 503) it gets. Another
   * identity's session answers exactly as one that does not exist.
   */
  async #find(id: string, identity: string | null, request: Request): Promise<Entry | Response> {
    const gone = refuse(
      404,
      SESSION_NOT_FOUND,
      "Session not found: start a new session with initialize",
    );
    const entry = this.#sessions.get(id);
    if (entry && entry.identity !== identity) return gone;
    if (!this.#shared) return entry ?? gone;
    if (entry) {
      let alive: boolean;
      try {
        alive = await entry.native.session.refresh();
      } catch {
        return refuse(503, SERVER_ERROR, STORE_UNREACHABLE);
      }
      if (alive) return entry;
      // Closed or expired elsewhere.
      this.#forget(id, entry);
      return gone;
    }
    // Another replica serves it on.
    if (this.#stopping)
      return refuse(503, SERVER_ERROR, "Service Unavailable: the server is closing");
    const resumed = await this.#resumptions.get(id, () => this.#resume(id, request));
    if (resumed instanceof Response) return resumed;
    return resumed?.identity === identity ? resumed : gone;
  }

  /**
   * A session of the store, open here; undefined when the store has no native session by that
   * id; the 503 when it is unreachable or there is no room.
   */
  async #resume(id: string, request: Request): Promise<Entry | Response | undefined> {
    let session: Session | undefined;
    try {
      session = await this.runtime.resume(id);
    } catch {
      return refuse(503, SERVER_ERROR, STORE_UNREACHABLE);
    }
    if (!session) return undefined;
    const identity = identityOf(session.data);
    // Not a native session (an MCP session's id): as unknown here as anywhere.
    if (identity === undefined) {
      await session.close(undefined, { keep: true });
      return undefined;
    }
    const opened = this.#open(request, identity, session);
    if (typeof opened !== "string") return opened[1];
    await session.close(undefined, { keep: true });
    return refuse(503, SERVER_ERROR, `Service Unavailable: ${opened}`);
  }

  /**
   * A new session (or `session`, resumed), in the table, once there is room (idle.ts); or why
   * there is none. Its id is its runtime session's.
   */
  #open(request: Request, identity: string | null, session?: Session): [string, Entry] | string {
    const client = identity ?? this.options.clientKey?.(request) ?? "";
    const room = makeRoom(this.#sessions, client, {
      maxSessions: this.options.maxSessions ?? DEFAULT_MAX_SESSIONS,
      maxSessionsPerClient: this.options.maxSessionsPerClient ?? DEFAULT_MAX_SESSIONS_PER_CLIENT,
    });
    if (typeof room === "string") return room;
    for (const [victim, evicted] of room) this.#forget(victim, evicted);
    const native = createNativeSession(this.runtime, {
      ...this.options,
      ...(session ? { session } : {}),
    });
    // The identity is kept with the state: another replica checks it.
    if (this.#shared && !session) native.session.setData({ identity } satisfies NativeData);
    const id = native.session.id;
    const entry: Entry = { native, identity, ...idleActivity(client) };
    this.#sessions.set(id, entry);
    this.#sweep ??= sweepIdle(
      this.#sessions,
      this.options.idleTimeoutMs ?? DEFAULT_IDLE_MS,
      (id, entry) => this.#forget(id, entry),
    );
    return [id, entry];
  }

  /** Closes the session here: with a store, unloads it (it lives on in the store). */
  #forget(id: string, entry: Entry): void {
    if (this.#sessions.get(id) === entry) this.#sessions.delete(id);
    void entry.native.close(undefined, { keep: this.#shared }).catch(this.#onError);
  }
}

/** A native session's data in the store: who opened it (null: nobody is authenticated). */
interface NativeData {
  readonly [key: string]: JsonValue;
  readonly identity: string | null;
}

/** The identity of a native session's stored data; undefined when it is not a native session's. */
function identityOf(data: JsonValue | undefined): string | null | undefined {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return undefined;
  const identity = (data as { readonly [key: string]: JsonValue })["identity"];
  return typeof identity === "string" || identity === null ? identity : undefined;
}

/**
 * A 200 answer of the JSON the session encoded, once, while counting it (budget.ts): its parts
 * are the body's chunks, written one after another, never copied into one buffer.
 */
function jsonParts(
  parts: readonly Uint8Array[],
  headers: { readonly [name: string]: string },
): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  return new Response(body, {
    status: 200,
    headers: { "content-type": "application/json", "content-length": String(length), ...headers },
  });
}

function startsWithInitialize(body: unknown): boolean {
  const first: unknown = Array.isArray(body) ? body[0] : body;
  return (
    first !== null &&
    typeof first === "object" &&
    !Array.isArray(first) &&
    (first as { method?: unknown }).method === "initialize"
  );
}

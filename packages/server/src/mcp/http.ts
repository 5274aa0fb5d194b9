/**
 * MCP over Streamable HTTP, web-standard: the session table. One SDK transport (McpTransport,
 * the SDK's with cancellation ending streams), one SDK server and one runtime session per MCP
 * session (`mcp-session-id`, a random UUID from `crypto`).
 *
 *   POST    JSON-RPC; an `initialize` without a session id opens a session; answers are SSE
 *   GET     the session's stream of server notifications (SSE)
 *   DELETE  ends the session and its runtime session (its handles are dropped)
 *
 * The body is read and checked here, within `maxBodyBytes` (413 beyond; -32700 when it is not
 * JSON, -32600 when it is JSON but not a JSON-RPC message or batch of them, or an empty batch;
 * none ends the session), so that a request is routed by session, and refused, before a session
 * is touched. The transport gets it parsed, and still checks Accept, Content-Type and the
 * protocol-version header. The guards (Host, Origin, token) ran before (guards.ts).
 *
 * A new session makes room for itself (idle.ts): beyond `maxSessionsPerClient` or `maxSessions`
 * the least recently active session without a POST in progress is closed; its next request gets
 * 404, and its client starts over.
 *
 * With a session store (`RuntimeOptions.sessions`), any replica serves any request of a session
 * (store.ts): the MCP session id is the runtime session's; a request for a session unknown here
 * resumes it from the store (`runtime.resume`), and a new SDK server and transport are brought to
 * where the session's own were by replaying its stored `initialize` (the session's data) and
 * `notifications/initialized` through the transport; a session known here is refreshed from the
 * store first (gone elsewhere: 404). The state is saved after `initialize` and after each
 * `tools/call` (tools.ts) before the answer goes out; a new session the store has no room for
 * is refused (503). Evicting, expiring and shutting down only unload sessions from this process
 * (the store bounds what it keeps by its own counts, per client and in all); DELETE ends them
 * everywhere. Without a store, the store is never asked and an unknown session is 404.
 */
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type JSONRPCMessage,
  type McpHttpHandler,
} from "@modelcontextprotocol/server";
import type { CallerIdentity, Runtime, Session } from "@zcp/runtime";
import type { ResponseLimits } from "../budget.js";
import { jsonRpcMessage } from "./messages.js";
import { paramHeaderRefusal } from "./param-headers.js";
import { createMcpServer, type McpServerOptions, type ZcpMcpServer } from "./server.js";
import { countedAnswer } from "./counted-answer.js";
import { StatelessMcp, type McpCaller, type McpView, type StatelessRequest } from "./stateless.js";
import { json, jsonRpcError, readJson, whenEnded, type ErrorAnswer } from "../http/body.js";
import {
  beginRequest,
  idleActivity,
  makeRoom,
  sweepIdle,
  type Activity,
  type SessionLimits,
  type Sweep,
} from "../http/idle.js";
import { McpTransport } from "./http-transport.js";
import { keptInitialize, Resumptions, STORE_FULL, STORE_UNREACHABLE } from "./session-store.js";

export interface McpSessionLimits extends SessionLimits, ResponseLimits {
  readonly maxBodyBytes: number;
  readonly maxBatch: number;
  readonly idleTimeoutMs: number;
  readonly onError: (error: unknown) => void;
  /** Whose request it is, for `maxSessionsPerClient`. */
  readonly clientKey: (request: Request) => string;
  /**
   * Who a 2025 session's calls come from (the tools' `ctx.caller`): the request that opens (or
   * resumes) the session says, since every later request of it must come from the same client.
   */
  readonly callerIdentity?: (request: Request) => CallerIdentity | undefined;
}

interface Entry extends Activity {
  readonly id: string;
  /** The view of the endpoint the session was opened on: it is served there only. */
  readonly view: McpView;
  readonly mcp: ZcpMcpServer;
  readonly transport: McpTransport;
}

/** A POST's body: as parsed, and its messages, checked. */
interface Posted {
  readonly body: unknown;
  readonly messages: readonly JSONRPCMessage[];
}

/** An error answer of the HTTP layer: `{"jsonrpc":"2.0","error":{code,message},"id":null}`. */
const refuse: ErrorAnswer = (status, code, message, headers) =>
  json(status, jsonRpcError(code, message), headers);

/** The MCP sessions of one endpoint. */
export class McpSessions {
  readonly #sessions = new Map<string, Entry>();
  #closing = false;
  readonly #sweep: Sweep;
  /** Sessions live in a store: this process only loads and unloads them. */
  readonly #shared: boolean;
  readonly #resumptions = new Resumptions<Entry | Response | undefined>();
  /** The 2026-07-28 era: stateless requests, by view and caller. */
  readonly #stateless: StatelessMcp;
  readonly #modern: McpHttpHandler;
  /** Stops passing `runtime.resourceUpdated` on to the `subscriptions/listen` streams. */
  readonly #stopUpdates: () => void;
  /** The server of each modern request, opened for the SDK's server factory. */
  readonly #addressed = new WeakMap<Request, StatelessRequest>();

  constructor(
    private readonly runtime: Runtime,
    private readonly options: McpServerOptions,
    private readonly limits: McpSessionLimits,
  ) {
    this.#shared = runtime.options.sessions !== undefined;
    // Closing the SDK server closes its transport, whose onclose forgets the session.
    this.#sweep = sweepIdle(this.#sessions, limits.idleTimeoutMs, (_id, entry) => this.#end(entry));
    this.#stateless = new StatelessMcp(runtime, options);
    this.#modern = createMcpHandler(
      ({ requestInfo }) => {
        const opened = requestInfo && this.#addressed.get(requestInfo);
        if (!opened) throw new Error("zcp: a modern MCP request reached the factory unaddressed");
        return opened.server;
      },
      {
        legacy: "reject",
        maxRequestBodySize: limits.maxBodyBytes,
        onerror: (error) => {
          // Refusals of malformed requests are answered to their clients; they are no fault here.
          if (
            !(error instanceof Error) ||
            !/^(Rejected|Unsupported|Missing|subscriptions\/listen refused)/.test(error.message)
          )
            limits.onError(error);
        },
      },
    );
    // The 2026-07-28 era's subscriptions are the SDK's `subscriptions/listen` streams (each
    // bounded by its router); an update the application reports is published to them all, and
    // each stream passes on only the URIs its client asked for.
    this.#stopUpdates = runtime.features.onUpdated((uri) =>
      this.#modern.notify.resourceUpdated(uri),
    );
  }

  /** Open sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Answers one request on the endpoint of `view`, from `caller`: a 2025 one in its session, a
   * 2026-07-28 one statelessly.
   */
  async handle(request: Request, view: McpView, caller: McpCaller): Promise<Response> {
    if (request.method === "POST") {
      const posted = await this.#read(request);
      if (posted instanceof Response) {
        // A session that is gone is said first, whatever the body (the client starts over).
        const sessionId = request.headers.get("mcp-session-id");
        const found = sessionId === null ? undefined : await this.#find(sessionId, request, view);
        return found instanceof Response ? found : posted;
      }
      if (!(await isLegacyRequest(request, posted.body))) {
        if (this.#closing) return refuse(503, -32000, "Service Unavailable: the server is closing");
        // The SDK checks Mcp-Param-* headers for McpServer products only; ours is a Server.
        const mismatch = paramHeaderRefusal(request, posted.body, this.runtime);
        if (mismatch) return mismatch;
        return this.#serveModern(request, posted.body, view, caller);
      }
      return this.#legacy(request, view, posted);
    }
    return this.#legacy(request, view);
  }

  /**
   * A 2026-07-28 request: the SDK's handler answers it with a fresh server over the fixed session
   * of its view and caller; the answer is counted against the caller's response budget, and the
   * session stays loaded, until it is written out.
   */
  async #serveModern(
    request: Request,
    body: unknown,
    view: McpView,
    caller: McpCaller,
  ): Promise<Response> {
    const opened = this.#stateless.open(view, caller);
    this.#addressed.set(request, opened);
    let response: Response;
    try {
      response = await countedAnswer(
        await this.#modern.fetch(request, { parsedBody: body }),
        opened.budget,
        (body as { readonly id?: unknown }).id,
      );
    } catch (error) {
      opened.end();
      throw error;
    }
    return whenEnded(response, () => opened.end());
  }

  /** A 2025 request: in its session, or an `initialize` that opens one. */
  async #legacy(request: Request, view: McpView, posted?: Posted): Promise<Response> {
    const sessionId = request.headers.get("mcp-session-id") ?? undefined;
    const found = sessionId === undefined ? undefined : await this.#find(sessionId, request, view);
    if (found instanceof Response) return found;
    const entry = found;
    if (request.method === "GET" || request.method === "DELETE") {
      if (!entry) return refuse(400, -32000, "Bad Request: the mcp-session-id header is required");
      return this.#answer(entry, false, async () => {
        const response = await entry.transport.handleRequest(request);
        // A DELETE is answered once the session has ended in the store too: no replica serves
        // it after the client was told it is gone.
        if (request.method === "DELETE" && response.ok) await entry.mcp.close();
        return response;
      });
    }
    if (posted === undefined)
      return refuse(405, -32000, "Method not allowed", { allow: "GET, POST, DELETE" });
    if (entry)
      return this.#answer(entry, true, () =>
        entry.transport.post(request, posted.body, posted.messages),
      );
    return this.#initialize(request, view, posted);
  }

  /** Refuses new sessions from now on and stops the idle sweep. */
  stop(): void {
    this.#closing = true;
    clearInterval(this.#sweep);
  }

  /**
   * Ends the runtime sessions, not the MCP ones: running calls answer `cancelled`, and those
   * answers still reach their clients on the open streams (close() comes after).
   */
  async endCalls(reason: string): Promise<void> {
    await Promise.allSettled([
      ...[...this.#sessions.values()].map((entry) =>
        entry.mcp.session.close(reason, { keep: this.#shared }),
      ),
      this.#stateless.close(reason),
    ]);
  }

  /**
   * Ends every session (and its runtime session; with a store, unloads them: other replicas
   * serve them on); `initialize` gets 503 from now on.
   */
  async close(): Promise<void> {
    this.#stopUpdates();
    this.stop();
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled([
      ...open.map((entry) => entry.mcp.close({ keep: this.#shared })),
      this.#modern.close(),
      this.#stateless.close(),
    ]);
  }

  /**
   * The session of a request's `mcp-session-id`: the one open here (refreshed from the store, if
   * any), or resumed from the store; else the 404 (or, the store unreachable, the 503) it gets.
   */
  async #find(id: string, request: Request, view: McpView): Promise<Entry | Response> {
    const gone = refuse(404, -32001, "Session not found");
    const open = this.#sessions.get(id);
    // A session is served on the endpoint it was opened on only.
    const entry = open && sameView(open.view, view) ? open : undefined;
    if (open && !entry) return gone;
    if (!this.#shared) return entry ?? gone;
    if (entry) {
      let alive: boolean;
      try {
        alive = await entry.mcp.session.refresh();
      } catch {
        return refuse(503, -32000, STORE_UNREACHABLE);
      }
      if (alive) return entry;
      // Ended (DELETE) or expired elsewhere.
      this.#end(entry);
      return gone;
    }
    // Another replica serves it on.
    if (this.#closing) return refuse(503, -32000, "Service Unavailable: the server is closing");
    return (await this.#resumptions.get(id, () => this.#resume(id, request, view))) ?? gone;
  }

  /**
   * A session of the store, open here: a new SDK server and transport for the resumed runtime
   * session, brought to where the session's own were by replaying its `initialize` (stored as
   * its data) and `notifications/initialized`; undefined when the store has no MCP session by
   * that id; the 503 when it is unreachable or there is no room.
   */
  async #resume(
    id: string,
    request: Request,
    view: McpView,
  ): Promise<Entry | Response | undefined> {
    let session: Session | undefined;
    try {
      session = await this.runtime.resume(id);
    } catch {
      return refuse(503, -32000, STORE_UNREACHABLE);
    }
    if (!session) return undefined;
    const initialize = jsonRpcMessage(session.data);
    // Not an MCP session (a native session's id), or one of another endpoint: unknown here.
    if (!initialize || !isInitializeRequest(initialize) || session.surface !== view.surface) {
      await session.close(undefined, { keep: true });
      return undefined;
    }
    const client = this.limits.clientKey(request);
    const room = makeRoom(this.#sessions, client, this.limits);
    if (typeof room === "string") {
      await session.close(undefined, { keep: true });
      return refuse(503, -32000, `Service Unavailable: ${room}`);
    }
    for (const [, victim] of room) this.#end(victim);
    const entry = this.#open(client, view, this.limits.callerIdentity?.(request), session);
    try {
      await entry.mcp.server.connect(entry.transport);
      await replay(entry.transport, initialize);
      await replay(entry.transport, { jsonrpc: "2.0", method: "notifications/initialized" }, id);
    } catch (error) {
      this.#end(entry);
      throw error;
    }
    return entry;
  }

  /** A POST without a session: an `initialize`, which opens one if there is (or can be made) room. */
  async #initialize(request: Request, view: McpView, posted: Posted): Promise<Response> {
    if (!isInitializeRequest(posted.body))
      return refuse(
        400,
        -32000,
        "Bad Request: no valid mcp-session-id; start a session with initialize",
      );
    if (this.#closing) return refuse(503, -32000, "Service Unavailable: the server is closing");
    // What another replica replays to continue the session: only what that needs, bounded.
    const kept = this.#shared ? keptInitialize(posted.body) : undefined;
    if (typeof kept === "string") return refuse(400, -32602, kept);
    const client = this.limits.clientKey(request);
    const room = makeRoom(this.#sessions, client, this.limits);
    if (typeof room === "string") return refuse(503, -32000, `Service Unavailable: ${room}`);
    for (const [, victim] of room) this.#end(victim);
    const entry = this.#open(client, view, this.limits.callerIdentity?.(request));
    if (kept !== undefined) entry.mcp.session.setData(kept);
    const response = await this.#answer(entry, true, async () => {
      await entry.mcp.server.connect(entry.transport);
      return entry.transport.post(request, posted.body, posted.messages);
    });
    // An initialize the transport refused (bad Accept, ...) opened no session: close it.
    if (entry.transport.sessionId === undefined) this.#end(entry);
    else if (this.#shared) {
      let refusal: string | undefined;
      try {
        // Nobody has its id yet, so nothing ended it: not saved means no room in the store.
        if (!(await entry.mcp.session.save(client))) refusal = STORE_FULL;
      } catch {
        // Saved nowhere, the session would exist on this replica only: it is not opened.
        refusal = STORE_UNREACHABLE;
      }
      if (refusal !== undefined) {
        await response.body?.cancel();
        this.#end(entry);
        return refuse(503, -32000, refusal);
      }
    }
    return response;
  }

  /** The answer of `run`, counted as the session's request until its body has ended. */
  async #answer(entry: Entry, post: boolean, run: () => Promise<Response>): Promise<Response> {
    const ended = beginRequest(entry, post);
    let response: Response;
    try {
      response = await run();
    } catch (error) {
      ended();
      throw error;
    }
    return whenEnded(response, ended);
  }

  /** A POST's body, read and checked; or the answer that refuses it. */
  async #read(request: Request): Promise<Posted | Response> {
    const read = await readJson(request, this.limits.maxBodyBytes, refuse);
    if (read instanceof Response) return read;
    const body = read.json;
    if (Array.isArray(body) && body.length === 0)
      return refuse(400, -32600, "Invalid Request: empty batch");
    if (Array.isArray(body) && body.length > this.limits.maxBatch)
      return refuse(
        400,
        -32600,
        `Invalid Request: batch too large (at most ${this.limits.maxBatch} messages)`,
      );
    const messages: JSONRPCMessage[] = [];
    for (const [index, item] of (Array.isArray(body) ? body : [body]).entries()) {
      const message = jsonRpcMessage(item);
      if (!message)
        return refuse(
          400,
          -32600,
          Array.isArray(body)
            ? `Invalid Request: element ${index} of the batch is not a JSON-RPC message`
            : "Invalid Request: not a JSON-RPC message",
        );
      messages.push(message);
    }
    return { body, messages };
  }

  /**
   * A new session (or `session`, resumed), in the table at once (so that concurrent
   * `initialize`s count it); its id, the runtime session's, is the transport's once `initialize`
   * went through.
   */
  #open(
    client: string,
    view: McpView,
    caller: CallerIdentity | undefined,
    session?: Session,
  ): Entry {
    const mcp = createMcpServer(this.runtime, {
      ...this.options,
      ...(caller ? { caller } : {}),
      surface: view.surface,
      ...(view.stage !== undefined ? { stage: view.stage } : {}),
      ...(session ? { session } : {}),
    });
    const id = mcp.session.id;
    const transport = new McpTransport({ sessionIdGenerator: () => id }, this.limits);
    const entry: Entry = { id, view, mcp, transport, ...idleActivity(client) };
    // Whatever closes the transport (DELETE, close(), the sweep, eviction) forgets the session;
    // the SDK server's onclose then closes the runtime session.
    transport.onclose = () => {
      if (this.#sessions.get(id) === entry) this.#sessions.delete(id);
    };
    this.#sessions.set(id, entry);
    return entry;
  }

  /** Closes the session here: with a store, unloads it (it lives on in the store). */
  #end(entry: Entry): void {
    if (this.#sessions.get(entry.id) === entry) this.#sessions.delete(entry.id);
    entry.mcp.close({ keep: this.#shared }).catch(this.limits.onError);
  }
}

/**
 * Posts `message` to the transport as its client once did (`sessionId`: with the session's
 * header) and reads the answer to its end, discarding it; throws when the transport refuses it.
 */
async function replay(transport: McpTransport, message: JSONRPCMessage, sessionId?: string) {
  const request = new Request("http://localhost/mcp", {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      ...(sessionId !== undefined ? { "mcp-session-id": sessionId } : {}),
    },
    body: JSON.stringify(message),
  });
  const response = await transport.handleRequest(request, { parsedBody: message });
  const text = await response.text();
  if (!response.ok)
    throw new Error(
      `zcp: replaying ${"method" in message ? message.method : "a message"} to resume the session failed: ${response.status} ${text}`,
    );
}

/** Whether two views are the same address. */
function sameView(a: McpView, b: McpView): boolean {
  return a.surface === b.surface && a.stage === b.stage;
}

/**
 * The native ZCP surface over HTTP, web-standard: `POST /zcp` with a JSON-RPC message or batch,
 * answered with JSON. `createNativeFetchHandler` returns `fetch(request) → Response` for a server
 * to mount on its path (the handler does not look at the path); `createNativeHttpHandler`
^ * (node/server.ts) is the same as a `node:http` `(req, res)` handler.
 *
 * - The session's state travels with the client as a token (token.ts) in `zcp-session-id`:
 *   every answer carries the session's current token, and the client sends back the newest.
 *   Any replica holding the same `secret` serves any request from the token alone; nothing
 *   about a native session is stored (its handles are, in the handle store, under its id).
 * - A body without `zcp-session-id` must start with `initialize`: the server opens a session
 *   with a random id. Tokens come from the server only; a client cannot choose or change one.
 * - With `identity(request)`, a token is bound to the identity that opened the session: another
 *   identity (or none) gets the same 404 as an unknown, tampered, expired or foreign token, and
 *   a request without identity gets 401.
 * - This process keeps the sessions it serves loaded (their running calls, concurrency and
 *   response budgets) in a bounded cache (http/idle.ts): beyond `maxSessionsPerClient` (per
 *   identity, else `clientKey(request)`) or `maxSessions`, the least recently active session
 *   without a request in progress is unloaded (its next request loads it again from its
 *   token); 503 when none can be. A session idle for `idleTimeoutMs` is unloaded too.
 * - A loaded session takes in each token it is sent: a newer token's stage and find format,
 *   and any token's found tools (a union); the answer's token is then the union's. A client
 *   that got two tokens of one revision (two requests that each found tools at once, on two
 *   replicas) sends both, comma-separated (at most `MAX_SESSION_TOKENS`, all of one session):
 *   none of the tools found is lost.
 * - With `clientStages: false` the stage is the server's, not the client's: tokens carry none
 *   (null), and a session loaded from a token starts at `stage`, then `onSession` (run on every
 *   load, `loaded: true`) sets it from the server's own record. A client replaying an older
 *   token therefore cannot take the session back to a stage the server has moved it from.
 * - `session/close` drops the session's handles and unloads it; its answer carries no token.
 *   A token is good until it expires (nothing is stored that could revoke it): sent again, it
 *   opens the session again, with its view and without the handles.
 * - The request's signal is the calls': a client that goes away cancels the calls of its request.
 * - A request's answers count against the session's response budget (budget.ts) until the client
 *   has read them to their end (or gone away), so answers left unread hold it.
 * - 404 unknown session, 413 body over `maxBodyBytes`, 400 not JSON, 405 not POST, 503 no room or
 *   closing; 202 without a body when a request held only notifications.
 */
import { Session, type CallerIdentity, type Runtime } from "@zcp/runtime";
import {
  MAX_SESSION_TOKENS,
  SERVER_ERROR,
  SESSION_HEADER,
  SESSION_NOT_FOUND,
} from "@zcp/runtime/wire";
import { DEFAULT_MAX_MESSAGE_BYTES, rpcError } from "./protocol.js";
import { createNativeSession, type NativeSession, type NativeSessionOptions } from "./session.js";
import { parseSecret, randomSecret, SessionTokens, type TokenState } from "./token.js";
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

export interface NativeFetchOptions extends Omit<NativeSessionOptions, "caller"> {
  /**
   * Who a session's calls come from (`ctx.caller`), from the request that opens or loads it
   * (every request of a session carries the same identity). Default: anonymous.
   */
  readonly callerIdentity?: (request: Request) => CallerIdentity | undefined;
  /** Largest request body in bytes (default 1 MiB); larger ones get 413. */
  readonly maxBodyBytes?: number;
  /**
   * Sessions kept loaded at most (default 1,000). Loading one beyond unloads the least recently
   * active session without a request in progress; it gets 503 when there is none.
   */
  readonly maxSessions?: number;
  /** Loaded sessions of one client at most (default 100), likewise (see `clientKey`). */
  readonly maxSessionsPerClient?: number;
  /**
   * Who the client is, for `maxSessionsPerClient`, when there is no `identity` (the identity is
   * the client then). Default: one client for everyone; the `node:http` adapters give the
   * remote address.
   */
  readonly clientKey?: (request: Request) => string;
  /**
   * A session's token expires this long after the last answer that carried it, and a session
   * with no request for this long is unloaded (default 30 minutes).
   */
  readonly idleTimeoutMs?: number;
  /**
   * Who sends the request (e.g. from a verified bearer token), or null when nobody is
   * authenticated (401). A session's tokens are bound to the identity that opened it.
   */
  readonly identity?: (request: Request) => string | null;
  /**
   * The key of the session tokens: at least 32 random bytes as hex or base64 (`parseSecret`;
   * another value throws a TypeError). Replicas serving the same sessions must share it.
   * Default: a random key of this handler's own, so that its tokens are good here only.
   */
  readonly secret?: string;
}

export interface NativeFetchHandler {
  /** Answers one `POST /zcp` request. Never rejects: an unexpected error is a 500 (and goes to `onError`). */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Open native sessions. */
  readonly sessionCount: number;
  /** Ends every session (and its runtime session: running calls answer `cancelled`); later requests get 503. */
  close(): Promise<void>;
}

/** The handler as a server mounts it, with the steps of a graceful shutdown (fetch.ts). */
export interface NativeRoutes extends NativeFetchHandler {
  /** Refuses new sessions (503) from now on; the open ones are served on. */
  stop(): void;
  /** `close()`, with `reason` as the hint running calls answer `cancelled` with. */
  close(reason?: string): Promise<void>;
}

interface Entry extends Activity {
  readonly native: NativeSession;
  readonly identity: string | null;
  /** The revision of the session's state as of its last token (token.ts). */
  rev: number;
  /** `stateKey` of that state: a different one now means the next token is one revision on. */
  key: string;
}

/** The request, admitted: its session (undefined: it opens one), the caller's identity and the parsed body. */
interface Admitted {
  readonly entry: Entry | undefined;
  /** Ends the request of `entry`, counted from its admission. */
  readonly ended: (() => void) | undefined;
  readonly identity: string | null;
  readonly body: unknown;
}

/** An error answer of the native surface: `{"jsonrpc":"2.0","id":null,"error":{code,message}}`. */
const refuse: ErrorAnswer = (status, code, message, headers) =>
  json(status, rpcError(null, code, message), headers);

/** The answer to a token no session of the request's identity has: one answer for every reason. */
const gone = (): Response =>
  refuse(404, SESSION_NOT_FOUND, "Session not found: start a new session with initialize");

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
  /** The sessions loaded here, by id: a cache (unloading one loses nothing but its running calls). */
  readonly #sessions = new Map<string, Entry>();
  readonly #maxBody: number;
  readonly #onError: (error: unknown) => void;
  readonly #tokens: SessionTokens;
  /** Whether the stage is the client's (in its tokens) or the server's. */
  readonly #clientStages: boolean;
  /** New sessions are refused (stop()). */
  #stopping = false;
  /** Every request is refused (close()). */
  #closed = false;
  #sweep: Sweep | undefined;

  constructor(
    private readonly runtime: Runtime,
    private readonly options: NativeFetchOptions,
  ) {
    this.#maxBody = options.maxBodyBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#onError = options.onError ?? ((error: unknown) => console.error("zcp native:", error));
    this.#clientStages = options.clientStages ?? true;
    const secret = options.secret === undefined ? randomSecret() : parseSecret(options.secret);
    if (typeof secret === "string") throw new TypeError(`NativeFetchOptions.secret ${secret}`);
    this.#tokens = new SessionTokens(
      secret,
      runtime.registry,
      options.idleTimeoutMs ?? DEFAULT_IDLE_MS,
    );
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

  /** Unloads every session (running calls answer `cancelled`); their tokens and handles stay good. */
  async close(reason?: string): Promise<void> {
    this.stop();
    this.#closed = true;
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(open.map((entry) => entry.native.close(reason, { keep: true })));
  }

  async #serve(request: Request): Promise<Response> {
    const admitted = await this.#admit(request);
    if (admitted instanceof Response) return admitted;
    const { body, identity } = admitted;
    let { entry, ended } = admitted;
    if (!entry) {
      if (!startsWithInitialize(body))
        return refuse(
          400,
          SERVER_ERROR,
          `Bad Request: no ${SESSION_HEADER}; start a session with initialize`,
        );
      const opened = this.#load(request, identity);
      if (opened instanceof Response) return opened;
      entry = opened;
      ended = beginRequest(entry, true);
    }
    const current = entry;
    // The answers hold the session's response budget (budget.ts) until the client has read them
    // to their end, not only while they are made: a client that does not read cannot pile up
    // more than the budget.
    const budget = current.native.budget.request();
    try {
      return whenEnded(await this.#answer(current, body, request, budget), () => budget.end());
    } catch (error) {
      budget.end();
      throw error;
    } finally {
      ended!();
    }
  }

  /** The answer of `current`'s session to `body`, counted against `budget`, with its token. */
  async #answer(
    current: Entry,
    body: unknown,
    request: Request,
    budget: RequestBudget,
  ): Promise<Response> {
    const response = await current.native.handleJson(body, { signal: request.signal, budget });
    // session/close (not the handler's close, which only unloads): the client has no more use
    // for a token.
    const ended = current.native.ended;
    if (current.native.closed) this.#forget(current);
    const headers: { [name: string]: string } = ended
      ? {}
      : { [SESSION_HEADER]: this.#mint(current) };
    if (response === undefined) return new Response(null, { status: 202, headers });
    return jsonParts(response, headers);
  }

  /** The token of the session's current state, one revision on when it changed since the last. */
  #mint(entry: Entry): string {
    const state = this.#carried(entry.native.session.state);
    const key = stateKey(state);
    if (key !== entry.key) {
      entry.rev++;
      entry.key = key;
    }
    return this.#tokens.mint(
      { id: entry.native.session.id, rev: entry.rev, ...state },
      entry.identity,
    );
  }

  /**
   * What a token carries of a session's state: all of it, but the stage only when clients may
   * move it (else it is the server's, and a token that carried it would let a client replay
   * an older one: see `#load`).
   */
  #carried(state: Carried): Carried {
    return this.#clientStages ? state : { ...state, stage: null };
  }

  /**
   * The session a request goes on to (its request counted from before its body is read, so that
   * it is not unloaded for room meanwhile) and its parsed body; or the answer that refuses it.
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
    const header = request.headers.get(SESSION_HEADER);
    let entry: Entry | undefined;
    if (header !== null) {
      const states = this.#open(header, identity);
      if (states === undefined) return gone();
      const loaded = this.#load(request, identity, states);
      if (loaded instanceof Response) return loaded;
      entry = loaded;
    }
    const ended = entry && beginRequest(entry, true);
    const read = await readJson(request, this.#maxBody, refuse);
    if (read instanceof Response) {
      ended?.();
      return read;
    }
    return { entry, ended, identity, body: read.json };
  }

  /**
   * The states of the tokens of a `zcp-session-id` (one, or up to `MAX_SESSION_TOKENS` of one
   * session, comma-separated: see `SessionTokenJar`), oldest revision first; undefined when
   * one of them is not good for `identity`, or they name different sessions.
   */
  #open(header: string, identity: string | null): TokenState[] | undefined {
    const tokens = header.split(",");
    if (tokens.length > MAX_SESSION_TOKENS) return undefined;
    const states: TokenState[] = [];
    for (const token of tokens) {
      const state = this.#tokens.open(token.trim(), identity);
      if (state === undefined || state.id !== (states[0]?.id ?? state.id)) return undefined;
      states.push(state);
    }
    return states.sort((a, b) => a.rev - b.rev);
  }

  /**
   * The session of tokens' `states`, loaded here or loaded now from the newest, taking each in;
   * a new session without `states`; or the 503 when there is no room (or the server is closing).
   */
  #load(request: Request, identity: string | null, states?: TokenState[]): Entry | Response {
    const newest = states?.at(-1);
    const loaded = newest && this.#sessions.get(newest.id);
    if (loaded) {
      // Same id, other identity: only a token minted for both could do it, and none is.
      if (loaded.identity !== identity) return gone();
      for (const state of states!) this.#takeIn(loaded, state);
      return loaded;
    }
    if (this.#stopping)
      return refuse(503, SERVER_ERROR, "Service Unavailable: the server is closing");
    const client = identity ?? this.options.clientKey?.(request) ?? "";
    const room = makeRoom(this.#sessions, client, {
      maxSessions: this.options.maxSessions ?? DEFAULT_MAX_SESSIONS,
      maxSessionsPerClient: this.options.maxSessionsPerClient ?? DEFAULT_MAX_SESSIONS_PER_CLIENT,
    });
    if (typeof room === "string") return refuse(503, SERVER_ERROR, `Service Unavailable: ${room}`);
    for (const [, evicted] of room) this.#forget(evicted);
    // A session loaded from a token starts at the server's stage when the stage is not the
    // client's; `onSession` (`loaded: true`) then restores the server's record of it.
    const session =
      newest &&
      sessionOf(this.runtime, this.options.surface, {
        ...newest,
        stage: this.#clientStages ? newest.stage : (this.options.stage ?? null),
      });
    const caller = this.options.callerIdentity?.(request);
    const native = createNativeSession(this.runtime, {
      ...this.options,
      ...(session ? { session } : {}),
      ...(caller ? { caller } : {}),
    });
    const entry: Entry = {
      native,
      identity,
      rev: newest?.rev ?? 0,
      key: stateKey(this.#carried(native.session.state)),
      ...idleActivity(client),
    };
    // The others' found tools (a union: see `#takeIn`).
    for (const state of states ?? []) this.#takeIn(entry, state);
    this.#sessions.set(native.session.id, entry);
    this.#sweep ??= sweepIdle(
      this.#sessions,
      this.options.idleTimeoutMs ?? DEFAULT_IDLE_MS,
      (_id, idle) => this.#forget(idle),
    );
    return entry;
  }

  /**
   * Takes a token into the session it names, loaded here: the found tools it has and the
   * session has not are added (a union: requests that ran at once, each finding tools, lose
   * none); a token of a later revision than the session's brings its find format too (the
   * client moved on elsewhere), and its stage when the stage is the client's; an older one
   * does not (it is a request sent before this replica's last change, or a token the client
   * kept).
   */
  #takeIn(entry: Entry, state: TokenState): void {
    const { session } = entry.native;
    if (state.rev > entry.rev) {
      session.setFindFormat(state.findFormat);
      if (this.#clientStages) session.setStage(state.stage);
      entry.rev = state.rev;
      entry.key = stateKey(this.#carried(state));
    }
    session.expose(state.found.flatMap((id) => this.runtime.tool(id) ?? []));
  }

  /** Unloads the session here (its handles stay, its tokens stay good), unless it ended already. */
  #forget(entry: Entry): void {
    const id = entry.native.session.id;
    if (this.#sessions.get(id) === entry) this.#sessions.delete(id);
    void entry.native.close(undefined, { keep: true }).catch(this.#onError);
  }
}

/** The runtime session a token describes, new in this process. */
function sessionOf(runtime: Runtime, surface: string | undefined, state: TokenState): Session {
  const found = state.found.flatMap((id) => runtime.tool(id) ?? []);
  return new Session(runtime, surface ?? "native", state.stage, state.findFormat, {
    id: state.id,
    found,
  });
}

/** What a token carries of a session's state, as one string to compare. */
function stateKey(state: Carried): string {
  return JSON.stringify([state.stage, state.findFormat, state.found]);
}

/** The part of a session's state a token carries. */
type Carried = Pick<TokenState, "stage" | "findFormat" | "found">;

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

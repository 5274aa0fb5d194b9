/**
 * The MCP surface of the 2026-07-28 era: no handshake and no session. Each request names what it
 * sees by its address (the view: the endpoint's path over HTTP, the process's flags on stdio)
 * and its authorization (the caller), never by what came before, so every listing is the same
 * bytes for one view and caller, whatever other requests did.
 *
 * A request is served by a fresh SDK `Server` over the *fixed* runtime session of its view and
 * caller: a session whose view is chosen once (surface and stage) and never changes; a find
 * answers the found tools' definitions, and `zcp.call_tool` calls them, without changing the
 * listing. Those sessions are only a cache of what a request needs (its concurrency slots): the
 * state that outlives a request is the caller's handles, kept in the handle store under the
 * caller's session id, so another replica sharing the store serves the next request as well.
 *
 * Callers: a verified authorization (the bearer token the server checked) is one owner, whose
 * handles have short ids (`#T1`): nobody else can name them. Requests without one share an
 * owner, so their handle ids carry enough randomness to be unguessable (`handleIds: "random"`).
 */
import { createHash } from "node:crypto";
import type { Server } from "@modelcontextprotocol/server";
import type { Runtime, Session } from "@zcp/runtime";
import { IssuedHandles, serveHandleResources } from "./resources.js";
import { pageSizeOf, sdkServer, type McpServerOptions } from "./server.js";
import { RunningCalls, serveTools } from "./tools.js";

/** What a request sees: a surface of the exposure policy, in a stage. */
export interface McpView {
  /** The exposure-policy surface whose default selection the view is. */
  readonly surface: string;
  /** The stage the view is in; none: every stage. */
  readonly stage?: string;
}

/** Who sends a request, as far as the server verified it. */
export interface McpCaller {
  /**
   * The verified authorization the caller's handles are bound to (e.g. the bearer token the
   * server checked, or the subject of one); undefined for an anonymous caller.
   */
  readonly authorization?: string;
}

/** Fixed sessions kept loaded at most (default 1,000); the least recently used is unloaded. */
const DEFAULT_MAX_LOADED = 1_000;

/** The fixed sessions of one server's stateless requests, by view and caller. */
export class StatelessMcp {
  /** Loaded sessions by view and caller, least recently used first. */
  readonly #sessions = new Map<string, Session>();
  readonly #pageSize: number;
  /** Every server's running calls, for a graceful stop. */
  readonly #calls = new RunningCalls();

  constructor(
    private readonly runtime: Runtime,
    private readonly options: McpServerOptions,
    private readonly maxLoaded = DEFAULT_MAX_LOADED,
  ) {
    this.#pageSize = pageSizeOf(options);
  }

  /** A fresh SDK server that answers one request (or one stdio connection) of `caller` on `view`. */
  server(view: McpView, caller: McpCaller): Server {
    const session = this.#session(view, caller);
    const server = sdkServer(this.options);
    const handles = new IssuedHandles(false);
    serveTools(server, session, handles, this.#pageSize, false, this.#calls);
    serveHandleResources(server, this.runtime, session, handles, this.#pageSize);
    return server;
  }

  /** `tools/call` requests running now, on every view. */
  get running(): number {
    return this.#calls.running;
  }

  /** Resolves once no `tools/call` runs (at once when none does). */
  idle(): Promise<void> {
    return this.#calls.idle();
  }

  /** Ends the running calls (they answer `cancelled` with `reason`) and unloads every session. */
  async close(reason?: string): Promise<void> {
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    // Unloaded, not ended: the callers' handles stay in the store for their lifetime.
    await Promise.allSettled(open.map((session) => session.close(reason, { keep: true })));
  }

  /** The fixed session of `view` and `caller`, loaded (most recently used now) or made. */
  #session(view: McpView, caller: McpCaller): Session {
    const owner = ownerId(caller);
    const key = `${view.surface}\n${view.stage ?? ""}\n${owner}`;
    const loaded = this.#sessions.get(key);
    if (loaded) {
      this.#sessions.delete(key);
      this.#sessions.set(key, loaded);
      return loaded;
    }
    const session = this.runtime.session({
      surface: view.surface,
      ...(view.stage !== undefined ? { stage: view.stage } : {}),
      fixed: true,
      id: owner,
      handleIds: caller.authorization === undefined ? "random" : "short",
    });
    this.#sessions.set(key, session);
    if (this.#sessions.size > this.maxLoaded) this.#unloadOne(key);
    return session;
  }

  /**
   * Unloads the least recently used session but `keep` (the one being served) that runs no call
   * (closing one would end its calls); its handles stay in the store. When every session runs one, the table is over its bound
   * until they finish, by at most the calls the server runs at once.
   */
  #unloadOne(keep: string): void {
    for (const [key, session] of this.#sessions)
      if (key !== keep && session.running === 0) {
        this.#sessions.delete(key);
        session.close(undefined, { keep: true }).catch(() => undefined);
        return;
      }
  }
}

/**
 * The handle owner of a caller: a digest of its verified authorization (the same caller gets the
 * same owner on every replica, and the secret itself is not kept), or the one anonymous owner.
 */
function ownerId(caller: McpCaller): string {
  if (caller.authorization === undefined) return "mcp:anonymous";
  return `mcp:${createHash("sha256").update(caller.authorization).digest("base64url")}`;
}

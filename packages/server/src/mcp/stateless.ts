/**
 * The MCP surface of the 2026-07-28 era: no handshake and no session. Each request names what it
 * sees by its address (the view: the endpoint's path over HTTP, the process's flags on stdio)
 * and its authorization (the caller), never by what came before, so every listing is the same
 * bytes for one view and caller, whatever other requests did.
 *
 * A request is served by a fresh SDK `Server` over the *fixed* runtime session of its view, its
 * owner and its client: a session whose view is chosen once (surface and stage) and never
 * changes; a find answers the found tools' definitions, and `zcp.call_tool` calls them, without
 * changing the listing. Those sessions are only a cache of what a request needs (the client's
 * concurrency slots and response budget): the state that outlives a request is the owner's
 * handles, kept in the handle store under the owner's id, so another replica sharing the store
 * serves the next request as well.
 *
 * Owners: a verified authorization (the bearer token the server checked, the identity its own
 * authentication established) is one owner, whose handles have short ids (`#T1`): nobody else
 * can name them. Requests without one are owned by their client (over HTTP its remote address),
 * and their handle ids carry enough randomness to be unguessable (`handleIds: "random"`): callers
 * behind one address share an owner, and an id is all that protects a handle there. Slots and
 * budgets are per client in both cases: one client's calls cannot crowd out another's.
 */
import { createHash } from "node:crypto";
import type { Server } from "@modelcontextprotocol/server";
import type { CallerIdentity, Runtime, Session } from "@zcp/runtime";
import { bindBudget, SessionBudget, type RequestBudget } from "../budget.js";
import { servePrompts } from "./prompts.js";
import { IssuedHandles, serveHandleResources } from "./resources.js";
import { pageSizeOf, sdkServer, type McpServerOptions } from "./server.js";
import { RunningCalls, serveTools } from "./tools.js";
import { InputRounds } from "./input.js";

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
  /**
   * Where the request comes from (over HTTP the remote address; default one client for all):
   * its own concurrency slots and response budget, and an anonymous caller's handles.
   */
  readonly client?: string;
  /** Who the caller is to the tools (`ctx.caller`); undefined: anonymous. */
  readonly identity?: CallerIdentity;
}

/** One request being served: its SDK server, its response budget, and its end. */
export interface StatelessRequest {
  readonly server: Server;
  /** What the answer may take (handle reads reserve from it); counted by the caller. */
  readonly budget: RequestBudget;
  /** The answer is written out (or dropped): the budget and the session are released. */
  end(): void;
}

/** A loaded fixed session, the budget of its client, and the requests it serves now. */
interface Loaded {
  readonly session: Session;
  readonly budget: SessionBudget;
  serving: number;
}

/** Fixed sessions kept loaded at most (default 1,000); the least recently used is unloaded. */
const DEFAULT_MAX_LOADED = 1_000;

/** The fixed sessions of one server's stateless requests, by view, owner and client. */
export class StatelessMcp {
  /** Loaded sessions, least recently used first. */
  readonly #loaded = new Map<string, Loaded>();
  readonly #pageSize: number;
  /** Every server's running calls, for a graceful stop. */
  readonly #calls = new RunningCalls();
  /** How calls ask their clients, and the key their `requestState` is signed with. */
  readonly #rounds: InputRounds;

  constructor(
    private readonly runtime: Runtime,
    private readonly options: McpServerOptions,
    private readonly maxLoaded = DEFAULT_MAX_LOADED,
  ) {
    this.#pageSize = pageSizeOf(options);
    this.#rounds = new InputRounds(options.secret);
  }

  /**
   * A fresh SDK server for one request of `caller` on `view`, its answers counted against a
   * request budget of the client's; `end()` it once the answer is out. Its session stays loaded
   * until then.
   */
  open(view: McpView, caller: McpCaller): StatelessRequest {
    const loaded = this.#load(view, caller);
    loaded.serving++;
    const budget = loaded.budget.request();
    const server = this.#server(loaded.session, caller.identity);
    bindBudget(server, budget);
    let ended = false;
    return {
      server,
      budget,
      end() {
        if (ended) return;
        ended = true;
        budget.end();
        loaded.serving--;
      },
    };
  }

  /**
   * A fresh SDK server for one connection of `caller` on `view` whose transport counts its
   * answers (stdio); its session stays loaded until `close()`.
   */
  connection(view: McpView, caller: McpCaller): Server {
    const loaded = this.#load(view, caller);
    loaded.serving++;
    return this.#server(loaded.session, caller.identity);
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
    const open = [...this.#loaded.values()];
    this.#loaded.clear();
    // Unloaded, not ended: the owners' handles stay in the store for their lifetime.
    await Promise.allSettled(open.map(({ session }) => session.close(reason, { keep: true })));
  }

  #server(session: Session, caller: CallerIdentity | undefined): Server {
    // Nothing it lists changes while the process runs: no list_changed to offer.
    const server = sdkServer(
      this.options,
      this.runtime.features,
      { listChanged: false },
      this.#rounds.verify,
    );
    const handles = new IssuedHandles(false);
    serveTools(server, session, handles, {
      pageSize: this.#pageSize,
      persist: false,
      codeOnly: this.options.codeOnly === true,
      calls: this.#calls,
      rounds: this.#rounds,
      ...(caller ? { caller } : {}),
    });
    serveHandleResources(server, this.runtime, session, handles, this.#pageSize);
    servePrompts(server, this.runtime.features, this.#pageSize, {
      rounds: this.#rounds,
      owner: session.id,
    });
    return server;
  }

  /** The fixed session of `view` and `caller`, loaded (most recently used now) or made. */
  #load(view: McpView, caller: McpCaller): Loaded {
    const owner = ownerId(caller);
    const key = [view.surface, view.stage ?? "", owner, caller.client ?? ""].join("\n");
    const found = this.#loaded.get(key);
    if (found) {
      this.#loaded.delete(key);
      this.#loaded.set(key, found);
      return found;
    }
    const loaded: Loaded = {
      session: this.runtime.session({
        surface: view.surface,
        ...(view.stage !== undefined ? { stage: view.stage } : {}),
        fixed: true,
        id: owner,
        handleIds: caller.authorization === undefined ? "random" : "short",
      }),
      budget: new SessionBudget(this.options),
      serving: 0,
    };
    this.#loaded.set(key, loaded);
    if (this.#loaded.size > this.maxLoaded) this.#unloadOne();
    return loaded;
  }

  /**
   * Unloads the least recently used session that serves no request now (closing one would end
   * its calls); its handles stay in the store. When every session serves one, the table is over
   * its bound until they end, by at most the requests in progress.
   */
  #unloadOne(): void {
    for (const [key, loaded] of this.#loaded)
      if (loaded.serving === 0 && loaded.session.running === 0) {
        this.#loaded.delete(key);
        loaded.session.close(undefined, { keep: true }).catch(() => undefined);
        return;
      }
  }
}

/**
 * The handle owner of a caller: a digest of its verified authorization (the same caller gets the
 * same owner on every replica, and the secret itself is not kept), else of its client.
 */
function ownerId(caller: McpCaller): string {
  return caller.authorization === undefined
    ? `mcp:anonymous:${digest(caller.client ?? "")}`
    : `mcp:${digest(caller.authorization)}`;
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

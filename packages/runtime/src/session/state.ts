/**
 * Session state that outlives one process: what a replica stores so that another can continue
 * a session it did not start (`runtime.resume`), the store interface, and the in-process
 * `MemorySessionStore` (one process; tests; the model of what a shared store must do).
 */
import type { FindFormat } from "../definition/find/find.js";
import type { JsonValue } from "../definition/registry.js";

/** What a replica needs to continue a session it did not start. JSON-serializable. */
export interface SessionState {
  readonly surface: string;
  readonly stage: string | null;
  /** Ids of the tools `zcp.find_tools` found, in the order found (a discover view lists them so). */
  readonly found: readonly string[];
  readonly findFormat: FindFormat;
  /** The surface's own data (MCP: the initialize request; native: the identity), opaque here. */
  readonly data?: JsonValue;
}

/**
 * What `SessionStore.save` did: wrote the state; wrote nothing because the stored state is no
 * longer the one it was made from (`stored`: what another writer saved since; merge and retry);
 * wrote nothing because there is no stored state to replace (the session was closed, or
 * expired: a save never brings it back); or, for a new session, wrote nothing because the store
 * holds as many states as it keeps (the session cannot be opened).
 */
export type SaveResult =
  | { readonly status: "saved" }
  | { readonly status: "changed"; readonly stored: SessionState }
  | { readonly status: "gone" }
  | { readonly status: "full" };

/**
 * Where session states live: in this process, or shared by replicas (e.g. `@zcp/redis`). Writes
 * are conditional, so that replicas saving the same session at once lose nothing and a closed
 * session stays closed.
 */
export interface SessionStore {
  /** The stored state, refreshing its idle time-to-live; undefined when absent or expired. Rejects when unreachable. */
  load(id: string): Promise<SessionState | undefined>;
  /**
   * Replaces the stored state with `state` (time-to-live restarted) only when it is still the
   * one `base` describes (`stateJson` of what `load` gave or the last save wrote); `base`
   * undefined: a new session, stored only when nothing is stored under `id` (and, in a store
   * that bounds them, when there is room: counted against `client`, who opened it, e.g. its
   * remote address or token holder, so that one client cannot push out the others' states).
   * Rejects when unreachable.
   */
  save(
    id: string,
    state: SessionState,
    base: string | undefined,
    client?: string,
  ): Promise<SaveResult>;
  /** Removes it (the session ended: no later save stores it again); nothing when absent. */
  delete(id: string): Promise<void>;
  /** Resolves when the store answers; rejects otherwise (for /readyz). */
  ping(): Promise<void>;
}

export interface MemorySessionStoreOptions {
  /** A state lives this long after its last load or save; 30 minutes by default. */
  readonly idleMs?: number;
  /** The clock, in ms; `Date.now` by default. */
  readonly now?: () => number;
}

/**
 * The compact JSON of a state with its fields in one order: what is stored, and what `save`
 * compares to know whether anything changed.
 */
export function stateJson(state: SessionState): string {
  const { surface, stage, found, findFormat, data } = state;
  return JSON.stringify({
    surface,
    stage,
    found,
    findFormat,
    ...(data === undefined ? {} : { data }),
  });
}

/**
 * Session states in this process, kept as JSON (a caller cannot change what is stored). The
 * map is kept in order of last use, so each save first sweeps the expired states from its start.
 * It counts no `client`: in one process, the server's session tables bound what is stored.
 */
export class MemorySessionStore implements SessionStore {
  readonly #states = new Map<string, { readonly json: string; readonly expires: number }>();
  readonly #idleMs: number;
  readonly #now: () => number;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.#idleMs = options.idleMs ?? 30 * 60_000;
    if (!(this.#idleMs > 0))
      throw new RangeError(
        `MemorySessionStore: idleMs must be a positive number, got ${String(options.idleMs)}`,
      );
    this.#now = options.now ?? Date.now;
  }

  async load(id: string): Promise<SessionState | undefined> {
    const entry = this.#states.get(id);
    if (entry === undefined) return undefined;
    const now = this.#now();
    if (now >= entry.expires) {
      this.#states.delete(id);
      return undefined;
    }
    this.#set(id, entry.json, now);
    return JSON.parse(entry.json) as SessionState;
  }

  async save(id: string, state: SessionState, base: string | undefined): Promise<SaveResult> {
    const now = this.#now();
    for (const [key, entry] of this.#states) {
      if (now < entry.expires) break;
      this.#states.delete(key);
    }
    const current = this.#states.get(id)?.json;
    if (current !== base)
      return current === undefined
        ? { status: "gone" }
        : { status: "changed", stored: JSON.parse(current) as SessionState };
    this.#set(id, stateJson(state), now);
    return { status: "saved" };
  }

  async delete(id: string): Promise<void> {
    this.#states.delete(id);
  }

  async ping(): Promise<void> {}

  /** Stores the entry as the most recently used. */
  #set(id: string, json: string, now: number): void {
    this.#states.delete(id);
    this.#states.set(id, { json, expires: now + this.#idleMs });
  }
}

/**
 * Where handle values live. `HandleStore` (store.ts) owns the rules (ids, expiry, budgets,
 * eviction order) and asks its storage for these few primitives only. They are async so that a
 * shared store can implement them when one process is not enough; with Redis, for example: a
 * hash per handle for the record, a string for its JSON, a sorted set by last use per session
 * and one for all sessions, and a counter and a byte total per session and overall.
 *
 * The contract every implementation keeps:
 * - Entries are keyed by (sessionId, id), never by id alone: two sessions each have their own
 *   `#T1`, and nothing here can list or reach another session's entries by id.
 * - It keeps the bytes held (the sum of `size`) per session and in total, and the order of last
 *   use per session and overall, so that `usage` and `oldest` are cheap (O(log n) or better):
 *   the store calls them on every create.
 * - It decides nothing: it does not expire or evict on its own; `HandleStore` does both.
 *
 * `MemoryHandleStorage` (memory.ts) is the default, for one process.
 */

/** What the store knows about a handle, apart from its value. */
export interface HandleRecord {
  readonly sessionId: string;
  /** `#` + a letter + the session's counter, e.g. `#T1`. */
  readonly id: string;
  readonly kind: string;
  /** The one-line description the model sees. */
  readonly summary: string;
  /**
   * UTF-8 bytes of the value's compact JSON. The budgets count these plus a fixed overhead per
   * handle (`HandleStore.handleOverheadBytes`), from `usage`'s bytes and entry count.
   */
  readonly size: number;
  /** First 12 hex characters of the SHA-256 of that JSON. */
  readonly hash: string;
  /** For a list: how many items (kept so that `count` does not read the value). */
  readonly count?: number;
  /** Time of the last successful use on the store's clock (ms); it expires `ttlMs` later. */
  readonly lastUsed: number;
}

/** A record with its value, as `put` receives it. */
export interface StoredHandle extends HandleRecord {
  /** The value as compact JSON: the one form every storage can keep and measure. */
  readonly json: string;
}

export interface HandleUsage {
  readonly bytes: number;
  readonly handles: number;
}

export interface HandleStorage {
  /** The entry's record, or undefined. Reading it is not a use: it does not touch the entry. */
  get(sessionId: string, id: string): Promise<HandleRecord | undefined>;
  /** The entry's value as compact JSON, or undefined (apart from `get` so that metadata stays cheap). */
  value(sessionId: string, id: string): Promise<string | undefined>;
  /** Adds an entry as the most recently used one, replacing any entry with the same key. */
  put(handle: StoredHandle): Promise<void>;
  /** Sets an entry's `lastUsed` and makes it the most recently used; nothing when it is absent. */
  touch(sessionId: string, id: string, lastUsed: number): Promise<void>;
  /** Removes an entry and frees its bytes; nothing when it is absent. */
  delete(sessionId: string, id: string): Promise<void>;
  /** The least recently used entry of a session, or of all sessions when `sessionId` is omitted. */
  oldest(sessionId?: string): Promise<HandleRecord | undefined>;
  /** Bytes and entries held by a session, or by all sessions when `sessionId` is omitted. */
  usage(sessionId?: string): Promise<HandleUsage>;
  /**
   * The session's next handle number: 1, 2, 3... Kept when the session's entries expire, so
   * that an id is never reused for another value while the session lives; reset by `dropSession`.
   */
  nextNumber(sessionId: string): Promise<number>;
  /** Removes every entry of a session and its counter. */
  dropSession(sessionId: string): Promise<void>;
}

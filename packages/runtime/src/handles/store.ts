/**
 * The handle store: one per runtime, holding the values that tools return as handles, per
 * owner. Every method takes the owner explicitly (the `sessionId` parameters: today the runtime
 * session that made the handle; the next step binds it to an authorization subject instead),
 * every handle records its owner (`HandleRecord.sessionId`), and every operation looks handles up
 * by (owner, id) and checks the record's owner again: no id or URI a session sends can reach
 * another owner's handles, and such a handle answers exactly like one that never existed. Ids
 * are short (`#T1`) for the model where this binding, not guessing, is the protection; an owner
 * that several callers share (anonymous callers on the stateless protocol) gets random ids
 * instead (`create`'s `ids: "random"`), which grant nothing by themselves.
 *
 * Errors are values: every method resolves to its result (`ok: true`) or to `failure(...)`.
 * - `expired:<id>`: the id is not live in this session. Expired, evicted, released and never
 *   created in this session all get the same answer, so nothing leaks about other sessions.
 * - `invalid:handle`: the text is not a handle id at all (not echoed: it may be anything).
 * - `invalid:<id>`: the handle exists but does not fit: another kind than `get` expects, or a
 *   value of the wrong shape for `count`, `view` or `grep`.
 * - `invalid:<argument>` (`item`, `fields`, `offset`, `limit`, `columns`, `start`, `length`,
 *   `pattern`): see ops.ts and text.ts.
 * - `invalid:result`: `create` refuses a value that is not JSON or is larger than a session may
 *   hold (`sessionMaxBytes`, at most `totalMaxBytes`); the tool should return less.
 * - `unavailable:store`: the storage rejected (a shared store is unreachable); what it threw
 *   goes to `onStorageError`. Only `usage` and `dropSession` reject then; memory never does.
 *
 * Expiry: a handle lives `ttlMs` after its last successful use; failed operations do not refresh
 * it. An expired handle is deleted when it is next asked for, and `create` first sweeps expired
 * handles from the least recently used end, so their bytes are freed without any timer keeping
 * the process alive.
 *
 * Budgets count what a handle costs: the UTF-8 bytes of its value's compact JSON, which is also
 * what is kept (a string measures its own memory; parsed objects would not), plus
 * `handleOverheadBytes` for everything else it holds (its record, summary, hash, the storage's
 * and the MCP listing's entries), so that many small handles are bounded as well as a few large
 * ones. The storage keeps value bytes and entry counts (`usage`); the cost is computed from
 * both. After a create, the session's least recently used handles are evicted until the session
 * fits `sessionMaxBytes`, then the least recently used of all sessions until the runtime fits
 * `totalMaxBytes`. Each step is O(1) with the memory storage.
 */
import { HANDLE_ID_PATTERN } from "../definition/brands.js";
import { Buffer } from "node:buffer";
import { getRandomValues } from "node:crypto";
import { clip } from "../results/clip.js";
import { sha12 } from "../definition/hash.js";
import type { JsonValue } from "../definition/registry.js";
import { failure, type CallError } from "../results/result.js";
import { MemoryHandleStorage } from "./memory.js";
import {
  countValue,
  grepValue,
  readValue,
  viewValue,
  type CountResult,
  type ReadOptions,
  type ReadResult,
  type ViewOptions,
  type ViewResult,
} from "./ops.js";
import type { GrepOptions, GrepResult } from "./text.js";
import type { HandleRecord, HandleStorage, HandleUsage } from "./storage.js";

/** How a session's handle ids are made (`SessionOptions.handleIds`). */
export type HandleIdForm = "short" | "random";

export interface HandleStoreOptions {
  /** Where values live; a new `MemoryHandleStorage` by default. */
  readonly storage?: HandleStorage;
  /**
   * Time a handle lives after its last successful use; 10 minutes by default. When given, the
   * built-in `zcp.handle`'s description states it (`retention`).
   */
  readonly ttlMs?: number;
  /** Bytes one session may hold; 16 MiB by default, never more than `totalMaxBytes`. */
  readonly sessionMaxBytes?: number;
  /** Bytes all sessions together may hold; 64 MiB by default. */
  readonly totalMaxBytes?: number;
  /**
   * What each handle costs in the budgets on top of its value's bytes; 2048 by default (the
   * memory storage's, measured). A storage whose entries cost more (or less) may say so.
   */
  readonly handleOverheadBytes?: number;
  /** The clock, in ms; `Date.now` by default (a shared store needs the same clock everywhere). */
  readonly now?: () => number;
  /**
   * Receives what the storage threw when an operation answered `unavailable:store`; default:
   * console.error.
   */
  readonly onStorageError?: (error: unknown, sessionId: string) => void;
}

/** What `create` and `summary` answer: the record without its bookkeeping. */
export type HandleInfo = { readonly ok: true } & Omit<HandleRecord, "sessionId" | "lastUsed">;

/** What `get` answers: what a `Handle` parameter is made of (`Handle<K, T>` without the brand). */
export interface ResolvedHandle {
  readonly ok: true;
  readonly id: string;
  readonly kind: string;
  readonly value: JsonValue;
}

/** The kind `zcp gen` records for a parameter typed `Handle` without a kind: any kind fits. */
const ANY_KIND = "*";

const HANDLE_ID = new RegExp(HANDLE_ID_PATTERN);

/** Characters (code points) of a summary kept at most: one line, however long the tool's. */
const MAX_SUMMARY = 256;

/**
 * What a handle costs beyond its value's bytes. Measured on Node 20 with the memory storage:
 * about 600 bytes for the record, its hash and id and the storage's map and LRU entries, about
 * 300 for the MCP `resources/list` entry; rounded up to 1 KiB, plus 1 KiB for the summary
 * (`MAX_SUMMARY` characters take at most that in memory, as UTF-16, and in UTF-8).
 */
const HANDLE_OVERHEAD_BYTES = 2048;

/**
 * Called with a handle value's size in bytes before the value is read and parsed (`read`,
 * `view`, `json`): the caller's chance to refuse (by throwing or rejecting, which the operation
 * passes on) a read whose answer it cannot afford, before the work and the memory are spent on
 * it, or to put it off (the operation waits for it).
 */
type ReadReservation = (bytes: number) => void | Promise<void>;

export class HandleStore {
  readonly ttlMs: number;
  /**
   * The sentence that states how long handles live, when `ttlMs` was given (e.g. "Handles last
   * 30m after their last use."): `zcp.handle`'s description carries it, where the model reads it
   * once for every handle. Undefined with the default TTL, which keeps that description as it
   * always was.
   */
  readonly retention: string | undefined;
  readonly sessionMaxBytes: number;
  readonly totalMaxBytes: number;
  /** What each handle costs on top of its value's bytes, in the budgets. */
  readonly handleOverheadBytes: number;
  /** The storage, its rejections marked (`#guard` answers those, and only those). */
  readonly #storage: Omit<HandleStorage, "dropSession">;
  /** The storage as given: `usage` and `dropSession` reject with what it threw. */
  readonly #raw: HandleStorage;
  readonly #now: () => number;
  readonly #onStorageError: (error: unknown, sessionId: string) => void;
  readonly #releaseListeners = new Set<(sessionId: string, id: string) => void>();

  /** Throws a `RangeError` for a limit that is not a positive number: a configuration bug. */
  constructor(options: HandleStoreOptions = {}) {
    this.ttlMs = positive("ttlMs", options.ttlMs ?? 600_000);
    this.retention =
      options.ttlMs === undefined
        ? undefined
        : `Handles last ${this.ttlText()} after their last use.`;
    this.totalMaxBytes = positive("totalMaxBytes", options.totalMaxBytes ?? 64 * MIB);
    this.sessionMaxBytes = Math.min(
      positive("sessionMaxBytes", options.sessionMaxBytes ?? 16 * MIB),
      this.totalMaxBytes,
    );
    this.handleOverheadBytes = options.handleOverheadBytes ?? HANDLE_OVERHEAD_BYTES;
    if (!Number.isSafeInteger(this.handleOverheadBytes) || this.handleOverheadBytes < 0)
      throw new RangeError(
        `HandleStore: handleOverheadBytes must be a non-negative integer, got ${String(options.handleOverheadBytes)}`,
      );
    this.#raw = options.storage ?? new MemoryHandleStorage();
    this.#storage = marked(this.#raw);
    this.#now = options.now ?? Date.now;
    this.#onStorageError = options.onStorageError ?? reportStorageError;
  }

  /**
   * Keeps `value` (in its JSON form: dates become strings, `undefined` fields disappear) as a
   * new handle of the session, whose id is `#`, the kind's first letter upper-cased (`G` when it
   * does not start with an ASCII letter) and, with `ids: "short"` (default), the session's
   * counter: `#T1`, `#P2`...; with `"random"`, 30 random digits (see `randomIdDigits`). A
   * summary longer than 256 characters is cut (with `…`).
   */
  create(
    sessionId: string,
    kind: string,
    value: unknown,
    summary: string,
    ids: HandleIdForm = "short",
  ): Promise<HandleInfo | CallError> {
    return this.#guard(sessionId, async () => {
      const json = toJson(value);
      if (json === undefined) {
        return failure(
          "invalid:result",
          "the result is not JSON (undefined, a function, a BigInt or a cycle), so it cannot be kept as a handle",
        );
      }
      const size = Buffer.byteLength(json, "utf8");
      if (size + this.handleOverheadBytes > this.sessionMaxBytes) {
        return failure(
          "invalid:result",
          `the result takes ${formatBytes(size + this.handleOverheadBytes)} as a handle, over the ${formatBytes(this.sessionMaxBytes)} a session can keep: ask for less (filter, narrow or page it)`,
        );
      }
      const now = this.#now();
      await this.#sweep(now);
      const id = `#${idLetter(kind)}${ids === "random" ? randomIdDigits() : await this.#storage.nextNumber(sessionId)}`;
      const count = json.startsWith("[") ? listLength(value, json) : undefined;
      const record: HandleRecord = {
        sessionId,
        id,
        kind,
        summary: clip(summary, MAX_SUMMARY),
        size,
        hash: sha12(json),
        lastUsed: now,
        ...(count === undefined ? {} : { count }),
      };
      // Stored first, then the budgets restored: a value never exceeds them on its own, so the
      // new handle, the most recently used, is never the one evicted.
      await this.#storage.put({ ...record, json });
      await this.#evictBeyond(this.sessionMaxBytes, sessionId);
      await this.#evictBeyond(this.totalMaxBytes);
      return info(record);
    });
  }

  /**
   * A handle's id, kind and value, parsed afresh (a tool cannot change what is kept). With
   * `expectedKind` (other than `"*"`), a handle of another kind is refused.
   */
  get(sessionId: string, id: string, expectedKind?: string): Promise<ResolvedHandle | CallError> {
    return this.#guard(sessionId, async () => {
      const now = this.#now();
      const record = await this.#live(sessionId, id, now);
      if ("ok" in record) return record;
      if (expectedKind !== undefined && expectedKind !== ANY_KIND && record.kind !== expectedKind) {
        return failure(
          `invalid:${id}`,
          `expected a ${JSON.stringify(expectedKind)} handle, got ${JSON.stringify(record.kind)}`,
        );
      }
      const value = await this.#value(record);
      if (value === undefined) return expired(id);
      await this.#use(record, now);
      return { ok: true, id, kind: record.kind, value };
    });
  }

  /** Deletes a handle now; its id answers `expired:<id>` from then on. Tells the `onRelease` listeners. */
  release(sessionId: string, id: string): Promise<{ readonly ok: true } | CallError> {
    return this.#guard(sessionId, async () => {
      const record = await this.#live(sessionId, id, this.#now());
      if ("ok" in record) return record;
      await this.#delete(sessionId, id);
      return { ok: true };
    });
  }

  /**
   * Calls `listener(sessionId, id)` after each handle leaves the store while its session lasts:
   * released (whoever asked: the `zcp.handle` tool, a native `handles/release`, the API),
   * expired or evicted; returns the unsubscribe function. Surfaces that list a session's handles
   * (MCP resources) keep their lists true, and bounded, with it.
   */
  onRelease(listener: (sessionId: string, id: string) => void): () => void {
    this.#releaseListeners.add(listener);
    return () => this.#releaseListeners.delete(listener);
  }

  /** Deletes every handle of a session and its id counter: call it when the session ends. */
  async dropSession(sessionId: string): Promise<void> {
    await this.#raw.dropSession(sessionId);
  }

  /** Items of a list handle, keys of a record handle. */
  count(sessionId: string, id: string): Promise<CountResult | CallError> {
    return this.#guard(sessionId, async () => {
      const now = this.#now();
      const record = await this.#live(sessionId, id, now);
      if ("ok" in record) return record;
      let result: CountResult | CallError;
      if (record.count !== undefined) {
        result = { ok: true, count: record.count };
      } else {
        const value = await this.#value(record);
        result = value === undefined ? expired(id) : countValue(id, value);
      }
      if (result.ok) await this.#use(record, now);
      return result;
    });
  }

  /**
   * The whole value, or one 0-based list item; with `fields`, only those fields of the record.
   * `reserve` is called with the value's size before it is read.
   */
  async read(
    sessionId: string,
    id: string,
    options: ReadOptions = {},
    reserve?: ReadReservation,
  ): Promise<ReadResult | CallError> {
    return this.#operate(sessionId, id, reserve, (json) => readValue(id, parse(json), options));
  }

  /**
   * The whole value as the compact JSON it is kept in: what `read` without options answers,
   * serialized, without parsing and serializing it again. `reserve` is called with its size
   * before it is read.
   */
  async json(
    sessionId: string,
    id: string,
    reserve?: ReadReservation,
  ): Promise<{ readonly ok: true; readonly json: string } | CallError> {
    return this.#operate(sessionId, id, reserve, (json) => ({ ok: true, json }));
  }

  /**
   * A page of a list handle: `{ rows, offset, limit, total }`, rows cut to `columns` if given.
   * `reserve` is called with the value's size before it is read.
   */
  async view(
    sessionId: string,
    id: string,
    options: ViewOptions = {},
    reserve?: ReadReservation,
  ): Promise<ViewResult | CallError> {
    return this.#operate(sessionId, id, reserve, (json) => viewValue(id, parse(json), options));
  }

  /**
   * The lines of a text handle that contain `options.pattern`: `{ matches, total }`. `reserve`
   * is called with the value's size before it is read.
   */
  async grep(
    sessionId: string,
    id: string,
    options: GrepOptions,
    reserve?: ReadReservation,
  ): Promise<GrepResult | CallError> {
    return this.#operate(sessionId, id, reserve, (json) => grepValue(id, parse(json), options));
  }

  /** What `create` answered, without reading the value. */
  summary(sessionId: string, id: string): Promise<HandleInfo | CallError> {
    return this.#guard(sessionId, async () => {
      const now = this.#now();
      const record = await this.#live(sessionId, id, now);
      if ("ok" in record) return record;
      await this.#use(record, now);
      return info(record);
    });
  }

  /** `ttlMs` as the model reads it in handle metadata: `10m`, `90s`, `1h`. */
  ttlText(): string {
    for (const [unit, ms] of TTL_UNITS)
      if (this.ttlMs % ms === 0) return `${this.ttlMs / ms}${unit}`;
    return `${this.ttlMs}ms`;
  }

  /** Value bytes and handles held by a session, or by the whole runtime. */
  async usage(sessionId?: string): Promise<HandleUsage> {
    return this.#raw.usage(sessionId);
  }

  /** What the budgets count of a usage: its value bytes and each handle's overhead. */
  cost(usage: HandleUsage): number {
    return usage.bytes + usage.handles * this.handleOverheadBytes;
  }

  #operate<R extends { readonly ok: true }>(
    sessionId: string,
    id: string,
    reserve: ReadReservation | undefined,
    operation: (json: string) => R | CallError,
  ): Promise<R | CallError> {
    return this.#guard(sessionId, async () => {
      const now = this.#now();
      const record = await this.#live(sessionId, id, now);
      if ("ok" in record) return record;
      await reserve?.(record.size);
      // Undefined when deleted since its record was read (a concurrent release or eviction).
      const json = await this.#storage.value(record.sessionId, record.id);
      if (json === undefined) return expired(id);
      const result = operation(json);
      if (result.ok) await this.#use(record, now);
      return result;
    });
  }

  /**
   * What `operation` answers, or `unavailable:store` when the storage rejects (what it threw
   * goes to `onStorageError`): a call answers at once, whatever happened to the shared store.
   * Anything else thrown (an `onRelease` listener's error) still rejects.
   */
  async #guard<R>(
    sessionId: string,
    operation: () => Promise<R | CallError>,
  ): Promise<R | CallError> {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof StorageFailure)) throw error;
      this.#onStorageError(error.cause, sessionId);
      return STORE_UNAVAILABLE;
    }
  }

  /**
   * The handle's record if it is live and the caller owns it; an expired one is deleted on the
   * way. The owner is checked on the record as well as used as the key, so that a storage that
   * mixed owners up still hands nobody another's handle.
   */
  async #live(sessionId: string, id: string, now: number): Promise<HandleRecord | CallError> {
    if (typeof id !== "string" || !HANDLE_ID.test(id))
      return failure("invalid:handle", 'handle ids look like "#T1"');
    const record = await this.#storage.get(sessionId, id);
    if (record !== undefined && record.sessionId !== sessionId) return expired(id);
    if (record !== undefined && !this.#expired(record, now)) return record;
    if (record !== undefined) await this.#delete(sessionId, id);
    return expired(id);
  }

  /**
   * The parsed value, or undefined when it was deleted since its record was read (by a
   * concurrent release or eviction): the caller answers `expired:` as for any gone handle.
   */
  async #value(record: HandleRecord): Promise<JsonValue | undefined> {
    const json = await this.#storage.value(record.sessionId, record.id);
    return json === undefined ? undefined : (JSON.parse(json) as JsonValue);
  }

  /** Deletes a handle and tells the `onRelease` listeners. */
  async #delete(sessionId: string, id: string): Promise<void> {
    await this.#storage.delete(sessionId, id);
    for (const listener of this.#releaseListeners) listener(sessionId, id);
  }

  async #use(record: HandleRecord, now: number): Promise<void> {
    await this.#storage.touch(record.sessionId, record.id, now);
  }

  #expired(record: HandleRecord, now: number): boolean {
    return now - record.lastUsed >= this.ttlMs;
  }

  /**
   * Deletes expired handles from the least recently used end. Last use only grows, so the
   * expired handles are all at that end, and the sweep stops at the first live one.
   */
  async #sweep(now: number): Promise<void> {
    let oldest = await this.#storage.oldest();
    while (oldest !== undefined && this.#expired(oldest, now)) {
      await this.#delete(oldest.sessionId, oldest.id);
      oldest = await this.#storage.oldest();
    }
  }

  /** Evicts the least recently used handles of a session (or of all) until they fit `budget`. */
  async #evictBeyond(budget: number, sessionId?: string): Promise<void> {
    while (this.cost(await this.#storage.usage(sessionId)) > budget) {
      const oldest = await this.#storage.oldest(sessionId);
      if (oldest === undefined) return;
      await this.#delete(oldest.sessionId, oldest.id);
    }
  }
}

const MIB = 1 << 20;

/** What an operation answers when the storage (a shared store) rejects. */
const STORE_UNAVAILABLE = Object.freeze(
  failure("unavailable:store", "the shared store is unreachable; try again shortly"),
);

/** What the storage threw, marked as such on its way through the store's own code. */
class StorageFailure {
  constructor(readonly cause: unknown) {}
}

/** `storage` (what the store's operations use of it) with each rejection a `StorageFailure`. */
function marked(storage: HandleStorage): Omit<HandleStorage, "dropSession"> {
  const mark = (error: unknown): never => {
    throw new StorageFailure(error);
  };
  return {
    get: (sessionId, id) => storage.get(sessionId, id).catch(mark),
    value: (sessionId, id) => storage.value(sessionId, id).catch(mark),
    put: (handle) => storage.put(handle).catch(mark),
    touch: (sessionId, id, lastUsed) => storage.touch(sessionId, id, lastUsed).catch(mark),
    delete: (sessionId, id) => storage.delete(sessionId, id).catch(mark),
    oldest: (sessionId) => storage.oldest(sessionId).catch(mark),
    usage: (sessionId) => storage.usage(sessionId).catch(mark),
    nextNumber: (sessionId) => storage.nextNumber(sessionId).catch(mark),
  };
}

function reportStorageError(error: unknown, sessionId: string): void {
  console.error(`zcp: the handle storage failed in session ${sessionId}:`, error);
}

const TTL_UNITS: readonly (readonly [string, number])[] = [
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1000],
];

function positive(name: string, value: number): number {
  if (typeof value !== "number" || !(value > 0))
    throw new RangeError(`HandleStore: ${name} must be a positive number, got ${String(value)}`);
  return value;
}

function expired(id: string): CallError {
  return failure(
    `expired:${id}`,
    `${id} has expired or does not exist in this session: call the tool that made it again`,
  );
}

function info(record: HandleRecord): HandleInfo {
  const { id, kind, summary, size, hash, count } = record;
  return { ok: true, id, kind, summary, size, hash, ...(count === undefined ? {} : { count }) };
}

/** Digits of a random id: the first 1-9, then 29 more: log2(9) + 29·log2(10) = 99.5 bits. */
const RANDOM_ID_DIGITS = 30;

/**
 * The number part of a random id: `RANDOM_ID_DIGITS` digits from `crypto.getRandomValues`,
 * uniform (bytes of 250 and more are drawn again, so that no digit is likelier). Digits cost
 * the fewest o200k tokens per random bit of the alphabets measured (docs/sessions.md, "Handle ids"),
 * and the id stays within `HANDLE_ID_PATTERN`. No collision check: two equal ids among 2^99.5
 * are not a case to handle.
 */
function randomIdDigits(): string {
  let digits = "";
  while (digits.length < RANDOM_ID_DIGITS) {
    for (const byte of getRandomValues(new Uint8Array(RANDOM_ID_DIGITS * 2))) {
      if (byte >= 250) continue;
      if (digits.length === 0 && byte % 10 === 0) continue;
      digits += String(byte % 10);
      if (digits.length === RANDOM_ID_DIGITS) break;
    }
  }
  return digits;
}

function idLetter(kind: string): string {
  const first = kind.charAt(0);
  return /[A-Za-z]/.test(first) ? first.toUpperCase() : "G";
}

/** Compact JSON, or undefined for a value JSON cannot hold (a throwing `toJSON` included). */
function toJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) as string | undefined;
  } catch {
    return undefined;
  }
}

/** Items of a value whose JSON is a list; only a `toJSON` could make them differ from `length`. */
function listLength(value: unknown, json: string): number {
  if (Array.isArray(value) && !("toJSON" in value)) return value.length;
  return (JSON.parse(json) as unknown[]).length;
}

/** A kept value's JSON, parsed: a tool cannot change what is kept. */
function parse(json: string): JsonValue {
  return JSON.parse(json) as JsonValue;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const [size, unit] = bytes < MIB ? [bytes / 1024, "KiB"] : [bytes / MIB, "MiB"];
  // Rounded up, so that a size just over a limit never prints as the limit itself.
  return `${Math.ceil(size * 10) / 10} ${unit}`;
}

/**
 * `HandleStorage` on Redis, shared by every replica: each primitive is one round trip, and
 * each that writes is one Lua script, so byte totals and LRU orders stay exact while several
 * processes create, touch and evict at once.
 *
 * Keys, under `<prefix>:h:`:
 * - `rec:<session>:<id>`: the record (a hash); `val:<session>:<id>`: the value's JSON (a string).
 *   A handle id (`#T1`) holds no `:`, so a key names exactly one (session, id) pair.
 * - `lru:<session>` (members: ids) and `lru` (members: `<session>:<id>`): sorted sets scored by
 *   a global use sequence (`seq`), so the order is that of the uses across all replicas, even
 *   within one millisecond.
 * - `bytes:<session>` and `bytes`: the byte totals; entry counts are the sorted sets' sizes.
 * - `ctr:<session>`: the id counter (INCR: ids unique across replicas). It expires
 *   2 × `counterTtlMs` after the last create or touch, so it outlives the session's handles
 *   and an abandoned session leaves nothing behind.
 */
import type { HandleRecord, HandleStorage, HandleUsage, StoredHandle } from "@zcp/runtime";
import { Script, type RedisCommander } from "./client.js";

export interface RedisHandleStorageOptions {
  /** Key prefix (default "zcp"). */
  readonly prefix?: string;
  /**
   * The id counter of a session lives twice this long after its last create or touch (default
   * 20 min); keep it at least half the HandleStore's `ttlMs`, so that it outlives the handles.
   */
  readonly counterTtlMs?: number;
}

const PUT = new Script(`
local old = redis.call('HGET', KEYS[1], 'size')
if old then
  redis.call('DECRBY', KEYS[5], old)
  redis.call('DECRBY', KEYS[6], old)
  redis.call('DEL', KEYS[1])
end
redis.call('HSET', KEYS[1], 'sid', ARGV[1], 'id', ARGV[2], 'kind', ARGV[3], 'summary', ARGV[4],
  'size', ARGV[5], 'hash', ARGV[6], 'lastUsed', ARGV[7])
if ARGV[10] ~= '' then redis.call('HSET', KEYS[1], 'count', ARGV[10]) end
redis.call('SET', KEYS[2], ARGV[8])
local seq = redis.call('INCR', KEYS[7])
redis.call('ZADD', KEYS[3], seq, ARGV[2])
redis.call('ZADD', KEYS[4], seq, ARGV[9])
redis.call('INCRBY', KEYS[5], ARGV[5])
redis.call('INCRBY', KEYS[6], ARGV[5])
`);

const TOUCH = new Script(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'lastUsed', ARGV[3])
local seq = redis.call('INCR', KEYS[4])
redis.call('ZADD', KEYS[2], seq, ARGV[1])
redis.call('ZADD', KEYS[3], seq, ARGV[2])
redis.call('PEXPIRE', KEYS[5], ARGV[4])
return 1
`);

const DELETE = new Script(`
local size = redis.call('HGET', KEYS[1], 'size')
if not size then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[2])
if redis.call('DECRBY', KEYS[5], size) <= 0 then redis.call('DEL', KEYS[5]) end
redis.call('DECRBY', KEYS[6], size)
return 1
`);

const OLDEST = new Script(`
local first = redis.call('ZRANGE', KEYS[1], 0, 0)
if #first == 0 then return false end
return redis.call('HGETALL', ARGV[1] .. first[1])
`);

const USAGE = new Script(`
return { redis.call('GET', KEYS[1]) or '0', redis.call('ZCARD', KEYS[2]) }
`);

const NEXT = new Script(`
local next = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return next
`);

const DROP = new Script(`
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local freed = 0
for _, id in ipairs(ids) do
  local size = redis.call('HGET', ARGV[1] .. id, 'size')
  if size then freed = freed + tonumber(size) end
  redis.call('DEL', ARGV[1] .. id, ARGV[2] .. id)
  redis.call('ZREM', KEYS[4], ARGV[3] .. id)
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
if freed > 0 then redis.call('DECRBY', KEYS[5], freed) end
`);

export class RedisHandleStorage implements HandleStorage {
  readonly #redis: RedisCommander;
  readonly #prefix: string;
  /** The counter's PEXPIRE, as Redis reads it. */
  readonly #counterMs: string;

  constructor(redis: RedisCommander, options: RedisHandleStorageOptions = {}) {
    this.#redis = redis;
    this.#prefix = `${options.prefix ?? "zcp"}:h:`;
    this.#counterMs = String(2 * positive("counterTtlMs", options.counterTtlMs ?? 20 * 60_000));
  }

  async get(sessionId: string, id: string): Promise<HandleRecord | undefined> {
    return toRecord(await this.#redis.sendCommand(["HGETALL", this.#rec(sessionId, id)]));
  }

  async value(sessionId: string, id: string): Promise<string | undefined> {
    const json = await this.#redis.sendCommand(["GET", this.#key("val", sessionId, id)]);
    return typeof json === "string" ? json : undefined;
  }

  async put(handle: StoredHandle): Promise<void> {
    const { sessionId, id } = handle;
    await PUT.run(
      this.#redis,
      [...this.#handleKeys(sessionId, id), `${this.#prefix}seq`],
      [
        sessionId,
        id,
        handle.kind,
        handle.summary,
        String(handle.size),
        handle.hash,
        String(handle.lastUsed),
        handle.json,
        `${sessionId}:${id}`,
        handle.count === undefined ? "" : String(handle.count),
      ],
    );
  }

  async touch(sessionId: string, id: string, lastUsed: number): Promise<void> {
    await TOUCH.run(
      this.#redis,
      [
        this.#rec(sessionId, id),
        this.#key("lru", sessionId),
        `${this.#prefix}lru`,
        `${this.#prefix}seq`,
        this.#key("ctr", sessionId),
      ],
      [id, `${sessionId}:${id}`, String(lastUsed), this.#counterMs],
    );
  }

  async delete(sessionId: string, id: string): Promise<void> {
    await DELETE.run(this.#redis, this.#handleKeys(sessionId, id), [id, `${sessionId}:${id}`]);
  }

  async oldest(sessionId?: string): Promise<HandleRecord | undefined> {
    const [lru, records] =
      sessionId === undefined
        ? [`${this.#prefix}lru`, `${this.#prefix}rec:`]
        : [this.#key("lru", sessionId), `${this.#prefix}rec:${sessionId}:`];
    return toRecord(await OLDEST.run(this.#redis, [lru], [records]));
  }

  async usage(sessionId?: string): Promise<HandleUsage> {
    const keys =
      sessionId === undefined
        ? [`${this.#prefix}bytes`, `${this.#prefix}lru`]
        : [this.#key("bytes", sessionId), this.#key("lru", sessionId)];
    const [bytes, handles] = (await USAGE.run(this.#redis, keys, [])) as [string, number];
    return { bytes: Number(bytes), handles };
  }

  async nextNumber(sessionId: string): Promise<number> {
    return (await NEXT.run(
      this.#redis,
      [this.#key("ctr", sessionId)],
      [this.#counterMs],
    )) as number;
  }

  async dropSession(sessionId: string): Promise<void> {
    await DROP.run(
      this.#redis,
      [
        this.#key("lru", sessionId),
        this.#key("bytes", sessionId),
        this.#key("ctr", sessionId),
        `${this.#prefix}lru`,
        `${this.#prefix}bytes`,
      ],
      [`${this.#prefix}rec:${sessionId}:`, `${this.#prefix}val:${sessionId}:`, `${sessionId}:`],
    );
  }

  /**
   * The keys a handle's PUT and DELETE change, in their KEYS order: its record and value, then
   * the session's and the global LRU set and byte total.
   */
  #handleKeys(sessionId: string, id: string): string[] {
    return [
      this.#rec(sessionId, id),
      this.#key("val", sessionId, id),
      this.#key("lru", sessionId),
      `${this.#prefix}lru`,
      this.#key("bytes", sessionId),
      `${this.#prefix}bytes`,
    ];
  }

  #rec(sessionId: string, id: string): string {
    return this.#key("rec", sessionId, id);
  }

  #key(type: string, sessionId: string, id?: string): string {
    return `${this.#prefix}${type}:${sessionId}${id === undefined ? "" : `:${id}`}`;
  }
}

/** A record from HGETALL's flat reply, or undefined for none. */
function toRecord(reply: unknown): HandleRecord | undefined {
  if (!Array.isArray(reply) || reply.length === 0) return undefined;
  const fields = new Map<string, string>();
  for (let i = 0; i < reply.length; i += 2) fields.set(String(reply[i]), String(reply[i + 1]));
  const count = fields.get("count");
  return {
    sessionId: fields.get("sid")!,
    id: fields.get("id")!,
    kind: fields.get("kind")!,
    summary: fields.get("summary")!,
    size: Number(fields.get("size")),
    hash: fields.get("hash")!,
    lastUsed: Number(fields.get("lastUsed")),
    ...(count === undefined ? {} : { count: Number(count) }),
  };
}

export function positive(name: string, value: number): number {
  if (typeof value !== "number" || !(value > 0))
    throw new RangeError(`@zcp/redis: ${name} must be a positive number, got ${String(value)}`);
  return value;
}

/**
 * `SessionStore` on Redis: each session's state is one JSON string (`stateJson`) at
 * `<prefix>:session:<id>` with a PEXPIRE of `idleMs`, restarted by every load and save, and its
 * id in the sorted set `<prefix>:sessions`, scored by its last load or save (Redis' clock), so
 * that the states of all replicas together are counted and bounded: a new session past
 * `maxSessions` evicts the least recently used states (those sessions end), and expired ones
 * leave the set when the next new session is saved.
 *
 * A save is one Lua script that writes only over the state it was made from (compared by
 * SHA-1), so that two replicas saving one session at once cannot overwrite each other (the
 * loser gets the stored state back, merges and saves again: see `Session.save`), and only
 * over a state that is there: a session deleted (ended), expired or evicted is never brought
 * back by a save that was in flight, on any replica. A new session is written only where
 * nothing is.
 */
import { createHash } from "node:crypto";
import { stateJson, type SaveResult, type SessionState, type SessionStore } from "@zcp/runtime";
import { Script, type RedisCommander } from "./client.js";
import { positive } from "./handles.js";

export interface RedisSessionStoreOptions {
  /** Key prefix (default "zcp"). */
  readonly prefix?: string;
  /** A state lives this long after its last load or save (default 30 min). */
  readonly idleMs?: number;
  /**
   * Session states kept at most, of all replicas together (default 10,000): a new session's
   * state past it evicts the least recently used ones (those sessions end, as expired ones).
   */
  readonly maxSessions?: number;
}

/**
 * Redis' clock (the same for every replica) in microseconds, as a Lua local `now`: fine enough
 * that no two scripts share a score, so the least recently used is exact.
 */
const NOW = `local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])`;

/** KEYS[1] the state, KEYS[2] the set; ARGV[1] the time-to-live, ARGV[2] the id. */
const LOAD = new Script(`
local json = redis.call('GET', KEYS[1])
if not json then return false end
${NOW}
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], now, ARGV[2])
return json
`);

/**
 * KEYS[1] the state, KEYS[2] the set; ARGV[1] the new state, ARGV[2] the SHA-1 of the state it
 * was made from ('' for a new session), ARGV[3] the time-to-live, ARGV[4] the id, ARGV[5] the
 * most states kept, ARGV[6] the states' key prefix. Answers {'saved'}, {'gone'} or
 * {'changed', <the stored state>}.
 */
const SAVE = new Script(`
local current = redis.call('GET', KEYS[1])
if ARGV[2] == '' then
  if current then return {'changed', current} end
elseif not current then
  return {'gone'}
elseif redis.sha1hex(current) ~= ARGV[2] then
  return {'changed', current}
end
${NOW}
if not current then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[3]) * 1000)
  local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5]) + 1
  if over > 0 then
    for _, victim in ipairs(redis.call('ZRANGE', KEYS[2], 0, over - 1)) do
      redis.call('DEL', ARGV[6] .. victim)
    end
    redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], now, ARGV[4])
return {'saved'}
`);

/** KEYS[1] the state, KEYS[2] the set; ARGV[1] the id. */
const DELETE = new Script(`
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
`);

export class RedisSessionStore implements SessionStore {
  readonly #redis: RedisCommander;
  /** `<prefix>:session:`, which a state's key starts with. */
  readonly #prefix: string;
  readonly #set: string;
  readonly #idleMs: string;
  readonly #maxSessions: string;

  constructor(redis: RedisCommander, options: RedisSessionStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = `${options.prefix ?? "zcp"}:session:`;
    this.#set = `${options.prefix ?? "zcp"}:sessions`;
    this.#idleMs = String(positive("sessionIdleMs", options.idleMs ?? 30 * 60_000));
    const max = positive("maxSessions", options.maxSessions ?? 10_000);
    if (!Number.isInteger(max))
      throw new RangeError(`@zcp/redis: maxSessions must be an integer, got ${max}`);
    this.#maxSessions = String(max);
  }

  async load(id: string): Promise<SessionState | undefined> {
    const json = await LOAD.run(this.#redis, this.#keys(id), [this.#idleMs, id]);
    return typeof json === "string" ? (JSON.parse(json) as SessionState) : undefined;
  }

  async save(id: string, state: SessionState, base: string | undefined): Promise<SaveResult> {
    const baseHash = base === undefined ? "" : createHash("sha1").update(base).digest("hex");
    const [status, stored] = (await SAVE.run(this.#redis, this.#keys(id), [
      stateJson(state),
      baseHash,
      this.#idleMs,
      id,
      this.#maxSessions,
      this.#prefix,
    ])) as [string, string?];
    if (status === "changed") return { status, stored: JSON.parse(stored!) as SessionState };
    return { status: status === "saved" ? "saved" : "gone" };
  }

  async delete(id: string): Promise<void> {
    await DELETE.run(this.#redis, this.#keys(id), [id]);
  }

  async ping(): Promise<void> {
    await this.#redis.sendCommand(["PING"]);
  }

  /** The keys of `id`'s scripts: its state and the set of all. */
  #keys(id: string): string[] {
    return [this.#prefix + id, this.#set];
  }
}

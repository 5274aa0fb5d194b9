/**
 * `SessionStore` on Redis: each session's state is one JSON string (`stateJson`) at
 * `<prefix>:session:<id>` with a PEXPIRE of `idleMs`, restarted by every load and save. Its id is
 * in the sorted set `<prefix>:sessions` and in its client's, `<prefix>:client:<SHA-1 of the
 * client>` (the hash `<prefix>:owners` maps ids to clients), both scored by its last load or save
 * (Redis' clock), so that the states of all replicas together are counted, per client and in
 * all. A new session past `maxSessionsPerClient` states of its client evicts that client's least
 * recently used ones (those sessions end); past `maxSessions` live states in all it is refused
 * (`full`): one client can push out only its own states, never another's. The ids of expired
 * states leave the sets as new sessions are saved.
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
   * Session states kept at most, of all replicas together (default 10,000): a new session past
   * it is refused (`full`), whoever else's states fill it.
   */
  readonly maxSessions?: number;
  /**
   * Session states of one client kept at most, of all replicas together (default 100, the
   * server's own `maxSessionsPerClient`): a new session of that client past it evicts the
   * client's least recently used ones (those sessions end, as expired ones).
   */
  readonly maxSessionsPerClient?: number;
}

/** Expired ids a new session's save removes from the sets at most (the rest: by later saves). */
const SWEEP = 100;

/**
 * What every script starts with. KEYS[1] the state, KEYS[2] the set of all ids, KEYS[3] the
 * owners hash; ARGV[1] the id, ARGV[2] the time-to-live, ARGV[3] the states' key prefix, ARGV[4]
 * the clients' sets' key prefix. `now`: Redis' clock (the same for every replica) in
 * microseconds, fine enough that no two scripts share a score, so the least recently used is
 * exact. `touch(id)` scores it as used now, in all and in its client's set (which lives as long
 * as its last used state); `forget(id)` deletes its state and its place in the sets.
 */
const PREAMBLE = `
local set, owners, id, ttl, states, clients = KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local function touch(used)
  redis.call('ZADD', set, now, used)
  local owner = redis.call('HGET', owners, used)
  if owner then
    redis.call('ZADD', clients .. owner, now, used)
    redis.call('PEXPIRE', clients .. owner, ttl)
  end
end
local function forget(victim)
  redis.call('DEL', states .. victim)
  redis.call('ZREM', set, victim)
  local owner = redis.call('HGET', owners, victim)
  if owner then
    redis.call('ZREM', clients .. owner, victim)
    redis.call('HDEL', owners, victim)
  end
end`;

const LOAD = new Script(`${PREAMBLE}
local json = redis.call('GET', KEYS[1])
if not json then return false end
redis.call('PEXPIRE', KEYS[1], ttl)
touch(id)
return json
`);

/**
 * KEYS[4] the client's set; ARGV[5] the new state, ARGV[6] the SHA-1 of the state it was made
 * from ('' for a new session), ARGV[7] the most states kept, ARGV[8] the most of one client,
 * ARGV[9] the client (its SHA-1). Answers {'saved'}, {'gone'}, {'full'} or {'changed', <the
 * stored state>}. A new session's save removes at most SWEEP expired ids, then evicts the
 * client's least recently used states past its cap (expired ones first: they score lowest),
 * then counts the live states of all (ZCOUNT: the expired ids not yet removed do not count).
 */
const SAVE = new Script(`${PREAMBLE}
local current = redis.call('GET', KEYS[1])
if ARGV[6] == '' then
  if current then return {'changed', current} end
elseif not current then
  return {'gone'}
elseif redis.sha1hex(current) ~= ARGV[6] then
  return {'changed', current}
end
if not current then
  local dead = now - tonumber(ttl) * 1000
  for _, victim in ipairs(redis.call('ZRANGEBYSCORE', set, '-inf', dead, 'LIMIT', 0, ${SWEEP})) do
    forget(victim)
  end
  local over = redis.call('ZCARD', KEYS[4]) - tonumber(ARGV[8]) + 1
  if over > 0 then
    for _, victim in ipairs(redis.call('ZRANGE', KEYS[4], 0, over - 1)) do forget(victim) end
  end
  -- '%.0f': Lua's own number to string (%.14g) would round the microseconds.
  local live = redis.call('ZCOUNT', set, string.format('(%.0f', dead), '+inf')
  if live >= tonumber(ARGV[7]) then return {'full'} end
  redis.call('HSET', owners, id, ARGV[9])
end
redis.call('SET', KEYS[1], ARGV[5], 'PX', ttl)
touch(id)
return {'saved'}
`);

const DELETE = new Script(`${PREAMBLE}
forget(id)
`);

export class RedisSessionStore implements SessionStore {
  readonly #redis: RedisCommander;
  /** `<prefix>:session:`, which a state's key starts with. */
  readonly #states: string;
  /** `<prefix>:client:`, which a client's set's key starts with. */
  readonly #clients: string;
  readonly #set: string;
  readonly #owners: string;
  readonly #idleMs: string;
  readonly #maxSessions: string;
  readonly #maxPerClient: string;

  constructor(redis: RedisCommander, options: RedisSessionStoreOptions = {}) {
    const prefix = options.prefix ?? "zcp";
    this.#redis = redis;
    this.#states = `${prefix}:session:`;
    this.#clients = `${prefix}:client:`;
    this.#set = `${prefix}:sessions`;
    this.#owners = `${prefix}:owners`;
    this.#idleMs = String(positive("sessionIdleMs", options.idleMs ?? 30 * 60_000));
    this.#maxSessions = count("maxSessions", options.maxSessions ?? 10_000);
    this.#maxPerClient = count("maxSessionsPerClient", options.maxSessionsPerClient ?? 100);
  }

  async load(id: string): Promise<SessionState | undefined> {
    const json = await LOAD.run(this.#redis, this.#keys(id), this.#args(id));
    return typeof json === "string" ? (JSON.parse(json) as SessionState) : undefined;
  }

  async save(
    id: string,
    state: SessionState,
    base: string | undefined,
    client = "",
  ): Promise<SaveResult> {
    const baseHash = base === undefined ? "" : sha1(base);
    // Hashed: a fixed-length key, without the address or identity in it.
    const owner = sha1(client);
    const [status, stored] = (await SAVE.run(
      this.#redis,
      [...this.#keys(id), this.#clients + owner],
      [...this.#args(id), stateJson(state), baseHash, this.#maxSessions, this.#maxPerClient, owner],
    )) as [string, string?];
    if (status === "changed") return { status, stored: JSON.parse(stored!) as SessionState };
    return { status: status === "saved" || status === "full" ? status : "gone" };
  }

  async delete(id: string): Promise<void> {
    await DELETE.run(this.#redis, this.#keys(id), this.#args(id));
  }

  async ping(): Promise<void> {
    await this.#redis.sendCommand(["PING"]);
  }

  /** The keys every script of `id` starts with (see `PREAMBLE`). */
  #keys(id: string): string[] {
    return [this.#states + id, this.#set, this.#owners];
  }

  /** The arguments every script of `id` starts with (see `PREAMBLE`). */
  #args(id: string): string[] {
    return [id, this.#idleMs, this.#states, this.#clients];
  }
}

function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/** `value` as a script argument, once checked to be a positive integer. */
function count(name: string, value: number): string {
  positive(name, value);
  if (!Number.isInteger(value))
    throw new RangeError(`@zcp/redis: ${name} must be an integer, got ${value}`);
  return String(value);
}

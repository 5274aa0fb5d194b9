/**
 * `connectRedisStore`: one Redis connection shared by a `RedisHandleStorage` and a
 * `RedisSessionStore`. The first connection must succeed (a replica without its store would
 * hand out sessions no other replica can see); after it the client reconnects forever, with a
 * backoff capped at 1 s, and commands sent while it is disconnected reject at once (no offline
 * queue), so that calls answer `unavailable:store` instead of hanging. A command Redis has not
 * answered within `commandTimeoutMs` rejects too (a Redis that is frozen or unreachable without
 * its connection closing); the client keeps the command and matches its late reply to it, so
 * the replies of later commands stay in order.
 */
import { createClient } from "@redis/client";
import type { HandleStorage, SessionStore } from "@zcp/runtime";
import type { RedisCommander } from "./client.js";
import { positive, RedisHandleStorage } from "./handles.js";
import { RedisSessionStore } from "./sessions.js";

export interface RedisStoreOptions {
  /** redis://[user:pass@]host:port[/db] or rediss:// */
  readonly url: string;
  /** Key prefix (default "zcp"); keys are `<prefix>:...`. */
  readonly prefix?: string;
  /** A session's stored state lives this long after its last load/save (default 30 min). */
  readonly sessionIdleMs?: number;
  /**
   * Session states kept at most, of all replicas together (default 10,000): a new session past
   * it is refused.
   */
  readonly maxSessions?: number;
  /**
   * Session states of one client kept at most, of all replicas together (default 100): a new
   * session of that client past it evicts the client's least recently used ones (they end).
   */
  readonly maxSessionsPerClient?: number;
  /** How long the first connection may take before connectRedisStore rejects (default 5000). */
  readonly connectTimeoutMs?: number;
  /**
   * How long a command may wait for Redis's reply before it rejects (default 2000): a frozen
   * Redis makes calls answer `unavailable:store` after this, not hang.
   */
  readonly commandTimeoutMs?: number;
  /** A session's handle id counter lives twice this long after its last use (default 20 min). */
  readonly counterTtlMs?: number;
  /**
   * Told when the connection is lost (with the reason) and when it is back; default
   * console.error. Nothing else is logged: the failed commands are the callers' to report.
   */
  readonly log?: (message: string) => void;
}

export interface RedisStore {
  readonly handles: HandleStorage;
  readonly sessions: SessionStore;
  /** Resolves when Redis answers PING; rejects otherwise (at once while disconnected). */
  ping(): Promise<void>;
  /** Closes the connection (commands sent after it reject). */
  close(): Promise<void>;
}

/** Reconnection waits 50 ms, doubling up to this. */
const MAX_BACKOFF_MS = 1000;

/**
 * Connects; rejects with `Error("cannot reach Redis at <url without password>: <reason>")`
 * when the first connection fails within `connectTimeoutMs`.
 */
export async function connectRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const where = redact(options.url);
  const timeoutMs = positive("connectTimeoutMs", options.connectTimeoutMs ?? 5000);
  const commandMs = positive("commandTimeoutMs", options.commandTimeoutMs ?? 2000);
  const log = options.log ?? ((message: string) => console.error(message));
  let connected = false;
  let lost = false;
  const client = createClient({
    url: options.url,
    RESP: 2,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: timeoutMs,
      // Before the first connection: no retry, connect() rejects with the cause.
      reconnectStrategy: (retries, cause) =>
        connected ? Math.min(50 * 2 ** retries, MAX_BACKOFF_MS) : cause,
    },
  });
  // Unheard, an 'error' event would be thrown: the reconnection loop reports through `log`.
  client.on("error", (error: unknown) => {
    if (!connected || lost) return;
    lost = true;
    log(`zcp: lost the connection to Redis at ${where}: ${reason(error)}; reconnecting`);
  });
  client.on("ready", () => {
    if (lost) log(`zcp: reconnected to Redis at ${where}`);
    lost = false;
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      // Connected is not enough: something that is not Redis may listen there.
      client.connect().then(() => client.sendCommand(["PING"])),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    client.destroy();
    throw new Error(`cannot reach Redis at ${where}: ${reason(error)}`);
  } finally {
    clearTimeout(timer);
  }
  connected = true;
  const redis: RedisCommander = {
    sendCommand: (args) => answered(client.sendCommand(args), commandMs),
  };
  const prefix = options.prefix ?? "zcp";
  return {
    handles: new RedisHandleStorage(redis, {
      prefix,
      ...(options.counterTtlMs === undefined ? {} : { counterTtlMs: options.counterTtlMs }),
    }),
    sessions: new RedisSessionStore(redis, {
      prefix,
      ...(options.sessionIdleMs === undefined ? {} : { idleMs: options.sessionIdleMs }),
      ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }),
      ...(options.maxSessionsPerClient === undefined
        ? {}
        : { maxSessionsPerClient: options.maxSessionsPerClient }),
    }),
    async ping() {
      await redis.sendCommand(["PING"]);
    },
    async close() {
      if (client.isOpen) await client.close();
    },
  };
}

/**
 * The URL without its password, as errors and logs show it. Throws a TypeError for one that is
 * not a redis:// or rediss:// URL.
 */
function redact(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:"))
    throw new TypeError(
      `not a Redis URL: ${JSON.stringify(String(url).replace(/:[^:@/]*@/, "@"))} (expected redis://[user:password@]host:port[/db] or rediss://...)`,
    );
  parsed.password = "";
  return parsed.toString().replace(/\/$/, "");
}

function reason(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reason(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** `reply`, or a rejection once `ms` passed without it (the timer does not keep the process alive). */
function answered<T>(reply: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([reply, late]).finally(() => clearTimeout(timer));
}

/**
 * One throwaway redis-server per test file (tools/redis-server.ts), a fresh key prefix per
 * test, and the connections a test opened closed after it.
 */
import { createClient } from "@redis/client";
import { afterAll, afterEach, beforeAll } from "vitest";
import { redisAvailable, startRedis, type RedisServer } from "../../../tools/redis-server.js";
import { connectRedisStore, type RedisStore, type RedisStoreOptions } from "../src/index.js";

/** Why the Redis tests cannot run here, or null (under CI a missing redis-server throws). */
export const unavailable = redisAvailable();

export function useRedis() {
  let server: RedisServer | undefined;
  const open: { close(): Promise<unknown> }[] = [];
  let tests = 0;
  beforeAll(async () => {
    if (unavailable === null) server = await startRedis();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close().catch(() => {})));
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    get server(): RedisServer {
      return server!;
    },
    /** A prefix no other test uses. */
    prefix(): string {
      return `t${++tests}`;
    },
    async connect(options: Partial<RedisStoreOptions> = {}): Promise<RedisStore> {
      const store = await connectRedisStore({ url: server!.url, log: () => {}, ...options });
      open.push(store);
      return store;
    },
    /** A plain client, to look at the keys the stores wrote. */
    async raw() {
      const client = createClient({ url: server!.url });
      client.on("error", () => {});
      await client.connect();
      open.push(client);
      return client;
    },
  };
}

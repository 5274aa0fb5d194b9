/**
 * The connection's faults on a real redis-server: unreachable at start (exact messages, the
 * password never shown), something that is not Redis, a bad URL, and Redis stopped mid-run:
 * commands reject at once, calls answer `unavailable:store`, and all recovers after a restart.
 */
import { createServer, type Server } from "node:net";
import { createRuntime, HandleStore } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import { connectRedisStore } from "../src/index.js";
import { unavailable, useRedis } from "./harness.js";

/** A port nothing listens on: one that was free a moment ago. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits until `check` resolves true, polling every 20 ms, for at most 5 s. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("not within 5 s");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("connectRedisStore at start", () => {
  it("rejects at once when nothing listens, without the password", async () => {
    const port = await closedPort();
    const started = Date.now();
    await expect(
      connectRedisStore({ url: `redis://app:s3cret@127.0.0.1:${port}/2` }),
    ).rejects.toThrow(
      new Error(
        `cannot reach Redis at redis://app@127.0.0.1:${port}/2: connect ECONNREFUSED 127.0.0.1:${port}`,
      ),
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("rejects after connectTimeoutMs when the server there does not answer", async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    try {
      await expect(
        connectRedisStore({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 200 }),
      ).rejects.toThrow(
        new Error(`cannot reach Redis at redis://127.0.0.1:${port}: no answer within 200 ms`),
      );
    } finally {
      silent.close();
    }
  });

  it("refuses what is not a Redis URL, without its password", async () => {
    await expect(connectRedisStore({ url: "http://u:pw@localhost:6379" })).rejects.toThrow(
      new TypeError(
        'not a Redis URL: "http://u@localhost:6379" (expected redis://[user:password@]host:port[/db] or rediss://...)',
      ),
    );
  });
});

describe.skipIf(unavailable)("Redis stopped mid-run", () => {
  const redis = useRedis();

  it("fails fast while it is down, answers unavailable:store, and recovers after a restart", async () => {
    const logged: string[] = [];
    const store = await redis.connect({ prefix: redis.prefix(), log: (line) => logged.push(line) });
    const reported: string[] = [];
    const runtime = createRuntime(kitchen, {
      handles: new HandleStore({
        storage: store.handles,
        onStorageError: (error) => reported.push((error as Error).message),
      }),
      sessions: store.sessions,
    });
    const session = runtime.session({ stage: "discover" });
    expect(await session.call("tables.load", { name: "t" })).toMatchObject({ handle: "#T1" });
    await session.save();

    await redis.server.stop();
    await eventually(async () => logged.length > 0);
    expect(logged).toEqual([
      `zcp: lost the connection to Redis at ${redis.server.url}: Socket closed unexpectedly; reconnecting`,
    ]);
    const started = Date.now();
    const unavailableStore = {
      ok: false,
      error: "unavailable:store",
      hint: "the shared store is unreachable; try again shortly",
    };
    expect(await session.call("tables.load", { name: "t" })).toEqual(unavailableStore);
    expect(await session.call("zcp.handle", { op: "read", handle: "#T1" })).toEqual(
      unavailableStore,
    );
    expect(await runtime.handles.read(session.id, "#T1")).toEqual(unavailableStore);
    await expect(store.ping()).rejects.toThrow("The client is offline");
    await expect(runtime.resume(session.id)).rejects.toThrow("The client is offline");
    session.setStage("operate");
    await expect(session.save()).rejects.toThrow("The client is offline");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(reported).toEqual(Array(3).fill("The client is offline"));

    await redis.server.restart();
    await eventually(() =>
      store.ping().then(
        () => true,
        () => false,
      ),
    );
    expect(logged.at(-1)).toBe(`zcp: reconnected to Redis at ${redis.server.url}`);
    // The restarted Redis kept nothing (no persistence): the handle is gone, the rest works.
    expect(await session.call("zcp.handle", { op: "read", handle: "#T1" })).toMatchObject({
      error: "expired:#T1",
    });
    // Its state too: the session ended with it, and a save does not bring it back.
    expect(await session.save()).toBe(false);
    expect(await runtime.resume(session.id)).toBeUndefined();
    const fresh = runtime.session({ stage: "discover" });
    expect(await fresh.call("tables.load", { name: "t" })).toMatchObject({ handle: "#T1" });
    expect(await fresh.save()).toBe(true);
    expect((await runtime.resume(fresh.id))!.stage).toBe("discover");
  });
});

describe.skipIf(unavailable)("Redis frozen mid-run (its connection open, no answers)", () => {
  const redis = useRedis();

  it("answers unavailable:store after commandTimeoutMs, and serves on once it answers again", async () => {
    const store = await redis.connect({ prefix: redis.prefix(), commandTimeoutMs: 300 });
    const runtime = createRuntime(kitchen, {
      handles: new HandleStore({ storage: store.handles, onStorageError: () => {} }),
      sessions: store.sessions,
    });
    const session = runtime.session({ stage: "discover" });
    expect(await session.call("tables.load", { name: "t" })).toMatchObject({ handle: "#T1" });

    redis.server.freeze();
    try {
      const started = Date.now();
      expect(await session.call("zcp.handle", { op: "read", handle: "#T1" })).toEqual({
        ok: false,
        error: "unavailable:store",
        hint: "the shared store is unreachable; try again shortly",
      });
      await expect(store.ping()).rejects.toThrow("Redis did not answer within 300 ms");
      await expect(session.save()).rejects.toThrow("Redis did not answer within 300 ms");
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      redis.server.thaw();
    }
    // The late replies went to the commands that timed out: later ones get their own.
    await store.ping();
    expect(await session.call("zcp.handle", { op: "count", handle: "#T1" })).toEqual({
      ok: true,
      value: { count: 3 },
    });
  });
});

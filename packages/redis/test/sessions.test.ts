/**
 * `RedisSessionStore` on a real Redis: states shared by replicas, their idle time-to-live, and
 * the runtime's resume/save/refresh/close over it with two connections (two replicas).
 */
import { createRuntime, type SessionState } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import { RedisSessionStore } from "../src/index.js";
import { unavailable, useRedis } from "./harness.js";

const state: SessionState = {
  surface: "mcp",
  stage: "operate",
  found: ["tload"],
  findFormat: "mcp",
  data: { method: "initialize", params: { protocolVersion: "2025-06-18" } },
};

describe.skipIf(unavailable)("RedisSessionStore", () => {
  const redis = useRedis();

  it("saves, loads (last write wins) and deletes; ping answers", async () => {
    const prefix = redis.prefix();
    const one = (await redis.connect({ prefix })).sessions;
    const two = (await redis.connect({ prefix })).sessions;
    expect(await two.load("s")).toBeUndefined();
    await one.save("s", state);
    expect(await two.load("s")).toEqual(state);
    await two.save("s", { ...state, stage: null });
    expect(await one.load("s")).toEqual({ ...state, stage: null });
    await one.delete("s");
    await one.delete("s");
    expect(await two.load("s")).toBeUndefined();
    await expect(one.ping()).resolves.toBeUndefined();
    const raw = await redis.raw();
    await one.save("s", state);
    expect(JSON.parse((await raw.get(`${prefix}:session:s`))!)).toEqual(state);
  });

  it("forgets a state sessionIdleMs after its last load or save", async () => {
    const prefix = redis.prefix();
    const store = (await redis.connect({ prefix, sessionIdleMs: 60_000 })).sessions;
    const raw = await redis.raw();
    const key = `${prefix}:session:s`;
    const ttl = async () => raw.pTTL(key);
    await store.save("s", state);
    expect(await ttl()).toBeGreaterThan(59_000);
    // Time passes (the TTL runs down); a load restarts it, as a save does.
    await raw.pExpire(key, 5000);
    expect(await store.load("s")).toEqual(state);
    expect(await ttl()).toBeGreaterThan(59_000);
    await raw.pExpire(key, 5000);
    await store.save("s", { ...state, stage: null });
    expect(await ttl()).toBeGreaterThan(59_000);
    // The TTL ran out: gone.
    await raw.pExpire(key, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.load("s")).toBeUndefined();
  });

  it("refuses an idle time that is not positive", () => {
    expect(() => new RedisSessionStore({ sendCommand: async () => null }, { idleMs: -1 })).toThrow(
      "@zcp/redis: sessionIdleMs must be a positive number, got -1",
    );
  });

  it("lets one runtime resume, refresh and end the sessions of another", async () => {
    const prefix = redis.prefix();
    const replica = async () => {
      const store = await redis.connect({ prefix });
      return createRuntime(kitchen, {
        exposure: { defaults: { "*": { profile: "discover" } } },
        handles: { storage: store.handles },
        sessions: store.sessions,
      });
    };
    const [a, b] = [await replica(), await replica()];
    const session = a.session({ surface: "mcp", data: "hello" });
    await session.call("zcp.find_tools", { query: "load a table of rows", limit: 1 });
    expect(await session.call("tables.load", { name: "t" })).toMatchObject({ handle: "#T1" });
    await session.save();

    const there = (await b.resume(session.id))!;
    expect(there.state).toEqual(session.state);
    expect(await there.call("tables.load", { name: "u" })).toMatchObject({ handle: "#T2" });
    expect(await there.call("zcp.handle", { op: "count", handle: "#T1" })).toEqual({
      ok: true,
      value: { count: 3 },
    });
    there.setStage("operate");
    await there.save();
    expect(await session.refresh()).toBe(true);
    expect(session.stage).toBe("operate");

    await there.close();
    expect(await session.refresh()).toBe(false);
    expect(await a.handles.usage(session.id)).toEqual({ bytes: 0, handles: 0 });
  });
});

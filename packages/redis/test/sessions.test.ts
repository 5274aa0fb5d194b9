/**
 * `RedisSessionStore` on a real Redis: states shared by replicas, their idle time-to-live, and
 * the runtime's resume/save/refresh/close over it with two connections (two replicas).
 */
import { createRuntime, stateJson, type SessionState } from "@zcp/runtime";
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

  it("saves only over the state a save was made from, loads and deletes; ping answers", async () => {
    const prefix = redis.prefix();
    const one = (await redis.connect({ prefix })).sessions;
    const two = (await redis.connect({ prefix })).sessions;
    const next = { ...state, stage: null };
    expect(await two.load("s")).toBeUndefined();
    expect(await one.save("s", state, undefined)).toEqual({ status: "saved" });
    expect(await two.load("s")).toEqual(state);
    // A second new session by that id, or a save made from another state: not written.
    expect(await two.save("s", next, undefined)).toEqual({ status: "changed", stored: state });
    expect(await two.save("s", next, stateJson(next))).toEqual({
      status: "changed",
      stored: state,
    });
    expect(await two.save("s", next, stateJson(state))).toEqual({ status: "saved" });
    expect(await one.load("s")).toEqual(next);
    await one.delete("s");
    await one.delete("s");
    expect(await two.load("s")).toBeUndefined();
    // A save in flight when the session ended does not bring it back.
    expect(await two.save("s", state, stateJson(next))).toEqual({ status: "gone" });
    expect(await one.load("s")).toBeUndefined();
    await expect(one.ping()).resolves.toBeUndefined();
    const raw = await redis.raw();
    await one.save("t", state, undefined);
    expect(await raw.get(`${prefix}:session:t`)).toBe(stateJson(state));
  });

  it("forgets a state sessionIdleMs after its last load or save", async () => {
    const prefix = redis.prefix();
    const store = (await redis.connect({ prefix, sessionIdleMs: 60_000 })).sessions;
    const raw = await redis.raw();
    const key = `${prefix}:session:s`;
    const ttl = async () => raw.pTTL(key);
    await store.save("s", state, undefined);
    expect(await ttl()).toBeGreaterThan(59_000);
    // Time passes (the TTL runs down); a load restarts it, as a save does.
    await raw.pExpire(key, 5000);
    expect(await store.load("s")).toEqual(state);
    expect(await ttl()).toBeGreaterThan(59_000);
    await raw.pExpire(key, 5000);
    expect(await store.save("s", { ...state, stage: null }, stateJson(state))).toEqual({
      status: "saved",
    });
    expect(await ttl()).toBeGreaterThan(59_000);
    // The TTL ran out: gone.
    await raw.pExpire(key, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await store.load("s")).toBeUndefined();
  });

  it("counts each client's states across replicas: past its cap a new one evicts its own least recently used", async () => {
    const prefix = redis.prefix();
    const options = { prefix, maxSessionsPerClient: 3 };
    const one = (await redis.connect(options)).sessions;
    const two = (await redis.connect(options)).sessions;
    const raw = await redis.raw();
    for (const id of ["x1", "x2", "x3"]) await one.save(id, state, undefined, "10.0.0.1");
    expect(await two.save("y1", state, undefined, "10.0.0.2")).toEqual({ status: "saved" });
    // x1 used again (on the other replica): x2 is now the client's least recently used.
    expect(await two.load("x1")).toEqual(state);
    expect(await two.save("x4", state, undefined, "10.0.0.1")).toEqual({ status: "saved" });
    expect(await raw.zRange(`${prefix}:sessions`, 0, -1)).toEqual(["x3", "y1", "x1", "x4"]);
    expect(await one.load("x2")).toBeUndefined();
    expect(await raw.exists(`${prefix}:session:x2`)).toBe(0);
    expect(await raw.hExists(`${prefix}:owners`, "x2")).toBe(0);
    // The evicted session stays ended: a save made from its state brings nothing back.
    expect(await one.save("x2", state, stateJson(state))).toEqual({ status: "gone" });
    // Another client's state was not touched; a delete leaves no trace in the sets and hash.
    expect(await one.load("y1")).toEqual(state);
    await one.delete("x3");
    expect(await raw.zRange(`${prefix}:sessions`, 0, -1)).toEqual(["x1", "x4", "y1"]);
    expect((await raw.hKeys(`${prefix}:owners`)).sort()).toEqual(["x1", "x4", "y1"]);
  });

  it("refuses a new session past maxSessions of all clients instead of evicting another's", async () => {
    const prefix = redis.prefix();
    const options = { prefix, maxSessions: 3, maxSessionsPerClient: 2 };
    const one = (await redis.connect(options)).sessions;
    const two = (await redis.connect(options)).sessions;
    await one.save("y1", state, undefined, "10.0.0.2");
    await one.save("z1", state, undefined, "10.0.0.3");
    await two.save("x1", state, undefined, "10.0.0.1");
    // Full: a client below its cap is refused, nothing is evicted.
    expect(await two.save("w1", state, undefined, "10.0.0.4")).toEqual({ status: "full" });
    expect(await one.load("w1")).toBeUndefined();
    // A client at its cap makes room with its own least recently used state.
    await one.delete("z1");
    expect(await two.save("x2", state, undefined, "10.0.0.1")).toEqual({ status: "saved" });
    expect(await two.save("x3", state, undefined, "10.0.0.1")).toEqual({ status: "saved" });
    expect(await one.load("x1")).toBeUndefined();
    expect(await one.load("y1")).toEqual(state);
    expect(await one.load("x2")).toEqual(state);
  });

  it("drops expired states from the count when a new session is saved", async () => {
    const prefix = redis.prefix();
    const store = (await redis.connect({ prefix, sessionIdleMs: 100, maxSessions: 2 })).sessions;
    const raw = await redis.raw();
    await store.save("old1", state, undefined, "a");
    await store.save("old2", state, undefined, "b");
    expect(await store.save("old3", state, undefined, "c")).toEqual({ status: "full" });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await store.save("new", state, undefined, "a")).toEqual({ status: "saved" });
    expect(await raw.zRange(`${prefix}:sessions`, 0, -1)).toEqual(["new"]);
    expect(await raw.hKeys(`${prefix}:owners`)).toEqual(["new"]);
    // The clients' sets went with their last states (client "b"'s emptied, client "a"'s holds "new").
    expect((await raw.keys(`${prefix}:client:*`)).length).toBe(1);
  });

  it("refuses an idle time that is not positive, and caps that are not positive integers", () => {
    const redis = { sendCommand: async () => null };
    expect(() => new RedisSessionStore(redis, { idleMs: -1 })).toThrow(
      "@zcp/redis: sessionIdleMs must be a positive number, got -1",
    );
    expect(() => new RedisSessionStore(redis, { maxSessions: 0 })).toThrow(
      "@zcp/redis: maxSessions must be a positive number, got 0",
    );
    expect(() => new RedisSessionStore(redis, { maxSessions: 1.5 })).toThrow(
      "@zcp/redis: maxSessions must be an integer, got 1.5",
    );
    expect(() => new RedisSessionStore(redis, { maxSessionsPerClient: 2.5 })).toThrow(
      "@zcp/redis: maxSessionsPerClient must be an integer, got 2.5",
    );
  });

  /** Two runtimes of the kitchen sink (discover profile), each on its own connection to one prefix. */
  async function replicas() {
    const prefix = redis.prefix();
    const replica = async () => {
      const store = await redis.connect({ prefix });
      return createRuntime(kitchen, {
        exposure: { defaults: { "*": { profile: "discover" } } },
        handles: { storage: store.handles },
        sessions: store.sessions,
      });
    };
    return [await replica(), await replica(), prefix] as const;
  }

  it("lets one runtime resume, refresh and end the sessions of another", async () => {
    const [a, b] = await replicas();
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

  it("two replicas finding tools at once keep both finds; a save after the end brings nothing back", async () => {
    const [a, b, prefix] = await replicas();
    const idOf = (alias: string) => kitchen.registry.tools.find((tool) => tool.alias === alias)!.id;
    const here = a.session({ surface: "mcp" });
    await here.save();
    const there = (await b.resume(here.id))!;
    await here.call("zcp.find_tools", { query: "load a table of rows", limit: 1 });
    await there.call("zcp.find_tools", { query: "sum a column of a table handle", limit: 1 });
    // Both saves sent at once, each made from the same stored state.
    expect(await Promise.all([here.save(), there.save()])).toEqual([true, true]);
    const both = [idOf("tables.load"), idOf("tables.sum")].sort();
    const fresh = (await a.resume(here.id))!;
    expect([...fresh.state.found].sort()).toEqual(both);

    // Ended on `a`; a save on `b` made before it lands after it.
    await fresh.close();
    there.setStage("operate");
    expect(await there.save()).toBe(false);
    expect(await a.resume(here.id)).toBeUndefined();
    const raw = await redis.raw();
    expect(await raw.exists(`${prefix}:session:${here.id}`)).toBe(0);
  });
});

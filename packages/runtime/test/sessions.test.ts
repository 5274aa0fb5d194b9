/**
 * Session state shared by replicas: two runtimes on one `MemorySessionStore` and one
 * `MemoryHandleStorage` stand for two processes on one shared store. Resume, save, refresh,
 * close (ending or unloading), the store's time-to-live, and storage failures answering
 * `unavailable:store`.
 */
import { describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import {
  createRuntime,
  HandleStore,
  MemoryHandleStorage,
  MemorySessionStore,
  type GeneratedModule,
  type HandleStorage,
  type RuntimeOptions,
  type SessionState,
  stateJson,
  type SessionStore,
  type View,
} from "../src/index.js";

const discover = { exposure: { defaults: { "*": { profile: "discover" as const } } } };

/** Two runtimes sharing one session store and one handle storage: two replicas. */
function replicas(generated: GeneratedModule, options: RuntimeOptions = {}) {
  const sessions = new MemorySessionStore();
  const storage = new MemoryHandleStorage();
  const make = () => createRuntime(generated, { ...options, sessions, handles: { storage } });
  return { a: make(), b: make(), sessions, storage };
}

/** Counts the saves that reach the store. */
class CountingStore extends MemorySessionStore {
  saves = 0;
  override async save(id: string, state: SessionState, base: string | undefined) {
    this.saves++;
    return super.save(id, state, base);
  }
}

const aliases = (view: View) => view.tools.map((tool) => tool.alias);

describe("resume", () => {
  it("continues on another runtime: stage, found tools in order, find format, data and handles", async () => {
    const { a, b } = replicas(kitchen, discover);
    const first = a.session({ surface: "mcp", data: { client: "x" } });
    await first.call("zcp.find_tools", { query: "load table rows", limit: 1 });
    await first.call("zcp.find_tools", { query: "sum a column of a table handle", limit: 1 });
    first.setStage("discover");
    first.setFindFormat("planner");
    const loaded = await first.call("tables.load", { name: "t" });
    expect(loaded).toMatchObject({ ok: true, handle: "#T1" });
    await first.save();

    const second = await b.resume(first.id);
    expect(second).toBeDefined();
    expect(second!.id).toBe(first.id);
    expect(second!.state).toEqual({
      surface: "mcp",
      stage: "discover",
      found: [
        kitchen.registry.tools.find((tool) => tool.alias === "tables.load")!.id,
        kitchen.registry.tools.find((tool) => tool.alias === "tables.sum")!.id,
      ],
      findFormat: "planner",
      data: { client: "x" },
    });
    expect(second!.data).toEqual({ client: "x" });
    expect(second!.exposed.hash).toBe(first.exposed.hash);
    second!.setStage("operate");
    expect(await second!.call("tables.sum", { rows: "#T1", column: "qty" })).toEqual({
      ok: true,
      value: 3,
    });
    // Handle ids stay unique across replicas: the counter is the shared storage's.
    second!.setStage("discover");
    expect(await second!.call("tables.load", { name: "u" })).toMatchObject({ handle: "#T2" });
  });

  it("answers undefined for an unknown id, and without a store", async () => {
    const { a } = replicas(weather);
    expect(await a.resume("no-such-session")).toBeUndefined();
    const alone = createRuntime(weather);
    const session = alone.session();
    await session.save();
    expect(await alone.resume(session.id)).toBeUndefined();
  });

  it("leaves out found tools this registry does not know", async () => {
    const sessions = new MemorySessionStore();
    await sessions.save(
      "s1",
      {
        surface: "mcp",
        stage: null,
        found: ["gone", weather.registry.tools[0]!.id],
        findFormat: "mcp",
      },
      undefined,
    );
    const session = await createRuntime(weather, { ...discover, sessions }).resume("s1");
    expect(session!.state.found).toEqual([weather.registry.tools[0]!.id]);
    expect(aliases(session!.exposed)).toEqual(["zcp.find_tools", "math.average"]);
  });

  it("rejects when the store does", async () => {
    const sessions: SessionStore = {
      load: () => Promise.reject(new Error("down")),
      save: () => Promise.reject(new Error("down")),
      delete: () => Promise.reject(new Error("down")),
      ping: () => Promise.reject(new Error("down")),
    };
    const runtime = createRuntime(weather, { sessions });
    await expect(runtime.resume("x")).rejects.toThrow("down");
    const session = runtime.session();
    session.setStage("s");
    await expect(session.save()).rejects.toThrow("down");
    await expect(session.refresh()).rejects.toThrow("down");
  });
});

describe("save", () => {
  it("writes only what changed since the last save or load", async () => {
    const sessions = new CountingStore();
    const runtime = createRuntime(weather, { sessions });
    const session = runtime.session({ surface: "mcp" });
    await session.save();
    await session.save();
    expect(sessions.saves).toBe(1);
    session.setData({ protocolVersion: "2025-06-18" });
    await session.save();
    expect(sessions.saves).toBe(2);
    const resumed = await createRuntime(weather, { sessions }).resume(session.id);
    await resumed!.save();
    expect(sessions.saves).toBe(2);
    resumed!.setStage("other");
    await resumed!.save();
    expect(sessions.saves).toBe(3);
    expect(await sessions.load(session.id)).toEqual({
      surface: "mcp",
      stage: "other",
      found: [],
      findFormat: "mcp",
      data: { protocolVersion: "2025-06-18" },
    });
  });

  it("is a no-op without a store", async () => {
    const session = createRuntime(weather).session();
    await expect(session.save()).resolves.toBe(true);
    await expect(session.refresh()).resolves.toBe(true);
  });
});

describe("refresh", () => {
  it("applies what another replica saved and tells the listeners when the view changed", async () => {
    const { a, b } = replicas(weather, discover);
    const here = a.session({ surface: "mcp" });
    await here.save();
    const there = (await b.resume(here.id))!;
    await there.call("zcp.find_tools", { query: "average numbers", limit: 1 });
    there.setFindFormat("typescript");
    there.setData("identity");
    await there.save();

    const views: string[][] = [];
    here.onChange((view) => views.push(aliases(view)));
    expect(await here.refresh()).toBe(true);
    expect(views).toEqual([["zcp.find_tools", "math.average"]]);
    expect(here.state).toEqual(there.state);
    expect(here.findFormat).toBe("typescript");
    expect(here.data).toBe("identity");
    // Nothing new: no listener call; the loaded state counts as saved.
    expect(await here.refresh()).toBe(true);
    expect(views).toHaveLength(1);

    there.setData(undefined);
    await there.save();
    expect(await here.refresh()).toBe(true);
    expect(here.data).toBeUndefined();
    expect(views).toHaveLength(1);
  });

  it("answers false once the session ended elsewhere", async () => {
    const { a, b } = replicas(weather);
    const here = a.session();
    await here.save();
    const there = (await b.resume(here.id))!;
    await there.close();
    expect(await here.refresh()).toBe(false);
  });
});

describe("close", () => {
  it("ends the session everywhere by default: stored state and handles gone", async () => {
    const { a, b, sessions, storage } = replicas(kitchen);
    const session = a.session({ stage: "discover" });
    await session.call("tables.load", { name: "t" });
    await session.save();
    await session.close();
    expect(await sessions.load(session.id)).toBeUndefined();
    expect(await storage.usage(session.id)).toEqual({ bytes: 0, handles: 0 });
    expect(await b.resume(session.id)).toBeUndefined();
  });

  it("with keep, unloads it here only: another replica resumes it with its handles", async () => {
    const { a, b } = replicas(kitchen);
    const session = a.session({ stage: "discover" });
    await session.call("tables.load", { name: "t" });
    await session.save();
    await session.close("the replica is shutting down", { keep: true });
    expect(await session.call("tables.load", { name: "t" })).toEqual({
      ok: false,
      error: "cancelled",
      hint: "the replica is shutting down",
    });
    const resumed = (await b.resume(session.id))!;
    expect(await resumed.call("zcp.handle", { op: "count", handle: "#T1" })).toEqual({
      ok: true,
      value: { count: 3 },
    });
  });
});

describe("replicas saving one session at once (issue 27, item 8)", () => {
  const idOf = (alias: string) => kitchen.registry.tools.find((tool) => tool.alias === alias)!.id;

  it("keeps what both found: the later save merges with the earlier one and saves the union", async () => {
    const { a, b, sessions } = replicas(kitchen, discover);
    const here = a.session({ surface: "mcp" });
    await here.save();
    const there = (await b.resume(here.id))!;
    // Both find before either saves: each save is made from the same stored state.
    await here.call("zcp.find_tools", { query: "load table rows", limit: 1 });
    await there.call("zcp.find_tools", { query: "sum a column of a table handle", limit: 1 });
    there.setStage("operate");
    const views: string[][] = [];
    here.onChange((view) => views.push(aliases(view)));
    expect(await there.save()).toBe(true);
    expect(await here.save()).toBe(true);
    const both = [idOf("tables.sum"), idOf("tables.load")];
    expect((await sessions.load(here.id))!).toMatchObject({ stage: "operate", found: both });
    // The later saver took in the other's changes (its view changed: the listeners heard it).
    expect(here.state).toMatchObject({ stage: "operate", found: both });
    expect(views).toHaveLength(1);
    expect(await there.refresh()).toBe(true);
    expect(there.state).toEqual(here.state);
  });

  it("keeps unsaved finds across a refresh", async () => {
    const { a, b } = replicas(kitchen, discover);
    const here = a.session({ surface: "mcp" });
    await here.save();
    const there = (await b.resume(here.id))!;
    await there.call("zcp.find_tools", { query: "sum a column of a table handle", limit: 1 });
    await there.save();
    await here.call("zcp.find_tools", { query: "load table rows", limit: 1 });
    expect(await here.refresh()).toBe(true);
    expect(here.state.found).toEqual([idOf("tables.sum"), idOf("tables.load")]);
    await here.save();
    expect(await there.refresh()).toBe(true);
    expect(there.state.found).toEqual(here.state.found);
  });

  it("does not bring back a session ended elsewhere: the late save answers false and ends it here", async () => {
    const { a, b, sessions, storage } = replicas(kitchen, discover);
    const here = a.session({ surface: "mcp", stage: "discover" });
    await here.call("zcp.find_tools", { query: "load table rows", limit: 1 });
    await here.save();
    const there = (await b.resume(here.id))!;
    // A call on `here` runs on after the session ended on `there`, makes a handle, then saves.
    await there.close();
    await here.call("zcp.find_tools", { query: "sum a column of a table handle", limit: 1 });
    expect(await here.call("tables.load", { name: "t" })).toMatchObject({ ok: true });
    expect(await here.save()).toBe(false);
    expect(await sessions.load(here.id)).toBeUndefined();
    expect(await storage.usage(here.id)).toEqual({ bytes: 0, handles: 0 });
    expect(await here.call("tables.load", { name: "t" })).toEqual({
      ok: false,
      error: "cancelled",
      hint: "the session is closed",
    });
    expect(await b.resume(here.id)).toBeUndefined();
  });

  it("gives up when the stored state changes under every try", async () => {
    const sessions = new MemorySessionStore();
    const restless: SessionStore = {
      load: (id) => sessions.load(id),
      delete: (id) => sessions.delete(id),
      ping: () => sessions.ping(),
      save: async (_id, state) => ({
        status: "changed",
        stored: { ...state, stage: `s${Math.random()}` },
      }),
    };
    const session = createRuntime(weather, { sessions: restless }).session();
    session.setStage("mine");
    await expect(session.save()).rejects.toThrow(
      `session ${session.id}: its stored state changed under each of 8 tries to save it`,
    );
  });
});

describe("MemorySessionStore", () => {
  it("writes only over the state a save was made from, and never over an ended one", async () => {
    const store = new MemorySessionStore();
    const state: SessionState = {
      surface: "native",
      stage: null,
      found: [],
      findFormat: "planner",
    };
    const next = { ...state, stage: "b" };
    expect(await store.save("s", state, undefined)).toEqual({ status: "saved" });
    // A second new session by that id, or a save made from another state: not written.
    expect(await store.save("s", next, undefined)).toEqual({ status: "changed", stored: state });
    expect(await store.save("s", next, stateJson(next))).toEqual({
      status: "changed",
      stored: state,
    });
    expect(await store.save("s", next, stateJson(state))).toEqual({ status: "saved" });
    await store.delete("s");
    expect(await store.save("s", state, stateJson(next))).toEqual({ status: "gone" });
    expect(await store.load("s")).toBeUndefined();
  });

  it("expires a state idleMs after its last load or save", async () => {
    let now = 0;
    const store = new MemorySessionStore({ idleMs: 100, now: () => now });
    const state: SessionState = {
      surface: "native",
      stage: null,
      found: [],
      findFormat: "planner",
    };
    await store.save("s", state, undefined);
    now = 99;
    expect(await store.load("s")).toEqual(state);
    now = 198;
    expect(await store.load("s")).toEqual(state);
    now = 298;
    expect(await store.load("s")).toBeUndefined();
    await store.save("s", state, undefined);
    await store.delete("s");
    expect(await store.load("s")).toBeUndefined();
    await expect(store.ping()).resolves.toBeUndefined();
    expect(() => new MemorySessionStore({ idleMs: 0 })).toThrow(
      "MemorySessionStore: idleMs must be a positive number, got 0",
    );
  });

  it("keeps a copy: changing what was saved or loaded changes nothing stored", async () => {
    const store = new MemorySessionStore();
    const found = ["a"];
    await store.save(
      "s",
      { surface: "native", stage: null, found, findFormat: "planner" },
      undefined,
    );
    found.push("b");
    const loaded = await store.load("s");
    (loaded!.found as string[]).push("c");
    expect((await store.load("s"))!.found).toEqual(["a"]);
  });
});

describe("a storage that rejects", () => {
  const down = () => Promise.reject(new Error("connection lost"));
  const failing: HandleStorage = {
    get: down,
    value: down,
    put: down,
    touch: down,
    delete: down,
    oldest: down,
    usage: down,
    nextNumber: down,
    dropSession: down,
  };
  const unavailable = {
    ok: false,
    error: "unavailable:store",
    hint: "the shared store is unreachable; try again shortly",
  };

  it("answers unavailable:store to calls and handle operations, and reports the error", async () => {
    const reported: unknown[] = [];
    const runtime = createRuntime(kitchen, {
      handles: {
        storage: failing,
        onStorageError: (error, sessionId) => reported.push([(error as Error).message, sessionId]),
      },
    });
    const session = runtime.session({ stage: "discover" });
    // create (a handle-mode result), get (a handle argument), and zcp.handle.
    expect(await session.call("tables.load", { name: "t" })).toEqual(unavailable);
    session.setStage("operate");
    expect(await session.call("tables.sum", { rows: "#T1", column: "qty" })).toEqual(unavailable);
    expect(await session.call("zcp.handle", { op: "read", handle: "#T1" })).toEqual(unavailable);
    for (const op of ["count", "read", "view", "summary", "release"] as const)
      expect(await runtime.handles[op](session.id, "#T1")).toEqual(unavailable);
    expect(await runtime.handles.get(session.id, "#T1")).toEqual(unavailable);
    expect(reported).toHaveLength(9);
    expect(reported[0]).toEqual(["connection lost", session.id]);
    // Ending the session needs the storage: close says it could not.
    await expect(session.close()).rejects.toThrow("connection lost");
    await expect(runtime.handles.usage()).rejects.toThrow("connection lost");
  });

  it("still rejects for what is not the storage's failure", async () => {
    const store = new HandleStore({ ttlMs: 1, onStorageError: () => {} });
    store.onRelease(() => {
      throw new Error("listener bug");
    });
    await store.create("s", "table", [1], "");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(store.get("s", "#T1")).rejects.toThrow("listener bug");
  });
});

import { createHash } from "node:crypto";
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { MemoryHandleStorage } from "../src/handles/memory.js";
import type { HandleStorage } from "../src/handles/storage.js";
import { HandleStore } from "../src/handles/store.js";
import { expired, fakeClock, invalid, make, ROWS } from "./handle-store.js";

describe("ids, sizes and hashes", () => {
  it("numbers handles per session across kinds, lettered by kind", async () => {
    const store = new HandleStore();
    const ids = [];
    for (const kind of ["table", "page", "*", "generic", "_raw", "9lives", "table"])
      ids.push(await make(store, "a", kind, 1));
    expect(ids).toEqual(["#T1", "#P2", "#G3", "#G4", "#G5", "#G6", "#T7"]);
    expect(await make(store, "b", "table", 1)).toBe("#T1");
  });

  it("answers size (UTF-8 bytes of compact JSON), hash (12 hex of its SHA-256), and a count for lists", async () => {
    const store = new HandleStore();
    const json = '{"city":"Zürich","temps":[1,2]}';
    expect(
      await store.create("a", "weather", { city: "Zürich", temps: [1, 2] }, "Zürich weather"),
    ).toEqual({
      ok: true,
      id: "#W1",
      kind: "weather",
      summary: "Zürich weather",
      size: Buffer.byteLength(json),
      hash: createHash("sha256").update(json).digest("hex").slice(0, 12),
    });
    expect(Buffer.byteLength(json)).toBe(json.length + 1);
    const list = await store.create("a", "table", ROWS, "10 rows");
    expect(list).toMatchObject({ ok: true, id: "#T2", count: 10 });
  });

  it("keeps the JSON form of the value and never reuses an id while the session lives", async () => {
    const store = new HandleStore();
    const id = await make(store, "a", "event", {
      at: new Date("2024-01-02T03:04:05.000Z"),
      gone: undefined,
    });
    expect(await store.read("a", id)).toEqual({
      ok: true,
      value: { at: "2024-01-02T03:04:05.000Z" },
    });
    expect(await store.release("a", id)).toEqual({ ok: true });
    expect(await make(store, "a", "event", 2)).toBe("#E2");
  });

  it("refuses values that are not JSON without consuming an id", async () => {
    const store = new HandleStore();
    const cycle: { self?: unknown } = {};
    cycle.self = cycle;
    const hostile = {
      toJSON() {
        throw new Error("boom");
      },
    };
    const hint =
      "the result is not JSON (undefined, a function, a BigInt or a cycle), so it cannot be kept as a handle";
    for (const value of [undefined, () => 1, 1n, cycle, hostile]) {
      expect(await store.create("a", "x", value, "s")).toEqual(invalid("result", hint));
    }
    expect(await make(store, "a", "x", null)).toBe("#X1");
  });
});

describe("isolation", () => {
  it("gives each session its own #T1 and answers another session's ids as if they never existed", async () => {
    const store = new HandleStore();
    expect(await make(store, "a", "table", ROWS)).toBe("#T1");
    expect(await make(store, "a", "table", { secret: true })).toBe("#T2");
    expect(await make(store, "b", "table", ["b"])).toBe("#T1");

    expect(await store.get("a", "#T1")).toEqual({
      ok: true,
      id: "#T1",
      kind: "table",
      value: ROWS,
    });
    expect(await store.get("b", "#T1")).toEqual({
      ok: true,
      id: "#T1",
      kind: "table",
      value: ["b"],
    });

    // #T2 lives only in session a: every operation from b gets the answer of a never-created id.
    expect(await store.get("b", "#T2")).toEqual(expired("#T2"));
    expect(await store.get("b", "#T2", "table")).toEqual(expired("#T2"));
    expect(await store.count("b", "#T2")).toEqual(expired("#T2"));
    expect(await store.read("b", "#T2")).toEqual(expired("#T2"));
    expect(await store.read("b", "#T2", { item: 0, fields: ["secret"] })).toEqual(expired("#T2"));
    expect(await store.view("b", "#T2")).toEqual(expired("#T2"));
    expect(await store.summary("b", "#T2")).toEqual(expired("#T2"));
    expect(await store.release("b", "#T2")).toEqual(expired("#T2"));
    expect(await store.get("b", "#T99")).toEqual(expired("#T99"));

    // b's release of its own #T1 and b's dropSession leave a's handles alone.
    expect(await store.release("b", "#T1")).toEqual({ ok: true });
    await store.dropSession("b");
    expect(await store.count("a", "#T1")).toEqual({ ok: true, count: 10 });
    expect(await store.read("a", "#T2")).toEqual({ ok: true, value: { secret: true } });
  });

  it("checks the owner a handle records: a storage that mixes owners up hands nobody another's handle", async () => {
    const storage = new MemoryHandleStorage();
    // A storage that finds entries by id alone, whoever asks.
    const careless: HandleStorage = {
      get: (_sessionId, id) => storage.get("a", id),
      value: (_sessionId, id) => storage.value("a", id),
      put: (handle) => storage.put(handle),
      touch: (sessionId, id, lastUsed) => storage.touch(sessionId, id, lastUsed),
      delete: (sessionId, id) => storage.delete(sessionId, id),
      oldest: (sessionId) => storage.oldest(sessionId),
      usage: (sessionId) => storage.usage(sessionId),
      nextNumber: (sessionId) => storage.nextNumber(sessionId),
      dropSession: (sessionId) => storage.dropSession(sessionId),
    };
    const store = new HandleStore({ storage: careless });
    expect(await make(store, "a", "table", { secret: true })).toBe("#T1");
    expect(await store.read("a", "#T1")).toEqual({ ok: true, value: { secret: true } });
    expect(await store.read("b", "#T1")).toEqual(expired("#T1"));
    expect(await store.json("b", "#T1")).toEqual(expired("#T1"));
    expect(await store.summary("b", "#T1")).toEqual(expired("#T1"));
  });

  it("read, view and json call reserve with the value's size before reading it; what it throws refuses the read", async () => {
    const store = new HandleStore();
    const id = await make(store, "a", "table", ROWS);
    const size = Buffer.byteLength(JSON.stringify(ROWS));
    const reserved: number[] = [];
    const reserve = (bytes: number) => void reserved.push(bytes);
    expect(await store.read("a", id, { item: 0 }, reserve)).toEqual({ ok: true, value: ROWS[0] });
    expect((await store.view("a", id, { limit: 1 }, reserve)).ok).toBe(true);
    expect(await store.json("a", id, reserve)).toEqual({ ok: true, json: JSON.stringify(ROWS) });
    expect(reserved).toEqual([size, size, size]);
    const refused = new Error("too large");
    await expect(
      store.read("a", id, {}, () => {
        throw refused;
      }),
    ).rejects.toBe(refused);
    await expect(store.json("a", id, () => Promise.reject(refused))).rejects.toBe(refused);
    // A handle that is not there reserves nothing.
    expect(await store.json("a", "#T9", reserve)).toEqual(expired("#T9"));
    expect(reserved).toHaveLength(3);
  });

  it("refuses text that is not a handle id without echoing it", async () => {
    const store = new HandleStore();
    await make(store, "a", "table", 1);
    const hint = 'handle ids look like "#T1"';
    for (const id of [
      "T1",
      "#t1",
      "#T0",
      "#T01",
      "#T1 ",
      "#TT1",
      // Longer than a random id (30 digits): never issued.
      "#T1234567890123456789012345678901",
      "",
      "#T1\nERR c1 x",
    ]) {
      expect(await store.get("a", id)).toEqual(invalid("handle", hint));
    }
    expect(await store.read("a", 1 as unknown as string)).toEqual(invalid("handle", hint));
  });
});

describe("expiry", () => {
  it("expires a handle ttlMs after its last successful use, refreshed by every successful use", async () => {
    const { store, clock } = fakeClock({ ttlMs: 1000 });
    const id = await make(store, "a", "table", ROWS);
    clock.t = 999;
    expect(await store.count("a", id)).toEqual({ ok: true, count: 10 });
    clock.t = 1998;
    expect((await store.read("a", id, { item: 0 })).ok).toBe(true);
    clock.t = 2997;
    expect((await store.view("a", id)).ok).toBe(true);
    clock.t = 3996;
    expect((await store.summary("a", id)).ok).toBe(true);
    clock.t = 4995;
    expect((await store.get("a", id, "table")).ok).toBe(true);
    // Failed operations are not uses: they do not refresh.
    clock.t = 5500;
    expect((await store.read("a", id, { item: 99 })).ok).toBe(false);
    expect((await store.get("a", id, "page")).ok).toBe(false);
    clock.t = 5995;
    expect(await store.count("a", id)).toEqual(expired(id));
    expect(await store.count("a", id)).toEqual(expired(id));
  });

  it("frees an expired handle's bytes when it is asked for", async () => {
    const { store, clock } = fakeClock({ ttlMs: 1000 });
    const id = await make(store, "a", "table", ROWS);
    const size = JSON.stringify(ROWS).length;
    expect(await store.usage("a")).toEqual({ bytes: size, handles: 1 });
    clock.t = 1000;
    expect(await store.usage("a")).toEqual({ bytes: size, handles: 1 });
    expect(await store.read("a", id)).toEqual(expired(id));
    expect(await store.usage("a")).toEqual({ bytes: 0, handles: 0 });
    expect(await store.usage()).toEqual({ bytes: 0, handles: 0 });
  });

  it("sweeps expired handles of every session when a handle is created", async () => {
    const { store, clock } = fakeClock({ ttlMs: 1000 });
    await make(store, "a", "table", ROWS);
    await make(store, "b", "table", ROWS);
    clock.t = 500;
    const kept = await make(store, "b", "page", "kept");
    clock.t = 1200;
    await make(store, "c", "table", 1);
    expect(await store.usage("a")).toEqual({ bytes: 0, handles: 0 });
    expect(await store.usage("b")).toEqual({ bytes: 6, handles: 1 });
    expect(await store.usage()).toEqual({ bytes: 7, handles: 2 });
    expect(await store.read("b", kept)).toEqual({ ok: true, value: "kept" });
  });

  it("formats the TTL for handle metadata", () => {
    expect(new HandleStore().ttlText()).toBe("10m");
    expect(new HandleStore({ ttlMs: 7_200_000 }).ttlText()).toBe("2h");
    expect(new HandleStore({ ttlMs: 90_000 }).ttlText()).toBe("90s");
    expect(new HandleStore({ ttlMs: 1500 }).ttlText()).toBe("1500ms");
  });
});

describe("budgets", () => {
  // Each value is a 10-character string: 12 bytes of JSON.
  const value = (i: number) => `value-${String(i).padStart(4, "0")}`;
  /** What a handle costs beyond its value's bytes. */
  const OVERHEAD = new HandleStore().handleOverheadBytes;
  /** The budget that holds `count` handles of 12 bytes, and not one more. */
  const holding = (count: number) => count * (12 + OVERHEAD);

  it("counts each handle's overhead with its value's bytes, so that many tiny handles are bounded too", async () => {
    expect(OVERHEAD).toBe(2048);
    const store = new HandleStore({ sessionMaxBytes: 1 << 20 });
    for (let i = 0; i < 1000; i++) await make(store, "a", "v", i % 10);
    // 1 MiB holds 512 handles of 1 byte, not a million.
    const usage = await store.usage("a");
    expect(usage).toEqual({ bytes: 511, handles: 511 });
    expect(store.cost(usage)).toBeLessThanOrEqual(1 << 20);
    expect(store.cost({ bytes: 512, handles: 512 })).toBeGreaterThan(1 << 20);
  });

  it("keeps a summary to 256 characters", async () => {
    const store = new HandleStore();
    const created = await store.create("a", "v", 1, "s".repeat(10_000));
    expect(created).toMatchObject({ ok: true, summary: `${"s".repeat(256)}…` });
  });

  it("tells onRelease listeners of evicted and expired handles too, so lists of them stay bounded", async () => {
    const { store, clock } = fakeClock({ sessionMaxBytes: holding(2), ttlMs: 1000 });
    const gone: string[] = [];
    store.onRelease((session, id) => gone.push(`${session} ${id}`));
    const one = await make(store, "a", "v", value(1));
    const two = await make(store, "a", "v", value(2));
    const three = await make(store, "a", "v", value(3)); // evicts one
    expect(gone).toEqual([`a ${one}`]);
    clock.t = 1000;
    expect(await store.read("a", two)).toEqual(expired(two)); // expired, deleted when asked for
    await make(store, "a", "v", value(4)); // the sweep deletes three
    expect(gone).toEqual([`a ${one}`, `a ${two}`, `a ${three}`]);
  });

  it("evicts the session's least recently used handles beyond its budget", async () => {
    const store = new HandleStore({ sessionMaxBytes: holding(3) });
    const [one, two, three] = [
      await make(store, "a", "v", value(1)),
      await make(store, "a", "v", value(2)),
      await make(store, "a", "v", value(3)),
    ];
    expect(await store.usage("a")).toEqual({ bytes: 36, handles: 3 });
    expect((await store.read("a", one)).ok).toBe(true); // one is now the most recently used
    const four = await make(store, "a", "v", value(4));
    expect(await store.read("a", two)).toEqual(expired(two));
    for (const id of [one, three, four]) expect((await store.read("a", id)).ok).toBe(true);
    expect(await store.usage("a")).toEqual({ bytes: 36, handles: 3 });
    // Another session's handles are not evicted for this one.
    const other = await make(store, "b", "v", value(5));
    await make(store, "a", "v", value(6));
    expect((await store.read("b", other)).ok).toBe(true);
  });

  it("evicts the least recently used handles of all sessions beyond the runtime budget", async () => {
    const store = new HandleStore({ sessionMaxBytes: holding(3), totalMaxBytes: holding(4) });
    const a1 = await make(store, "a", "v", value(1));
    const b1 = await make(store, "b", "v", value(2));
    const a2 = await make(store, "a", "v", value(3));
    const b2 = await make(store, "b", "v", value(4));
    expect((await store.summary("a", a1)).ok).toBe(true);
    const c1 = await make(store, "c", "v", value(5));
    expect(await store.get("b", b1)).toEqual(expired(b1));
    const c2 = await make(store, "c", "v", value(6));
    expect(await store.get("a", a2)).toEqual(expired(a2));
    for (const [session, id] of [
      ["a", a1],
      ["b", b2],
      ["c", c1],
      ["c", c2],
    ] as const)
      expect((await store.get(session, id)).ok).toBe(true);
    expect(await store.usage()).toEqual({ bytes: 48, handles: 4 });
  });

  it("refuses a value larger than a session may hold, without touching the others", async () => {
    // 4 KiB: one value of 2 KiB of JSON with its overhead.
    const store = new HandleStore({ sessionMaxBytes: 2048 + OVERHEAD });
    const small = await make(store, "a", "v", "small");
    expect(await store.create("a", "v", "x".repeat(2047), "s")).toEqual(
      invalid(
        "result",
        "the result takes 4.1 KiB as a handle, over the 4 KiB a session can keep: ask for less (filter, narrow or page it)",
      ),
    );
    expect(await store.create("a", "v", "x".repeat(3000), "s")).toEqual(
      invalid(
        "result",
        "the result takes 5 KiB as a handle, over the 4 KiB a session can keep: ask for less (filter, narrow or page it)",
      ),
    );
    expect(await store.read("a", small)).toEqual({ ok: true, value: "small" });
    expect(await make(store, "a", "v", "x".repeat(2046))).toBe("#V2");
    expect(await store.read("a", small)).toEqual(expired(small));
  });

  it("caps the session budget at the runtime budget and rejects impossible limits", async () => {
    const store = new HandleStore({ sessionMaxBytes: 100 << 20, totalMaxBytes: 1 << 20 });
    expect(store.sessionMaxBytes).toBe(1 << 20);
    const created = await store.create("a", "v", "x".repeat(1 << 20), "s");
    expect(created).toEqual(
      invalid(
        "result",
        "the result takes 1.1 MiB as a handle, over the 1 MiB a session can keep: ask for less (filter, narrow or page it)",
      ),
    );
    expect(new HandleStore()).toMatchObject({
      ttlMs: 600_000,
      sessionMaxBytes: 16 << 20,
      totalMaxBytes: 64 << 20,
    });
    expect(() => new HandleStore({ ttlMs: 0 })).toThrow(
      "HandleStore: ttlMs must be a positive number, got 0",
    );
    expect(() => new HandleStore({ totalMaxBytes: Number.NaN })).toThrow(RangeError);
    expect(() => new HandleStore({ handleOverheadBytes: -1 })).toThrow(
      "HandleStore: handleOverheadBytes must be a non-negative integer, got -1",
    );
    expect(new HandleStore({ handleOverheadBytes: 0 }).cost({ bytes: 10, handles: 5 })).toBe(10);
  });
});

describe("memory storage", () => {
  it("keeps per-session and total bytes and least-recently-used order", async () => {
    const storage = new MemoryHandleStorage();
    const record = (sessionId: string, id: string, size: number, lastUsed: number) => ({
      ...{ sessionId, id, size, lastUsed },
      ...{ kind: "k", summary: "", hash: "", json: "" },
    });
    await storage.put(record("a", "#K1", 5, 1));
    await storage.put(record("b", "#K1", 7, 2));
    await storage.put(record("a", "#K2", 3, 3));
    expect(await storage.oldest()).toMatchObject({ sessionId: "a", id: "#K1" });
    await storage.touch("a", "#K1", 4);
    expect(await storage.oldest()).toMatchObject({ sessionId: "b", id: "#K1" });
    expect(await storage.oldest("a")).toMatchObject({ sessionId: "a", id: "#K2" });
    expect(await storage.get("a", "#K1")).toMatchObject({ lastUsed: 4 });
    await storage.put(record("a", "#K2", 10, 5)); // replaced, not counted twice
    expect(await storage.usage("a")).toEqual({ bytes: 15, handles: 2 });
    expect(await storage.usage()).toEqual({ bytes: 22, handles: 3 });
    await storage.touch("a", "#K9", 6);
    await storage.delete("a", "#K9");
    await storage.dropSession("a");
    expect(await storage.usage()).toEqual({ bytes: 7, handles: 1 });
    expect(await storage.oldest("a")).toBeUndefined();
  });
});

describe("memory", () => {
  it("10,000 values of ~100 KB through one session stay within a 64 MiB budget", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const budget = 64 << 20;
    const store = new HandleStore({ sessionMaxBytes: budget, totalMaxBytes: budget });
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const chunk = "x".repeat(1000);
    let maxCost = 0;
    let maxHandles = 0;
    let lastId = "";
    for (let i = 0; i < 10_000; i++) {
      // Lists and records in turn, each built anew (~100 KB of JSON).
      const items = Array.from({ length: 100 }, (_, j) => `${i}:${j}:${chunk}`);
      const value = i % 2 === 0 ? items : { i, items };
      const created = await store.create("s", "blob", value, `value ${i}`);
      if (!created.ok) throw new Error(`create ${i} failed: ${created.error}`);
      lastId = created.id;
      const usage = await store.usage();
      maxCost = Math.max(maxCost, store.cost(usage));
      maxHandles = Math.max(maxHandles, usage.handles);
    }
    expect(lastId).toBe("#B10000");
    expect(maxCost).toBeLessThanOrEqual(budget);
    expect(maxHandles).toBeLessThanOrEqual(Math.floor(budget / 100_000));
    expect(maxCost).toBeGreaterThan(budget - 200_000);
    expect(await store.count("s", lastId)).toEqual({ ok: true, count: 2 });
    expect(await store.read("s", "#B1")).toEqual(expired("#B1"));
    gc();
    const growth = process.memoryUsage().heapUsed - heapBefore;
    // The kept JSON strings (one byte per character here) and little else.
    expect(growth).toBeLessThan(budget * 1.25);
  });
});

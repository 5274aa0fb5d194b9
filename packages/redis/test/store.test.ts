/**
 * `HandleStore`'s rules over Redis, with two stores (two connections, as two replicas would
 * have) on one Redis: ids unique across them, expiry, budgets, eviction of the least recently
 * used across both, release, and exact byte totals while both evict at once.
 */
import { HandleStore, type HandleStoreOptions } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import { unavailable, useRedis } from "./harness.js";

describe.skipIf(unavailable)("HandleStore over Redis", () => {
  const redis = useRedis();

  /**
   * Two HandleStores on one Redis prefix, each with its own connection. The budgets below are
   * arithmetic on value bytes, so no per-handle overhead is counted unless a test asks for it
   * (the runtime's handles.test.ts covers the overhead; "counts each handle's overhead" here).
   */
  async function replicas(options: Omit<HandleStoreOptions, "storage"> = {}) {
    const prefix = redis.prefix();
    const make = async () =>
      new HandleStore({
        handleOverheadBytes: 0,
        ...options,
        storage: (await redis.connect({ prefix })).handles,
      });
    return [await make(), await make(), prefix] as const;
  }

  it("shares handles: made on one replica, read, counted and released on the other", async () => {
    const [a, b] = await replicas();
    const made = await a.create("s", "table", [{ qty: 1 }, { qty: 2 }], "two rows");
    expect(made).toEqual({
      ok: true,
      id: "#T1",
      kind: "table",
      summary: "two rows",
      size: 21,
      hash: expect.stringMatching(/^[0-9a-f]{12}$/),
      count: 2,
    });
    expect(await b.get("s", "#T1", "table")).toEqual({
      ok: true,
      id: "#T1",
      kind: "table",
      value: [{ qty: 1 }, { qty: 2 }],
    });
    expect(await b.count("s", "#T1")).toEqual({ ok: true, count: 2 });
    expect(await b.summary("s", "#T1")).toEqual(made);
    expect(await b.view("s", "#T1", { limit: 1 })).toEqual({
      ok: true,
      rows: [{ qty: 1 }],
      offset: 0,
      limit: 1,
      total: 2,
    });
    // Another session reaches nothing, whatever the id.
    expect(await b.get("other", "#T1")).toMatchObject({ ok: false, error: "expired:#T1" });
    expect(await b.release("s", "#T1")).toEqual({ ok: true });
    expect(await a.read("s", "#T1")).toEqual({
      ok: false,
      error: "expired:#T1",
      hint: "#T1 has expired or does not exist in this session: call the tool that made it again",
    });
  });

  it("numbers ids across replicas without a repeat, even when they create at once", async () => {
    const [a, b] = await replicas();
    const made = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).create("s", "table", [i], "")),
    );
    const ids = made.map((result) => (result as { id: string }).id);
    expect(new Set(ids).size).toBe(40);
    expect(ids.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `#T${i + 1}`).sort());
  });

  it("expires a handle ttlMs after its last use on any replica", async () => {
    let now = 0;
    const [a, b] = await replicas({ ttlMs: 100, now: () => now });
    await a.create("s", "table", [1], "");
    now = 90;
    expect((await b.count("s", "#T1")).ok).toBe(true);
    now = 180;
    expect((await a.count("s", "#T1")).ok).toBe(true);
    now = 280;
    expect(await b.count("s", "#T1")).toMatchObject({ error: "expired:#T1" });
    expect(await a.usage()).toEqual({ bytes: 0, handles: 0 });
  });

  it("sweeps expired handles of every session when either replica creates", async () => {
    let now = 0;
    const [a, b] = await replicas({ ttlMs: 100, now: () => now });
    await a.create("s1", "table", [1], "");
    await a.create("s2", "table", [22], "");
    now = 150;
    await b.create("s3", "table", [3], "");
    expect(await b.usage()).toEqual({ bytes: 3, handles: 1 });
    expect(await a.usage("s1")).toEqual({ bytes: 0, handles: 0 });
  });

  it("evicts a session's least recently used handles beyond its budget, whichever replica used them", async () => {
    const [a, b] = await replicas({ sessionMaxBytes: 30 });
    for (const store of [a, b, a]) await store.create("s", "table", "x".repeat(8), ""); // 10 bytes each
    await b.read("s", "#T1"); // #T1 is now the most recently used
    await b.create("s", "table", "y".repeat(8), "");
    expect(await a.usage("s")).toEqual({ bytes: 30, handles: 3 });
    expect(await a.get("s", "#T2")).toMatchObject({ error: "expired:#T2" });
    for (const id of ["#T1", "#T3", "#T4"]) expect((await a.get("s", id)).ok).toBe(true);
  });

  it("counts each handle's overhead against the budgets, whichever replica made it", async () => {
    const [a, b] = await replicas({ handleOverheadBytes: 100, sessionMaxBytes: 330 });
    for (const store of [a, b, a]) await store.create("s", "table", "x".repeat(8), ""); // 110 each
    expect(await b.usage("s")).toEqual({ bytes: 30, handles: 3 });
    await b.create("s", "table", "y".repeat(8), "");
    expect(await a.get("s", "#T1")).toMatchObject({ error: "expired:#T1" });
    expect(await a.usage("s")).toEqual({ bytes: 30, handles: 3 });
  });

  it("evicts the least recently used of all sessions beyond the total budget", async () => {
    const [a, b] = await replicas({ totalMaxBytes: 30 });
    await a.create("s1", "table", "x".repeat(8), "");
    await b.create("s2", "table", "x".repeat(8), "");
    await a.create("s1", "table", "x".repeat(8), "");
    await b.create("s3", "table", "x".repeat(8), "");
    expect(await a.usage()).toEqual({ bytes: 30, handles: 3 });
    expect(await b.get("s1", "#T1")).toMatchObject({ error: "expired:#T1" });
    expect((await b.get("s2", "#T1")).ok).toBe(true);
  });

  it("keeps the byte totals exact while both replicas create and evict at once", async () => {
    const [a, b, prefix] = await replicas({ totalMaxBytes: 200, sessionMaxBytes: 120 });
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? a : b).create(`s${i % 3}`, "table", "z".repeat(i % 17), ""),
      ),
    );
    const total = await a.usage();
    expect(total.bytes).toBeLessThanOrEqual(200);
    const sessions = await Promise.all(["s0", "s1", "s2"].map((s) => a.usage(s)));
    for (const usage of sessions) expect(usage.bytes).toBeLessThanOrEqual(120);
    // The totals are the sums of the sizes of the records that are really there.
    const raw = await redis.raw();
    const records = await raw.keys(`${prefix}:h:rec:*`);
    const sizes = await Promise.all(records.map((key) => raw.hGet(key, "size")));
    const held = sizes.reduce((sum, size) => sum + Number(size), 0);
    expect(total).toEqual({ bytes: held, handles: records.length });
    for (const [i, usage] of sessions.entries()) {
      const own = records.filter((key) => key.startsWith(`${prefix}:h:rec:s${i}:`));
      const bytes = own.reduce((sum, key) => sum + Number(sizes[records.indexOf(key)]), 0);
      expect(usage).toEqual({ bytes, handles: own.length });
    }
  });
});

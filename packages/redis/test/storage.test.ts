/**
 * Every rule of the `HandleStorage` contract (packages/runtime/src/handles/storage.ts), run on
 * a real Redis and, as the reference, on `MemoryHandleStorage`: both must answer alike. Then
 * what only Redis has: the keys it leaves, the counter's expiry, session ids with colons.
 */
import { MemoryHandleStorage, type HandleStorage, type StoredHandle } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import { RedisHandleStorage } from "../src/index.js";
import { unavailable, useRedis } from "./harness.js";

function handle(sessionId: string, id: string, size: number, extra: Partial<StoredHandle> = {}) {
  return {
    sessionId,
    id,
    kind: "table",
    summary: `${id} of ${sessionId}`,
    size,
    hash: "0123456789ab",
    lastUsed: 1000,
    json: "x".repeat(size),
    ...extra,
  } satisfies StoredHandle;
}

const record = ({ json: _json, ...rest }: StoredHandle) => rest;

describe.skipIf(unavailable)("the HandleStorage contract", () => {
  const redis = useRedis();
  const kinds: [string, () => Promise<HandleStorage>][] = [
    ["memory", async () => new MemoryHandleStorage()],
    [
      "redis",
      async () => (await redis.connect({ prefix: redis.prefix() })).handles as RedisHandleStorage,
    ],
  ];

  describe.each(kinds)("%s", (_name, make) => {
    it("keys entries by (session, id): each session has its own #T1", async () => {
      const storage = await make();
      const a = handle("a", "#T1", 3);
      const b = handle("b", "#T1", 5, { kind: "page", count: 2 });
      await storage.put(a);
      await storage.put(b);
      expect(await storage.get("a", "#T1")).toMatchObject(record(a));
      expect(await storage.get("b", "#T1")).toMatchObject(record(b));
      expect(await storage.value("a", "#T1")).toBe("xxx");
      expect(await storage.value("b", "#T1")).toBe("xxxxx");
      expect(await storage.get("c", "#T1")).toBeUndefined();
      expect(await storage.value("c", "#T1")).toBeUndefined();
      // Another session's delete and touch do not reach a's entry.
      await storage.delete("c", "#T1");
      await storage.touch("c", "#T1", 5000);
      expect(await storage.get("a", "#T1")).toMatchObject(record(a));
      expect(await storage.usage()).toEqual({ bytes: 8, handles: 2 });
    });

    it("keeps a record's optional count apart from a count of 0 or none", async () => {
      const storage = await make();
      await storage.put(handle("a", "#T1", 1, { count: 0 }));
      await storage.put(handle("a", "#T2", 1));
      expect((await storage.get("a", "#T1"))!.count).toBe(0);
      expect(await storage.get("a", "#T2")).not.toHaveProperty("count");
    });

    it("counts bytes and entries per session and in total", async () => {
      const storage = await make();
      expect(await storage.usage()).toEqual({ bytes: 0, handles: 0 });
      expect(await storage.usage("a")).toEqual({ bytes: 0, handles: 0 });
      await storage.put(handle("a", "#T1", 3));
      await storage.put(handle("a", "#T2", 4));
      await storage.put(handle("b", "#T1", 10));
      expect(await storage.usage("a")).toEqual({ bytes: 7, handles: 2 });
      expect(await storage.usage("b")).toEqual({ bytes: 10, handles: 1 });
      expect(await storage.usage()).toEqual({ bytes: 17, handles: 3 });
    });

    it("put replaces an entry with the same key, subtracting the old size", async () => {
      const storage = await make();
      await storage.put(handle("a", "#T1", 3));
      await storage.put(handle("a", "#T1", 8, { kind: "page", count: 4 }));
      expect(await storage.usage("a")).toEqual({ bytes: 8, handles: 1 });
      expect(await storage.usage()).toEqual({ bytes: 8, handles: 1 });
      expect(await storage.get("a", "#T1")).toMatchObject({ kind: "page", size: 8, count: 4 });
      expect(await storage.value("a", "#T1")).toBe("x".repeat(8));
      // The replacement was put last: it is the most recently used.
      await storage.put(handle("a", "#T2", 1));
      await storage.put(handle("a", "#T1", 2));
      expect((await storage.oldest("a"))!.id).toBe("#T2");
    });

    it("orders by last use, per session and overall; get and value are not uses", async () => {
      const storage = await make();
      expect(await storage.oldest()).toBeUndefined();
      expect(await storage.oldest("a")).toBeUndefined();
      await storage.put(handle("a", "#T1", 1));
      await storage.put(handle("b", "#T1", 1));
      await storage.put(handle("a", "#T2", 1));
      expect(await storage.oldest()).toMatchObject({ sessionId: "a", id: "#T1" });
      expect(await storage.oldest("b")).toMatchObject({ sessionId: "b", id: "#T1" });
      await storage.get("a", "#T1");
      await storage.value("a", "#T1");
      expect(await storage.oldest()).toMatchObject({ sessionId: "a", id: "#T1" });
      // Same lastUsed: the order is that of the uses, not of the clock.
      await storage.touch("a", "#T1", 1000);
      expect(await storage.oldest()).toMatchObject({ sessionId: "b", id: "#T1" });
      expect(await storage.oldest("a")).toMatchObject({ id: "#T2" });
      expect((await storage.get("a", "#T1"))!.lastUsed).toBe(1000);
      await storage.touch("a", "#T2", 2500);
      expect(await storage.get("a", "#T2")).toMatchObject({ lastUsed: 2500 });
      expect(await storage.oldest("a")).toMatchObject({ id: "#T1" });
    });

    it("touch and delete of an absent entry do nothing: no entry made, no bytes freed", async () => {
      const storage = await make();
      await storage.put(handle("a", "#T1", 4));
      await storage.touch("a", "#T9", 5);
      await storage.delete("a", "#T9");
      expect(await storage.get("a", "#T9")).toBeUndefined();
      expect(await storage.usage()).toEqual({ bytes: 4, handles: 1 });
      await storage.delete("a", "#T1");
      await storage.delete("a", "#T1");
      expect(await storage.usage()).toEqual({ bytes: 0, handles: 0 });
      expect(await storage.usage("a")).toEqual({ bytes: 0, handles: 0 });
      expect(await storage.get("a", "#T1")).toBeUndefined();
      expect(await storage.value("a", "#T1")).toBeUndefined();
      expect(await storage.oldest()).toBeUndefined();
    });

    it("decides nothing: an old entry stays until it is deleted", async () => {
      const storage = await make();
      await storage.put(handle("a", "#T1", 1, { lastUsed: 0 }));
      expect(await storage.get("a", "#T1")).toMatchObject({ lastUsed: 0 });
    });

    it("numbers per session, kept when entries go, reset by dropSession", async () => {
      const storage = await make();
      expect([await storage.nextNumber("a"), await storage.nextNumber("a")]).toEqual([1, 2]);
      expect(await storage.nextNumber("b")).toBe(1);
      await storage.put(handle("a", "#T2", 1));
      await storage.delete("a", "#T2");
      expect(await storage.nextNumber("a")).toBe(3);
      await storage.dropSession("a");
      expect(await storage.nextNumber("a")).toBe(1);
      expect(await storage.nextNumber("b")).toBe(2);
    });

    it("dropSession removes every entry of the session and frees its bytes, nothing else", async () => {
      const storage = await make();
      await storage.put(handle("a", "#T1", 3));
      await storage.put(handle("a", "#P2", 4));
      await storage.put(handle("b", "#T1", 5));
      await storage.dropSession("a");
      await storage.dropSession("nobody");
      expect(await storage.get("a", "#T1")).toBeUndefined();
      expect(await storage.value("a", "#P2")).toBeUndefined();
      expect(await storage.usage("a")).toEqual({ bytes: 0, handles: 0 });
      expect(await storage.usage()).toEqual({ bytes: 5, handles: 1 });
      expect(await storage.oldest()).toMatchObject({ sessionId: "b", id: "#T1" });
    });
  });

  describe("on Redis", () => {
    it("leaves no key of a dropped or emptied session, and expires its counter", async () => {
      const prefix = redis.prefix();
      const storage = (await redis.connect({ prefix, counterTtlMs: 60_000 })).handles;
      const raw = await redis.raw();
      await storage.nextNumber("s");
      await storage.put(handle("s", "#T1", 2));
      const ttl = await raw.pTTL(`${prefix}:h:ctr:s`);
      expect(ttl).toBeGreaterThan(110_000);
      expect(ttl).toBeLessThanOrEqual(120_000);
      await raw.pExpire(`${prefix}:h:ctr:s`, 5000);
      await storage.touch("s", "#T1", 2000);
      expect(await raw.pTTL(`${prefix}:h:ctr:s`)).toBeGreaterThan(110_000);
      await storage.delete("s", "#T1");
      expect((await raw.keys(`${prefix}:*`)).sort()).toEqual([
        `${prefix}:h:bytes`,
        `${prefix}:h:ctr:s`,
        `${prefix}:h:seq`,
      ]);
      await storage.put(handle("s", "#T2", 2));
      await storage.dropSession("s");
      expect((await raw.keys(`${prefix}:*`)).sort()).toEqual([
        `${prefix}:h:bytes`,
        `${prefix}:h:seq`,
      ]);
      expect(await raw.get(`${prefix}:h:bytes`)).toBe("0");
    });

    it("keeps session ids with colons apart", async () => {
      const storage = (await redis.connect({ prefix: redis.prefix() })).handles;
      await storage.put(handle("a:b", "#T1", 1));
      await storage.put(handle("a", "#T1", 2));
      expect(await storage.get("a:b", "#T1")).toMatchObject({ sessionId: "a:b", size: 1 });
      expect(await storage.get("a", "#T1")).toMatchObject({ sessionId: "a", size: 2 });
      await storage.dropSession("a");
      expect(await storage.get("a:b", "#T1")).toMatchObject({ size: 1 });
      expect(await storage.usage()).toEqual({ bytes: 1, handles: 1 });
    });

    it("keeps stores with other prefixes apart", async () => {
      const one = (await redis.connect({ prefix: redis.prefix() })).handles;
      const two = (await redis.connect({ prefix: redis.prefix() })).handles;
      await one.put(handle("a", "#T1", 1));
      expect(await two.get("a", "#T1")).toBeUndefined();
      expect(await two.usage()).toEqual({ bytes: 0, handles: 0 });
    });

    it("refuses a counterTtlMs that is not positive", () => {
      expect(
        () => new RedisHandleStorage({ sendCommand: async () => null }, { counterTtlMs: 0 }),
      ).toThrow("@zcp/redis: counterTtlMs must be a positive number, got 0");
    });
  });
});

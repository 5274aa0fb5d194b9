/** The handle store's operations on stored values: get, read, view, count and what they refuse. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { HandleStore } from "../src/handles/store.js";
import { expired, invalid, make, ROWS } from "./handle-store.js";

describe("operations", () => {
  async function fixture() {
    const store = new HandleStore();
    return {
      store,
      table: await make(store, "a", "table", ROWS),
      record: await make(store, "a", "profile", { name: "Ada", tags: ["x"], __proto__x: 1 }),
      scalar: await make(store, "a", "score", 42),
      empty: await make(store, "a", "table", []),
      mixed: await make(store, "a", "mixed", [{ a: 1 }, "two", { b: 3 }]),
    };
  }

  it("get: the value, checked against the expected kind; `*` takes any kind", async () => {
    const { store, table, record } = await fixture();
    expect(await store.get("a", table, "table")).toEqual({
      ok: true,
      id: table,
      kind: "table",
      value: ROWS,
    });
    expect(await store.get("a", record, "*")).toMatchObject({ ok: true, kind: "profile" });
    expect(await store.get("a", record, "table")).toEqual(
      invalid(record, 'expected a "table" handle, got "profile"'),
    );
  });

  it("get: a tool changing the value it received does not change the handle", async () => {
    const { store, table } = await fixture();
    const got = await store.get("a", table);
    if (!got.ok) throw new Error("get failed");
    (got.value as { id: number }[]).length = 0;
    expect(await store.count("a", table)).toEqual({ ok: true, count: 10 });
  });

  it("count: items of a list, keys of a record, an error for a scalar", async () => {
    const { store, table, record, scalar, empty } = await fixture();
    expect(await store.count("a", table)).toEqual({ ok: true, count: 10 });
    expect(await store.count("a", empty)).toEqual({ ok: true, count: 0 });
    expect(await store.count("a", record)).toEqual({ ok: true, count: 3 });
    expect(await store.count("a", scalar)).toEqual(
      invalid(scalar, `${scalar} is a number, not a list, a record or text: read it instead`),
    );
  });

  it("read: the whole value, one 0-based item, or some fields", async () => {
    const { store, table, record, scalar } = await fixture();
    expect(await store.read("a", table)).toEqual({ ok: true, value: ROWS });
    expect(await store.read("a", scalar)).toEqual({ ok: true, value: 42 });
    expect(await store.read("a", table, { item: 0 })).toEqual({ ok: true, value: ROWS[0] });
    expect(await store.read("a", table, { item: 9 })).toEqual({ ok: true, value: ROWS[9] });
    expect(await store.read("a", table, { item: 3, fields: ["qty", "name"] })).toEqual({
      ok: true,
      value: { qty: 6, name: "n3" },
    });
    expect(await store.read("a", record, { fields: ["tags"] })).toEqual({
      ok: true,
      value: { tags: ["x"] },
    });
  });

  it("read: out-of-range and malformed items", async () => {
    const { store, table, empty, mixed } = await fixture();
    expect(await store.read("a", table, { item: 12 })).toEqual(
      invalid("item", "item 12 is out of range: the list has 10 items (0-9)"),
    );
    expect(await store.read("a", table, { item: 10 })).toEqual(
      invalid("item", "item 10 is out of range: the list has 10 items (0-9)"),
    );
    expect(await store.read("a", table, { item: -1 })).toEqual(
      invalid("item", "item -1 is out of range: the list has 10 items (0-9)"),
    );
    expect(await store.read("a", empty, { item: 0 })).toEqual(
      invalid("item", "item 0 is out of range: the list is empty"),
    );
    await store.create("a", "table", [1], "one");
    expect(await store.read("a", "#T6", { item: 1 })).toEqual(
      invalid("item", "item 1 is out of range: the list has 1 item (0)"),
    );
    const whole = "item must be a whole number (0 is the first item), got";
    expect(await store.read("a", table, { item: 1.5 })).toEqual(invalid("item", `${whole} 1.5`));
    expect(await store.read("a", table, { item: Number.NaN })).toEqual(
      invalid("item", `${whole} NaN`),
    );
    expect(await store.read("a", table, { item: "2" as unknown as number })).toEqual(
      invalid("item", `${whole} "2"`),
    );
    expect(await store.read("a", table, { item: [2] as unknown as number })).toEqual(
      invalid("item", `${whole} a list`),
    );
    expect(await store.read("a", mixed, { item: 1, fields: ["a"] })).toEqual(
      invalid("fields", "item 1 is a string, not a record: read it without fields"),
    );
  });

  it("read: wrong shapes and fields", async () => {
    const { store, table, record, scalar } = await fixture();
    expect(await store.read("a", record, { item: 0 })).toEqual(
      invalid("item", `${record} is a record, not a list: read it without item`),
    );
    expect(await store.read("a", scalar, { item: 0 })).toEqual(
      invalid("item", `${scalar} is a number, not a list: read it without item`),
    );
    expect(await store.read("a", table, { fields: ["id"] })).toEqual(
      invalid("fields", `${table} is a list, not a record: pass item to read one of its items`),
    );
    expect(await store.read("a", scalar, { fields: ["id"] })).toEqual(
      invalid("fields", `${scalar} is a number, not a record: read it without fields`),
    );
    expect(await store.read("a", table, { item: 3, fields: ["nmae"] })).toEqual(
      invalid("fields", 'item 3 has no field "nmae" (its fields: "id", "name", "qty")'),
    );
    expect(await store.read("a", record, { fields: ["name", "age"] })).toEqual(
      invalid("fields", `${record} has no field "age" (its fields: "name", "tags", "__proto__x")`),
    );
    const names = "fields must be a non-empty list of field names";
    expect(await store.read("a", record, { fields: [] })).toEqual(invalid("fields", names));
    expect(await store.read("a", record, { fields: "name" as unknown as string[] })).toEqual(
      invalid("fields", names),
    );
    expect(await store.read("a", record, { fields: [1] as unknown as string[] })).toEqual(
      invalid("fields", names),
    );
  });

  it("read: field names from the model stay plain data", async () => {
    const store = new HandleStore();
    const id = await make(
      store,
      "a",
      "x",
      JSON.parse('{"__proto__":{"polluted":1},"constructor":2}'),
    );
    const read = await store.read("a", id, { fields: ["__proto__", "constructor"] });
    expect(JSON.stringify(read)).toBe(
      '{"ok":true,"value":{"__proto__":{"polluted":1},"constructor":2}}',
    );
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
    const plain = await make(store, "a", "x", { a: 1 });
    expect(await store.read("a", plain, { fields: ["toString"] })).toEqual(
      invalid("fields", `${plain} has no field "toString" (its fields: "a")`),
    );
  });

  it("read: hints stay short whatever the value's keys", async () => {
    const store = new HandleStore();
    const wide = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${i}`, i]));
    const id = await make(store, "a", "x", { [`${"y".repeat(100)}`]: 1, ...wide });
    const read = await store.read("a", id, { fields: ["z".repeat(1000)] });
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.hint).toContain(`has no field "${"z".repeat(40)}..."`);
    expect(read.hint).toContain(`"${"y".repeat(40)}...", "k0"`);
    expect(read.hint).toMatch(/"k18", \.\.\. \(26 in all\)\)$/);
  });

  it("view: a page with offset, limit and columns", async () => {
    const { store, table, mixed } = await fixture();
    expect(await store.view("a", table)).toEqual({
      ok: true,
      rows: ROWS,
      offset: 0,
      limit: 10,
      total: 10,
    });
    expect(await store.view("a", table, { offset: 8, limit: 5, columns: ["name"] })).toEqual({
      ok: true,
      rows: [{ name: "n8" }, { name: "n9" }],
      offset: 8,
      limit: 5,
      total: 10,
    });
    expect(await store.view("a", table, { offset: 10 })).toEqual({
      ok: true,
      rows: [],
      offset: 10,
      limit: 10,
      total: 10,
    });
    expect(await store.view("a", table, { limit: 100 })).toMatchObject({
      ok: true,
      limit: 100,
      total: 10,
    });
    // A row without a requested column leaves it out.
    expect(await store.view("a", mixed, { offset: 2, columns: ["a", "b"] })).toEqual({
      ok: true,
      rows: [{ b: 3 }],
      offset: 2,
      limit: 10,
      total: 3,
    });
  });

  it("view: bad arguments and shapes", async () => {
    const { store, table, record, mixed } = await fixture();
    expect(await store.view("a", record)).toEqual(
      invalid(record, `${record} is a record, not a list or text: use read`),
    );
    expect(await store.view("a", table, { offset: -1 })).toEqual(
      invalid("offset", "offset must be a whole number from 0, got -1"),
    );
    expect(await store.view("a", table, { offset: 0.5 })).toEqual(
      invalid("offset", "offset must be a whole number from 0, got 0.5"),
    );
    expect(await store.view("a", table, { offset: 11 })).toEqual(
      invalid("offset", "offset 11 is past the end: the list has 10 items (0-9)"),
    );
    for (const limit of [0, 101, 2.5, -3]) {
      expect(await store.view("a", table, { limit })).toEqual(
        invalid("limit", `limit must be a whole number from 1 to 100, got ${limit}`),
      );
    }
    expect(await store.view("a", table, { columns: [] })).toEqual(
      invalid("columns", "columns must be a non-empty list of field names"),
    );
    expect(await store.view("a", mixed, { columns: ["a"] })).toEqual(
      invalid("columns", "columns need records, but item 1 is a string"),
    );
  });

  it("summary: what create answered, from the record alone", async () => {
    const { store, table, record } = await fixture();
    expect(await store.summary("a", table)).toEqual({
      ok: true,
      id: table,
      kind: "table",
      summary: "s",
      size: Buffer.byteLength(JSON.stringify(ROWS)),
      hash: createHash("sha256").update(JSON.stringify(ROWS)).digest("hex").slice(0, 12),
      count: 10,
    });
    expect(await store.summary("a", record)).not.toHaveProperty("count");
  });

  it("release and dropSession free the bytes; released ids answer expired", async () => {
    const { store, table, record } = await fixture();
    await make(store, "b", "table", ROWS);
    const before = await store.usage("a");
    expect(await store.release("a", table)).toEqual({ ok: true });
    expect(await store.release("a", table)).toEqual(expired(table));
    expect(await store.view("a", table)).toEqual(expired(table));
    expect((await store.usage("a")).bytes).toBe(
      before.bytes - Buffer.byteLength(JSON.stringify(ROWS)),
    );
    await store.dropSession("a");
    expect(await store.usage("a")).toEqual({ bytes: 0, handles: 0 });
    expect(await store.usage()).toEqual({
      bytes: Buffer.byteLength(JSON.stringify(ROWS)),
      handles: 1,
    });
    expect(await store.read("a", record)).toEqual(expired(record));
    // A dropped session starts numbering again.
    expect(await make(store, "a", "table", 1)).toBe("#T1");
    await store.dropSession("never-seen");
  });

  it("tells onRelease listeners about each release that happened, until they unsubscribe", async () => {
    const { store, table, record } = await fixture();
    const heard: [string, string][] = [];
    const stop = store.onRelease((sessionId, id) => heard.push([sessionId, id]));
    await store.release("a", table);
    await store.release("a", table); // already gone: nothing to tell
    await store.release("b", record); // not b's: nothing to tell
    stop();
    await store.release("a", record);
    expect(heard).toEqual([["a", table]]);
  });
});

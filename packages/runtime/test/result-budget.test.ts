/**
 * Results sized to a token budget, through the runtime API: `auto` results inline while they
 * fit the smallest of the tool's, the runtime's and the caller's budgets, else a handle whose
 * first page is inline; and text handles paged by lines and characters and searched through
 * `zcp.handle`, with the exact error of every bad range.
 */
import { describe, expect, it } from "vitest";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import {
  createRuntime,
  encodeResult,
  estimateTokens,
  type CallResult,
  type GeneratedModule,
  type RuntimeOptions,
} from "../src/index.js";

/** The inline value of a result that must have one. */
function valueOf<T>(result: CallResult): T {
  if (!result.ok || !("value" in result))
    throw new Error(`expected a value: ${JSON.stringify(result)}`);
  return result.value as T;
}

const SEARCH = kitchen.registry.tools.find((tool) => tool.alias === "search.run")!;

/** The kitchen sink with `search.run` (an `auto` tool) returning `value`, and its own budget if given. */
function returning(value: unknown, toolBudget?: number): GeneratedModule {
  const tools = kitchen.registry.tools.map((tool) =>
    tool === SEARCH && toolBudget !== undefined ? { ...tool, maxResultTokens: toolBudget } : tool,
  );
  return {
    ...kitchen,
    registry: { ...kitchen.registry, tools },
    dispatch: { ...kitchen.dispatch, [SEARCH.id]: () => value },
  };
}

function session(value: unknown, options: RuntimeOptions = {}, toolBudget?: number) {
  return createRuntime(returning(value, toolBudget), options).session();
}

const call = (s: ReturnType<typeof session>, maxResultTokens?: number) =>
  s.call("search.run", { text: "xx" }, maxResultTokens === undefined ? {} : { maxResultTokens });

/** 2,000 lines of about 40 characters: some 20,000 tokens. */
const LOG = Array.from(
  { length: 2000 },
  (_, i) => `${i} GET /api/items/${i} 200 ok in ${i % 97} ms`,
).join("\n");
const ROWS = Array.from({ length: 500 }, (_, i) => ({ id: i, name: `item ${i}`, qty: i % 7 }));

describe("result budgets", () => {
  it("keeps values that fit inline: a small tree that the 512-byte rule made a handle", async () => {
    const tree = {
      name: "src",
      children: Array.from({ length: 20 }, (_, i) => ({ name: `file-${i}.ts`, children: [] })),
    };
    expect(JSON.stringify(tree).length).toBeGreaterThan(512);
    expect(await call(session(tree))).toEqual({ ok: true, value: tree });
    expect(await call(session(LOG.slice(0, 3000)))).toEqual({
      ok: true,
      value: LOG.slice(0, 3000),
    });
  });

  it("makes a list over the budget a handle whose first items are inline, within the budget", async () => {
    const s = session(ROWS, { maxResultTokens: 1000 });
    const result = await call(s);
    if (!result.ok || !("handle" in result)) throw new Error("expected a handle");
    const head = result.head as unknown[];
    expect(head).toEqual(ROWS.slice(0, head.length));
    expect(head.length).toBeGreaterThan(20);
    expect(result.meta).toMatchObject({ count: 500, next: { op: "view", offset: head.length } });
    expect(estimateTokens(encodeResult(result))).toBeLessThanOrEqual(1000);
    // The next page follows the head.
    const next = await s.call("zcp.handle", {
      op: "view",
      handle: result.handle,
      offset: head.length,
      limit: 2,
    });
    expect(next).toEqual({
      ok: true,
      value: {
        rows: ROWS.slice(head.length, head.length + 2),
        offset: head.length,
        limit: 2,
        total: 500,
      },
    });
  });

  it("makes a text over the budget a handle whose first lines are inline, with its lines and characters", async () => {
    const result = await call(session(LOG));
    if (!result.ok || !("handle" in result)) throw new Error("expected a handle");
    const head = result.head as string;
    const shown = head.split("\n").length;
    expect(LOG.startsWith(`${head}\n`)).toBe(true);
    expect(result.meta).toMatchObject({
      lines: 2000,
      chars: LOG.length,
      next: { op: "view", offset: shown },
    });
    expect(estimateTokens(encodeResult(result))).toBeLessThanOrEqual(8000);
    expect(estimateTokens(encodeResult(result))).toBeGreaterThan(6000);
  });

  it("cuts a text whose first line is over the budget at characters, and pages on by characters", async () => {
    const line = "x".repeat(50_000);
    const result = await call(session(line, { maxResultTokens: 500 }));
    if (!result.ok || !("handle" in result)) throw new Error("expected a handle");
    const head = result.head as string;
    expect(line.startsWith(head)).toBe(true);
    expect(head.length).toBeGreaterThan(500);
    expect(result.meta).toMatchObject({
      lines: 1,
      chars: 50_000,
      next: { op: "view", start: head.length },
    });
  });

  it("shows a record's first fields that fit; none when nothing fits", async () => {
    const record = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [`key${i}`, `value ${i}`]),
    );
    const result = await call(session(record, { maxResultTokens: 400 }));
    if (!result.ok || !("handle" in result)) throw new Error("expected a handle");
    expect(Object.keys(result.head as object).slice(0, 2)).toEqual(["key0", "key1"]);
    expect(result.meta.next).toBeUndefined();
    const tiny = await call(session(ROWS, { maxResultTokens: 5 }));
    expect(tiny).toMatchObject({ ok: true, handle: "#G1", meta: { count: 500 } });
    expect("head" in tiny).toBe(false);
  });

  it("applies the smallest of the tool's, the runtime's and the caller's budgets", async () => {
    const tokens = estimateTokens(JSON.stringify(ROWS.slice(0, 40)));
    const fits = (result: unknown) => (result as { value?: unknown }).value !== undefined;
    expect(fits(await call(session(ROWS.slice(0, 40), { maxResultTokens: tokens })))).toBe(true);
    expect(fits(await call(session(ROWS.slice(0, 40), { maxResultTokens: tokens - 1 })))).toBe(
      false,
    );
    expect(fits(await call(session(ROWS.slice(0, 40), {}, tokens - 1)))).toBe(false);
    expect(fits(await call(session(ROWS.slice(0, 40), {}, tokens)))).toBe(true);
    expect(fits(await call(session(ROWS.slice(0, 40), {}, tokens), tokens - 1))).toBe(false);
    // The caller may only lower it: a larger client limit does not raise the tool's.
    expect(fits(await call(session(ROWS.slice(0, 40), {}, tokens - 1), 100_000))).toBe(false);
    // Infinity keeps every auto result inline.
    expect(fits(await call(session(ROWS, { maxResultTokens: Infinity })))).toBe(true);
  });

  it("refuses a bad budget: the runtime's at creation, the caller's as the call's answer", async () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => createRuntime(kitchen, { maxResultTokens: bad })).toThrow(
        new RangeError(
          `createRuntime: maxResultTokens must be a whole number from 1 (or Infinity), got ${bad}`,
        ),
      );
    expect(await call(session(ROWS), 0)).toEqual({
      ok: false,
      error: "invalid:maxResultTokens",
      hint: "maxResultTokens must be a whole number from 1 (or Infinity), got 0",
    });
  });
});

describe("text handles through zcp.handle", () => {
  async function textHandle(text: string) {
    const s = session(text, { maxResultTokens: 1 });
    const result = await call(s);
    if (!result.ok || !("handle" in result)) throw new Error("expected a handle");
    const op = (args: object) => s.call("zcp.handle", { handle: result.handle, ...args });
    return { op, id: result.handle };
  }

  it("counts lines and characters, views line and character ranges", async () => {
    const { op } = await textHandle(`${LOG}\n`);
    expect(await op({ op: "count" })).toEqual({
      ok: true,
      value: { lines: 2000, chars: LOG.length + 1 },
    });
    const lines = LOG.split("\n");
    expect(await op({ op: "view", offset: 10, limit: 2 })).toEqual({
      ok: true,
      value: { text: `${lines[10]}\n${lines[11]}`, offset: 10, lines: 2, total: 2000 },
    });
    expect(await op({ op: "view", offset: 1999 })).toMatchObject({
      value: { text: lines[1999], lines: 1 },
    });
    expect(await op({ op: "view", offset: 2000 })).toMatchObject({ value: { text: "", lines: 0 } });
    expect(await op({ op: "view", start: 5, length: 10 })).toEqual({
      ok: true,
      value: { text: LOG.slice(5, 15), start: 5, length: 10, chars: LOG.length + 1 },
    });
    // A range past the end answers what there is.
    expect(await op({ op: "view", start: LOG.length - 3, length: 100 })).toMatchObject({
      value: { text: `${LOG.slice(-3)}\n`, length: 4 },
    });
  });

  it("views a line longer than a view by its start, and says where to read on", async () => {
    const long = `short\n${"y".repeat(30_000)}\nend`;
    const { op } = await textHandle(long);
    const view = await op({ op: "view", offset: 1 });
    expect(view).toMatchObject({
      ok: true,
      value: {
        lines: 1,
        offset: 1,
        total: 3,
        cut: "line 1 is longer than 20000 characters: view it by characters (start 6)",
      },
    });
    expect(valueOf<{ text: string }>(view).text.length).toBe(20_000);
  });

  it("greps the lines that contain a text, bounded, with 0-based line numbers", async () => {
    const { op } = await textHandle(LOG);
    expect(await op({ op: "grep", text: "/api/items/1999 " })).toEqual({
      ok: true,
      value: { matches: [{ line: 1999, text: LOG.split("\n")[1999] }], total: 1 },
    });
    const many = await op({ op: "grep", text: "in 5 ms", limit: 3 });
    expect(many).toMatchObject({ ok: true, value: { total: 21 } });
    expect(valueOf<{ matches: unknown[] }>(many).matches).toHaveLength(3);
    const wide = await textHandle(`${"a".repeat(1000)}needle${"b".repeat(1000)}`);
    const [match] = valueOf<{ matches: { text: string }[] }>(
      await wide.op({ op: "grep", text: "needle" }),
    ).matches;
    expect(match!.text).toMatch(/^…a+needleb+…$/);
    expect(match!.text.length).toBe(202);
  });

  it("answers every bad range and search with its exact error", async () => {
    const { op, id } = await textHandle("one\ntwo\nthree");
    const cases: [object, string, string][] = [
      [
        { op: "view", offset: 4 },
        "invalid:offset",
        "offset 4 is past the end: the text has 3 lines (0-2)",
      ],
      [
        { op: "view", offset: -1 },
        "invalid:offset",
        "offset must be a whole number from 0, got -1",
      ],
      [{ op: "view", limit: 0 }, "invalid:limit", "limit must be a whole number from 1, got 0"],
      [{ op: "view", limit: 1001 }, "invalid:limit", "limit must be at most 1000, got 1001"],
      [
        { op: "view", start: 14 },
        "invalid:start",
        "start 14 is past the end: the text has 13 characters",
      ],
      [
        { op: "view", start: 0, length: 20_001 },
        "invalid:length",
        "length must be at most 20000, got 20001",
      ],
      [{ op: "view", length: 0 }, "invalid:length", "length must be a whole number from 1, got 0"],
      [
        { op: "view", start: 1, offset: 1 },
        "invalid:start",
        `view ${id} by lines (offset, limit) or by characters (start, length), not both`,
      ],
      [
        { op: "view", columns: ["a"] },
        "invalid:columns",
        `${id} is text, which has no columns: view it by lines`,
      ],
      [{ op: "view", start: 1.5 }, "invalid:$.start", "expected an integer"],
      [{ op: "grep" }, "invalid:text", "text must be the text to find, 1 to 200 characters"],
      [
        { op: "grep", text: "" },
        "invalid:text",
        "text must be the text to find, 1 to 200 characters",
      ],
      [
        { op: "grep", text: "x".repeat(201) },
        "invalid:text",
        "text must be the text to find, 1 to 200 characters",
      ],
      [{ op: "grep", text: 3 }, "invalid:$.text", "expected a string"],
      [
        { op: "grep", text: "o", limit: 101 },
        "invalid:limit",
        "limit must be at most 100, got 101",
      ],
      [
        { op: "read", item: 0 },
        "invalid:item",
        `${id} is a string, not a list: read it without item`,
      ],
    ];
    for (const [args, error, hint] of cases)
      expect(await op(args)).toEqual({ ok: false, error, hint });
  });

  it("refuses text operations on a list, and grep on anything but text", async () => {
    const s = session(ROWS, { maxResultTokens: 50 });
    const result = await call(s);
    if (!result.ok || !("handle" in result)) throw new Error("expected a handle");
    const id = result.handle;
    expect(await s.call("zcp.handle", { op: "view", handle: id, start: 0 })).toEqual({
      ok: false,
      error: "invalid:start",
      hint: `start and length view text by characters; ${id} is a list: view it by rows (offset, limit)`,
    });
    expect(await s.call("zcp.handle", { op: "grep", handle: id, text: "x" })).toEqual({
      ok: false,
      error: `invalid:${id}`,
      hint: `${id} is a list, not text: view or read it instead`,
    });
  });
});

/**
 * The exact errors, hints and coercions of generated validators, on hand-written values of the
 * synthetic tools (helpers.ts).
 */
import { describe, expect, it } from "vitest";
import { generatedValidators, LONG_KEY } from "./helpers.js";

const { tables } = generatedValidators(["synthetic"]);

describe("errors, hints and coercions", () => {
  const validate = (input: unknown) => tables.get("synthetic")!.orders01!(input);
  const base = { city: "Oslo", rows: [{ sku: "ABC-12", qty: 1 }] };

  it("reports the first missing property, and invalid ones at their path", () => {
    expect(validate({})).toEqual({ ok: false, error: "missing:$.city", hint: "expected string" });
    expect(validate({ city: "Oslo" })).toEqual({
      ok: false,
      error: "missing:$.rows",
      hint: "expected array of 1-4 items",
    });
    const rows = [
      { sku: "ABC-12", qty: 1 },
      { sku: "ABC-13", qty: 2 },
      { sku: "ABC-14", qty: 0 },
    ];
    expect(validate({ ...base, rows })).toEqual({
      ok: false,
      error: "invalid:$.rows[2].qty",
      hint: "expected integer >= 1",
    });
    expect(validate({ ...base, rows: [{ qty: 1 }] })).toEqual({
      ok: false,
      error: "missing:$.rows[0].sku",
      hint: "expected string matching ^[A-Z]{3}-[0-9]{2}$",
    });
    expect(validate({ ...base, unit: "kelvin" })).toEqual({
      ok: false,
      error: "invalid:$.unit",
      hint: "expected one of: celsius, fahrenheit",
    });
    expect(validate({ ...base, "a b": 5 })).toEqual({
      ok: false,
      error: 'invalid:$["a b"]',
      hint: "expected string of 2-3 characters",
    });
    expect(validate([])).toEqual({ ok: false, error: "invalid:$", hint: "expected object" });
  });

  it("reports the first unknown key, in input order, after the known properties", () => {
    expect(validate({ ...base, extra: 1, other: 2 })).toEqual({
      ok: false,
      error: "invalid:$.extra",
      hint: "unknown property; expected: city, unit, rows, label, flag, count, a b, note, mode, level, ratio",
    });
    expect(
      validate({ ...base, "x-y": 1 }).ok === false && validate({ ...base, "x-y": 1 }),
    ).toMatchObject({ error: 'invalid:$["x-y"]' });
    expect(validate({ ...base, rows: [{ sku: "ABC-12", qty: 1, more: true }] })).toEqual({
      ok: false,
      error: "invalid:$.rows[0].more",
      hint: "unknown property; expected: sku, qty, price",
    });
  });

  it("coerces numeric and boolean strings where only a number or boolean fits, copying on write", () => {
    const input = {
      ...base,
      count: "5",
      flag: "true",
      ratio: "0.5",
      mode: "false",
      level: "2",
      rows: [{ sku: "ABC-12", qty: "3", price: "1.25" }],
    };
    const snapshot = structuredClone(input);
    const result = validate(input);
    expect(result).toEqual({
      ok: true,
      value: {
        ...base,
        count: 5,
        flag: true,
        ratio: 0.5,
        mode: false,
        level: 2,
        rows: [{ sku: "ABC-12", qty: 3, price: 1.25 }],
      },
    });
    expect(input).toEqual(snapshot);
    // Nothing to coerce: the very same object comes back.
    const plain = { ...base, count: 5 };
    expect(validate(plain)).toEqual({ ok: true, value: plain });
    expect((validate(plain) as { value: unknown }).value).toBe(plain);
    // Only the branch that changed is copied.
    const deep = {
      ...base,
      rows: [
        { sku: "ABC-12", qty: 1 },
        { sku: "ABC-13", qty: "2" },
      ],
      label: "x",
    };
    const value = (validate(deep) as { value: typeof deep }).value;
    expect(value).not.toBe(deep);
    expect(value.rows[0]).toBe(deep.rows[0]);
    expect(value.rows[1]).toEqual({ sku: "ABC-13", qty: 2 });
  });

  it("coerces nothing else", () => {
    expect(validate({ ...base, label: "1" })).toEqual({ ok: true, value: { ...base, label: "1" } });
    expect(validate({ ...base, label: 1 })).toEqual({
      ok: false,
      error: "invalid:$.label",
      hint: "expected string",
    });
    expect(validate({ ...base, flag: "yes" })).toEqual({
      ok: false,
      error: "invalid:$.flag",
      hint: "expected boolean",
    });
    expect(validate({ ...base, flag: 1 })).toEqual({
      ok: false,
      error: "invalid:$.flag",
      hint: "expected boolean",
    });
    expect(validate({ ...base, count: "1.5" })).toEqual({
      ok: false,
      error: "invalid:$.count",
      hint: "expected integer",
    });
    for (const text of [" 5", "5 ", "+5", "05", "0x10", "1e999", "Infinity", "", "5."]) {
      expect(validate({ ...base, count: text }), text).toEqual({
        ok: false,
        error: "invalid:$.count",
        hint: "expected integer",
      });
    }
    expect(validate({ ...base, note: "12" })).toEqual({ ok: true, value: { ...base, note: "12" } });
    expect(validate({ ...base, note: "true" })).toEqual({
      ok: true,
      value: { ...base, note: "true" },
    });
    expect(validate({ ...base, level: "null" })).toEqual({
      ok: false,
      error: "invalid:$.level",
      hint: "expected one of: 1, 2, 3, null",
    });
  });

  it("counts string lengths in code points", () => {
    expect(validate({ ...base, "a b": "😀😀" }).ok).toBe(true);
    expect(validate({ ...base, "a b": "😀😀😀😀" })).toMatchObject({
      ok: false,
      error: 'invalid:$["a b"]',
    });
    expect(validate({ ...base, "a b": "a" })).toMatchObject({
      ok: false,
      error: 'invalid:$["a b"]',
    });
  });

  it("takes the first anyOf branch that fits, with its coercion, and reports at the anyOf otherwise", () => {
    const mixed = (input: unknown) => tables.get("synthetic")!.mixed!(input);
    expect(mixed({ shape: null, id: "abc" })).toEqual({
      ok: true,
      value: { shape: null, id: "abc" },
    });
    expect(mixed({ shape: null, id: "12" })).toEqual({ ok: true, value: { shape: null, id: 12 } });
    expect(mixed({ shape: null, either: "5" })).toEqual({
      ok: true,
      value: { shape: null, either: 5 },
    });
    expect(mixed({ shape: null, id: "A1" })).toEqual({
      ok: false,
      error: "invalid:$.id",
      hint: "expected string matching ^[a-z]+$ or integer >= 0",
    });
    expect(mixed({ shape: { kind: "rect", w: "2", h: 3 } })).toEqual({
      ok: true,
      value: { shape: { kind: "rect", w: 2, h: 3 } },
    });
    expect(mixed({ shape: { kind: "oval" } })).toEqual({
      ok: false,
      error: "invalid:$.shape",
      hint: "expected Circle object or Rect object or null",
    });
    // Unique items are compared after coercion.
    expect(mixed({ shape: null, nums: ["1", 1] })).toEqual({
      ok: false,
      error: "invalid:$.nums[1]",
      hint: "expected unique items; this one repeats an earlier one",
    });
    expect(mixed({ shape: null, weights: { "1.5": "2", abc: 1 } })).toEqual({
      ok: false,
      error: "invalid:$.weights.abc",
      hint: "expected property names matching ^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$",
    });
    // A nullable type: its own errors, with "or null" in the hint of the type check.
    expect(mixed({ shape: null, maybe: "x" })).toEqual({
      ok: false,
      error: "invalid:$.maybe",
      hint: "expected array or null",
    });
    expect(mixed({ shape: null, maybe: [1, "x"] })).toEqual({
      ok: false,
      error: "invalid:$.maybe[1]",
      hint: "expected integer",
    });
  });

  // Lean provider artifacts leave these constraints out of the model's schema: the refusal's hint
  // is where the model learns them, so it states each one exactly.
  it("states the constraint a value breaks exactly: patterns, formats, lengths, ranges, item counts", () => {
    const mixed = (input: unknown) => tables.get("synthetic")!.mixed!(input);
    const formats = (input: unknown) => tables.get("synthetic")!.formats!(input);
    const long = (input: unknown) =>
      tables.get("synthetic")!.abcdefghijklmnopqrstuvwxyz012345!(input);
    const row = (value: object) => mixed({ shape: null, row: { sku: "ABC-12", qty: 1, ...value } });
    // Patterns.
    expect(row({ sku: "abc-12" })).toEqual({
      ok: false,
      error: "invalid:$.row.sku",
      hint: "expected string matching ^[A-Z]{3}-[0-9]{2}$",
    });
    expect(long({ tree: { children: [] }, path: "no" })).toEqual({
      ok: false,
      error: "invalid:$.path",
      hint: "expected string matching ^/(?:[a-z0-9-]+/)*[a-z0-9-]+(?:\\.[a-z]{2,4})?$|^https?://[a-z.]+/[a-z/]*$|^[a-z]+:[0-9]+/[0-9]+$",
    });
    // Formats, each by its name.
    for (const [key, value, format] of [
      ["date", "2024-13-01", "date"],
      ["time", "25:00:00Z", "time"],
      ["when", "tomorrow", "date-time"],
      ["span", "3 days", "duration"],
      ["host", "-bad-", "hostname"],
      ["ip4", "1.2.3", "ipv4"],
      ["ip6", "::g", "ipv6"],
      ["link", "no scheme", "uri"],
      ["uuid", "1234", "uuid"],
    ] as const) {
      expect(formats({ [key]: value }), key).toEqual({
        ok: false,
        error: `invalid:$.${key}`,
        hint: `expected ${format} string`,
      });
    }
    expect(formats({ email: "a@b.c" })).toEqual({
      ok: false,
      error: "invalid:$.email",
      hint: "expected email string of at least 6 characters",
    });
    // Lengths (in characters: code points).
    expect(formats({ emoji: "😀😀😀😀" })).toEqual({
      ok: false,
      error: "invalid:$.emoji",
      hint: "expected string of 2-3 characters",
    });
    expect(validate({ ...base, note: "toolong" })).toEqual({
      ok: false,
      error: "invalid:$.note",
      hint: "expected string of at most 5 characters or null",
    });
    // Ranges and multiples.
    expect(validate({ ...base, ratio: 1.5 })).toEqual({
      ok: false,
      error: "invalid:$.ratio",
      hint: "expected number >= 0 and <= 1 or null",
    });
    expect(long({ tree: { children: [] }, [LONG_KEY]: 100 })).toEqual({
      ok: false,
      error: `invalid:$[${JSON.stringify(LONG_KEY)}]`,
      hint: "expected integer >= 0 and <= 99",
    });
    expect(row({ price: 0 })).toEqual({
      ok: false,
      error: "invalid:$.row.price",
      hint: "expected number > 0, a multiple of 0.25",
    });
    expect(row({ price: 0.3 })).toEqual({
      ok: false,
      error: "invalid:$.row.price",
      hint: "expected number > 0, a multiple of 0.25",
    });
    expect(long({ tree: { children: [], weight: 11 } })).toEqual({
      ok: false,
      error: "invalid:$.tree.weight",
      hint: "expected number <= 10",
    });
    // Item counts, tuples and unique items.
    expect(validate({ ...base, rows: [] })).toEqual({
      ok: false,
      error: "invalid:$.rows",
      hint: "expected array of 1-4 items",
    });
    expect(validate({ ...base, rows: Array(5).fill(base.rows[0]) })).toEqual({
      ok: false,
      error: "invalid:$.rows",
      hint: "expected array of 1-4 items",
    });
    expect(mixed({ shape: null, pair: [] })).toEqual({
      ok: false,
      error: "invalid:$.pair",
      hint: "expected array of at least 1 item",
    });
    expect(mixed({ shape: null, nums: [1, 2, 1] })).toEqual({
      ok: false,
      error: "invalid:$.nums[2]",
      hint: "expected unique items; this one repeats an earlier one",
    });
  });

  it("reads only own properties", () => {
    const proto = (input: unknown) => tables.get("synthetic")!.proto!(input);
    expect(proto({})).toEqual({
      ok: false,
      error: "missing:$.constructor",
      hint: "expected string",
    });
    expect(proto({ constructor: "x", toString: "3" })).toEqual({
      ok: true,
      value: { constructor: "x", toString: 3 },
    });
    const withProto = JSON.parse('{"constructor":"x","__proto__":1}') as object;
    expect(proto(withProto)).toEqual({
      ok: false,
      error: "invalid:$.__proto__",
      hint: "unknown property; expected: constructor, toString, valueOf, plain",
    });
  });
});

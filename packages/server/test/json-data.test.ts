/**
 * `jsonData`, the check a worker runs on a tool's result before it crosses to the server's
 * thread (isolation.test.ts): the result's JSON size without writing its JSON, or what in it
 * is not JSON data, and where.
 */
import { jsonData } from "@zcp/runtime";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("jsonData: a result's size without its JSON, or why it is not JSON data", () => {
  const bytes = (value: unknown) => {
    const data = jsonData(value);
    return "bytes" in data
      ? data.bytes
      : data.refused.match(/^the result holds (.*): a tool returns JSON data$/)![1];
  };
  const oracle = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "null");

  it("is the UTF-8 length of JSON.stringify, for any JSON data (fast-check)", () => {
    const text = fc.string({ unit: "binary" });
    const leaf = fc.oneof(
      text,
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.date(),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, leaf, tie("array"), tie("object")),
      array: fc.array(tie("node")),
      object: fc.dictionary(text, tie("node")),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(bytes(v)).toBe(oracle(v));
      }),
      { numRuns: 200 },
    );
  });

  it("follows JSON.stringify on what it leaves out, and refuses what is not JSON data", () => {
    for (const value of [
      { u: undefined, n: Number.NaN, i: -Infinity, nul: Object.create(null) },
      [undefined, , 1],
      '\u0000\u001f"\\\b\t\n\f\r\u2028😀\ud800',
      undefined,
    ])
      expect(bytes(value)).toBe(oracle(value));
    const cycle: { self?: unknown } = {};
    cycle.self = cycle;
    class Point {
      x = 1;
    }
    const getter = {
      get x(): never {
        throw new Error("no x");
      },
    };
    for (const [value, found] of [
      [new Map(), "a Map at $"],
      [{ x: [new Set()] }, "a Set at $.x[0]"],
      [{ "a b": new Uint8Array([1]) }, 'a Uint8Array at $["a b"]'],
      [{ buffer: new ArrayBuffer(8) }, "an ArrayBuffer at $.buffer"],
      [[new TypeError("x")], "a TypeError at $[0]"],
      [{ big: 1n }, "a BigInt at $.big"],
      [cycle, "a cycle at $.self"],
      [{ p: new Point() }, "a Point at $.p"],
      [new String("s"), "a String at $"],
      [/x/, "a RegExp at $"],
      [{ f() {} }, "a function at $.f"],
      [{ toJSON: () => 1 }, "a function at $.toJSON"],
      [[Symbol("s")], "a symbol at $[0]"],
      [getter, "a value that cannot be read (no x) at $.x"],
    ] as const)
      expect(bytes(value)).toBe(found);
    // Nested past what the stack can walk: its path is cut.
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = { a: deep };
    expect(bytes(deep)).toMatch(/^a value that cannot be read \(.+\) at \$(\.a){99}\.…$/);
  });
});

/**
 * The helpers generated validators import from `@zcp/runtime/codegen` (src/validator-helpers.ts),
 * each on its own: hand-picked cases at the edges, then seeded random values against an
 * independent oracle (JSON.parse for numeric strings, the string iterator for code points, a
 * structural deep equality for unique items). What generated code does with them is tested in
 * packages/gen/test/validators/ajv.test.ts (Ajv as the oracle).
 */
import { describe, expect, it } from "vitest";
import * as codegen from "@zcp/runtime/codegen";
import {
  codePoints,
  duplicateAt,
  invalid,
  isInteger,
  isNumber,
  isObject,
  member,
  missing,
  own,
  pattern,
  put,
  sameJson,
  toBoolean,
  toNumber,
} from "../src/codegen/validator-helpers.js";
import { canonicalJson } from "../src/definition/hash.js";
import { mulberry32 as random } from "../../../tools/test-random.js";

const HELPERS = [
  "codePoints",
  "duplicateAt",
  "invalid",
  "isInteger",
  "isNumber",
  "isObject",
  "member",
  "missing",
  "own",
  "pattern",
  "put",
  "sameJson",
  "toBoolean",
  "toNumber",
];

describe("validator helpers", () => {
  it("are exported by @zcp/runtime/codegen, the entry generated code imports", () => {
    for (const name of HELPERS)
      expect(typeof (codegen as Record<string, unknown>)[name], name).toBe("function");
  });

  it("invalid and missing: the ValidationResult errors, with the path and the hint", () => {
    expect(invalid("$.rows[2].qty", "expected integer >= 1")).toEqual({
      ok: false,
      error: "invalid:$.rows[2].qty",
      hint: "expected integer >= 1",
    });
    expect(missing("$.city", "expected string")).toEqual({
      ok: false,
      error: "missing:$.city",
      hint: "expected string",
    });
  });

  it("pattern: a u-flag RegExp compiled on first use; one this Node cannot compile matches nothing", () => {
    expect(() => pattern("(")).not.toThrow();
    const broken = pattern("(");
    expect([broken.test("("), broken.test("")]).toEqual([false, false]);
    // The u flag: a surrogate pair is one character, \p{...} is a property escape.
    const letters = pattern("^\\p{L}.$");
    expect([letters.test("a😀"), letters.test("1😀"), letters.test("a😀😀")]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("isObject: JSON objects only", () => {
    for (const value of [{}, { a: 1 }, Object.create(null), new Date(0)])
      expect(isObject(value)).toBe(true);
    for (const value of [null, [], [1], "x", 1, true, undefined])
      expect(isObject(value)).toBe(false);
  });

  it("isNumber and isInteger: finite numbers, and those without a fraction", () => {
    for (const value of [0, -0, 1.5, -1e300, Number.MAX_VALUE]) expect(isNumber(value)).toBe(true);
    for (const value of [Number.NaN, Infinity, -Infinity, "1", null, true, [1]])
      expect(isNumber(value)).toBe(false);
    for (const value of [0, -0, 1.0, -7, 2 ** 60, 1e300]) expect(isInteger(value)).toBe(true);
    for (const value of [1.5, Number.NaN, Infinity, "1", null, true])
      expect(isInteger(value)).toBe(false);
  });

  it("toNumber: a string holding a JSON number becomes it, anything else stays", () => {
    expect(toNumber("42")).toBe(42);
    expect(toNumber("-0")).toBe(-0);
    expect(toNumber("1.25e+2")).toBe(125);
    expect(toNumber("1E-2")).toBe(0.01);
    for (const value of [
      "",
      " 1",
      "1 ",
      "01",
      "+1",
      "1.",
      ".5",
      "0x10",
      "1e",
      "Infinity",
      "NaN",
      "1_000",
      "1e999",
    ])
      expect(toNumber(value)).toBe(value);
    const object = { a: 1 };
    for (const value of [7, true, null, undefined, object]) expect(toNumber(value)).toBe(value);
  });

  it("toNumber agrees with JSON.parse on random numeric-looking strings", () => {
    const next = random(42);
    const alphabet = "0123456789-+.eE ";
    let converted = 0;
    for (let n = 0; n < 20_000; n++) {
      let text = "";
      const length = 1 + Math.floor(next() * 8);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      // JSON.parse allows white space around the number; a JSON number in a string does not.
      const expected =
        typeof parsed === "number" && Number.isFinite(parsed) && text.trim() === text
          ? parsed
          : text;
      expect(toNumber(text), JSON.stringify(text)).toBe(expected);
      if (expected !== text) converted++;
    }
    expect(converted).toBeGreaterThan(1000);
  });

  it("toBoolean: only the two words", () => {
    expect(toBoolean("true")).toBe(true);
    expect(toBoolean("false")).toBe(false);
    for (const value of ["True", "TRUE", "1", "0", "", "yes", 1, 0, null, true, false])
      expect(toBoolean(value)).toBe(value);
  });

  it("codePoints: surrogate pairs count once, lone surrogates once each", () => {
    expect(codePoints("")).toBe(0);
    expect(codePoints("abc")).toBe(3);
    expect(codePoints("😀")).toBe(1);
    expect(codePoints("a😀b")).toBe(3);
    expect(codePoints("\ud800")).toBe(1);
    expect(codePoints("\ud800a")).toBe(2);
    expect(codePoints("\udc00\ud800")).toBe(2);
    expect(codePoints("\ud83d\ude00\ud83d")).toBe(2);
  });

  it("codePoints agrees with the string iterator on random UTF-16", () => {
    const next = random(7);
    const units = [
      0x41, 0x7a, 0xe9, 0x4e2d, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xd83d, 0xde00, 0xfffd,
    ];
    for (let n = 0; n < 5_000; n++) {
      let text = "";
      const length = Math.floor(next() * 10);
      for (let i = 0; i < length; i++)
        text += String.fromCharCode(units[Math.floor(next() * units.length)]!);
      expect(codePoints(text)).toBe([...text].length);
    }
  });

  it("member: identifiers after a dot, other keys as JSON in brackets", () => {
    expect(member("qty")).toBe(".qty");
    expect(member("$id")).toBe(".$id");
    expect(member("_1")).toBe("._1");
    expect(member("a b")).toBe('["a b"]');
    expect(member("1a")).toBe('["1a"]');
    expect(member("")).toBe('[""]');
    expect(member('say "hi"')).toBe('["say \\"hi\\""]');
    expect(member("é")).toBe('["é"]');
  });

  it("own: own properties only, never what every object inherits", () => {
    expect(own({}, "constructor")).toBeUndefined();
    expect(own({}, "toString")).toBeUndefined();
    expect(own({ constructor: "x" }, "constructor")).toBe("x");
    expect(own(Object.create(null) as Record<string, unknown>, "a")).toBeUndefined();
    const bare = Object.create(null) as Record<string, unknown>;
    bare.a = 1;
    expect(own(bare, "a")).toBe(1);
  });

  it("put: copies the source once, then writes into the copy; the source is never changed", () => {
    const source = { a: 1, b: 2 };
    const first = put(undefined, source, "a", 10);
    expect(first).toEqual({ a: 10, b: 2 });
    expect(first).not.toBe(source);
    const second = put(first, source, "b", 20);
    expect(second).toBe(first);
    expect(second).toEqual({ a: 10, b: 20 });
    expect(source).toEqual({ a: 1, b: 2 });
  });

  it("sameJson: equal as JSON to a value of canonicalJson's text (enum and const objects)", () => {
    const texts = [{ a: [1, { b: null }] }, [1, 2], "s"].map((value) => canonicalJson(value));
    expect(sameJson({ a: [1, { b: null }] }, ...texts)).toBe(true);
    expect(sameJson({ a: [1.0, { b: null }] }, ...texts)).toBe(true);
    expect(sameJson(JSON.parse('{"a": [1, {"b": null}]}'), ...texts)).toBe(true);
    expect(sameJson([1, 2], ...texts)).toBe(true);
    expect(sameJson("s", ...texts)).toBe(true);
    expect(sameJson([2, 1], ...texts)).toBe(false);
    expect(sameJson({ a: [1, { b: null, c: 1 }] }, ...texts)).toBe(false);
    expect(sameJson({ a: ["1", { b: null }] }, ...texts)).toBe(false);
    expect(sameJson(null, ...texts)).toBe(false);
    expect(sameJson({ k: 1 })).toBe(false);
  });

  it("duplicateAt: the first item equal as JSON to an earlier one", () => {
    expect(duplicateAt([])).toBe(-1);
    expect(duplicateAt([1, 2, 3])).toBe(-1);
    expect(duplicateAt([1, 2, 1, 2])).toBe(2);
    expect(duplicateAt([1, "1", true, "true", null, "null"])).toBe(-1);
    expect(
      duplicateAt([
        { a: 1, b: [2] },
        { b: [2], a: 1 },
      ]),
    ).toBe(1);
    expect(
      duplicateAt([
        [1, 2],
        [2, 1],
      ]),
    ).toBe(-1);
    expect(duplicateAt([{}, []])).toBe(-1);
    expect(duplicateAt([0, -0])).toBe(1);
  });

  it("duplicateAt agrees with a structural deep equality on random JSON", () => {
    const next = random(1234);
    const value = (depth: number): unknown => {
      const kind = Math.floor(next() * (depth > 1 ? 4 : 6));
      if (kind === 0) return Math.floor(next() * 3);
      if (kind === 1) return ["a", "b", "1"][Math.floor(next() * 3)];
      if (kind === 2) return next() < 0.5 ? null : next() < 0.5;
      if (kind === 3) return Math.floor(next() * 2) === 0 ? 1 : "x";
      if (kind === 4) return Array.from({ length: Math.floor(next() * 3) }, () => value(depth + 1));
      const object: Record<string, unknown> = {};
      for (const key of ["p", "q", "r"]) if (next() < 0.5) object[key] = value(depth + 1);
      return object;
    };
    const equal = (a: unknown, b: unknown): boolean => {
      if (Array.isArray(a) || Array.isArray(b))
        return (
          Array.isArray(a) &&
          Array.isArray(b) &&
          a.length === b.length &&
          a.every((item, i) => equal(item, b[i]))
        );
      if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
        const keys = Object.keys(a);
        return (
          keys.length === Object.keys(b).length &&
          keys.every(
            (key) =>
              key in b &&
              equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
          )
        );
      }
      return a === b;
    };
    let found = 0;
    for (let n = 0; n < 3_000; n++) {
      const items = Array.from({ length: Math.floor(next() * 6) }, () => value(0));
      const expected = items.findIndex((item, i) =>
        items.slice(0, i).some((earlier) => equal(earlier, item)),
      );
      expect(duplicateAt(items)).toBe(expected);
      if (expected >= 0) found++;
    }
    expect(found).toBeGreaterThan(300);
  });
});

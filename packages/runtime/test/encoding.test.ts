import { describe, expect, it } from "vitest";
import type { JsonValue } from "../src/definition/registry.js";
import type { CallResult } from "../src/results/result.js";
import { encodeResult } from "../src/encoding/result.js";
import {
  formatCall,
  MAX_CALL_LINE_LENGTH,
  parseCalls,
  TextProtocolError,
} from "../src/encoding/text.js";
import { formatReturn, parseReturn } from "../src/encoding/text-return.js";
import { mulberry32 as prng } from "../../../tools/test-random.js";

const handleResult: CallResult = {
  ok: true,
  handle: "#T1",
  summary: "3 rows: sku, qty",
  meta: { kind: "table", size: 120, ttl: "10m", count: 3 },
};

describe("encodeResult", () => {
  it("writes the three shapes compactly, keys in a fixed order", () => {
    expect(encodeResult({ ok: true, value: { temp: 22, unit: "celsius" } })).toBe(
      '{"ok":true,"value":{"temp":22,"unit":"celsius"}}',
    );
    expect(encodeResult({ ok: true, value: null })).toBe('{"ok":true,"value":null}');
    expect(encodeResult({ ok: true, value: [1, "a b", true] })).toBe(
      '{"ok":true,"value":[1,"a b",true]}',
    );
    expect(encodeResult(handleResult)).toBe(
      '{"ok":true,"handle":"#T1","summary":"3 rows: sku, qty","meta":{"kind":"table","size":120,"ttl":"10m","count":3}}',
    );
    expect(
      encodeResult({
        ok: false,
        error: "invalid:$.city",
        hint: "expected one of: Shanghai, Beijing",
      }),
    ).toBe('{"ok":false,"error":"invalid:$.city","hint":"expected one of: Shanghai, Beijing"}');
  });

  it("orders meta keys whatever order the object was built in, and leaves out an absent count", () => {
    const meta = { ttl: "9m59s", size: 20, kind: "generic" };
    expect(encodeResult({ ok: true, handle: "#G1", summary: "s", meta })).toBe(
      '{"ok":true,"handle":"#G1","summary":"s","meta":{"kind":"generic","size":20,"ttl":"9m59s"}}',
    );
    const reordered = { hint: "h", error: "timeout", ok: false } as const;
    expect(encodeResult(reordered)).toBe('{"ok":false,"error":"timeout","hint":"h"}');
  });

  it("writes UTF-8 by default and \\u escapes with ascii: true, both valid JSON", () => {
    const result: CallResult = {
      ok: true,
      value: { city: "上海", note: "naïve 😀", line: "a\u2028b" },
    };
    const plain = encodeResult(result);
    expect(plain).toBe('{"ok":true,"value":{"city":"上海","note":"naïve 😀","line":"a\u2028b"}}');
    const ascii = encodeResult(result, { ascii: true });
    expect(ascii).toBe(
      '{"ok":true,"value":{"city":"\\u4e0a\\u6d77","note":"na\\u00efve \\ud83d\\ude00","line":"a\\u2028b"}}',
    );
    expect(/^[\x20-\x7e]*$/.test(ascii)).toBe(true);
    expect(JSON.parse(plain)).toEqual(result);
    expect(JSON.parse(ascii)).toEqual(result);
  });

  it("escapes control characters and lone surrogates, writes undefined as null", () => {
    expect(encodeResult({ ok: true, value: "a\nb\u0000\ud800" })).toBe(
      '{"ok":true,"value":"a\\nb\\u0000\\ud800"}',
    );
    expect(encodeResult({ ok: true, value: undefined as unknown as JsonValue })).toBe(
      '{"ok":true,"value":null}',
    );
  });
});

describe("formatReturn and parseReturn", () => {
  it("writes values, handles and errors", () => {
    expect(formatReturn("c1", { ok: true, value: { temp: 22 } })).toBe('RET c1 {"temp":22}');
    expect(formatReturn("c2", { ok: true, value: "a b" })).toBe('RET c2 "a b"');
    expect(formatReturn("c3", handleResult)).toBe(
      'RET c3 #T1 summary="3 rows: sku, qty" kind=table size=120 ttl=10m count=3',
    );
    expect(
      formatReturn("c4", {
        ok: true,
        handle: "#G2",
        summary: "",
        meta: { kind: "true", size: 0, ttl: "1e5" },
      }),
    ).toBe('RET c4 #G2 summary="" kind="true" size=0 ttl="1e5"');
    expect(
      formatReturn("c5", {
        ok: false,
        error: "invalid:$.city",
        hint: "expected one of: Shanghai, Beijing",
      }),
    ).toBe('ERR c5 invalid:$.city hint="expected one of: Shanghai, Beijing"');
    expect(formatReturn("c6", { ok: false, error: "timeout", hint: "" })).toBe("ERR c6 timeout");
    expect(formatReturn("c7", { ok: false, error: 'unknown:a b"c', hint: "x" })).toBe(
      'ERR c7 "unknown:a b\\"c" hint="x"',
    );
  });

  it("reads them back", () => {
    expect(parseReturn('RET c1 {"temp":22}')).toEqual({
      cid: "c1",
      result: { ok: true, value: { temp: 22 } },
    });
    expect(
      parseReturn('RET c1 #T1 summary="3 rows: sku, qty" kind=table size=120 ttl=10m count=3\n'),
    ).toEqual({ cid: "c1", result: handleResult });
    expect(parseReturn("RET c1 #T1 summary=s kind=table size=1 ttl=1m extra=ignored")).toEqual({
      cid: "c1",
      result: {
        ok: true,
        handle: "#T1",
        summary: "s",
        meta: { kind: "table", size: 1, ttl: "1m" },
      },
    });
    expect(parseReturn('ERR c5 invalid:$.city hint="expected one of: Shanghai"')).toEqual({
      cid: "c5",
      result: { ok: false, error: "invalid:$.city", hint: "expected one of: Shanghai" },
    });
    expect(parseReturn("ERR c6 timeout")).toEqual({
      cid: "c6",
      result: { ok: false, error: "timeout", hint: "" },
    });
  });

  it("refuses malformed call ids and handles when writing", () => {
    expect(() => formatReturn("c 1", { ok: true, value: 1 })).toThrow(
      new RangeError('formatReturn: invalid call id "c 1"'),
    );
    expect(() => formatReturn("c1", { ...handleResult, handle: "T1" })).toThrow(
      new RangeError('formatReturn: invalid handle "T1"'),
    );
  });

  it.each([
    ["", 'expected "RET" or "ERR" at column 1'],
    ["RESULT c1 1", 'expected "RET" or "ERR" at column 1'],
    ["RET", 'expected "RET" or "ERR" at column 1'],
    ["RET c/1 1", 'invalid call id "c/1" at column 5'],
    ["RET c1", "expected a value or a handle at column 7"],
    ["ERR c1", "expected an error code at column 7"],
    [
      'RET c1 {"a":1',
      'invalid JSON in the returned value at column 14: expected "," or "}", found the end of the value',
    ],
    [
      "RET c1 1 2",
      'invalid JSON in the returned value at column 10: unexpected "2" after the value',
    ],
    ["RET c1 #T1 kind=table size=1 ttl=1m", 'missing summary=… after handle "#T1" at column 36'],
    ["RET c1 #T1 summary=s kind=table size=big ttl=1m", "size must be a number at column 38"],
    ["RET c1 # summary=s", 'expected a handle id after "#" at column 8'],
    ["ERR c1 timeout hint=3", "hint must be a string at column 21"],
    ['ERR c1 "timeout"x', "expected a space after the error code at column 17"],
    ['ERR c1 timeout hint="a', "unterminated string starting at column 21"],
  ])("parseReturn(%j) fails", (line, message) => {
    let caught: unknown;
    try {
      parseReturn(line);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TextProtocolError);
    expect((caught as TextProtocolError).message).toBe(message);
    expect((caught as TextProtocolError).column).toBe(Number(/column (\d+)/.exec(message)![1]));
  });
});

const TRICKY = [
  "",
  " ",
  "a b",
  "Shanghai",
  "true",
  "null",
  "42",
  "-1",
  "1e5",
  "#T1",
  "#",
  "@x",
  "x=y",
  "[",
  "]",
  "{",
  '"',
  "\\",
  "\n",
  "\r\n",
  "\t",
  "\u2028",
  "上海",
  "😀",
  "\ud800",
  "__proto__",
  "=",
  "CALL x",
  "RET",
  "a\u00a0b",
  "10m",
  "-",
];
const CHARS = 'abcXYZ09_.-$#@=" \\/[]{}:,\n\t\u0000\u007f\u00e9\u4e0a😀';

function randomString(rand: () => number): string {
  if (rand() < 0.4) return TRICKY[Math.floor(rand() * TRICKY.length)]!;
  const chars = [...CHARS];
  let out = "";
  const length = Math.floor(rand() * 12);
  for (let i = 0; i < length; i++) out += chars[Math.floor(rand() * chars.length)]!;
  return out;
}

function randomNumber(rand: () => number): number {
  const pick = rand();
  let value: number;
  if (pick < 0.4) value = Math.floor(rand() * 2000) - 1000;
  else if (pick < 0.7) value = (rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20);
  else if (pick < 0.85) value = Number.MAX_SAFE_INTEGER - Math.floor(rand() * 10);
  else value = rand() * 1e300;
  return Object.is(value, -0) ? 0 : value;
}

function randomValue(rand: () => number, depth: number): JsonValue {
  const pick = rand();
  if (depth > 4 || pick < 0.45) {
    const scalar = rand();
    if (scalar < 0.5) return randomString(rand);
    if (scalar < 0.8) return randomNumber(rand);
    if (scalar < 0.9) return rand() < 0.5;
    return null;
  }
  if (pick < 0.7)
    return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
  return randomRecord(rand, depth + 1);
}

function randomRecord(rand: () => number, depth: number): { [key: string]: JsonValue } {
  const record: { [key: string]: JsonValue } = {};
  const size = Math.floor(rand() * 5);
  for (let i = 0; i < size; i++) {
    const key =
      rand() < 0.5
        ? ["city", "unit", "a.b", "content-type", "$ref", "_x", "k1"][Math.floor(rand() * 7)]!
        : randomString(rand);
    Object.defineProperty(record, key, {
      value: randomValue(rand, depth),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return record;
}

describe("round trips (seeded)", () => {
  it("formatCall → parseCalls gives back id, alias and arguments", () => {
    const rand = prng(0x5eed);
    const ids = ["b9634m", "x", "T_1", null];
    const aliases = ["weather.get_current", "a-b.c_d", "tables.sum", null];
    for (let round = 0; round < 2000; round++) {
      let id = ids[Math.floor(rand() * ids.length)]!;
      const alias = aliases[Math.floor(rand() * aliases.length)]!;
      if (id === null && alias === null) id = "only";
      const args = randomRecord(rand, 0);
      const line = formatCall(id, alias, args);
      const parsed = parseCalls(`some prose\n${line}\nmore prose`);
      expect(parsed.errors, line).toEqual([]);
      expect(parsed.calls, line).toEqual([{ line: 2, id, alias, args }]);
    }
  });

  it("formatReturn → parseReturn gives back the result", () => {
    const rand = prng(42);
    for (let round = 0; round < 2000; round++) {
      const pick = rand();
      let result: CallResult;
      if (pick < 0.4) result = { ok: true, value: randomValue(rand, 0) };
      else if (pick < 0.7) {
        const meta = {
          kind: randomString(rand),
          size: Math.floor(rand() * 1e6),
          ttl: rand() < 0.5 ? "10m" : randomString(rand),
        };
        result = {
          ok: true,
          handle: `#${["T", "G", "L"][Math.floor(rand() * 3)]}${Math.floor(rand() * 100)}`,
          summary: randomString(rand),
          meta: rand() < 0.5 ? { ...meta, count: Math.floor(rand() * 100) } : meta,
        };
      } else {
        const code =
          rand() < 0.5
            ? ["timeout", "invalid:$.city", "unknown:x.y", "expired:#T1"][Math.floor(rand() * 4)]!
            : randomString(rand);
        result = { ok: false, error: code, hint: randomString(rand) };
      }
      const cid = `c${round}`;
      const line = formatReturn(cid, result);
      expect(line.includes("\n") || line.includes("\r"), line).toBe(false);
      expect(parseReturn(line), line).toEqual({ cid, result });
    }
  });

  it("encodeResult is JSON that parses back to the result", () => {
    const rand = prng(7);
    for (let round = 0; round < 500; round++) {
      const result: CallResult = { ok: true, value: randomValue(rand, 0) };
      expect(JSON.parse(encodeResult(result))).toEqual(result);
      expect(JSON.parse(encodeResult(result, { ascii: true }))).toEqual(result);
    }
  });
});

describe("hostile input", () => {
  const fast = (run: () => void): number => {
    const start = performance.now();
    run();
    return performance.now() - start;
  };

  it("a 1 MB CALL line, a 1 MB prose line and a 1 MB message of short lines", () => {
    const mb = 1 << 20;
    let result = parseCalls("");
    expect(fast(() => (result = parseCalls(`CALL t.f s="${"x".repeat(mb)}"`)))).toBeLessThan(1000);
    expect(result.errors[0]!.message).toBe("line longer than 65536 characters");
    expect(
      fast(() => (result = parseCalls(`${"prose ".repeat(mb / 6)}\nCALL t.f a=1`))),
    ).toBeLessThan(1000);
    expect(result.calls).toHaveLength(1);
    expect(fast(() => (result = parseCalls("a\n".repeat(mb / 2))))).toBeLessThan(1000);
    expect(result).toEqual({ calls: [], errors: [] });
  });

  it("10,000 CALL lines: 64 read, one error, the rest not looked at", () => {
    const message = Array.from(
      { length: 10_000 },
      (_, i) => `CALL @x t.f i=${i} s="${"y".repeat(50)}"`,
    ).join("\n");
    let result = parseCalls("");
    expect(fast(() => (result = parseCalls(message)))).toBeLessThan(1000);
    expect(result.calls).toHaveLength(64);
    expect(result.errors).toHaveLength(1);
  });

  it("deeply nested brackets, long runs of quotes, backslashes and pairs in lines at the length limit", () => {
    const fill = (prefix: string, unit: string): string =>
      prefix + unit.repeat(Math.floor((MAX_CALL_LINE_LENGTH - prefix.length) / unit.length));
    const lines = [
      fill("CALL t.f a=", "["),
      fill("CALL t.f a=", "[{"),
      fill("CALL t.f a=[", '"",'),
      fill('CALL t.f a="', "\\\\"),
      fill('CALL t.f a="', '\\"'),
      fill("CALL t.f ", "k=1 "),
      fill("CALL t.f ", "=="),
      fill("CALL t.f a=", "1"),
      fill("CALL ", "@"),
      fill("CALL t.f a=", "]"),
      `CALL t.f a=${"[".repeat(MAX_CALL_LINE_LENGTH)}`,
    ];
    for (const line of lines) {
      let result = parseCalls("");
      expect(
        fast(() => (result = parseCalls(line))),
        line.slice(0, 30),
      ).toBeLessThan(1000);
      expect(result.calls.length + result.errors.length).toBe(1);
    }
    expect(parseCalls(lines[0]!).errors[0]!.message).toBe(
      'the value of "a" is nested deeper than 64 levels at column 76',
    );
  });

  it("random garbage never throws, and every CALL line gives a call or an error", () => {
    const rand = prng(1234);
    const alphabet = [...'CALL @ab.c_d x=y "" \\ [ ] { } : , 1 -e. true null \t\r😀\u2028é'];
    for (let round = 0; round < 3000; round++) {
      const lines: string[] = [];
      const count = 1 + Math.floor(rand() * 4);
      for (let l = 0; l < count; l++) {
        let line = rand() < 0.7 ? "CALL " : "";
        const length = Math.floor(rand() * 40);
        for (let i = 0; i < length; i++) line += alphabet[Math.floor(rand() * alphabet.length)]!;
        lines.push(line);
      }
      const message = lines.join("\n");
      const { calls, errors } = parseCalls(message);
      const callLines = lines.filter((line) => /^\s*CALL(\s|$)/.test(line)).length;
      expect(calls.length + errors.length, message).toBe(callLines);
      for (const error of errors) expect(error.message).toMatch(/column \d+/);
      for (const call of calls) {
        const again = parseCalls(formatCall(call.id, call.alias, call.args));
        expect(again.calls[0]?.args, message).toEqual(call.args);
      }
    }
  });
});

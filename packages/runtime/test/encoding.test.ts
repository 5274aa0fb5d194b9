import { describe, expect, it } from "vitest";
import type { JsonValue } from "../src/definition/registry.js";
import type { CallResult } from "../src/results/result.js";
import { encodeResult } from "../src/encoding/result.js";
import {
  formatCall,
  MAX_CALL_LINE_LENGTH,
  MAX_CALLS_PER_MESSAGE,
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

describe("parseCalls", () => {
  it("reads id and alias, alias only, id only", () => {
    const { calls, errors } = parseCalls(
      [
        "CALL @b9634m weather.get_current city=Shanghai",
        'CALL weather.get_current city="New York" unit=celsius',
        "CALL @b9634m city=Shanghai",
        "CALL @tlist tables.list",
      ].join("\n"),
    );
    expect(errors).toEqual([]);
    expect(calls).toEqual([
      { line: 1, id: "b9634m", alias: "weather.get_current", args: { city: "Shanghai" } },
      {
        line: 2,
        id: null,
        alias: "weather.get_current",
        args: { city: "New York", unit: "celsius" },
      },
      { line: 3, id: "b9634m", alias: null, args: { city: "Shanghai" } },
      { line: 4, id: "tlist", alias: "tables.list", args: {} },
    ]);
  });

  it("reads several calls with prose, fences and indentation between them; ignores other lines", () => {
    const message = [
      "Let me look at the weather in both cities first.",
      "I will CALL them now:",
      "```",
      "CALL weather.get_current city=Shanghai",
      "  \tCALL   weather.get_current\tcity=Beijing   unit=fahrenheit  ",
      "```",
      "CALLING is not a call, and neither is CALLweather.",
      "call weather.get_current city=lowercase",
      "> CALL quoted.line x=1",
      "Then I will sum the table.\r",
      "CALL @tm3e5y tables.sum rows=#T1 column=qty\r",
      "",
    ].join("\n");
    const { calls, errors } = parseCalls(message);
    expect(errors).toEqual([]);
    expect(calls).toEqual([
      { line: 4, id: null, alias: "weather.get_current", args: { city: "Shanghai" } },
      {
        line: 5,
        id: null,
        alias: "weather.get_current",
        args: { city: "Beijing", unit: "fahrenheit" },
      },
      { line: 11, id: "tm3e5y", alias: "tables.sum", args: { rows: "#T1", column: "qty" } },
    ]);
  });

  it("reads JSON values: numbers, literals, quoted strings with escapes, nested arrays and objects with spaces", () => {
    const line = String.raw`CALL @x t.f n=42 f=-1.5e3 z=0 yes=true no=false nil=null s="say \"hi\"\n\ttab \\ \u00e9 \/" e="" a=[1, "two", [3, {"k": "v w"}]] o={"a b": {"c": [null, true]}, "q": "x ] } [ {", "esc": "\"]"} empty=[] eo={}`;
    const { calls, errors } = parseCalls(line);
    expect(errors).toEqual([]);
    expect(calls[0]!.args).toEqual({
      n: 42,
      f: -1500,
      z: 0,
      yes: true,
      no: false,
      nil: null,
      s: 'say "hi"\n\ttab \\ é /',
      e: "",
      a: [1, "two", [3, { k: "v w" }]],
      o: { "a b": { c: [null, true] }, q: "x ] } [ {", esc: '"]' },
      empty: [],
      eo: {},
    });
  });

  it("reads any other word without white space as a string", () => {
    const line =
      'CALL t.f a=Shanghai b=01 c=1. d=+1 e=NaN f=Infinity g=True h=#T1 i=a=b j=x"y k=x[1 l=2024-01-05 m=10m n=-';
    expect(parseCalls(line).calls[0]!.args).toEqual({
      a: "Shanghai",
      b: "01",
      c: "1.",
      d: "+1",
      e: "NaN",
      f: "Infinity",
      g: "True",
      h: "#T1",
      i: "a=b",
      j: 'x"y',
      k: "x[1",
      l: "2024-01-05",
      m: "10m",
      n: "-",
    });
  });

  it("reads unicode in bare words, strings and keys", () => {
    const { calls, errors } = parseCalls(
      'CALL weather.get_current city=上海 note="München 😀" "城市"=北京 emoji=😀',
    );
    expect(errors).toEqual([]);
    expect(calls[0]!.args).toEqual({ city: "上海", note: "München 😀", 城市: "北京", emoji: "😀" });
  });

  it("reads quoted keys and keeps __proto__ an own property", () => {
    const { calls } = parseCalls(
      'CALL t.f "a b"=1 "x=y"=2 ""=3 __proto__={"polluted":1} o={"__proto__":{"p":2}}',
    );
    const args = calls[0]!.args;
    expect(Object.keys(args)).toEqual(["a b", "x=y", "", "__proto__", "o"]);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect((args as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(args, "__proto__")!.value).toEqual({ polluted: 1 });
    const o = args.o as { [key: string]: JsonValue };
    expect(Object.getOwnPropertyDescriptor(o, "__proto__")!.value).toEqual({ p: 2 });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("reads keys with dots, dashes and dollars bare", () => {
    expect(parseCalls("CALL t.f content-type=json $ref=x a.b=1").calls[0]!.args).toEqual({
      "content-type": "json",
      $ref: "x",
      "a.b": 1,
    });
  });

  // Every malformed-line error, with its exact message and column.
  it.each([
    ["CALL", 5, "expected @id or a tool alias after CALL at column 5"],
    ["CALL   ", 8, "expected @id or a tool alias after CALL at column 8"],
    ["CALL city=Shanghai", 6, "expected @id or a tool alias after CALL at column 6"],
    ['CALL "weather"=1', 6, "expected @id or a tool alias after CALL at column 6"],
    ["CALL @b-9 w.get", 6, 'invalid tool id "@b-9" at column 6: an id is letters, digits and _'],
    ["CALL @ w.get", 6, 'invalid tool id "@" at column 6: an id is letters, digits and _'],
    [
      "CALL weather/get city=x",
      6,
      'invalid tool alias "weather/get" at column 6: an alias is letters, digits, _ . and -',
    ],
    [
      'CALL weather.get(city="x")',
      17,
      'expected "alias key=value" but found parentheses at column 17: write arguments as key=value after the alias',
    ],
    [
      "CALL @x weather.get()",
      20,
      'expected "alias key=value" but found parentheses at column 20: write arguments as key=value after the alias',
    ],
    ['CALL @b9634m city="New York', 19, "unterminated string starting at column 19"],
    ['CALL @b9634m city="ends with backslash\\"', 19, "unterminated string starting at column 19"],
    ['CALL t.f o={"a": "b}', 18, "unterminated string starting at column 18"],
    ["CALL t.f a=[1, 2", 12, 'unclosed "[" at column 12'],
    ['CALL t.f o={"a": [1, {"b": 2}]', 12, 'unclosed "{" at column 12'],
    ['CALL t.f o={"a": [1, 2}', 23, '"}" at column 23 does not close "[" opened at column 18'],
    ["CALL t.f a=[1, 2}}", 17, '"}" at column 17 does not close "[" opened at column 12'],
    [
      "CALL @x t.f city=New York",
      22,
      'expected key=value, found "York" at column 22 (a value with spaces needs double quotes)',
    ],
    [
      "CALL @x t.f city Shanghai",
      13,
      'expected key=value, found "city" at column 13 (a value with spaces needs double quotes)',
    ],
    ['CALL t.f "a b" 1', 15, 'expected "=" after the key "a b" at column 15'],
    [
      "CALL t.f 1city=x",
      10,
      'invalid key "1city" at column 10: a key is a name (letters, digits, _ $ . -, not starting with a digit) or a JSON string',
    ],
    [
      "CALL t.f ci#ty=x",
      10,
      'invalid key "ci#ty" at column 10: a key is a name (letters, digits, _ $ . -, not starting with a digit) or a JSON string',
    ],
    ["CALL t.f =x", 10, 'missing key before "=" at column 10'],
    ['CALL t.f "a\\q"=1', 12, 'invalid JSON in a key at column 12: invalid escape "\\\\q"'],
    ["CALL t.f city=a city=b", 17, 'key "city" given twice at column 17'],
    ['CALL t.f "city"=a city=b', 19, 'key "city" given twice at column 19'],
    ["CALL t.f city=", 15, 'missing value for "city" at column 15 (write "" for an empty string)'],
    [
      "CALL t.f city= unit=c",
      15,
      'missing value for "city" at column 15 (write "" for an empty string)',
    ],
    [
      'CALL t.f city="a"b',
      18,
      'expected a space after the value of "city", found "b" at column 18',
    ],
    ["CALL t.f a=[1]x", 15, 'expected a space after the value of "a", found "x" at column 15'],
    [
      'CALL t.f o={"a": 1,}',
      20,
      'invalid JSON in the value of "o" at column 20: expected a key in double quotes, found "}"',
    ],
    [
      "CALL t.f o={a: 1}",
      13,
      'invalid JSON in the value of "o" at column 13: expected a key in double quotes, found "a"',
    ],
    [
      'CALL t.f o={"a" 1}',
      17,
      'invalid JSON in the value of "o" at column 17: expected ":" after the key, found "1"',
    ],
    [
      "CALL t.f a=[1 2]",
      15,
      'invalid JSON in the value of "a" at column 15: expected "," or "]", found "2"',
    ],
    [
      "CALL t.f a=[1,,2]",
      15,
      'invalid JSON in the value of "a" at column 15: expected a value, found ","',
    ],
    [
      "CALL t.f a=[01]",
      14,
      'invalid JSON in the value of "a" at column 14: expected "," or "]", found "1"',
    ],
    [
      "CALL t.f a=['x']",
      13,
      'invalid JSON in the value of "a" at column 13: expected a value, found "\'"',
    ],
    [
      "CALL t.f a=[tru]",
      13,
      'invalid JSON in the value of "a" at column 13: expected a value, found "t"',
    ],
    [
      "CALL t.f a=[1e999]",
      13,
      'invalid JSON in the value of "a" at column 13: number "1e999" is out of range',
    ],
    ["CALL t.f n=-1e400", 12, 'number "-1e400" is out of range at column 12'],
    [
      'CALL t.f s="a\\xb"',
      14,
      'invalid JSON in the value of "s" at column 14: invalid escape "\\\\x"',
    ],
    [
      'CALL t.f s="\\u12G4"',
      13,
      'invalid JSON in the value of "s" at column 13: invalid escape "\\\\u12G4"',
    ],
    [
      'CALL t.f s="a\tb"',
      14,
      'invalid JSON in the value of "s" at column 14: control character U+0009 in a string (escape it)',
    ],
  ])("%s", (line, column, message) => {
    const { calls, errors } = parseCalls(`thinking first\n${line}\nmore prose`);
    expect(calls).toEqual([]);
    expect(errors).toEqual([{ line: 2, column, text: line, message }]);
  });

  it("rejects values nested deeper than the limit, and accepts them up to it", () => {
    const ok = parseCalls(`CALL t.f a=${"[".repeat(64)}1${"]".repeat(64)}`);
    expect(ok.errors).toEqual([]);
    let value = ok.calls[0]!.args.a;
    for (let depth = 0; depth < 64; depth++) value = (value as JsonValue[])[0]!;
    expect(value).toBe(1);
    const deep = parseCalls(`CALL t.f a=${"[".repeat(65)}1${"]".repeat(65)}`);
    expect(deep.errors[0]!.message).toBe(
      'the value of "a" is nested deeper than 64 levels at column 76',
    );
    expect(
      parseCalls(`CALL t.f a=${"[".repeat(6)}${"]".repeat(6)}`, { maxDepth: 5 }).errors[0]!.message,
    ).toBe('the value of "a" is nested deeper than 5 levels at column 17');
  });

  it("keeps reading after a bad line, and reports each one", () => {
    const { calls, errors } = parseCalls(
      'CALL a.b x=1\nCALL a.b x=[\nprose\nCALL a.b y="ok"\nCALL\n',
    );
    expect(calls.map((call) => [call.line, call.args])).toEqual([
      [1, { x: 1 }],
      [4, { y: "ok" }],
    ]);
    expect(errors.map((error) => [error.line, error.message])).toEqual([
      [2, 'unclosed "[" at column 12'],
      [5, "expected @id or a tool alias after CALL at column 5"],
    ]);
  });

  it("reads at most 64 CALL lines and reports the 65th", () => {
    const message = Array.from({ length: 70 }, (_, i) => `CALL t.f i=${i}`).join("\n");
    const { calls, errors } = parseCalls(message);
    expect(calls).toHaveLength(MAX_CALLS_PER_MESSAGE);
    expect(calls[63]!.args).toEqual({ i: 63 });
    expect(errors).toEqual([
      {
        line: 65,
        column: 1,
        text: "CALL t.f i=64",
        message:
          "more than 64 CALL lines in one message: this line and the ones after it were not read",
      },
    ]);
    expect(parseCalls("CALL a.b\nCALL a.b\nCALL a.b", { maxCalls: 2 }).errors[0]!.line).toBe(3);
  });

  it("rejects a CALL line over the length limit and shows only its start", () => {
    const line = `CALL t.f s="${"x".repeat(MAX_CALL_LINE_LENGTH)}"`;
    const { calls, errors } = parseCalls(`${line}\nCALL t.f ok=1`);
    expect(errors).toEqual([
      {
        line: 1,
        column: MAX_CALL_LINE_LENGTH + 1,
        text: `${line.slice(0, 200)}…`,
        message: "line longer than 65536 characters",
      },
    ]);
    expect(calls).toEqual([{ line: 2, id: null, alias: "t.f", args: { ok: 1 } }]);
    const fits = `CALL t.f s="${"x".repeat(MAX_CALL_LINE_LENGTH - 13)}"`;
    expect(fits).toHaveLength(MAX_CALL_LINE_LENGTH);
    expect(parseCalls(fits).calls).toHaveLength(1);
  });
});

describe("formatCall", () => {
  it("writes bare words where safe and compact JSON elsewhere", () => {
    expect(formatCall("b9634m", "weather.get_current", { city: "Shanghai", unit: "celsius" })).toBe(
      "CALL @b9634m weather.get_current city=Shanghai unit=celsius",
    );
    expect(formatCall(null, "weather.get_current", { city: "New York" })).toBe(
      'CALL weather.get_current city="New York"',
    );
    expect(formatCall("b9634m", null, { city: "Shanghai" })).toBe("CALL @b9634m city=Shanghai");
    expect(
      formatCall("x", "t.f", {
        n: 3,
        t: "true",
        num: "42",
        h: "#T1",
        o: { a: [1, "x y"], b: null },
        "a b": 1,
        "": "",
        skipped: undefined,
        u: "上海",
      }),
    ).toBe(
      'CALL @x t.f n=3 t="true" num="42" h=#T1 o={"a":[1,"x y"],"b":null} "a b"=1 ""="" u="上海"',
    );
  });

  it("keeps the line on one line", () => {
    const line = formatCall(null, "t.f", { s: "a\nb\rc\u2028d" });
    expect(line).toBe('CALL t.f s="a\\nb\\rc\u2028d"');
    expect(parseCalls(line).calls[0]!.args).toEqual({ s: "a\nb\rc\u2028d" });
  });

  it("refuses a call without a tool or with a malformed id or alias", () => {
    expect(() => formatCall(null, null, {})).toThrow(
      new RangeError("formatCall: give a tool id, an alias or both"),
    );
    expect(() => formatCall("b 9", "a")).toThrow(
      new RangeError('formatCall: invalid tool id "b 9"'),
    );
    expect(() => formatCall(null, "a=b")).toThrow(
      new RangeError('formatCall: invalid tool alias "a=b"'),
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

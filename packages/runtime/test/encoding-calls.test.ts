/** The text protocol's call lines: `parseCalls` reads a message's CALL lines, `formatCall` writes one. */
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../src/definition/registry.js";
import {
  formatCall,
  MAX_CALL_LINE_LENGTH,
  MAX_CALLS_PER_MESSAGE,
  parseCalls,
} from "../src/encoding/text.js";

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

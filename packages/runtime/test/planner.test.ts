import { describe, expect, it } from "vitest";
import { parsePlannerLine, PlannerSyntaxError } from "@zcp/runtime/definition";

describe("parsePlannerLine", () => {
  it("reads names, types, optionality, defaults, mode, kind and deprecation", () => {
    const line = parsePlannerLine(
      'TOOL @b9634m weather.get_current(city:Shanghai|"New York", unit:celsius|fahrenheit=celsius, opts:{a:str,b:int?}?, rows:h:table, *:num) -> handle:table deprecated',
    );
    expect(line).toEqual({
      id: "b9634m",
      alias: "weather.get_current",
      params: [
        {
          name: "city",
          type: 'Shanghai|"New York"',
          optional: false,
          default: null,
          description: null,
        },
        {
          name: "unit",
          type: "celsius|fahrenheit",
          optional: true,
          default: "celsius",
          description: null,
        },
        { name: "opts", type: "{a:str,b:int?}", optional: true, default: null, description: null },
        { name: "rows", type: "h:table", optional: false, default: null, description: null },
        { name: "*", type: "num", optional: false, default: null, description: null },
      ],
      mode: "handle",
      kind: "table",
      deprecated: true,
      description: null,
    });
  });

  it("reads the documentation: a JSON string after a parameter's type or default, and after ` -- ` at the end", () => {
    const line = parsePlannerLine(
      'TOOL @b9634m weather.get_current(city:Shanghai|"New York" "City name, e.g. \\"Shanghai\\".", unit:celsius|fahrenheit=celsius "Unit, \\u00b0C or \\u00b0F.", n:int? "Count (a, b) = [1]", raw:str) -> auto:rows deprecated -- "Get the weather -- now."',
    );
    expect(line.description).toBe("Get the weather -- now.");
    expect(line.kind).toBe("rows");
    expect(line.deprecated).toBe(true);
    expect(line.params).toEqual([
      {
        name: "city",
        type: 'Shanghai|"New York"',
        optional: false,
        default: null,
        description: 'City name, e.g. "Shanghai".',
      },
      {
        name: "unit",
        type: "celsius|fahrenheit",
        optional: true,
        default: "celsius",
        description: "Unit, °C or °F.",
      },
      { name: "n", type: "int", optional: true, default: null, description: "Count (a, b) = [1]" },
      { name: "raw", type: "str", optional: false, default: null, description: null },
    ]);
    expect(parsePlannerLine('TOOL @abc tools.list() -> scalar -- "List the tools."')).toMatchObject(
      { params: [], mode: "scalar", description: "List the tools." },
    );
    expect(parsePlannerLine('TOOL @abc t.f(s:str="a b" "Doc.") -> scalar').params[0]).toMatchObject(
      { default: '"a b"', description: "Doc." },
    );
  });

  it("keeps separators inside quotes and brackets", () => {
    const line = parsePlannerLine(
      'TOOL @x1 a.b(s:"a, b"|"c)", t:[num,str?], u:str="x=y, z") -> scalar',
    );
    expect(line.params.map((p) => [p.name, p.type, p.default])).toEqual(
      [
        ["s", '"a, b"|"c)"'],
        ["t", "[num,str?]"],
        ["u", "str", '"x=y, z"'],
      ].map(([n, t, d]) => [n, t, d ?? null]),
    );
  });

  it("reads a tool without parameters", () => {
    expect(parsePlannerLine("TOOL @abc tools.list() -> auto").params).toEqual([]);
  });

  it.each([
    ["", 'expected "TOOL @id alias("'],
    ["TOOL @a b(x:str -> scalar", "unclosed"],
    ["TOOL @a b(x:str) -> inline", 'expected " -> mode"'],
    ["TOOL @a b(x) -> scalar", 'expected "name:type"'],
    ["TOOL @a b(x:str, , y:int) -> scalar", "empty parameter"],
    ['TOOL @a b(x:"open) -> scalar', "unterminated string"],
    ["TOOL @a b(x:{a:str]) -> scalar", "unbalanced"],
    ["TOOL @a b(x:str Doc) -> scalar", "expected a JSON string (the description) at column 17"],
    ['TOOL @a b(x:str "a" "b") -> scalar', "expected a JSON string (the description) at column 17"],
    ["TOOL @a b(x:str) -> scalar -- Doc", 'expected " -> mode"'],
    [
      'TOOL @a b(x:str) -> scalar -- "a" "b"',
      "expected a JSON string (the description) at column 31",
    ],
    ['TOOL @a b(x:str) -> scalar -- "bad \\x"', "expected a JSON string"],
  ])("rejects %j with a clear error", (text, message) => {
    expect(() => parsePlannerLine(text)).toThrow(PlannerSyntaxError);
    expect(() => parsePlannerLine(text)).toThrow(message);
  });
});

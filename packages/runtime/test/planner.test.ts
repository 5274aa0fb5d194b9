import { describe, expect, it } from "vitest";
import { parsePlannerLine, PlannerSyntaxError } from "@zcp/runtime/codegen";

describe("parsePlannerLine", () => {
  it("reads names, types, optionality, defaults, mode, kind and deprecation", () => {
    const line = parsePlannerLine(
      'TOOL @b9634m weather.get_current(city:Shanghai|"New York", unit:celsius|fahrenheit=celsius, opts:{a:str,b:int?}?, rows:h:table, *:num) -> handle:table deprecated',
    );
    expect(line).toEqual({
      id: "b9634m",
      alias: "weather.get_current",
      params: [
        { name: "city", type: 'Shanghai|"New York"', optional: false, default: null },
        { name: "unit", type: "celsius|fahrenheit", optional: true, default: "celsius" },
        { name: "opts", type: "{a:str,b:int?}", optional: true, default: null },
        { name: "rows", type: "h:table", optional: false, default: null },
        { name: "*", type: "num", optional: false, default: null },
      ],
      mode: "handle",
      kind: "table",
      deprecated: true,
    });
  });

  it("keeps separators inside quotes and brackets", () => {
    const line = parsePlannerLine('TOOL @x1 a.b(s:"a, b"|"c)", t:[num,str?], u:str="x=y, z") -> scalar');
    expect(line.params.map((p) => [p.name, p.type, p.default])).toEqual([
      ["s", '"a, b"|"c)"'],
      ["t", "[num,str?]"],
      ["u", "str", '"x=y, z"'],
    ].map(([n, t, d]) => [n, t, d ?? null]));
  });

  it("reads a tool without parameters", () => {
    expect(parsePlannerLine("TOOL @abc tools.list() -> auto").params).toEqual([]);
  });

  it.each([
    ["", "expected \"TOOL @id alias(\""],
    ["TOOL @a b(x:str -> scalar", "unclosed"],
    ["TOOL @a b(x:str) -> inline", "expected \" -> mode\""],
    ["TOOL @a b(x) -> scalar", "expected \"name:type\""],
    ["TOOL @a b(x:str, , y:int) -> scalar", "empty parameter"],
    ['TOOL @a b(x:"open) -> scalar', "unterminated string"],
    ["TOOL @a b(x:{a:str]) -> scalar", "unbalanced"],
  ])("rejects %j with a clear error", (text, message) => {
    expect(() => parsePlannerLine(text)).toThrow(PlannerSyntaxError);
    expect(() => parsePlannerLine(text)).toThrow(message);
  });
});

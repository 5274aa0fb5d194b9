/** Writing planner lines (`renderPlannerLine`, `renderType`); reading them is planner.test.ts. */
import { describe, expect, it } from "vitest";
import { parsePlannerLine, renderPlannerLine, renderType } from "@zcp/runtime/codegen";

describe("planner type grammar", () => {
  it.each([
    [{ type: "string" }, "str"],
    [{ type: "string", format: "date-time" }, "datetime"],
    [{ type: "integer" }, "int"],
    [{ type: ["number", "null"] }, "num|null"],
    [{ type: "string", enum: ["a", "b c", "int"] }, 'a|"b c"|"int"'],
    [{ type: "string", const: "circle" }, '"circle"'],
    [{ type: "array", items: { type: "string", enum: ["x", "y"] } }, "(x|y)[]"],
    [{ type: "array", prefixItems: [{ type: "number" }, { type: "string" }], items: { type: "boolean" }, minItems: 1 }, "[num,str?,...bool]"],
    [{ type: "object", properties: { a: { type: "string" }, b: { type: "integer" } }, required: ["a"] }, "{a:str,b:int?}"],
    [{ type: "object", properties: {}, additionalProperties: { type: "number" } }, "{*:num}"],
    [{ $ref: "#/$defs/TreeNode" }, "TreeNode"],
    [{ anyOf: [{ type: "string" }, { type: "array", items: { type: "number" } }] }, "str|num[]"],
    [{}, "any"],
  ])("%j → %s", (schema, expected) => {
    expect(renderType(schema)).toBe(expected);
  });

  it("shows large named objects by name and large anonymous ones by their keys", () => {
    const properties = Object.fromEntries(["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"].map((k) => [k, { type: "string" }]));
    expect(renderType({ type: "object", title: "Order", properties, required: [] })).toBe("Order{…}");
    expect(renderType({ type: "object", properties, required: ["alpha"] })).toBe("{alpha,beta?,gamma?,delta?,epsilon?,zeta?,eta?,…}");
  });

  it("never throws on malformed schemas", () => {
    const odd: unknown[] = [{ type: 5 }, { type: ["string", 3] }, { enum: [] }, { anyOf: [null, 1] }, { type: "array", items: [1] }, { type: "object", properties: null }, { $ref: "" }, { type: "array", prefixItems: [null] }];
    for (const schema of odd) expect(() => renderType(schema as never)).not.toThrow();
  });

  it("renders a line the runtime parser reads back", () => {
    const line = renderPlannerLine({
      id: "abc123",
      alias: "demo.run",
      inputSchema: { type: "object", properties: { q: { type: "string" }, n: { type: "integer" }, src: { type: "string" } }, required: ["q", "src"], additionalProperties: false },
      outputMode: "auto",
      handleKind: "rows",
      handleParams: { src: "table" },
      defaults: { n: 10 },
      deprecated: null,
    });
    expect(line).toBe("TOOL @abc123 demo.run(q:str, n:int=10, src:h:table) -> auto:rows");
    expect(parsePlannerLine(line).params.map((p) => [p.name, p.optional])).toEqual([["q", false], ["n", true], ["src", false]]);
  });
});

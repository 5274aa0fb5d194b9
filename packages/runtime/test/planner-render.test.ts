/** Writing planner lines (`renderPlannerLine`, `renderType`); reading them is planner.test.ts. */
import { describe, expect, it } from "vitest";
import {
  firstSentence,
  parsePlannerLine,
  renderPlannerLine,
  renderType,
  SENTENCE_MAX,
} from "@zcp/runtime/definition";

describe("planner type grammar", () => {
  it.each([
    [{ type: "string" }, "str"],
    [{ type: "string", format: "date-time" }, "datetime"],
    [{ type: "integer" }, "int"],
    [{ type: ["number", "null"] }, "num|null"],
    [{ type: "string", enum: ["a", "b c", "int"] }, 'a|"b c"|"int"'],
    [{ type: "string", const: "circle" }, '"circle"'],
    [{ type: "array", items: { type: "string", enum: ["x", "y"] } }, "(x|y)[]"],
    [
      {
        type: "array",
        prefixItems: [{ type: "number" }, { type: "string" }],
        items: { type: "boolean" },
        minItems: 1,
      },
      "[num,str?,...bool]",
    ],
    [
      {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "integer" } },
        required: ["a"],
      },
      "{a:str,b:int?}",
    ],
    [{ type: "object", properties: {}, additionalProperties: { type: "number" } }, "{*:num}"],
    [{ $ref: "#/$defs/TreeNode" }, "TreeNode"],
    [{ anyOf: [{ type: "string" }, { type: "array", items: { type: "number" } }] }, "str|num[]"],
    [{}, "any"],
  ])("%j → %s", (schema, expected) => {
    expect(renderType(schema)).toBe(expected);
  });

  it("shows large named objects by name and large anonymous ones by their keys", () => {
    const properties = Object.fromEntries(
      ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"].map(
        (k) => [k, { type: "string" }],
      ),
    );
    expect(renderType({ type: "object", title: "Order", properties, required: [] })).toBe(
      "Order{…}",
    );
    expect(renderType({ type: "object", properties, required: ["alpha"] })).toBe(
      "{alpha,beta?,gamma?,delta?,epsilon?,zeta?,eta?,…}",
    );
  });

  it("never throws on malformed schemas", () => {
    const odd: unknown[] = [
      { type: 5 },
      { type: ["string", 3] },
      { enum: [] },
      { anyOf: [null, 1] },
      { type: "array", items: [1] },
      { type: "object", properties: null },
      { $ref: "" },
      { type: "array", prefixItems: [null] },
    ];
    for (const schema of odd) expect(() => renderType(schema as never)).not.toThrow();
  });

  it("renders a line the runtime parser reads back", () => {
    const line = renderPlannerLine({
      id: "abc123",
      alias: "demo.run",
      inputSchema: {
        type: "object",
        properties: { q: { type: "string" }, n: { type: "integer" }, src: { type: "string" } },
        required: ["q", "src"],
        additionalProperties: false,
      },
      outputMode: "auto",
      handleKind: "rows",
      handleParams: { src: "table" },
      defaults: { n: 10 },
      deprecated: null,
    });
    expect(line).toBe("TOOL @abc123 demo.run(q:str, n:int=10, src:h:table) -> auto:rows");
    expect(parsePlannerLine(line).params.map((p) => [p.name, p.optional])).toEqual([
      ["q", false],
      ["n", true],
      ["src", false],
    ]);
  });
});

describe("planner lines with documentation", () => {
  const weather = {
    id: "b9634m",
    alias: "weather.get_current",
    description:
      "Get the current weather for one city. Returns the temperature in the requested unit.\n\nMore text.",
    inputSchema: {
      type: "object",
      properties: {
        city: {
          type: "string",
          description: 'City name, e.g. "Shanghai". Any other city is refused.',
          enum: ["Shanghai", "Beijing"],
        },
        unit: {
          type: "string",
          description: "Unit of the\nreturned temperature.",
          enum: ["celsius", "fahrenheit"],
          default: "celsius",
        },
        rows: { type: "string", description: "" },
        note: { type: "string" },
      },
      required: ["city", "rows"],
      additionalProperties: { type: "number", description: "Extra counters." },
    },
    outputMode: "scalar",
    handleKind: "generic",
    handleParams: { rows: "table" },
    defaults: { unit: "celsius" },
    deprecated: null,
  } as const;

  it("writes each parameter's first sentence after its type or default, and the tool's after ` -- `, as JSON strings", () => {
    expect(renderPlannerLine(weather)).toBe(
      'TOOL @b9634m weather.get_current(city:Shanghai|Beijing "City name, e.g. \\"Shanghai\\".", unit:celsius|fahrenheit=celsius "Unit of the returned temperature.", rows:h:table, note:str?, *:num "Extra counters.") -> scalar -- "Get the current weather for one city."',
    );
  });

  it("without documentation, is the bare signature", () => {
    const bare =
      "TOOL @b9634m weather.get_current(city:Shanghai|Beijing, unit:celsius|fahrenheit=celsius, rows:h:table, note:str?, *:num) -> scalar";
    expect(renderPlannerLine(weather, { toolDocs: false, paramDocs: false })).toBe(bare);
    expect(
      renderPlannerLine({
        ...weather,
        description: "",
        inputSchema: {
          ...weather.inputSchema,
          properties: { city: { type: "string", enum: ["Shanghai", "Beijing"] } },
          additionalProperties: false,
        },
      }),
    ).toBe("TOOL @b9634m weather.get_current(city:Shanghai|Beijing) -> scalar");
    expect(renderPlannerLine(weather, { paramDocs: false })).toBe(
      `${bare} -- "Get the current weather for one city."`,
    );
    expect(renderPlannerLine(weather, { toolDocs: false })).not.toContain(" -- ");
  });

  it("is read back by parsePlannerLine, documentation included", () => {
    const line = parsePlannerLine(renderPlannerLine(weather));
    expect(line.description).toBe("Get the current weather for one city.");
    expect(line.params.map((p) => [p.name, p.description])).toEqual([
      ["city", 'City name, e.g. "Shanghai".'],
      ["unit", "Unit of the returned temperature."],
      ["rows", null],
      ["note", null],
      ["*", "Extra counters."],
    ]);
  });

  it("keeps any text safe: quotes, backslashes, separators, control characters, line breaks", () => {
    const nasty = 'Say "hi" \\ then, -- ) -> scalar (x:str) \u0001\u2028end';
    const tool = {
      ...weather,
      description: nasty,
      inputSchema: {
        type: "object",
        properties: { s: { type: "string", description: nasty } },
        required: ["s"],
      },
      handleParams: {},
      defaults: {},
    };
    const text = renderPlannerLine(tool);
    expect(text).not.toMatch(/[\n\r\u2028\u2029]/);
    const line = parsePlannerLine(text);
    const expected = 'Say "hi" \\ then, -- ) -> scalar (x:str) \u0001 end';
    expect(line.description).toBe(expected);
    expect(line.params).toEqual([
      { name: "s", type: "str", optional: false, default: null, description: expected },
    ]);
  });
});

describe("firstSentence", () => {
  it.each([
    ["Get the weather. Returns the temperature.", "Get the weather."],
    ['City name, e.g. "Shanghai". Any other is refused.', 'City name, e.g. "Shanghai".'],
    ["Use i.e. the first one. Then stop.", "Use i.e. the first one."],
    ["Count rows (see the docs.) Then more.", "Count rows (see the docs.)"],
    ['He said "stop." Then left.', 'He said "stop."'],
    ["Files, folders, etc. are listed. Next.", "Files, folders, etc. are listed."],
    ["Version 1.2 of the API. Next.", "Version 1.2 of the API."],
    ["Pick No. 5 from the U.S. list. Next.", "Pick No. 5 from the U.S. list."],
    ["Really? Yes.", "Really?"],
    ["Stop!", "Stop!"],
    ["No stop at all", "No stop at all"],
    [
      "First paragraph\nstill first. Second sentence.\n\nSecond paragraph.",
      "First paragraph still first.",
    ],
    ["  Spaced   out.  ", "Spaced out."],
    ["", ""],
    ["A new .xlsx file. Next.", "A new .xlsx file."],
  ])("%j → %j", (text, sentence) => {
    expect(firstSentence(text)).toBe(sentence);
  });

  it(`cuts a sentence longer than ${SENTENCE_MAX} characters, ending in …, never inside a surrogate pair`, () => {
    const long = `${"word ".repeat(100)}end.`;
    const cut = firstSentence(long);
    expect(cut.length).toBeLessThanOrEqual(SENTENCE_MAX);
    expect(cut.endsWith("…")).toBe(true);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    const emoji = `${"a".repeat(SENTENCE_MAX - 2)}😀 more text.`;
    expect(firstSentence(emoji)).toBe(`${"a".repeat(SENTENCE_MAX - 2)}…`);
  });
});

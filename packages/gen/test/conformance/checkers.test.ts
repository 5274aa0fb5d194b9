/**
 * The checkers of provider rules (./checkers) fail: each deliberately broken entry must be
 * reported, with the right path and rule (artifacts.test.ts holds the artifacts to them).
 */
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  checkAnthropic,
  checkGemini,
  checkMcp,
  checkOpenAIChat,
  checkOpenAIResponses,
  type Checker,
} from "./checkers/index.js";
import type { Obj } from "./checkers/shared.js";

const ADDRESS = {
  type: "object",
  properties: { street: { type: "string" }, zip: { type: "string", pattern: "^[0-9]{5}$" } },
  required: ["street", "zip"],
  additionalProperties: false,
};

function responsesEntry(parameters: unknown, extra: Obj = {}): Obj {
  return {
    type: "function",
    name: "people_update",
    description: "Update a person.",
    parameters,
    strict: true,
    ...extra,
  };
}

function strictParameters(properties: Obj): Obj {
  return {
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

/** A nest of `levels` objects (the root included), each with one property `next`. */
function nested(levels: number): Obj {
  let node: Obj = strictParameters({ leaf: { type: "string" } });
  for (let i = 1; i < levels; i++) node = strictParameters({ next: node });
  return node;
}

/** Runs `checker` on `entry` and expects each `[path, message fragment]` among the violations. */
function expectViolations(
  checker: Checker,
  entry: unknown,
  expected: [string, string | RegExp][],
): void {
  const violations = checker(entry, "t1");
  for (const [at, message] of expected) {
    const hits = violations.filter(
      (violation) =>
        violation.startsWith(`t1 ${at}: `) &&
        (typeof message === "string" ? violation.includes(message) : message.test(violation)),
    );
    expect(
      hits,
      `expected "${at}: ${String(message)}" among ${JSON.stringify(violations, null, 2)}`,
    ).not.toEqual([]);
  }
}

describe("OpenAI checker", () => {
  const valid = responsesEntry(
    strictParameters({
      id: { type: "string", format: "uuid" },
      age: { type: ["integer", "null"], minimum: 0 },
      address: { anyOf: [ADDRESS, { type: "null" }] },
      color: { type: ["string", "null"], enum: ["red", "blue", null] },
      tags: {
        anyOf: [{ type: "array", items: { type: "string" }, maxItems: 3 }, { type: "null" }],
      },
      tree: { $ref: "#/$defs/Tree" },
    }),
  );
  (valid.parameters as { $defs?: Obj }).$defs = {
    Tree: strictParameters({ children: { type: "array", items: { $ref: "#/$defs/Tree" } } }),
  };

  it("accepts a valid strict entry, in both shapes", () => {
    expect(checkOpenAIResponses(valid, "t1")).toEqual([]);
    const { type, ...fn } = valid;
    expect(checkOpenAIChat({ type, function: fn }, "t1")).toEqual([]);
  });

  it("reports shape and name problems", () => {
    expectViolations(
      checkOpenAIResponses,
      { ...valid, name: "people.update", type: "tool", extra: 1 },
      [
        ["$.name", "does not match ^[A-Za-z0-9_-]{1,64}$"],
        ["$.type", 'type must be "function"'],
        ["$.extra", 'unexpected key "extra"'],
      ],
    );
    expectViolations(
      checkOpenAIResponses,
      {
        type: "function",
        name: "x".repeat(65),
        description: "d",
        parameters: strictParameters({}),
      },
      [
        ["$", 'missing required key "strict"'],
        ["$.name", "does not match"],
      ],
    );
    expectViolations(checkOpenAIChat, { type: "function", name: "x", parameters: {} }, [
      ["$", 'missing required key "function"'],
      ["$.name", 'unexpected key "name"'],
    ]);
    expectViolations(
      checkOpenAIChat,
      {
        type: "function",
        function: { name: "a b", description: "d", parameters: { type: "array" }, strict: "yes" },
      },
      [
        ["$.function.name", "does not match"],
        ["$.function.strict", "strict must be a boolean"],
        ["$.function.parameters", 'the root must have type "object"'],
      ],
    );
  });

  it("reports a root that is not an object or is a union", () => {
    expectViolations(
      checkOpenAIResponses,
      responsesEntry({ anyOf: [strictParameters({}), { type: "null" }] }),
      [
        ["$.parameters", 'the root must have type "object"'],
        ["$.parameters.anyOf", "the root must not be a union"],
      ],
    );
  });

  it("reports open objects and incomplete required lists", () => {
    const parameters = strictParameters({
      address: { ...ADDRESS, required: ["street"], additionalProperties: undefined },
    });
    expectViolations(checkOpenAIResponses, responsesEntry(JSON.parse(JSON.stringify(parameters))), [
      [
        "$.parameters.properties.address.additionalProperties",
        "every object needs additionalProperties: false",
      ],
      [
        "$.parameters.properties.address.required",
        "required must list every property; missing zip",
      ],
    ]);
    expectViolations(
      checkOpenAIResponses,
      responsesEntry({
        type: "object",
        properties: { a: { type: "string" } },
        additionalProperties: false,
      }),
      [["$.parameters.required", "every object needs required listing all its properties"]],
    );
    expectViolations(
      checkOpenAIResponses,
      responsesEntry({
        type: "object",
        properties: { a: { type: "string" } },
        required: ["a", "b", "a"],
        additionalProperties: false,
      }),
      [
        ["$.parameters.required", "not properties: b"],
        ["$.parameters.required", "names twice: a"],
      ],
    );
    expectViolations(
      checkOpenAIResponses,
      responsesEntry({ type: "object", required: [], additionalProperties: false }),
      [["$.parameters.properties", "every object needs properties"]],
    );
  });

  it("reports keywords strict mode does not support", () => {
    const parameters = strictParameters({
      point: { type: "array", prefixItems: [{ type: "number" }], items: { type: "number" } },
      kind: { type: "string", const: "circle" },
      shape: { oneOf: [{ type: "string" }, { type: "number" }] },
      both: { allOf: [{ type: "string" }] },
      named: { type: "string", title: "Name" },
      short: { type: "string", minLength: 1 },
      site: { type: "string", format: "uri" },
      count: { type: "integer", pattern: "^[0-9]+$" },
    });
    expectViolations(checkOpenAIResponses, responsesEntry(parameters), [
      ["$.parameters.properties.point.prefixItems", "tuples (prefixItems) are not supported"],
      ["$.parameters.properties.kind.const", "const is not supported"],
      ["$.parameters.properties.shape.oneOf", "oneOf is not supported"],
      ["$.parameters.properties.shape", "every schema needs a type, an anyOf, an enum or a $ref"],
      ["$.parameters.properties.both.allOf", "allOf is not supported"],
      ["$.parameters.properties.named.title", "title is not a supported keyword"],
      [
        "$.parameters.properties.short.minLength",
        '"minLength" is not a keyword strict mode supports',
      ],
      [
        "$.parameters.properties.site.format",
        'format string "uri" is not one strict mode supports',
      ],
      ["$.parameters.properties.count.pattern", "pattern only applies to string schemas"],
    ]);
  });

  it("reports untyped nodes, nullable arrays and objects as type lists, and enums with an unlisted null", () => {
    const parameters = strictParameters({
      anything: { description: "Any value." },
      tags: { type: ["array", "null"], items: { type: "string" } },
      address: { ...ADDRESS, type: ["object", "null"] },
      color: { type: "string", enum: ["red", null] },
      size: { type: "integer", enum: [1, "big"] },
    });
    expectViolations(checkOpenAIResponses, responsesEntry(parameters), [
      [
        "$.parameters.properties.anything",
        "every schema needs a type, an anyOf, an enum or a $ref",
      ],
      ["$.parameters.properties.tags.type", 'a type list may not contain "array" or "object"'],
      ["$.parameters.properties.address.type", 'a type list may not contain "array" or "object"'],
      ["$.parameters.properties.color.type", 'an enum with null needs "null" in its type'],
      ["$.parameters.properties.size.enum[1]", 'enum value "big" is not of the schema\'s type'],
    ]);
  });

  it("reports $ref problems: unresolved targets, other pointers, sibling keywords, nested $defs", () => {
    const parameters = {
      ...strictParameters({
        a: { $ref: "#/$defs/Missing" },
        b: { $ref: "#/definitions/Tree" },
        c: { $ref: "#/$defs/Tree", description: "A tree." },
        d: { ...strictParameters({}), $defs: { Inner: { type: "string" } } },
      }),
      $defs: { Tree: strictParameters({}) },
    };
    expectViolations(checkOpenAIResponses, responsesEntry(parameters), [
      [
        "$.parameters.properties.a.$ref",
        "points to a missing definition (no $defs.Missing at the root)",
      ],
      ["$.parameters.properties.b.$ref", 'must point to "#/$defs/<name>"'],
      ["$.parameters.properties.c", "$ref must stand alone, found sibling keywords description"],
      ["$.parameters.properties.d.$defs", "$defs is only allowed at the root"],
    ]);
  });

  it("reports the size limits", () => {
    expect(checkOpenAIResponses(responsesEntry(nested(10)), "t1")).toEqual([]);
    expectViolations(checkOpenAIResponses, responsesEntry(nested(11)), [
      [
        `$.parameters${".properties.next".repeat(10)}`,
        "11 levels of object nesting exceed the limit of 10",
      ],
    ]);
    const many = (count: number, width = 1) =>
      Object.fromEntries(
        Array.from({ length: count }, (_, i) => [
          `p${String(i).padStart(width, "0")}`,
          { type: "string" },
        ]),
      );
    expect(checkOpenAIResponses(responsesEntry(strictParameters(many(5000))), "t1")).toEqual([]);
    expectViolations(checkOpenAIResponses, responsesEntry(strictParameters(many(5001))), [
      ["$.parameters", "5001 object properties exceed the limit of 5000"],
    ]);
    const values = (count: number) => Array.from({ length: count }, (_, i) => i);
    expectViolations(
      checkOpenAIResponses,
      responsesEntry(
        strictParameters({
          a: { type: "integer", enum: values(600) },
          b: { type: "integer", enum: values(401) },
        }),
      ),
      [["$.parameters", "1001 enum values exceed the limit of 1000"]],
    );
    const long = (count: number, length: number) =>
      Array.from({ length: count }, (_, i) => String(i).padStart(length, "x"));
    expectViolations(
      checkOpenAIResponses,
      responsesEntry(strictParameters({ a: { type: "string", enum: long(251, 60) } })),
      [
        [
          "$.parameters.properties.a.enum",
          "a string enum of more than 250 values may total at most 15000 characters, got 15060",
        ],
      ],
    );
    // 120,000 characters: property names, definition names and enum strings together.
    const chars = strictParameters({ a: { type: "string", enum: long(240, 500) } });
    (chars as { $defs?: Obj }).$defs = { ["D".repeat(1000)]: { type: "string" } };
    expectViolations(checkOpenAIResponses, responsesEntry(chars), [
      [
        "$.parameters",
        "121001 characters of property names, definition names and enum values exceed the limit of 120000",
      ],
    ]);
  });

  it("checks a strict: false entry for its shape, name and object root only", () => {
    const open = responsesEntry(
      { type: "object", properties: {}, additionalProperties: { type: "number" } },
      { strict: false },
    );
    expect(checkOpenAIResponses(open, "t1")).toEqual([]);
    expectViolations(
      checkOpenAIResponses,
      { ...open, name: "open.map", parameters: { type: "array" } },
      [
        ["$.name", "does not match"],
        ["$.parameters", 'the root must have type "object"'],
      ],
    );
    expect(checkOpenAIResponses({ ...open, strict: true }, "t1")).toContain(
      "t1 $.parameters.additionalProperties: every object needs additionalProperties: false, got an object",
    );
  });
});

describe("Anthropic checker", () => {
  const valid = {
    name: "people_update",
    description: "Update a person.",
    input_schema: {
      type: "object",
      properties: {
        id: { type: "string", format: "uri", title: "Id" },
        kind: { const: "person" },
        tags: { type: "array", items: { type: "string" }, minItems: 1 },
        tree: { $ref: "#/$defs/Tree" },
        counts: { type: "object", additionalProperties: { type: "number" } },
      },
      required: ["id"],
      additionalProperties: false,
      $defs: {
        Tree: {
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/$defs/Tree" } } },
        },
      },
    },
  };

  it("accepts a valid entry", () => {
    expect(checkAnthropic(valid, "t1")).toEqual([]);
  });

  it("reports shape, name and root problems", () => {
    expectViolations(
      checkAnthropic,
      { name: "people.update", input_schema: { type: "array" }, strict: true },
      [
        ["$", 'missing required key "description"'],
        ["$.strict", 'unexpected key "strict"'],
        ["$.name", "does not match ^[A-Za-z0-9_-]{1,64}$"],
        ["$.input_schema", 'the root must have type "object"'],
      ],
    );
  });

  it("reports keywords outside the strict subset, untyped nodes and bad references", () => {
    const entry = {
      ...valid,
      input_schema: {
        ...valid.input_schema,
        properties: {
          short: { type: "string", minLength: 1, pattern: "^a" },
          many: { type: "array", items: { type: "string" }, minItems: 2 },
          when: { type: "string", format: "regex" },
          anything: { description: "Any value." },
          either: { oneOf: [{ type: "string" }] },
          ghost: { $ref: "#/$defs/Ghost" },
        },
        required: ["short", "nope"],
      },
    };
    expectViolations(checkAnthropic, entry, [
      [
        "$.input_schema.properties.short.minLength",
        '"minLength" is not a keyword of Anthropic\'s strict subset',
      ],
      ["$.input_schema.properties.short.pattern", '"pattern" is not a keyword'],
      ["$.input_schema.properties.many.minItems", "minItems may only be 0 or 1, got number 2"],
      ["$.input_schema.properties.when.format", 'format string "regex" is not one of'],
      [
        "$.input_schema.properties.anything",
        "every schema needs a type, an anyOf, a $ref, a const or an enum",
      ],
      ["$.input_schema.properties.either.oneOf", '"oneOf" is not a keyword'],
      ["$.input_schema.properties.ghost.$ref", "points to a missing definition"],
      ["$.input_schema.required", 'required names "nope", which is not in properties'],
    ]);
  });
});

describe("Gemini checker", () => {
  const valid = {
    name: "people_update",
    description: "Update a person.",
    parameters: {
      type: "OBJECT",
      properties: {
        id: { type: "STRING", format: "date-time", nullable: true },
        color: { type: "STRING", enum: ["red", "blue"] },
        tags: { type: "ARRAY", items: { type: "STRING", maxLength: 8 }, minItems: 1, maxItems: 3 },
        either: { anyOf: [{ type: "STRING" }, { type: "NUMBER", minimum: 0 }] },
      },
      required: ["id"],
    },
  };

  it("accepts a valid entry, and one without parameters", () => {
    expect(checkGemini(valid, "t1")).toEqual([]);
    expect(checkGemini({ name: "_ping", description: "" }, "t1")).toEqual([]);
  });

  it("reports shape, name and root problems", () => {
    expectViolations(
      checkGemini,
      { name: "9lives", description: "d", parameters: { type: "object" }, strict: true },
      [
        ["$.name", "does not match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$"],
        ["$.parameters", 'parameters must have type "OBJECT"'],
        [
          "$.parameters.type",
          "type must be one of STRING, NUMBER, INTEGER, BOOLEAN, ARRAY, OBJECT",
        ],
        ["$.strict", 'unexpected key "strict"'],
      ],
    );
    expectViolations(checkGemini, { name: "people.update", description: "d" }, [
      ["$.name", "does not match"],
    ]);
  });

  it("reports what the OpenAPI subset does not have", () => {
    const entry = {
      ...valid,
      parameters: {
        type: "OBJECT",
        title: "Args",
        properties: {
          ref: { $ref: "#/$defs/Tree" },
          open: { type: "OBJECT", additionalProperties: { type: "NUMBER" } },
          kind: { type: "STRING", const: "circle" },
          maybe: { type: ["STRING", "NULL"] },
          priority: { type: "INTEGER", enum: [0, 1] },
          color: { type: "STRING", enum: ["red", 1] },
          name: { type: "STRING", properties: { a: { type: "STRING" } } },
          box: { type: "OBJECT", items: { type: "STRING" } },
          mail: { type: "STRING", format: "email" },
          shape: { oneOf: [{ type: "STRING" }], allOf: [{ type: "STRING" }], examples: ["x"] },
          count: { type: "NUMBER", minProperties: 1 },
        },
        $defs: { Tree: { type: "OBJECT" } },
      },
    };
    expectViolations(checkGemini, entry, [
      ["$.parameters.title", "title is rejected"],
      ["$.parameters.$defs", "$defs is not supported"],
      ["$.parameters.properties.ref.$ref", "$ref is not supported"],
      ["$.parameters.properties.ref", "every schema needs a type or an anyOf"],
      [
        "$.parameters.properties.open.additionalProperties",
        "additionalProperties is not supported",
      ],
      ["$.parameters.properties.kind.const", "const is not supported"],
      ["$.parameters.properties.maybe.type", "type lists are not supported"],
      ["$.parameters.properties.priority.enum", "enum is only allowed on STRING schemas"],
      ["$.parameters.properties.color.enum[1]", "enum values must be strings, got number 1"],
      ["$.parameters.properties.name.properties", "properties is only allowed on OBJECT schemas"],
      ["$.parameters.properties.box.items", "items is only allowed on ARRAY schemas"],
      ["$.parameters.properties.mail.format", 'format may only be "date-time"'],
      ["$.parameters.properties.shape.oneOf", "oneOf is not supported"],
      ["$.parameters.properties.shape.allOf", "allOf is not supported"],
      ["$.parameters.properties.shape.examples", "examples is rejected"],
      [
        "$.parameters.properties.count.minProperties",
        '"minProperties" is not a key of the Gemini schema subset',
      ],
    ]);
  });
});

describe("MCP checker", () => {
  const valid = {
    name: "people.update",
    title: "Update person",
    description: "Update a person.\n\nMore text.",
    inputSchema: {
      type: "object",
      properties: { tree: { $ref: "#/$defs/Tree" } },
      required: ["tree"],
      additionalProperties: false,
      $defs: {
        Tree: {
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/$defs/Tree" } } },
        },
      },
    },
    outputSchema: { type: "object", properties: { ok: { type: "boolean" } } },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    },
    _meta: { groups: ["people"] },
  };

  it("accepts a valid entry, which the MCP SDK accepts too", () => {
    expect(checkMcp(valid, "t1")).toEqual([]);
    expect(ToolSchema.safeParse(valid).success).toBe(true);
  });

  it("reports shape, name and schema root problems (which the MCP SDK rejects too)", () => {
    const broken = {
      ...valid,
      name: "people update",
      inputSchema: { type: "array" },
      outputSchema: { type: "string" },
      icons: [],
    };
    expectViolations(checkMcp, broken, [
      ["$.name", "does not match ^[A-Za-z0-9._-]{1,128}$"],
      ["$.inputSchema", 'must have type "object"'],
      ["$.outputSchema", 'must have type "object"'],
      ["$.icons", 'unexpected key "icons"'],
    ]);
    expect(ToolSchema.safeParse(broken).success).toBe(false);
    expectViolations(checkMcp, { ...valid, name: "x".repeat(129) }, [["$.name", "does not match"]]);
  });

  it("reports $ref without $defs and definitions that are not recursive", () => {
    const entry = {
      ...valid,
      inputSchema: {
        type: "object",
        properties: { a: { $ref: "#/$defs/Address" }, b: { $ref: "#/$defs/Missing" } },
        $defs: { Address: { type: "object", properties: { zip: { type: "string" } } } },
      },
      outputSchema: { type: "object", properties: { tree: { $ref: "#/$defs/Tree" } } },
    };
    expectViolations(checkMcp, entry, [
      ["$.inputSchema.$defs.Address", "$defs.Address is not recursive"],
      ["$.inputSchema.properties.b.$ref", "points to a missing definition"],
      ["$.outputSchema.properties.tree.$ref", "$ref is only used with $defs at the root"],
    ]);
  });

  it("reports unknown annotations, non-boolean hints, a second title and a malformed _meta", () => {
    const entry = {
      ...valid,
      annotations: { readOnlyHint: "yes", fastHint: true, title: "Update person" },
      _meta: { groups: "people", stages: [] },
    };
    expectViolations(checkMcp, entry, [
      ["$.annotations.readOnlyHint", "readOnlyHint must be a boolean"],
      ["$.annotations.fastHint", 'unexpected key "fastHint"'],
      ["$.annotations.title", 'unexpected key "title"'],
      ["$._meta.groups", "groups must be a list of strings"],
      ["$._meta.stages", "stages must be a list of strings, left out when empty"],
    ]);
    expectViolations(checkMcp, { ...valid, _meta: {} }, [
      ["$._meta", "must be left out when it has no field"],
    ]);
    const withoutMeta = Object.fromEntries(
      Object.entries(valid).filter(([key]) => key !== "_meta"),
    );
    expect(checkMcp(withoutMeta, "t1")).toEqual([]);
  });
});

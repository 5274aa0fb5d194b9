/**
 * A hand-written input schema (`@inputSchema`, the conformance fixture's
 * `json_schema_2020_12_tool`) enforced by its generated validator, through the runtime: "a
 * phone or an email" (`allOf`/`anyOf`), "the one `contactMethod` names" (`if`/`then`/`else`),
 * a `$ref` into `$defs`, a closed object; and listed on MCP as written, `$schema` included.
 */
import { describe, expect, it } from "vitest";
import conformance from "../../../fixtures/conformance/src/zcp.gen/index.js";
import { createRuntime } from "../src/index.js";

const TOOL = "json_schema_2020_12_tool";
const session = createRuntime(conformance).session();

describe("a tool with a hand-written input schema", () => {
  it.each([
    [{ email: "a@b.c" }, { ok: true, value: "write to a@b.c" }],
    [
      { contactMethod: "phone", phone: "555" },
      { ok: true, value: "call 555" },
    ],
    [
      {},
      { ok: false, error: "invalid:$", hint: "expected object with phone or object with email" },
    ],
    [
      { contactMethod: "phone", email: "a@b.c" },
      { ok: false, error: "missing:$.phone", hint: "expected a value" },
    ],
    [{ phone: "555" }, { ok: false, error: "missing:$.email", hint: "expected a value" }],
    [
      { email: "a@b.c", address: { city: 3 } },
      { ok: false, error: "invalid:$.address.city", hint: "expected string" },
    ],
    [
      { email: "a@b.c", fax: "1" },
      {
        ok: false,
        error: "invalid:$.fax",
        hint: "unknown property; expected: name, address, contactMethod, phone, email",
      },
    ],
  ])("answers %j with %j", async (args, answer) => {
    expect(await session.call(TOOL, args)).toEqual(answer);
  });

  it("is listed on MCP as written, with its $schema, $defs, $anchor and conditionals", () => {
    const entry = session.exposed.artifacts("mcp").find((tool) => tool.name === TOOL)!;
    const schema = entry.inputSchema as { [keyword: string]: unknown };
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$defs).toEqual({
      address: {
        $anchor: "addressDef",
        type: "object",
        properties: { street: { type: "string" }, city: { type: "string" } },
      },
    });
    expect([
      schema.allOf,
      schema.if,
      schema.then,
      schema.else,
      schema.additionalProperties,
    ]).toEqual([
      [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
      { required: ["phone"] },
      { required: ["email"] },
      false,
    ]);
  });
});

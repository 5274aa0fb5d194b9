/**
 * What the validator tests share: the synthetic tools (constructs the fixtures do not have), the
 * fixtures' tools, `validators.ts` as `zcp gen` writes it, and the generated modules written to a
 * scratch folder and imported.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { JsonValue, ToolDefinition } from "@zcp/runtime";
import type { ValidatorTable } from "@zcp/runtime/codegen";
import { afterAll, beforeAll } from "vitest";
import { compileValidators } from "../../src/compile/index.js";
import { validatorsFile as emitValidators } from "../../src/emit/index.js";
import type { Memo } from "../../src/memo.js";
import type { EmitContext } from "../../src/emit/ts-file.js";
import { generatedRegistry, REPO } from "../helpers.js";

export type Schema = { readonly [keyword: string]: JsonValue };

export function fixtureTools(name: string): ToolDefinition[] {
  return generatedRegistry(path.join(REPO, "fixtures", name, "src/zcp.gen")).tools.slice();
}

/** The text of `validators.ts` for `tools`: compiled, then laid out; through `memo` as watch mode runs it. */
export function validatorsFile(
  context: EmitContext,
  tools: readonly ToolDefinition[],
  memo?: Memo,
): string {
  return emitValidators(
    context,
    compileValidators(tools, memo?.compile.validators),
    memo?.emit.validator,
  );
}

/** A tool definition with only what validators use. */
export function tool(id: string, alias: string, inputSchema: Schema): ToolDefinition {
  return { id, alias, inputSchema } as unknown as ToolDefinition;
}

export const ROW: Schema = {
  type: "object",
  title: "Row",
  properties: {
    sku: { type: "string", pattern: "^[A-Z]{3}-[0-9]{2}$" },
    qty: { type: "integer", minimum: 1 },
    price: { type: "number", exclusiveMinimum: 0, multipleOf: 0.25 },
  },
  required: ["sku", "qty"],
  additionalProperties: false,
};

export const LONG_KEY = `a key that is much too long to fit on one line with "quotes", \`backticks\` and \${braces} in it`;
const LONG_CONST =
  "a constant string value that is long enough that comparing against it does not fit on a line";
const LONG_DEF = "AVeryLongRecursiveTypeNameThatGoesOnAndOn_string_number";

/** Nested anonymous objects, deep enough for the generator to move inner levels into functions. */
function nested(depth: number): Schema {
  if (depth === 0)
    return {
      type: "array",
      items: { type: "array", items: { type: "integer", minimum: -5, maximum: 5 } },
      maxItems: 3,
    };
  return {
    type: "object",
    properties: {
      n: { type: "number" },
      s: { type: "string", maxLength: 4 },
      next: nested(depth - 1),
    },
    required: ["n"],
    additionalProperties: false,
  };
}

/**
 * Constructs the fixtures do not have, or not in these combinations: type lists with integer,
 * boolean and null, enums with null, anyOf branches that coerce differently, tuples with a rest,
 * unique items that only collide after coercion, records with propertyNames, keys that need
 * quoting or live on Object.prototype, mutual recursion, every format, deep nesting, and names,
 * keys and values long enough to exercise the printer's line breaking.
 */
export const SYNTHETIC: ToolDefinition[] = [
  tool("orders01", "orders.create", {
    type: "object",
    properties: {
      city: { type: "string" },
      unit: { type: "string", enum: ["celsius", "fahrenheit"] },
      rows: { type: "array", items: ROW, minItems: 1, maxItems: 4 },
      label: { type: "string" },
      flag: { type: "boolean" },
      count: { type: "integer" },
      "a b": { type: "string", minLength: 2, maxLength: 3 },
      note: { type: ["string", "null"], maxLength: 5 },
      mode: { type: ["integer", "boolean"] },
      level: { type: ["integer", "null"], enum: [1, 2, 3, null] },
      ratio: { type: ["number", "null"], minimum: 0, maximum: 1 },
    },
    required: ["city", "rows"],
    additionalProperties: false,
  }),
  tool("mixed", "shapes.mixed", {
    type: "object",
    properties: {
      id: {
        anyOf: [
          { type: "string", pattern: "^[a-z]+$" },
          { type: "integer", minimum: 0 },
        ],
      },
      either: { anyOf: [{ type: "number" }, { type: "string" }] },
      shape: {
        anyOf: [
          {
            type: "object",
            title: "Circle",
            properties: {
              kind: { type: "string", const: "circle" },
              r: { type: "number", minimum: 0 },
            },
            required: ["kind", "r"],
            additionalProperties: false,
          },
          {
            type: "object",
            title: "Rect",
            properties: {
              kind: { type: "string", const: "rect" },
              w: { type: "integer" },
              h: { type: "integer" },
            },
            required: ["kind", "w", "h"],
            additionalProperties: false,
          },
          { type: "null" },
        ],
      },
      pair: {
        type: "array",
        prefixItems: [{ type: "string" }, { type: "integer" }],
        items: { type: "boolean" },
        minItems: 1,
      },
      keyed: {
        type: "array",
        items: {
          type: "object",
          properties: { k: { type: "string" } },
          required: ["k"],
          additionalProperties: false,
        },
        uniqueItems: true,
      },
      nums: { type: "array", items: { type: "number" }, uniqueItems: true },
      weights: {
        type: "object",
        properties: {},
        required: [],
        additionalProperties: { type: "number" },
        propertyNames: { pattern: "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$" },
      },
      flags: {
        type: "object",
        properties: {},
        required: [],
        additionalProperties: { type: "boolean" },
      },
      anything: {},
      three: { type: "integer", const: 3 },
      truth: { type: "boolean", const: true },
      maybe: { anyOf: [{ type: "array", items: { type: "integer" } }, { type: "null" }] },
      row: ROW,
    },
    required: ["shape"],
    additionalProperties: false,
  }),
  tool("proto", "proto.keys", {
    type: "object",
    properties: {
      constructor: { type: "string" },
      toString: { type: "integer" },
      valueOf: { type: "boolean" },
      plain: { type: "number", minimum: 0 },
    },
    required: ["constructor"],
    additionalProperties: false,
  }),
  tool("deep", "deep.nest", {
    type: "object",
    properties: { root: nested(9), rows: { type: "array", items: ROW } },
    required: ["root"],
    additionalProperties: false,
  }),
  tool("abcdefghijklmnopqrstuvwxyz012345", "long.names", {
    type: "object",
    properties: {
      [LONG_KEY]: { type: "integer", minimum: 0, maximum: 99 },
      tree: { $ref: `#/$defs/${LONG_DEF}` },
      constant: { type: "string", const: LONG_CONST },
      path: {
        type: "string",
        pattern:
          "^/(?:[a-z0-9-]+/)*[a-z0-9-]+(?:\\.[a-z]{2,4})?$|^https?://[a-z.]+/[a-z/]*$|^[a-z]+:[0-9]+/[0-9]+$",
      },
      choice: {
        type: "string",
        enum: [
          "the first of several long options",
          "the second of several long options",
          "the third of several long options",
        ],
      },
    },
    required: ["tree"],
    additionalProperties: false,
    $defs: {
      [LONG_DEF]: {
        type: "object",
        title: LONG_DEF,
        properties: {
          value: { type: ["number", "string"] },
          weight: { type: "number", maximum: 10 },
          children: { type: "array", items: { $ref: `#/$defs/${LONG_DEF}` } },
        },
        required: ["children"],
        additionalProperties: false,
      },
    },
  }),
  tool("graph", "graph.walk", {
    type: "object",
    properties: { start: { $ref: "#/$defs/Node" }, extra: { $ref: "#/$defs/Edge" } },
    required: ["start"],
    additionalProperties: false,
    $defs: {
      Edge: {
        type: "object",
        title: "Edge",
        properties: { to: { $ref: "#/$defs/Node" }, cost: { type: "integer", minimum: 0 } },
        required: ["cost"],
        additionalProperties: false,
      },
      Node: {
        anyOf: [
          {
            type: "object",
            title: "Node",
            properties: {
              id: { type: "integer" },
              edges: { type: "array", items: { $ref: "#/$defs/Edge" } },
            },
            required: ["id"],
            additionalProperties: false,
          },
          { type: "string", format: "uuid" },
        ],
      },
    },
  }),
  tool("formats", "formats.all", {
    type: "object",
    properties: {
      date: { type: "string", format: "date" },
      time: { type: "string", format: "time" },
      when: { type: "string", format: "date-time" },
      span: { type: "string", format: "duration" },
      email: { type: "string", format: "email", minLength: 6 },
      host: { type: "string", format: "hostname" },
      ip4: { type: "string", format: "ipv4" },
      ip6: { type: "string", format: "ipv6" },
      link: { type: "string", format: "uri" },
      uuid: { type: "string", format: "uuid" },
      emoji: { type: "string", minLength: 2, maxLength: 3 },
    },
    required: [],
    additionalProperties: false,
  }),
];

// ---------------------------------------------------------------------------------------------
// The generated module, in a scratch folder

/** Line 2 of the header names the generator and the configuration; any will do here. */
export const CONTEXT: EmitContext = { version: "0.0.0-test", config: "zcp.config.json" };

export const SETS: { readonly [name: string]: () => ToolDefinition[] } = {
  weather: () => fixtureTools("weather"),
  "kitchen-sink": () => fixtureTools("kitchen-sink"),
  diagnostics: () => fixtureTools("diagnostics"),
  synthetic: () => SYNTHETIC,
};

/**
 * Call at the top of a test file: before its tests, the validators of each set in `names` are
 * written to `<scratch>/<name>.validators.ts` and imported; the scratch folder goes after them.
 */
export function generatedValidators(names: readonly string[] = Object.keys(SETS)): {
  scratch: string;
  tables: Map<string, ValidatorTable>;
  texts: Map<string, string>;
} {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-validators-"));
  const tables = new Map<string, ValidatorTable>();
  const texts = new Map<string, string>();
  beforeAll(async () => {
    fs.mkdirSync(path.join(scratch, "node_modules/@zcp"), { recursive: true });
    fs.symlinkSync(
      path.join(REPO, "packages/runtime"),
      path.join(scratch, "node_modules/@zcp/runtime"),
    );
    fs.writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ type: "module" }));
    for (const name of names) {
      const text = validatorsFile(CONTEXT, SETS[name]!());
      texts.set(name, text);
      const file = path.join(scratch, `${name}.validators.ts`);
      fs.writeFileSync(file, text);
      tables.set(
        name,
        ((await import(pathToFileURL(file).href)) as { validators: ValidatorTable }).validators,
      );
    }
  });
  afterAll(() => {
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  return { scratch, tables, texts };
}

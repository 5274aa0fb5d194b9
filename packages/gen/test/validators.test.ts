/**
 * Generated validators (src/compile/validators/, laid out by src/emit/validators.ts) against their oracle, Ajv (draft 2020-12,
 * formats on, strict). The generated module is written to a scratch folder and imported; for
 * every tool of every fixture, thousands of values generated from the schemas (valid ones, and
 * mutations of them: wrong types, missing and extra keys, out-of-range numbers, bad formats and
 * patterns, numeric and boolean strings) must get the verdict Ajv gives on the same value after
 * the documented coercions, computed here independently of the generated code, and an accepted
 * value must be that coerced value. Also: exact errors for hand-written cases, tsc under strict
 * settings, prettier leaving the file unchanged, and generation time.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import type { JsonValue, ToolDefinition } from "@zcp/runtime";
import type { ValidationResult, ValidatorTable } from "@zcp/runtime/codegen";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import * as prettier from "prettier";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileValidators } from "../src/compile/index.js";
import { validatorsFile as emitValidators } from "../src/emit/index.js";
import { Memo } from "../src/memo.js";
import { PRETTIER_STYLE } from "../src/emit/print.js";
import type { EmitContext } from "../src/emit/ts-file.js";
import { generatedRegistry, MODULE_SETTINGS, strictTsc } from "./helpers.js";
import { mulberry32 as random } from "../../../tools/test-random.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const BENCH_OUT = path.join(REPO, "tools/bench-gen/.work/project/src/zcp.gen");

type Schema = { readonly [keyword: string]: JsonValue };

function fixtureTools(name: string): ToolDefinition[] {
  return generatedRegistry(path.join(REPO, "fixtures", name, "src/zcp.gen")).tools.slice();
}

/** The text of `validators.ts` for `tools`: compiled, then laid out; through `memo` as watch mode runs it. */
function validatorsFile(
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
function tool(id: string, alias: string, inputSchema: Schema): ToolDefinition {
  return { id, alias, inputSchema } as unknown as ToolDefinition;
}

const ROW: Schema = {
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

const LONG_KEY = `a key that is much too long to fit on one line with "quotes", \`backticks\` and \${braces} in it`;
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
const SYNTHETIC: ToolDefinition[] = [
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
// The oracle

function ajv(options: { ownProperties?: boolean } = {}): Ajv2020 {
  const instance = new Ajv2020({
    strict: true,
    allowUnionTypes: true,
    strictTuples: false,
    ...options,
  });
  addFormats.default(instance);
  return instance;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isSchema(value: JsonValue | undefined): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets a key as an own data property, `__proto__` included. */
function setKey(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Ajv on one tool's input schema, and the documented coercions, interpreted from the schema: a
 * string becomes a number where the schema's type allows number or integer and not string when
 * it is a finite JSON number, and a boolean where it allows boolean and not string when it is
 * "true" or "false"; `anyOf` takes the first branch whose coerced value Ajv accepts.
 */
class Oracle {
  private readonly whole: ValidateFunction;
  private readonly branches = new Map<Schema, ValidateFunction>();

  constructor(
    private readonly ajv: Ajv2020,
    private readonly root: Schema,
  ) {
    this.whole = ajv.compile(root);
  }

  accepts(value: unknown): boolean {
    return this.whole(value) as boolean;
  }

  coerce(schema: JsonValue | undefined, value: unknown): unknown {
    if (!isSchema(schema)) return value;
    let current = value;
    const types =
      typeof schema.type === "string"
        ? [schema.type]
        : Array.isArray(schema.type)
          ? (schema.type as string[])
          : null;
    if (types && !types.includes("string") && typeof current === "string") {
      if (types.includes("boolean") && (current === "true" || current === "false"))
        current = current === "true";
      else if (
        (types.includes("number") || types.includes("integer")) &&
        JSON_NUMBER.test(current) &&
        Number.isFinite(Number(current))
      )
        current = Number(current);
    }
    if (typeof schema.$ref === "string") current = this.coerce(this.def(schema.$ref), current);
    if (Array.isArray(schema.anyOf)) {
      for (const branch of schema.anyOf) {
        const candidate = this.coerce(branch, current);
        if (this.branch(branch as Schema)(candidate)) {
          current = candidate;
          break;
        }
      }
    }
    if (Array.isArray(current)) {
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
      const items = schema.items;
      current = current.map((item: unknown, index) =>
        index < prefix.length
          ? this.coerce(prefix[index], item)
          : isSchema(items)
            ? this.coerce(items, item)
            : item,
      );
    } else if (isRecord(current)) {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const extra = schema.additionalProperties;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(current)) {
        const own = Object.prototype.hasOwnProperty.call(properties, key);
        setKey(
          out,
          key,
          own
            ? this.coerce(properties[key], current[key])
            : isSchema(extra)
              ? this.coerce(extra, current[key])
              : current[key],
        );
      }
      current = out;
    }
    return current;
  }

  def(ref: string): Schema {
    return (this.root.$defs as { [name: string]: Schema })[ref.slice("#/$defs/".length)]!;
  }

  branch(schema: Schema): ValidateFunction {
    let validate = this.branches.get(schema);
    if (!validate)
      this.branches.set(
        schema,
        (validate = this.ajv.compile(
          this.root.$defs ? { ...schema, $defs: this.root.$defs } : schema,
        )),
      );
    return validate;
  }
}

// ---------------------------------------------------------------------------------------------
// Values from schemas

const WORDS = [
  "a",
  "id",
  "name",
  "Shanghai",
  "x y",
  "it's",
  'say "hi"',
  "héllo",
  "天气",
  "🌤 sun",
  "𝄞",
  "tab\there",
  "line\nbreak",
  "back\\slash",
  "$ref",
  "constructor",
  "1",
  "0.5",
  "true",
  "",
];
const CHARS = [..."abcxyzABC019 _-.'\"é天😀𝄞"];

const VALID_FORMATS: { [format: string]: (g: Values) => string } = {
  date: (g) => `${2000 + g.int(30)}-${pad(1 + g.int(12))}-${pad(1 + g.int(28))}`,
  time: (g) =>
    `${pad(g.int(24))}:${pad(g.int(60))}:${pad(g.int(60))}${g.pick(["Z", "+01:00", "-05:30", ".5Z"])}`,
  "date-time": (g) => `${VALID_FORMATS.date!(g)}T${VALID_FORMATS.time!(g)}`,
  duration: (g) => g.pick(["P1D", "PT5M", "P1Y2M3DT4H5M6S", "P2W", "PT0S"]),
  email: (g) => `${g.pick(["ann", "bob.smith", "x+y"])}@${g.pick(["example.com", "mail.co.uk"])}`,
  hostname: (g) => g.pick(["localhost", "example.com", "a-b.c", "xn--bcher-kva.example"]),
  ipv4: (g) => `${g.int(256)}.${g.int(256)}.${g.int(256)}.${g.int(256)}`,
  ipv6: (g) =>
    g.pick(["::1", "fe80::1", "2001:db8::ff00:42:8329", "::ffff:192.168.0.1", "1:2:3:4:5:6:7:8"]),
  uri: (g) =>
    g.pick([
      "https://example.com/a?b=1#c",
      "mailto:ann@example.com",
      "urn:isbn:0451450523",
      "file:///etc/hosts",
    ]),
  uuid: (g) => `${g.hex(8)}-${g.hex(4)}-${g.hex(4)}-${g.hex(4)}-${g.hex(12)}`,
};

const INVALID_FORMATS: { [format: string]: readonly string[] } = {
  date: ["2023-02-29", "2024-13-01", "2024-1-1", "today"],
  time: ["25:00:00Z", "10:00:00", "10:60:00Z"],
  "date-time": ["2024-01-01", "2024-01-01T10:00:00", "2024-02-30T10:00:00Z"],
  duration: ["P", "PT", "1D", "P1DT"],
  email: ["ann", "ann@", "@example.com", "ann@example"],
  hostname: ["-a.com", "a..b", "a_b.com", ""],
  ipv4: ["256.0.0.1", "1.2.3", "01.2.3.4"],
  ipv6: ["1::2::3", "12345::", "1:2:3"],
  uri: ["example.com", "/relative", "x:", "http://a b"],
  uuid: ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400"],
};

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** A string matching a regular expression of the common subset (classes, groups, quantifiers). */
function sample(source: string, g: Values): string {
  let i = 0;
  const alternation = (): string => {
    const options: (() => string)[] = [];
    let sequence: (() => string)[] = [];
    const flush = () => {
      const parts = sequence;
      options.push(() => parts.map((part) => part()).join(""));
      sequence = [];
    };
    while (i < source.length && source[i] !== ")") {
      if (source[i] === "|") {
        i++;
        flush();
        continue;
      }
      let atom = atomAt();
      const quantifier = /^(\?|\*|\+|\{(\d+)(,(\d*))?\})\??/.exec(source.slice(i));
      if (quantifier) {
        i += quantifier[0].length;
        const min =
          quantifier[1] === "?" || quantifier[1] === "*"
            ? 0
            : quantifier[1] === "+"
              ? 1
              : Number(quantifier[2]);
        const max =
          quantifier[1] === "?"
            ? 1
            : quantifier[3] === undefined && quantifier[2] !== undefined
              ? min
              : quantifier[4]
                ? Number(quantifier[4])
                : min + 3;
        const inner = atom;
        atom = () => {
          let out = "";
          for (let n = min + g.int(max - min + 1); n > 0; n--) out += inner();
          return out;
        };
      }
      sequence.push(atom);
    }
    flush();
    return g.pick(options)();
  };
  const escaped = (ch: string): string[] => {
    if (ch === "d") return [..."0123456789"];
    if (ch === "w") return [..."abcXYZ_019"];
    if (ch === "s") return [" "];
    return [ch];
  };
  const atomAt = (): (() => string) => {
    const ch = source[i++]!;
    if (ch === "^" || ch === "$") return () => "";
    if (ch === ".") return () => g.pick(CHARS.filter((c) => c !== "\n"));
    if (ch === "\\") {
      const set = escaped(source[i++]!);
      return () => g.pick(set);
    }
    if (ch === "(") {
      if (source.startsWith("?:", i)) i += 2;
      const start = i;
      let depth = 0;
      for (; i < source.length; i++) {
        if (source[i] === "\\") i++;
        else if (source[i] === "(") depth++;
        else if (source[i] === ")" && depth-- === 0) break;
      }
      const inner = source.slice(start, i++);
      return () => sample(inner, g);
    }
    if (ch === "[") {
      const set: string[] = [];
      while (source[i] !== "]") {
        let first = source[i++]!;
        if (first === "\\") {
          set.push(...escaped(source[i++]!));
          continue;
        }
        if (source[i] === "-" && source[i + 1] !== "]") {
          const last = source[i + 1]!;
          i += 2;
          for (let code = first.charCodeAt(0); code <= last.charCodeAt(0); code++)
            set.push(String.fromCharCode(code));
          continue;
        }
        set.push(first);
        first = "";
      }
      i++;
      return () => g.pick(set);
    }
    return () => ch;
  };
  return alternation();
}

/** Valid values of a tool's schema, and mutations of them. */
class Values {
  constructor(
    readonly next: () => number,
    private readonly oracle: Oracle,
  ) {}

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  hex(n: number): string {
    let out = "";
    for (let i = 0; i < n; i++) out += "0123456789abcdef"[this.int(16)];
    return out;
  }

  text(min: number, max: number): string {
    let out = "";
    for (let n = min + this.int(max - min + 1); n > 0; n--) out += this.pick(CHARS);
    return out;
  }

  /** Any JSON value. */
  any(depth: number): unknown {
    const roll = this.int(depth > 2 ? 5 : 7);
    if (roll === 0) return null;
    if (roll === 1) return this.chance(0.5);
    if (roll === 2) return this.int(2000) - 1000;
    if (roll === 3) return this.int(1000) / 8;
    if (roll === 4) return this.pick(WORDS);
    if (roll === 5) return Array.from({ length: this.int(3) }, () => this.any(depth + 1));
    const object: Record<string, unknown> = {};
    for (let n = this.int(3); n > 0; n--) setKey(object, this.pick(WORDS), this.any(depth + 1));
    return object;
  }

  valid(schema: JsonValue | undefined, depth: number): unknown {
    if (!isSchema(schema)) return this.any(depth);
    if (typeof schema.$ref === "string") return this.valid(this.oracle.def(schema.$ref), depth + 1);
    if (Array.isArray(schema.anyOf)) {
      let branches = schema.anyOf;
      if (depth > 3) {
        const plain = branches.filter((branch) => !JSON.stringify(branch).includes("$ref"));
        if (plain.length > 0) branches = plain;
      }
      return this.valid(this.pick(branches), depth + 1);
    }
    if (schema.const !== undefined) return schema.const;
    if (Array.isArray(schema.enum)) return this.pick(schema.enum);
    const types =
      typeof schema.type === "string"
        ? [schema.type]
        : Array.isArray(schema.type)
          ? (schema.type as string[])
          : null;
    if (types === null) return this.any(depth);
    const type = this.pick(
      depth > 3 && types.some((t) => t !== "array" && t !== "object")
        ? types.filter((t) => t !== "array" && t !== "object")
        : types,
    );
    if (type === "null") return null;
    if (type === "boolean") return this.chance(0.5);
    if (type === "integer" || type === "number") return this.number(schema, type === "integer");
    if (type === "string") return this.string(schema);
    if (type === "array") return this.array(schema, depth);
    return this.object(schema, depth);
  }

  number(schema: Schema, integer: boolean): number {
    const low =
      typeof schema.minimum === "number"
        ? schema.minimum
        : typeof schema.exclusiveMinimum === "number"
          ? schema.exclusiveMinimum
          : -1000;
    const high =
      typeof schema.maximum === "number"
        ? schema.maximum
        : typeof schema.exclusiveMaximum === "number"
          ? schema.exclusiveMaximum
          : 1000;
    for (let attempt = 0; attempt < 50; attempt++) {
      let value: number;
      if (attempt === 0 && this.chance(0.3)) {
        // The edges: inclusive bounds are valid, exclusive ones are not (the check below retries).
        value = this.pick([low, high]);
      } else if (typeof schema.multipleOf === "number") {
        const m = schema.multipleOf;
        const k =
          Math.ceil(low / m) + this.int(Math.max(1, Math.floor(high / m) - Math.ceil(low / m) + 1));
        value = k * m;
      } else if (integer || this.chance(0.5)) {
        value = Math.ceil(low) + this.int(Math.max(1, Math.floor(high) - Math.ceil(low) + 1));
      } else {
        value = low + Math.round(this.next() * (high - low) * 100) / 100;
      }
      if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) continue;
      if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum) continue;
      if (value < low || value > high || (integer && !Number.isInteger(value))) continue;
      return Object.is(value, -0) ? 0 : value;
    }
    return integer ? Math.ceil(low) : low;
  }

  string(schema: Schema): string {
    if (typeof schema.format === "string") {
      for (let attempt = 0; attempt < 20; attempt++) {
        const value = VALID_FORMATS[schema.format]!(this);
        if (typeof schema.minLength !== "number" || [...value].length >= schema.minLength)
          return value;
      }
    }
    const min = typeof schema.minLength === "number" ? schema.minLength : 0;
    const max = typeof schema.maxLength === "number" ? schema.maxLength : min + 10;
    for (let attempt = 0; attempt < 30; attempt++) {
      const value =
        typeof schema.pattern === "string"
          ? sample(schema.pattern, this)
          : this.chance(0.2)
            ? this.pick(WORDS)
            : this.text(min, max);
      const length = [...value].length;
      if (length >= min && length <= max) return value;
    }
    return this.text(min, max);
  }

  array(schema: Schema, depth: number): unknown[] {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const max =
      typeof schema.maxItems === "number"
        ? schema.maxItems
        : schema.items === false
          ? prefix.length
          : min + 4;
    const length = depth > 3 ? min : min + this.int(max - min + 1);
    const out: unknown[] = [];
    const seen = new Set<string>();
    for (let attempts = 0; out.length < length && attempts < length * 10; attempts++) {
      const index = out.length;
      const item = this.valid(index < prefix.length ? prefix[index] : schema.items, depth + 1);
      if (schema.uniqueItems === true) {
        const key = canonical(item);
        if (seen.has(key)) continue;
        seen.add(key);
      }
      out.push(item);
    }
    return out;
  }

  object(schema: Schema, depth: number): Record<string, unknown> {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(properties)) {
      if (required.has(key) || (depth <= 3 && this.chance(0.6)))
        setKey(out, key, this.valid(properties[key], depth + 1));
    }
    const extra = schema.additionalProperties;
    if (isSchema(extra) && depth <= 3) {
      const names = isSchema(schema.propertyNames) ? schema.propertyNames : null;
      for (let n = this.int(3); n > 0; n--) {
        const key =
          names && typeof names.pattern === "string"
            ? sample(names.pattern, this)
            : this.pick(WORDS);
        if (!Object.prototype.hasOwnProperty.call(properties, key))
          setKey(out, key, this.valid(extra, depth + 1));
      }
    }
    return out;
  }

  /** A copy of `value` (valid for `schema`) with one change somewhere inside. */
  mutate(schema: JsonValue | undefined, value: unknown, depth: number): unknown {
    const resolved = this.resolve(schema, value);
    if (depth < 6 && this.chance(0.6)) {
      if (Array.isArray(value) && value.length > 0) {
        const index = this.int(value.length);
        const prefix =
          isSchema(resolved) && Array.isArray(resolved.prefixItems) ? resolved.prefixItems : [];
        const itemSchema =
          index < prefix.length ? prefix[index] : isSchema(resolved) ? resolved.items : undefined;
        const copy = value.slice();
        copy[index] = this.mutate(itemSchema, value[index], depth + 1);
        return copy;
      }
      if (isRecord(value) && Object.keys(value).length > 0) {
        const key = this.pick(Object.keys(value));
        const properties =
          isSchema(resolved) && isSchema(resolved.properties) ? resolved.properties : {};
        const sub = Object.prototype.hasOwnProperty.call(properties, key)
          ? properties[key]
          : isSchema(resolved)
            ? resolved.additionalProperties
            : undefined;
        const copy = clone(value) as Record<string, unknown>;
        setKey(copy, key, this.mutate(sub, value[key], depth + 1));
        return copy;
      }
    }
    return this.change(isSchema(resolved) ? resolved : {}, value);
  }

  /** The schema that applies to `value`: through `$ref`, and the `anyOf` branch it matches. */
  private resolve(schema: JsonValue | undefined, value: unknown): JsonValue | undefined {
    for (let i = 0; i < 10 && isSchema(schema); i++) {
      if (typeof schema.$ref === "string") schema = this.oracle.def(schema.$ref);
      else if (Array.isArray(schema.anyOf))
        schema =
          schema.anyOf.find((branch) => this.oracle.branch(branch as Schema)(value)) ??
          schema.anyOf[0];
      else break;
    }
    return schema;
  }

  private change(schema: Schema, value: unknown): unknown {
    const options: (() => unknown)[] = [
      () => this.pick([0, 1.5, -7, "x", "", true, false, null, [], {}, "1", "true", [1], { a: 1 }]),
    ];
    if (typeof value === "number") {
      options.push(
        () => String(value),
        () => String(value),
        () =>
          this.pick([
            `${value}.0`,
            `${value}e0`,
            `-${value}`,
            ` ${value}`,
            `${value} `,
            `+${value}`,
            `0${value}`,
            `${value}.`,
            "0x1A",
            "Infinity",
            "NaN",
            "1e400",
            "-0",
            "1.5",
            "1E2",
          ]),
        () => value + 0.5,
        () => -value - 1,
      );
    }
    if (typeof value === "boolean")
      options.push(
        () => String(value),
        () => String(value),
        () => this.pick(["TRUE", "yes", "1", "0", " true", 1]),
      );
    if (typeof value === "string") {
      options.push(
        () => this.pick(["123", "1.5", "true", "false", "null", ""]),
        () => `${value}${this.text(1, 6)}`,
        () => value.slice(1),
        () => this.pick(["😀", "😀😀", "😀😀😀😀", "é", "ab"]),
      );
      if (typeof schema.format === "string")
        options.push(() => this.pick(INVALID_FORMATS[schema.format as string] ?? ["?"]));
      if (typeof schema.pattern === "string") options.push(() => `!${value}`);
    }
    for (const keyword of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
      const limit = schema[keyword];
      if (typeof limit !== "number") continue;
      const edges = [
        limit,
        limit - 1,
        limit + 1,
        limit - 0.5,
        limit + 0.5,
        String(limit - 1),
        String(limit),
        String(limit + 1),
      ];
      for (let weight = 0; weight < 4; weight++) options.push(() => this.pick(edges));
    }
    if (typeof schema.multipleOf === "number" && typeof value === "number")
      options.push(() => value + (schema.multipleOf as number) / 2);
    const values = schema.enum;
    if (Array.isArray(values)) {
      options.push(() =>
        this.pick([
          "other",
          99,
          ...values.map((item: JsonValue) =>
            typeof item === "number" ? String(item) : `${item}x`,
          ),
        ]),
      );
    }
    if (Array.isArray(value)) {
      options.push(
        () => [...value, ...value],
        () => value.slice(0, -1),
        () => [],
        () => [...value, this.any(2)],
        () => (value.length > 0 ? [...value, clone(value[0])] : [null]),
        // Equal to an earlier item only once coerced.
        () =>
          value.length > 0 && (typeof value[0] === "number" || typeof value[0] === "boolean")
            ? [...value, String(value[0])]
            : [...value, "1", 1],
      );
    }
    if (isRecord(value)) {
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      options.push(
        () => {
          const copy = clone(value) as Record<string, unknown>;
          const key =
            required.length > 0 ? this.pick(required) : this.pick(Object.keys(copy).concat("none"));
          delete copy[key];
          return copy;
        },
        () => {
          const copy = clone(value) as Record<string, unknown>;
          setKey(
            copy,
            this.pick(["zzz", "extra", "a b", "constructor", "__proto__", "-1.5", "01"]),
            this.any(2),
          );
          return copy;
        },
      );
    }
    return this.pick(options)();
  }
}

function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setKey(out, key, clone(value[key]));
    return out;
  }
  return value;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "undefined";
}

// ---------------------------------------------------------------------------------------------
// The generated module, in a scratch folder

/** Line 2 of the header names the generator and the configuration; any will do here. */
const CONTEXT: EmitContext = { version: "0.0.0-test", config: "zcp.config.json" };

let scratch: string;
const tables = new Map<string, ValidatorTable>();
const texts = new Map<string, string>();
const SETS: { readonly [name: string]: () => ToolDefinition[] } = {
  weather: () => fixtureTools("weather"),
  "kitchen-sink": () => fixtureTools("kitchen-sink"),
  diagnostics: () => fixtureTools("diagnostics"),
  synthetic: () => SYNTHETIC,
};

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-validators-"));
  fs.mkdirSync(path.join(scratch, "node_modules/@zcp"), { recursive: true });
  fs.symlinkSync(
    path.join(REPO, "packages/runtime"),
    path.join(scratch, "node_modules/@zcp/runtime"),
  );
  fs.writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ type: "module" }));
  for (const [name, tools] of Object.entries(SETS)) {
    const text = validatorsFile(CONTEXT, tools());
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
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------

describe("generated validators agree with Ajv", () => {
  const totals = { values: 0, agreements: 0 };

  for (const name of Object.keys(SETS)) {
    it(`on ${name === "synthetic" ? "synthetic schemas" : `the ${name} fixture`}`, () => {
      const validators = tables.get(name)!;
      const tools = SETS[name]!();
      const instance = ajv(name === "synthetic" ? { ownProperties: true } : {});
      const perTool = name === "synthetic" ? 600 : 450;
      const counts = { values: 0, accepted: 0, rejected: 0, coerced: 0, agreements: 0 };
      const failures: string[] = [];
      tools.forEach((definition, index) => {
        const schema = definition.inputSchema as Schema;
        const oracle = new Oracle(instance, schema);
        const values = new Values(random(1000 * (index + 1) + name.length), oracle);
        const validate = validators[definition.id]!;
        for (let i = 0; i < perTool; i++) {
          const valid = values.valid(schema, 0);
          let input = i % 3 === 0 ? valid : values.mutate(schema, valid, 0);
          if (i % 97 === 5) input = values.pick([null, [], "{}", 42, true]);
          const before = clone(input);
          const expected = oracle.coerce(schema, input);
          const verdict = oracle.accepts(expected);
          const result: ValidationResult = validate(input);
          counts.values++;
          const problems: string[] = [];
          if (result.ok !== verdict)
            problems.push(
              `ours ${result.ok ? "accepts" : `rejects (${!result.ok && result.error})`}, Ajv ${verdict ? "accepts" : "rejects"}`,
            );
          if (result.ok && verdict && !isDeepStrictEqual(result.value, expected))
            problems.push(
              `value ${JSON.stringify(result.value)}, expected ${JSON.stringify(expected)}`,
            );
          if (result.ok && verdict && isDeepStrictEqual(expected, input) && result.value !== input)
            problems.push("copied a value that needed no coercion");
          if (!isDeepStrictEqual(input, before)) problems.push("mutated its input");
          if (
            !result.ok &&
            (!/^(missing|invalid):\$/.test(result.error) || result.hint.length === 0)
          )
            problems.push(`malformed error ${result.error} / ${result.hint}`);
          if (problems.length > 0)
            failures.push(`${definition.alias} ${JSON.stringify(input)}: ${problems.join("; ")}`);
          else counts.agreements++;
          if (result.ok) counts.accepted++;
          else counts.rejected++;
          if (result.ok && result.value !== input) counts.coerced++;
        }
      });
      console.log(
        `${name}: ${tools.length} tools, ${counts.values} values (${counts.accepted} accepted, ${counts.coerced} of them coerced; ${counts.rejected} rejected), ${counts.agreements} agreements`,
      );
      totals.values += name === "synthetic" ? 0 : counts.values;
      totals.agreements += name === "synthetic" ? 0 : counts.agreements;
      expect(failures.slice(0, 20)).toEqual([]);
      expect(counts.agreements).toBe(counts.values);
      expect(counts.accepted).toBeGreaterThan(counts.values / 5);
      expect(counts.rejected).toBeGreaterThan(counts.values / 5);
      expect(counts.coerced).toBeGreaterThan(0);
    });
  }

  it("on at least 10,000 values of the fixtures in all", () => {
    console.log(`fixtures: ${totals.values} values, ${totals.agreements} agreements`);
    expect(totals.values).toBeGreaterThanOrEqual(10_000);
    expect(totals.agreements).toBe(totals.values);
  });
});

describe("errors, hints and coercions", () => {
  const validate = (input: unknown) => tables.get("synthetic")!.orders01!(input);
  const base = { city: "Oslo", rows: [{ sku: "ABC-12", qty: 1 }] };

  it("reports the first missing property, and invalid ones at their path", () => {
    expect(validate({})).toEqual({ ok: false, error: "missing:$.city", hint: "expected string" });
    expect(validate({ city: "Oslo" })).toEqual({
      ok: false,
      error: "missing:$.rows",
      hint: "expected array of 1-4 items",
    });
    const rows = [
      { sku: "ABC-12", qty: 1 },
      { sku: "ABC-13", qty: 2 },
      { sku: "ABC-14", qty: 0 },
    ];
    expect(validate({ ...base, rows })).toEqual({
      ok: false,
      error: "invalid:$.rows[2].qty",
      hint: "expected integer >= 1",
    });
    expect(validate({ ...base, rows: [{ qty: 1 }] })).toEqual({
      ok: false,
      error: "missing:$.rows[0].sku",
      hint: "expected string matching ^[A-Z]{3}-[0-9]{2}$",
    });
    expect(validate({ ...base, unit: "kelvin" })).toEqual({
      ok: false,
      error: "invalid:$.unit",
      hint: "expected one of: celsius, fahrenheit",
    });
    expect(validate({ ...base, "a b": 5 })).toEqual({
      ok: false,
      error: 'invalid:$["a b"]',
      hint: "expected string of 2-3 characters",
    });
    expect(validate([])).toEqual({ ok: false, error: "invalid:$", hint: "expected object" });
  });

  it("reports the first unknown key, in input order, after the known properties", () => {
    expect(validate({ ...base, extra: 1, other: 2 })).toEqual({
      ok: false,
      error: "invalid:$.extra",
      hint: "unknown property; expected: city, unit, rows, label, flag, count, a b, note, mode, level, ratio",
    });
    expect(
      validate({ ...base, "x-y": 1 }).ok === false && validate({ ...base, "x-y": 1 }),
    ).toMatchObject({ error: 'invalid:$["x-y"]' });
    expect(validate({ ...base, rows: [{ sku: "ABC-12", qty: 1, more: true }] })).toEqual({
      ok: false,
      error: "invalid:$.rows[0].more",
      hint: "unknown property; expected: sku, qty, price",
    });
  });

  it("coerces numeric and boolean strings where only a number or boolean fits, copying on write", () => {
    const input = {
      ...base,
      count: "5",
      flag: "true",
      ratio: "0.5",
      mode: "false",
      level: "2",
      rows: [{ sku: "ABC-12", qty: "3", price: "1.25" }],
    };
    const snapshot = structuredClone(input);
    const result = validate(input);
    expect(result).toEqual({
      ok: true,
      value: {
        ...base,
        count: 5,
        flag: true,
        ratio: 0.5,
        mode: false,
        level: 2,
        rows: [{ sku: "ABC-12", qty: 3, price: 1.25 }],
      },
    });
    expect(input).toEqual(snapshot);
    // Nothing to coerce: the very same object comes back.
    const plain = { ...base, count: 5 };
    expect(validate(plain)).toEqual({ ok: true, value: plain });
    expect((validate(plain) as { value: unknown }).value).toBe(plain);
    // Only the branch that changed is copied.
    const deep = {
      ...base,
      rows: [
        { sku: "ABC-12", qty: 1 },
        { sku: "ABC-13", qty: "2" },
      ],
      label: "x",
    };
    const value = (validate(deep) as { value: typeof deep }).value;
    expect(value).not.toBe(deep);
    expect(value.rows[0]).toBe(deep.rows[0]);
    expect(value.rows[1]).toEqual({ sku: "ABC-13", qty: 2 });
  });

  it("coerces nothing else", () => {
    expect(validate({ ...base, label: "1" })).toEqual({ ok: true, value: { ...base, label: "1" } });
    expect(validate({ ...base, label: 1 })).toEqual({
      ok: false,
      error: "invalid:$.label",
      hint: "expected string",
    });
    expect(validate({ ...base, flag: "yes" })).toEqual({
      ok: false,
      error: "invalid:$.flag",
      hint: "expected boolean",
    });
    expect(validate({ ...base, flag: 1 })).toEqual({
      ok: false,
      error: "invalid:$.flag",
      hint: "expected boolean",
    });
    expect(validate({ ...base, count: "1.5" })).toEqual({
      ok: false,
      error: "invalid:$.count",
      hint: "expected integer",
    });
    for (const text of [" 5", "5 ", "+5", "05", "0x10", "1e999", "Infinity", "", "5."]) {
      expect(validate({ ...base, count: text }), text).toEqual({
        ok: false,
        error: "invalid:$.count",
        hint: "expected integer",
      });
    }
    expect(validate({ ...base, note: "12" })).toEqual({ ok: true, value: { ...base, note: "12" } });
    expect(validate({ ...base, note: "true" })).toEqual({
      ok: true,
      value: { ...base, note: "true" },
    });
    expect(validate({ ...base, level: "null" })).toEqual({
      ok: false,
      error: "invalid:$.level",
      hint: "expected one of: 1, 2, 3, null",
    });
  });

  it("counts string lengths in code points", () => {
    expect(validate({ ...base, "a b": "😀😀" }).ok).toBe(true);
    expect(validate({ ...base, "a b": "😀😀😀😀" })).toMatchObject({
      ok: false,
      error: 'invalid:$["a b"]',
    });
    expect(validate({ ...base, "a b": "a" })).toMatchObject({
      ok: false,
      error: 'invalid:$["a b"]',
    });
  });

  it("takes the first anyOf branch that fits, with its coercion, and reports at the anyOf otherwise", () => {
    const mixed = (input: unknown) => tables.get("synthetic")!.mixed!(input);
    expect(mixed({ shape: null, id: "abc" })).toEqual({
      ok: true,
      value: { shape: null, id: "abc" },
    });
    expect(mixed({ shape: null, id: "12" })).toEqual({ ok: true, value: { shape: null, id: 12 } });
    expect(mixed({ shape: null, either: "5" })).toEqual({
      ok: true,
      value: { shape: null, either: 5 },
    });
    expect(mixed({ shape: null, id: "A1" })).toEqual({
      ok: false,
      error: "invalid:$.id",
      hint: "expected string matching ^[a-z]+$ or integer >= 0",
    });
    expect(mixed({ shape: { kind: "rect", w: "2", h: 3 } })).toEqual({
      ok: true,
      value: { shape: { kind: "rect", w: 2, h: 3 } },
    });
    expect(mixed({ shape: { kind: "oval" } })).toEqual({
      ok: false,
      error: "invalid:$.shape",
      hint: "expected Circle object or Rect object or null",
    });
    // Unique items are compared after coercion.
    expect(mixed({ shape: null, nums: ["1", 1] })).toEqual({
      ok: false,
      error: "invalid:$.nums[1]",
      hint: "expected unique items; this one repeats an earlier one",
    });
    expect(mixed({ shape: null, weights: { "1.5": "2", abc: 1 } })).toEqual({
      ok: false,
      error: "invalid:$.weights.abc",
      hint: "expected property names matching ^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$",
    });
    // A nullable type: its own errors, with "or null" in the hint of the type check.
    expect(mixed({ shape: null, maybe: "x" })).toEqual({
      ok: false,
      error: "invalid:$.maybe",
      hint: "expected array or null",
    });
    expect(mixed({ shape: null, maybe: [1, "x"] })).toEqual({
      ok: false,
      error: "invalid:$.maybe[1]",
      hint: "expected integer",
    });
  });

  // Lean provider artifacts leave these constraints out of the model's schema: the refusal's hint
  // is where the model learns them, so it states each one exactly.
  it("states the constraint a value breaks exactly: patterns, formats, lengths, ranges, item counts", () => {
    const mixed = (input: unknown) => tables.get("synthetic")!.mixed!(input);
    const formats = (input: unknown) => tables.get("synthetic")!.formats!(input);
    const long = (input: unknown) =>
      tables.get("synthetic")!.abcdefghijklmnopqrstuvwxyz012345!(input);
    const row = (value: object) => mixed({ shape: null, row: { sku: "ABC-12", qty: 1, ...value } });
    // Patterns.
    expect(row({ sku: "abc-12" })).toEqual({
      ok: false,
      error: "invalid:$.row.sku",
      hint: "expected string matching ^[A-Z]{3}-[0-9]{2}$",
    });
    expect(long({ tree: { children: [] }, path: "no" })).toEqual({
      ok: false,
      error: "invalid:$.path",
      hint: "expected string matching ^/(?:[a-z0-9-]+/)*[a-z0-9-]+(?:\\.[a-z]{2,4})?$|^https?://[a-z.]+/[a-z/]*$|^[a-z]+:[0-9]+/[0-9]+$",
    });
    // Formats, each by its name.
    for (const [key, value, format] of [
      ["date", "2024-13-01", "date"],
      ["time", "25:00:00Z", "time"],
      ["when", "tomorrow", "date-time"],
      ["span", "3 days", "duration"],
      ["host", "-bad-", "hostname"],
      ["ip4", "1.2.3", "ipv4"],
      ["ip6", "::g", "ipv6"],
      ["link", "no scheme", "uri"],
      ["uuid", "1234", "uuid"],
    ] as const) {
      expect(formats({ [key]: value }), key).toEqual({
        ok: false,
        error: `invalid:$.${key}`,
        hint: `expected ${format} string`,
      });
    }
    expect(formats({ email: "a@b.c" })).toEqual({
      ok: false,
      error: "invalid:$.email",
      hint: "expected email string of at least 6 characters",
    });
    // Lengths (in characters: code points).
    expect(formats({ emoji: "😀😀😀😀" })).toEqual({
      ok: false,
      error: "invalid:$.emoji",
      hint: "expected string of 2-3 characters",
    });
    expect(validate({ ...base, note: "toolong" })).toEqual({
      ok: false,
      error: "invalid:$.note",
      hint: "expected string of at most 5 characters or null",
    });
    // Ranges and multiples.
    expect(validate({ ...base, ratio: 1.5 })).toEqual({
      ok: false,
      error: "invalid:$.ratio",
      hint: "expected number >= 0 and <= 1 or null",
    });
    expect(long({ tree: { children: [] }, [LONG_KEY]: 100 })).toEqual({
      ok: false,
      error: `invalid:$[${JSON.stringify(LONG_KEY)}]`,
      hint: "expected integer >= 0 and <= 99",
    });
    expect(row({ price: 0 })).toEqual({
      ok: false,
      error: "invalid:$.row.price",
      hint: "expected number > 0, a multiple of 0.25",
    });
    expect(row({ price: 0.3 })).toEqual({
      ok: false,
      error: "invalid:$.row.price",
      hint: "expected number > 0, a multiple of 0.25",
    });
    expect(long({ tree: { children: [], weight: 11 } })).toEqual({
      ok: false,
      error: "invalid:$.tree.weight",
      hint: "expected number <= 10",
    });
    // Item counts, tuples and unique items.
    expect(validate({ ...base, rows: [] })).toEqual({
      ok: false,
      error: "invalid:$.rows",
      hint: "expected array of 1-4 items",
    });
    expect(validate({ ...base, rows: Array(5).fill(base.rows[0]) })).toEqual({
      ok: false,
      error: "invalid:$.rows",
      hint: "expected array of 1-4 items",
    });
    expect(mixed({ shape: null, pair: [] })).toEqual({
      ok: false,
      error: "invalid:$.pair",
      hint: "expected array of at least 1 item",
    });
    expect(mixed({ shape: null, nums: [1, 2, 1] })).toEqual({
      ok: false,
      error: "invalid:$.nums[2]",
      hint: "expected unique items; this one repeats an earlier one",
    });
  });

  it("reads only own properties", () => {
    const proto = (input: unknown) => tables.get("synthetic")!.proto!(input);
    expect(proto({})).toEqual({
      ok: false,
      error: "missing:$.constructor",
      hint: "expected string",
    });
    expect(proto({ constructor: "x", toString: "3" })).toEqual({
      ok: true,
      value: { constructor: "x", toString: 3 },
    });
    const withProto = JSON.parse('{"constructor":"x","__proto__":1}') as object;
    expect(proto(withProto)).toEqual({
      ok: false,
      error: "invalid:$.__proto__",
      hint: "unknown property; expected: constructor, toString, valueOf, plain",
    });
  });
});

describe("the generated file", () => {
  it("type-checks under strict settings (tsc --noEmit)", () => {
    const tsconfig = {
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: true,
        noEmit: true,
        typeRoots: [path.join(REPO, "node_modules/@types")],
        types: ["node"],
      },
      include: ["*.validators.ts"],
    };
    fs.writeFileSync(path.join(scratch, "tsconfig.json"), JSON.stringify(tsconfig));
    const tsc = spawnSync(
      path.join(REPO, "node_modules/.bin/tsc"),
      ["-p", path.join(scratch, "tsconfig.json"), "--noEmit"],
      { encoding: "utf8" },
    );
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });

  // The same flags and module settings as strict-flags.test.ts, over validators the fixtures do
  // not produce (the synthetic schemas), in both ways users compile ES modules.
  for (const settings of Object.keys(MODULE_SETTINGS) as (keyof typeof MODULE_SETTINGS)[]) {
    it(`passes the strictest checks users turn on (${MODULE_SETTINGS[settings].module})`, () => {
      const result = strictTsc(
        Object.keys(SETS).map((name) => path.join(scratch, `${name}.validators.ts`)),
        settings,
      );
      // Only diagnostics in generated files count here.
      expect(result.errors.filter((line) => line.includes("validators.ts"))).toEqual([]);
    });
  }

  for (const name of Object.keys(SETS)) {
    it(`is formatted as prettier formats it (${name})`, async () => {
      const text = texts.get(name)!;
      expect(text.split("\n").slice(0, 3)).toEqual([
        "// Code generated by zcp gen. DO NOT EDIT.",
        "// zcp gen 0.0.0-test from zcp.config.json",
        "",
      ]);
      expect(await prettier.format(text, PRETTIER_STYLE)).toBe(text);
    });
  }

  it("is valid and formatted with no tools", async () => {
    const text = validatorsFile(CONTEXT, []);
    expect(text).toContain("export const validators: ValidatorTable = {};");
    expect(await prettier.format(text, PRETTIER_STYLE)).toBe(text);
  });

  it("is the same whatever the memo holds, and reuses unchanged tools", () => {
    const tools = [...fixtureTools("kitchen-sink"), ...SYNTHETIC];
    const cache = new Memo();
    const first = validatorsFile(CONTEXT, tools, cache);
    expect(validatorsFile(CONTEXT, tools, cache)).toBe(first);
    expect(validatorsFile(CONTEXT, tools)).toBe(first);
    // One tool changes (a new definition object): the others come from the cache.
    const changed = tools.map((definition) =>
      definition.alias === "orders.create"
        ? tool(definition.id, definition.alias, {
            ...(definition.inputSchema as Schema),
            required: ["city"],
          })
        : definition,
    );
    expect(validatorsFile(CONTEXT, changed, cache)).toBe(validatorsFile(CONTEXT, changed));
    expect(validatorsFile(CONTEXT, changed, cache)).not.toBe(first);
    // The compiled code of every tool but the changed one is the same object as before.
    const before = compileValidators(tools, cache.compile.validators).tools;
    const after = compileValidators(changed, cache.compile.validators).tools;
    after.forEach((entry, i) =>
      expect(entry.code === before[i]!.code, entry.fn).toBe(changed[i] === tools[i]),
    );
  });

  it("imports the helpers it calls from @zcp/runtime/codegen and defines none of its own", () => {
    const HELPERS = [
      "codePoints",
      "duplicateAt",
      "invalid",
      "isInteger",
      "isNumber",
      "isObject",
      "member",
      "missing",
      "own",
      "pattern",
      "put",
      "toBoolean",
      "toNumber",
    ];
    for (const [name, text] of texts) {
      const imported =
        /^import \{([^}]*)\} from "@zcp\/runtime\/codegen";$/m
          .exec(text)?.[1]
          ?.split(",")
          .map((part) => part.trim())
          .filter(Boolean) ?? [];
      const used = HELPERS.filter((helper) => new RegExp(`\\b${helper}\\(`).test(text));
      expect(
        imported.filter((entry) => HELPERS.includes(entry)),
        name,
      ).toEqual(used);
      expect(text, name).not.toMatch(/^(?:function|const) (?!validate_|check\$|PATTERN_)/m);
    }
  });

  it.skipIf(!fs.existsSync(path.join(BENCH_OUT, "registry.ts")))(
    "generates 1,000 tools quickly (the bench:gen registry)",
    async () => {
      const tools = generatedRegistry(BENCH_OUT).tools;
      const times: number[] = [];
      let text = "";
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        text = validatorsFile(CONTEXT, tools);
        times.push(performance.now() - start);
      }
      const cache = new Memo();
      validatorsFile(CONTEXT, tools, cache);
      const start = performance.now();
      validatorsFile(CONTEXT, tools, cache);
      const cached = performance.now() - start;
      console.log(
        `bench: ${tools.length} tools, ${(text.length / 1e6).toFixed(2)} MB, ${times.map((t) => t.toFixed(0)).join(", ")} ms; cached re-run ${cached.toFixed(0)} ms`,
      );
      // Loose bounds, to catch a blow-up without flaking on a busy machine.
      expect(Math.min(...times)).toBeLessThan(1000);
      expect(cached).toBeLessThan(Math.min(...times));
      const sample = validatorsFile(CONTEXT, tools.slice(0, 120));
      expect(await prettier.format(sample, PRETTIER_STYLE)).toBe(sample);
    },
  );
});

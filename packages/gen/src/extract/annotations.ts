/**
 * extract: constraint and annotation tags (`@minimum`, `@pattern`, `@default`, ...) applied to a schema.
 * Tags use JSON Schema keyword names; each one is checked against the type it is applied to.
 */
import type { Code } from "../diagnostics.js";
import type { Tag } from "./jsdoc.js";
import type { Schema } from "./schema.js";

/** Where a problem with a tag goes: a diagnostic at `node`. */
export type Diagnose = (node: Tag["node"], code: Code, message: string) => void;

type Kind = "number" | "string" | "array" | "any";

const NUMBER_TAGS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
const LENGTH_TAGS = {
  minLength: "string",
  maxLength: "string",
  minItems: "array",
  maxItems: "array",
} as const;

/**
 * The formats `@format` accepts: those the generated validators check, and that OpenAI strict
 * mode and Anthropic accept too (`uri` is described, not kept, for OpenAI; see the providers).
 */
const FORMATS = new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uuid",
]);

/** Tag names this module handles; others (`@returns`, `@see`, ...) are left alone. */
const SCHEMA_TAGS = new Set([
  ...NUMBER_TAGS,
  ...Object.keys(LENGTH_TAGS),
  "pattern",
  "format",
  "uniqueItems",
  "default",
  "example",
  "deprecated",
  "type",
]);

/** Applies every schema tag in `tags` to `schema` (in place); bad tags are reported and skipped. */
export function applySchemaTags(schema: Schema, tags: readonly Tag[], diagnose: Diagnose): void {
  for (const tag of tags) {
    if (!SCHEMA_TAGS.has(tag.name)) continue;
    const fail = (code: Code, message: string) =>
      diagnose(tag.node, code, `@${tag.name}: ${message}`);
    const needs = (kind: Kind): boolean => {
      if (kind === "any" || appliesTo(schema, kind)) return true;
      fail(
        "ZCP1302",
        `applies to ${kind === "number" ? "numbers" : `${kind}s`}, not to ${describeTypes(schema)}`,
      );
      return false;
    };
    const name = tag.name;
    if (NUMBER_TAGS.includes(name)) {
      const value = Number(tag.text);
      if (tag.text === "" || !Number.isFinite(value))
        fail("ZCP1301", `expected a number, got "${tag.text}"`);
      else if (name === "multipleOf" && value <= 0) fail("ZCP1301", "must be greater than 0");
      else if (needs("number")) schema[name] = value;
    } else if (name in LENGTH_TAGS) {
      const value = Number(tag.text);
      if (!/^\d+$/.test(tag.text))
        fail("ZCP1301", `expected a non-negative integer, got "${tag.text}"`);
      else if (needs(LENGTH_TAGS[name as keyof typeof LENGTH_TAGS])) schema[name] = value;
    } else if (name === "pattern") {
      if (tag.text === "") fail("ZCP1301", "expected a regular expression");
      else if (!isRegExp(tag.text))
        fail("ZCP1301", `"${tag.text}" is not a valid regular expression`);
      else if (needs("string")) schema.pattern = tag.text;
    } else if (name === "format") {
      if (!FORMATS.has(tag.text))
        fail("ZCP1301", `unknown format "${tag.text}" (known: ${[...FORMATS].join(", ")})`);
      else if (needs("string")) schema.format = tag.text;
    } else if (name === "uniqueItems") {
      if (tag.text !== "" && tag.text !== "true" && tag.text !== "false")
        fail("ZCP1301", `expected nothing, true or false, got "${tag.text}"`);
      else if (needs("array")) schema.uniqueItems = tag.text !== "false";
    } else if (name === "default") {
      schema.default = jsonOrString(tag.text);
    } else if (name === "example") {
      schema.examples = [
        ...((schema.examples as unknown[] | undefined) ?? []),
        jsonOrString(tag.text),
      ];
    } else if (name === "deprecated") {
      schema.deprecated = true;
    } else if (name === "type") {
      if (tag.text !== "integer")
        fail("ZCP1301", `only "@type integer" is supported, got "${tag.text}"`);
      else if (!toInteger(schema))
        fail("ZCP1302", `applies to numbers, not to ${describeTypes(schema)}`);
    }
  }
}

function isRegExp(source: string): boolean {
  try {
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
}

function jsonOrString(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The JSON types a schema can take, looking through `anyOf`, `enum` and `const`. */
function typesOf(schema: Schema): Set<string> | "unknown" {
  if (schema.$ref !== undefined) return "unknown";
  const types = new Set<string>();
  const type = schema.type;
  if (typeof type === "string") types.add(type);
  else if (Array.isArray(type)) for (const t of type) types.add(t as string);
  else if (Array.isArray(schema.anyOf)) {
    for (const member of schema.anyOf as Schema[]) {
      const inner = typesOf(member);
      if (inner === "unknown") return inner;
      for (const t of inner) types.add(t);
    }
  } else if (schema.const !== undefined || Array.isArray(schema.enum)) {
    return "unknown";
  } else return "unknown";
  return types;
}

function appliesTo(schema: Schema, kind: Exclude<Kind, "any">): boolean {
  const types = typesOf(schema);
  if (types === "unknown") return true;
  if (kind === "number") return types.has("number") || types.has("integer");
  return types.has(kind);
}

function describeTypes(schema: Schema): string {
  const types = typesOf(schema);
  return types === "unknown" || types.size === 0 ? "this type" : [...types].join(" | ");
}

/** Turns `number` into `integer` wherever the schema allows a number; false if it allows none. */
function toInteger(schema: Schema): boolean {
  if (schema.type === "number" || schema.type === "integer") {
    schema.type = "integer";
    return true;
  }
  if (Array.isArray(schema.type) && schema.type.includes("number")) {
    schema.type = schema.type.map((t) => (t === "number" ? "integer" : t));
    return true;
  }
  if (Array.isArray(schema.anyOf)) {
    let changed = false;
    for (const member of schema.anyOf as Schema[]) changed = toInteger(member) || changed;
    return changed;
  }
  return false;
}

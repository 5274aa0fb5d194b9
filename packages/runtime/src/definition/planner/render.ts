/**
 * Planner lines: one line per tool in the compact type grammar documented in docs/text-formats.md
 * ("Planner lines"). `parsePlannerLine` in @zcp/runtime reads them back.
 */
import type { JsonValue, ToolDefinition } from "../registry.js";
import { firstSentence } from "./sentence.js";

type Schema = { readonly [keyword: string]: unknown };

/** Objects whose inline form is longer than this are shown by name (or by their keys). */
const INLINE_OBJECT_MAX = 48;
const BARE = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const KEYWORDS = new Set([
  "str",
  "int",
  "num",
  "bool",
  "null",
  "any",
  "datetime",
  "date",
  "h",
  "true",
  "false",
]);

type PlannerInput = Pick<
  ToolDefinition,
  | "id"
  | "alias"
  | "inputSchema"
  | "outputMode"
  | "handleKind"
  | "handleParams"
  | "defaults"
  | "deprecated"
> & {
  /** The tool's description; its first sentence ends the line (absent or "": nothing). */
  readonly description?: string;
};

export interface PlannerLineOptions {
  /** The tool's first sentence at the end of the line, after ` -- ` (default true). */
  readonly toolDocs?: boolean;
  /** Each parameter's first sentence after its type or default (default true). */
  readonly paramDocs?: boolean;
  /**
   * Whole descriptions instead of first sentences, for the tool and its parameters (default
   * false): the author's `@describe full`, where the later sentences matter to the model.
   */
  readonly fullDocs?: boolean;
}

/**
 * The planner line of a tool. With the default options it carries documentation: each
 * parameter's first sentence (of its schema's `description`) after its type or default, and
 * the tool's first sentence after ` -- `, each as a JSON string literal. With both options off
 * it is the bare signature (what `ToolDefinition.plannerBare` holds).
 */
export function renderPlannerLine(tool: PlannerInput, options: PlannerLineOptions = {}): string {
  const paramDocs = options.paramDocs !== false;
  const full = options.fullDocs === true;
  const schema = tool.inputSchema as Schema;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const params = Object.entries(properties).map(([name, property]) => {
    // Own keys only: a parameter named `__proto__` or `constructor` is not inherited.
    const handleKind = Object.hasOwn(tool.handleParams, name) ? tool.handleParams[name] : undefined;
    const type =
      handleKind !== undefined
        ? handleKind === "*"
          ? "h"
          : `h:${handleKind}`
        : renderType(property);
    const doc = paramDocs ? renderDoc(property, " ", full) : "";
    if (Object.hasOwn(tool.defaults, name))
      return `${name}:${type}=${renderValue(tool.defaults[name]!)}${doc}`;
    return `${name}:${type}${required.has(name) ? "" : "?"}${doc}`;
  });
  if (isSchema(schema.additionalProperties))
    params.push(
      `*:${renderType(schema.additionalProperties)}${paramDocs ? renderDoc(schema.additionalProperties, " ", full) : ""}`,
    );
  const kind =
    tool.outputMode !== "scalar" && tool.handleKind !== "generic" ? `:${tool.handleKind}` : "";
  const deprecated = tool.deprecated !== null ? " deprecated" : "";
  const doc =
    options.toolDocs !== false ? renderDoc({ description: tool.description }, " -- ", full) : "";
  return `TOOL @${tool.id} ${tool.alias}(${params.join(", ")}) -> ${tool.outputMode}${kind}${deprecated}${doc}`;
}

/** `prefix` and the first sentence (`full`: all) of the schema's description as a JSON string, or "" without one. */
function renderDoc(schema: Schema, prefix: string, full = false): string {
  if (typeof schema.description !== "string") return "";
  const sentence = full ? schema.description.trim() : firstSentence(schema.description);
  return sentence === "" ? "" : `${prefix}${JSON.stringify(sentence)}`;
}

/** The compact form of a schema. Total: anything it does not recognise is `any`. */
export function renderType(schema: Schema): string {
  if (typeof schema.$ref === "string")
    return schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1) || "any";
  if (schema.const !== undefined) return renderLiteral(schema.const as JsonValue, false);
  if (Array.isArray(schema.enum)) {
    const values = schema.enum as JsonValue[];
    return values.map((value) => renderLiteral(value, values.length > 1)).join("|") || "any";
  }
  if (Array.isArray(schema.anyOf))
    return (
      (schema.anyOf as unknown[])
        .map((member) => (isSchema(member) ? renderType(member) : "any"))
        .join("|") || "any"
    );
  const type = schema.type;
  if (Array.isArray(type))
    return type.map((t) => renderType({ ...schema, type: t })).join("|") || "any";
  switch (type) {
    case "string":
      return schema.format === "date-time" ? "datetime" : schema.format === "date" ? "date" : "str";
    case "integer":
      return "int";
    case "number":
      return "num";
    case "boolean":
      return "bool";
    case "null":
      return "null";
    case "array":
      return renderArray(schema);
    case "object":
      return renderObject(schema);
    default:
      return "any";
  }
}

function renderArray(schema: Schema): string {
  if (Array.isArray(schema.prefixItems)) {
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const items = (schema.prefixItems as unknown[]).map(
      (item, index) => `${isSchema(item) ? renderType(item) : "any"}${index >= min ? "?" : ""}`,
    );
    if (isSchema(schema.items)) items.push(`...${renderType(schema.items)}`);
    return `[${items.join(",")}]`;
  }
  const element = isSchema(schema.items) ? renderType(schema.items) : "any";
  return `${hasTopLevelBar(element) ? `(${element})` : element}[]`;
}

function renderObject(schema: Schema): string {
  const properties = isSchema(schema.properties)
    ? (schema.properties as Record<string, unknown>)
    : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const rest = isSchema(schema.additionalProperties)
    ? `*:${renderType(schema.additionalProperties)}`
    : null;
  const mark = (name: string) => (required.has(name) ? "" : "?");
  const fields = Object.entries(properties).map(
    ([name, value]) => `${name}:${isSchema(value) ? renderType(value) : "any"}${mark(name)}`,
  );
  const inline = `{${[...fields, ...(rest ? [rest] : [])].join(",")}}`;
  if (inline.length <= INLINE_OBJECT_MAX) return inline;
  if (typeof schema.title === "string" && BARE.test(schema.title)) return `${schema.title}{…}`;
  const keys = Object.keys(properties).map((name) => `${name}${mark(name)}`);
  let shown = "";
  for (const key of keys) {
    const next = shown ? `${shown},${key}` : key;
    if (next.length > INLINE_OBJECT_MAX) return `{${shown},…}`;
    shown = next;
  }
  return `{${shown}${rest ? ",*" : ""}}`;
}

function renderLiteral(value: JsonValue, inUnion: boolean): string {
  if (typeof value === "string")
    return inUnion && BARE.test(value) && !KEYWORDS.has(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/** A default value: bare words stay bare, everything else is compact JSON. */
export function renderValue(value: JsonValue): string {
  return typeof value === "string" && BARE.test(value) && !KEYWORDS.has(value)
    ? value
    : JSON.stringify(value);
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasTopLevelBar(text: string): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === "\\") i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") depth--;
    else if (ch === "|" && depth === 0) return true;
  }
  return false;
}

/**
 * Gemini function declarations: the OpenAPI 3.0 subset of `parameters`. Upper-case types,
 * `nullable` instead of null unions, string-only enums, no `$ref` (recursive types cannot be
 * declared, nor values of any type: the tool is left out of this target with a diagnostic), no `additionalProperties`,
 * and only the keywords the subset knows; the rest is moved into the description (`allOf` keeps
 * its first member, `patternProperties` are described as `additionalProperties` are).
 */
import type { JsonSchema } from "../registry.js";
import { renderType } from "../planner/render.js";
import {
  asNode,
  describeMoved,
  firstOfAllOf,
  Inexpressible,
  patternsAsAdditional,
  tupleAsArray,
  typesOf,
  type Node,
} from "./shared.js";

const TYPES: Record<string, string> = {
  string: "STRING",
  number: "NUMBER",
  integer: "INTEGER",
  boolean: "BOOLEAN",
  array: "ARRAY",
  object: "OBJECT",
};
const KEEP = {
  STRING: new Set(["minLength", "maxLength", "pattern"]),
  NUMBER: new Set(["minimum", "maximum"]),
  INTEGER: new Set(["minimum", "maximum"]),
  ARRAY: new Set(["minItems", "maxItems"]),
} as Record<string, Set<string>>;
const HANDLED = new Set([
  "type",
  "description",
  "enum",
  "const",
  "anyOf",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "format",
  "title",
  "default",
  "examples",
]);

/** The declaration's `parameters`, or undefined for a tool without parameters. */
export function geminiParameters(inputSchema: JsonSchema): JsonSchema | undefined {
  const root = asNode(inputSchema);
  if (root.$defs)
    throw new Inexpressible(
      "recursive types need $ref, which Gemini function declarations do not support",
    );
  if (Object.keys((root.properties ?? {}) as Node).length === 0 && !root.additionalProperties)
    return undefined;
  return convert(root, "$") as JsonSchema;
}

function convert(node: Node, path: string): Node {
  if (node.allOf) return convert(firstOfAllOf(node, renderType), path);
  if (node.patternProperties) return convert(patternsAsAdditional(node, renderType), path);
  if (node.prefixItems) return convert(tupleAsArray(node, renderType), path);
  const moved: [string, unknown][] = [];
  const out: Node = {};
  if (typeof node.description === "string") out.description = node.description;
  if (Array.isArray(node.anyOf)) {
    const branches = (node.anyOf as unknown[]).map(asNode);
    const rest = branches.filter((branch) => branch.type !== "null");
    if (rest.length < branches.length) out.nullable = true;
    if (rest.length === 1)
      return describeMoved({ ...convert(rest[0]!, path), ...out }, collect(node, moved, new Set()));
    out.anyOf = rest.map((branch, i) => convert(branch, `${path}.anyOf[${i}]`));
    return describeMoved(out, collect(node, moved, new Set()));
  }
  const types = typesOf(node).filter((t) => t !== "null");
  if (typesOf(node).includes("null")) out.nullable = true;
  if (types.length > 1) {
    out.anyOf = types.map((t) => ({ type: TYPES[t] }));
    return describeMoved(out, collect(node, moved, new Set()));
  }
  const type = types[0] ? TYPES[types[0]] : undefined;
  if (type) out.type = type;
  else if (node.const === undefined && node.enum === undefined)
    throw new Inexpressible(
      `${path} accepts any value; Gemini declarations need a type on every value`,
    );
  const values =
    node.const !== undefined
      ? [node.const]
      : Array.isArray(node.enum)
        ? (node.enum as unknown[])
        : null;
  if (values) {
    const present = values.filter((value) => value !== null);
    if (present.length < values.length) out.nullable = true;
    // Gemini enums are strings only; other literals are described.
    if (type === "STRING") out.enum = present;
    else moved.push([node.const !== undefined ? "const" : "enum", node.const ?? present]);
  }
  if (typeof node.format === "string") {
    if (node.format === "date-time" && type === "STRING") out.format = "date-time";
    else moved.push(["format", node.format]);
  }
  if (type === "OBJECT") {
    const properties = (node.properties ?? {}) as Node;
    const converted: Node = {};
    for (const [key, value] of Object.entries(properties))
      converted[key] = convert(asNode(value), `${path}.${key}`);
    if (Object.keys(converted).length > 0) out.properties = converted;
    if (Array.isArray(node.required) && node.required.length > 0) out.required = node.required;
    if (node.additionalProperties && typeof node.additionalProperties === "object") {
      moved.push(["additionalProperties", renderType(asNode(node.additionalProperties))]);
    }
  }
  if (type === "ARRAY" && node.items && typeof node.items === "object")
    out.items = convert(asNode(node.items), `${path}[]`);
  if (node.default !== undefined) out.default = node.default;
  if (Array.isArray(node.examples) && node.examples.length > 0) out.example = node.examples[0];
  const keep = (type && KEEP[type]) || new Set<string>();
  for (const key of keep) if (node[key] !== undefined) out[key] = node[key];
  return describeMoved(out, collect(node, moved, keep));
}

function collect(
  node: Node,
  moved: [string, unknown][],
  keep: ReadonlySet<string>,
): [string, unknown][] {
  for (const [key, value] of Object.entries(node)) {
    if (HANDLED.has(key) || keep.has(key) || value === undefined) continue;
    moved.push([key, value]);
  }
  return moved;
}

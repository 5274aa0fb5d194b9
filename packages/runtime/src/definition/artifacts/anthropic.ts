/**
 * Anthropic tool input schemas, limited to what its strict tool use accepts (the subset the
 * official SDK's transformer keeps): structure, `const`/`enum`, descriptions and titles, the
 * formats it knows, `minItems` of 0 or 1. Every other keyword is moved into the description.
 * `allOf` becomes its first member and `patternProperties` the `additionalProperties`, the rest
 * described. Optional properties stay optional. An open-ended object keeps its `additionalProperties`
 * schema: dropping it would change what the tool accepts (non-strict tool use takes it).
 */
import type { JsonSchema } from "../registry.js";
import { renderType } from "../planner/render.js";
import {
  asNode,
  describeMoved,
  firstOfAllOf,
  patternsAsAdditional,
  tupleAsArray,
  type Node,
} from "./shared.js";

const FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "uri",
  "ipv4",
  "ipv6",
  "uuid",
]);
const KEPT = new Set([
  "type",
  "description",
  "title",
  "const",
  "enum",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "$ref",
  "$defs",
]);

export function anthropicInputSchema(inputSchema: JsonSchema): JsonSchema {
  return convert(asNode(inputSchema)) as JsonSchema;
}

/** Any JSON value, for a node without a type (`unknown`): Anthropic wants a type on every node. */
const ANY_JSON = ["string", "number", "boolean", "object", "array", "null"].map((type) => ({
  type,
}));

function convert(node: Node): Node {
  if (node.allOf) return convert(firstOfAllOf(node, renderType));
  if (node.patternProperties) return convert(patternsAsAdditional(node, renderType));
  if (node.prefixItems) return convert(tupleAsArray(node, renderType));
  // The strict transformer drops keywords beside $ref: a description goes on a wrapper.
  if (typeof node.$ref === "string" && typeof node.description === "string")
    return { description: node.description, anyOf: [{ $ref: node.$ref }] };
  if (
    node.type === undefined &&
    node.anyOf === undefined &&
    node.$ref === undefined &&
    node.const === undefined &&
    node.enum === undefined
  ) {
    return convert({ ...node, anyOf: ANY_JSON });
  }
  const out: Node = {};
  const moved: [string, unknown][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined) continue;
    if (key === "properties" || key === "$defs") {
      const map: Node = {};
      for (const [name, sub] of Object.entries(value as Node)) map[name] = convert(asNode(sub));
      out[key] = map;
    } else if (key === "anyOf") {
      out[key] = (value as unknown[]).map((branch) => convert(asNode(branch)));
    } else if ((key === "items" || key === "additionalProperties") && typeof value === "object") {
      out[key] = convert(asNode(value));
    } else if (key === "format" && FORMATS.has(value as string)) {
      out[key] = value;
    } else if (key === "minItems" && (value === 0 || value === 1)) {
      out[key] = value;
    } else if (KEPT.has(key)) {
      out[key] = value;
    } else {
      moved.push([key, value]);
    }
  }
  return describeMoved(out, moved);
}

/**
 * OpenAI strict function schemas (Structured Outputs rules): every property required, optional
 * ones made nullable (a `null` type entry for plain types, an `anyOf` branch for arrays,
 * objects, references and unions, `null` added to enums), `additionalProperties: false` on every
 * object, only the keywords strict mode supports (the rest moved into the description), and
 * the published size limits of one schema (`limits.ts`). A schema strict mode cannot express at all (an open-ended object,
 * an `unknown` value, an intersection's `allOf`) is sent non-strict, as written.
 */
import type { JsonSchema } from "../registry.js";
import { measureOpenAI, OPENAI_LIMITS } from "./limits.js";
import {
  asNode,
  describeMoved,
  Inexpressible,
  tupleAsArray,
  typesOf,
  type Node,
} from "./shared.js";
import { renderType } from "../planner/render.js";

const STRING_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);
const KEEP = {
  string: new Set(["pattern"]),
  number: new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]),
  array: new Set(["minItems", "maxItems"]),
};
const STRUCTURE = new Set([
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
  "$ref",
  "$defs",
  "format",
]);
/** Dropped without a note: a type name says nothing the structure does not. */
const DROPPED = new Set(["title"]);

export interface OpenAIParameters {
  readonly parameters: JsonSchema;
  readonly strict: boolean;
  /** Why strict mode was not possible, or null. */
  readonly notStrict: string | null;
}

export function openaiParameters(inputSchema: JsonSchema): OpenAIParameters {
  try {
    return {
      parameters: strictRoot(asNode(inputSchema)) as JsonSchema,
      strict: true,
      notStrict: null,
    };
  } catch (error) {
    if (!(error instanceof Inexpressible)) throw error;
    return { parameters: inputSchema, strict: false, notStrict: error.message };
  }
}

function strictRoot(root: Node): Node {
  const { $defs, ...rest } = root;
  const out = strict(rest, false, "$");
  if (!$defs) return out;
  const defs: Node = {};
  for (const [name, def] of Object.entries($defs as Node))
    defs[name] = strict(asNode(def), false, `$defs.${name}`);
  return { ...out, $defs: defs };
}

function strict(node: Node, nullable: boolean, path: string): Node {
  if (typeof node.$ref === "string") {
    const ref = { $ref: node.$ref };
    const branches = nullable ? [ref, { type: "null" }] : [ref];
    // OpenAI ignores keywords beside $ref: the description goes on a wrapper.
    if (typeof node.description === "string")
      return { description: node.description, anyOf: branches };
    return nullable ? { anyOf: branches } : ref;
  }
  if (node.allOf)
    throw new Inexpressible(
      `${path} is an intersection (allOf), which strict mode does not support`,
    );
  const moved: [string, unknown][] = [];
  const out: Node = {};
  const copy = (key: string) => {
    if (node[key] !== undefined) out[key] = node[key];
  };
  if (Array.isArray(node.anyOf)) {
    const branches = (node.anyOf as unknown[]).map((branch, i) =>
      strict(asNode(branch), false, `${path}.anyOf[${i}]`),
    );
    if (nullable && !branches.some((branch) => branch.type === "null"))
      branches.push({ type: "null" });
    copy("description");
    out.anyOf = branches;
    return describeMoved(out, unsupported(node, moved, new Set()));
  }
  const types = typesOf(node);
  if (types.length === 0 && node.enum === undefined && node.const === undefined) {
    throw new Inexpressible(`${path} accepts any value; strict mode needs a type`);
  }
  if (node.prefixItems) return strict(tupleAsArray(node, renderType), nullable, path);
  const main = types.find((t) => t !== "null");
  if (main === "object" || main === "array") {
    const inner = main === "object" ? strictObject(node, path) : strictArray(node, path);
    return nullable || types.includes("null") ? { anyOf: [inner, { type: "null" }] } : inner;
  }
  copy("description");
  const keep =
    main === "string"
      ? KEEP.string
      : main === "number" || main === "integer"
        ? KEEP.number
        : new Set<string>();
  const withNull = nullable && !types.includes("null");
  if (node.const !== undefined || Array.isArray(node.enum)) {
    const values = node.const !== undefined ? [node.const] : [...(node.enum as unknown[])];
    if (withNull && !values.includes(null)) values.push(null);
    out.type = withNull ? [...types, "null"] : types.length === 1 ? types[0] : types;
    out.enum = values;
  } else {
    out.type = withNull ? [...types, "null"] : node.type;
  }
  if (typeof node.format === "string") {
    if (STRING_FORMATS.has(node.format)) out.format = node.format;
    else moved.push(["format", node.format]);
  }
  for (const key of keep) copy(key);
  return describeMoved(out, unsupported(node, moved, keep));
}

function strictObject(node: Node, path: string): Node {
  if (node.patternProperties !== undefined)
    throw new Inexpressible(
      `${path} has numeric keys beside named ones (patternProperties); strict mode needs every key named`,
    );
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
    throw new Inexpressible(
      `${path} is an open-ended object (a Record or index signature); strict mode needs every key named`,
    );
  }
  const properties = (node.properties ?? {}) as Node;
  const required = new Set((node.required ?? []) as string[]);
  const out: Node = { type: "object" };
  if (typeof node.description === "string") out.description = node.description;
  const strictProperties: Node = {};
  for (const [key, value] of Object.entries(properties))
    strictProperties[key] = strict(asNode(value), !required.has(key), `${path}.${key}`);
  out.properties = strictProperties;
  out.required = Object.keys(properties);
  out.additionalProperties = false;
  return describeMoved(out, unsupported(node, [], new Set()));
}

function strictArray(node: Node, path: string): Node {
  const out: Node = { type: "array" };
  if (typeof node.description === "string") out.description = node.description;
  if (node.items !== undefined && node.items !== false)
    out.items = strict(asNode(node.items), false, `${path}[]`);
  else throw new Inexpressible(`${path} is an array without an item type`);
  for (const key of KEEP.array) if (node[key] !== undefined) out[key] = node[key];
  return describeMoved(out, unsupported(node, [], KEEP.array));
}

/** Keywords of `node` that strict mode does not support, to be described. */
function unsupported(
  node: Node,
  moved: [string, unknown][],
  keep: ReadonlySet<string>,
): [string, unknown][] {
  for (const [key, value] of Object.entries(node)) {
    if (STRUCTURE.has(key) || keep.has(key) || DROPPED.has(key) || value === undefined) continue;
    moved.push([key, value]);
  }
  return moved;
}

/** Measures a strict schema against OpenAI's published limits; returns what is exceeded. */
export function openaiLimits(parameters: JsonSchema): string[] {
  const { nesting, properties, enumValues, characters } = measureOpenAI(parameters);
  const exceeded: string[] = [];
  if (nesting > OPENAI_LIMITS.nesting)
    exceeded.push(`${nesting} levels of nesting (limit ${OPENAI_LIMITS.nesting})`);
  if (properties > OPENAI_LIMITS.properties)
    exceeded.push(`${properties} properties (limit ${OPENAI_LIMITS.properties})`);
  if (enumValues > OPENAI_LIMITS.enumValues)
    exceeded.push(`${enumValues} enum values (limit ${OPENAI_LIMITS.enumValues})`);
  if (characters > OPENAI_LIMITS.characters)
    exceeded.push(
      `${characters} characters of names and values (limit ${OPENAI_LIMITS.characters})`,
    );
  return exceeded;
}

/**
 * Gemini function declarations, checked against the OpenAPI 3.0 subset of `parameters`:
 * upper-case types (one per node, nullability as `nullable`), string-only enums, no `$ref`,
 * no `additionalProperties`, `properties` only on objects and `items` only on arrays, and only
 * the keys the subset knows.
 */
import {
  checkKeys,
  checkRequiredNamesProperties,
  checkName,
  checkString,
  describe,
  isObject,
  join,
  Report,
  type Checker,
  type Obj,
} from "./shared.js";

export const GEMINI_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
export const GEMINI_TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"]);
export const GEMINI_KEYS = new Set([
  "type",
  "format",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "default",
  "items",
  "minimum",
  "maximum",
]);
const FORBIDDEN: Record<string, string> = {
  $ref: "$ref is not supported by Gemini function declarations",
  $defs: "$defs is not supported by Gemini function declarations",
  additionalProperties: "additionalProperties is not supported by Gemini function declarations",
  const: "const is not supported by Gemini function declarations (use a one-value STRING enum)",
  oneOf: "oneOf is not supported by Gemini function declarations",
  allOf: "allOf is not supported by Gemini function declarations",
  title: "title is rejected by Gemini function declarations",
  examples: "examples is rejected by Gemini function declarations (the subset has example)",
};
/** Which types a key applies to. */
const APPLIES: Record<string, readonly string[]> = {
  properties: ["OBJECT"],
  required: ["OBJECT"],
  items: ["ARRAY"],
  minItems: ["ARRAY"],
  maxItems: ["ARRAY"],
  minLength: ["STRING"],
  maxLength: ["STRING"],
  pattern: ["STRING"],
  format: ["STRING"],
  enum: ["STRING"],
  minimum: ["NUMBER", "INTEGER"],
  maximum: ["NUMBER", "INTEGER"],
};

export const checkGemini: Checker = (entry, toolId) => {
  const report = new Report(toolId);
  if (!checkKeys(report, entry, "$", ["name", "description"], ["parameters"]))
    return report.violations;
  checkName(report, entry.name, "$.name", GEMINI_NAME);
  checkString(report, entry.description, "$.description", "description");
  if (!("parameters" in entry)) return report.violations;
  if (!isObject(entry.parameters)) {
    report.add(
      "$.parameters",
      `parameters must be a schema object, got ${describe(entry.parameters)}`,
    );
    return report.violations;
  }
  if (entry.parameters.type !== "OBJECT")
    report.add(
      "$.parameters",
      `parameters must have type "OBJECT", got ${describe(entry.parameters.type)}`,
    );
  checkNode(report, entry.parameters, "$.parameters");
  return report.violations;
};

function checkNode(report: Report, value: unknown, path: string): void {
  if (!isObject(value)) {
    report.add(path, `a schema must be an object, got ${describe(value)}`);
    return;
  }
  const node: Obj = value;
  for (const key of Object.keys(node)) {
    if (FORBIDDEN[key]) report.add(join(path, key), FORBIDDEN[key]);
    else if (!GEMINI_KEYS.has(key))
      report.add(join(path, key), `"${key}" is not a key of the Gemini schema subset`);
  }
  if (!("type" in node) && !("anyOf" in node))
    report.add(path, "every schema needs a type or an anyOf");
  const type = typeof node.type === "string" ? node.type : undefined;
  if ("type" in node) {
    if (Array.isArray(node.type))
      report.add(
        join(path, "type"),
        `type lists are not supported (use one type and nullable: true), got ${JSON.stringify(node.type)}`,
      );
    else if (!GEMINI_TYPES.has(node.type as string))
      report.add(
        join(path, "type"),
        `type must be one of ${[...GEMINI_TYPES].join(", ")}, got ${describe(node.type)}`,
      );
  }
  for (const [key, applies] of Object.entries(APPLIES)) {
    if (key in node && !(type && applies.includes(type)))
      report.add(
        join(path, key),
        `${key} is only allowed on ${applies.join("/")} schemas, this one is ${type ?? describe(node.type)}`,
      );
  }
  if ("nullable" in node && typeof node.nullable !== "boolean")
    report.add(
      join(path, "nullable"),
      `nullable must be a boolean, got ${describe(node.nullable)}`,
    );
  if ("format" in node && node.format !== "date-time" && node.format !== "enum")
    report.add(
      join(path, "format"),
      `format may only be "date-time" (or "enum"), got ${describe(node.format)}`,
    );
  if ("enum" in node) {
    if (!Array.isArray(node.enum) || node.enum.length === 0)
      report.add(join(path, "enum"), "enum must be a non-empty list");
    else
      node.enum.forEach(
        (item, i) =>
          typeof item !== "string" &&
          report.add(
            join(join(path, "enum"), i),
            `enum values must be strings, got ${describe(item)}`,
          ),
      );
  }
  if ("properties" in node) {
    if (!isObject(node.properties))
      report.add(
        join(path, "properties"),
        `properties must be an object, got ${describe(node.properties)}`,
      );
    else
      for (const [name, sub] of Object.entries(node.properties))
        checkNode(report, sub, join(join(path, "properties"), name));
  }
  checkRequiredNamesProperties(report, node, path);
  if ("items" in node) checkNode(report, node.items, join(path, "items"));
  if ("anyOf" in node) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0)
      report.add(join(path, "anyOf"), "anyOf must be a non-empty list of schemas");
    else node.anyOf.forEach((branch, i) => checkNode(report, branch, join(join(path, "anyOf"), i)));
  }
  for (const key of ["minItems", "maxItems", "minLength", "maxLength"]) {
    if (key in node && !(Number.isInteger(node[key]) && (node[key] as number) >= 0))
      report.add(
        join(path, key),
        `${key} must be a non-negative integer, got ${describe(node[key])}`,
      );
  }
}

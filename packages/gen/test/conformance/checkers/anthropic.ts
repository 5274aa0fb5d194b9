/**
 * Anthropic Messages tools, checked against the subset strict tool use accepts (what the
 * official SDK's schema transformer keeps): structure, `const`/`enum`, descriptions and titles,
 * its formats, `minItems` of 0 or 1; every node typed (or a union, a reference, a literal).
 */
import {
  checkKeys,
  checkName,
  checkRef,
  checkRequiredNamesProperties,
  checkString,
  describe,
  isObject,
  isStringArray,
  join,
  Report,
  typesOf,
  walk,
  type Checker,
} from "./shared.js";

export const ANTHROPIC_NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const ANTHROPIC_FORMATS = new Set([
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
export const ANTHROPIC_KEYWORDS = new Set([
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
  "format",
  "minItems",
]);
const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

export const checkAnthropic: Checker = (entry, toolId) => {
  const report = new Report(toolId);
  if (!checkKeys(report, entry, "$", ["name", "description", "input_schema"], ["input_examples"]))
    return report.violations;
  if (
    entry.input_examples !== undefined &&
    (!Array.isArray(entry.input_examples) ||
      entry.input_examples.length === 0 ||
      entry.input_examples.length > 5 ||
      !entry.input_examples.every(isObject))
  )
    report.add(
      "$.input_examples",
      `input_examples must be 1 to 5 objects, got ${describe(entry.input_examples)}`,
    );
  checkName(report, entry.name, "$.name", ANTHROPIC_NAME);
  checkString(report, entry.description, "$.description", "description");
  const root = entry.input_schema;
  if (!isObject(root)) {
    report.add("$.input_schema", `input_schema must be a schema object, got ${describe(root)}`);
    return report.violations;
  }
  if (root.type !== "object")
    report.add("$.input_schema", `the root must have type "object", got ${describe(root.type)}`);

  walk(root, "$.input_schema", (value, path) => {
    if (!isObject(value)) {
      report.add(path, `a schema must be an object, got ${describe(value)}`);
      return;
    }
    const node = value;
    for (const key of Object.keys(node))
      if (!ANTHROPIC_KEYWORDS.has(key))
        report.add(join(path, key), `"${key}" is not a keyword of Anthropic's strict subset`);
    if (!["type", "anyOf", "$ref", "const", "enum"].some((key) => key in node))
      report.add(path, "every schema needs a type, an anyOf, a $ref, a const or an enum");
    if (node.$defs !== undefined && path !== "$.input_schema")
      report.add(join(path, "$defs"), "$defs is only allowed at the root");
    if ("$ref" in node) checkRef(report, node.$ref, join(path, "$ref"), root.$defs);
    if ("type" in node) {
      if (typeof node.type !== "string" && !isStringArray(node.type))
        report.add(
          join(path, "type"),
          `type must be a string or a list of strings, got ${describe(node.type)}`,
        );
      for (const type of typesOf(node))
        if (!TYPES.has(type)) report.add(join(path, "type"), `unknown type "${type}"`);
    }
    if ("format" in node && !ANTHROPIC_FORMATS.has(node.format as string)) {
      report.add(
        join(path, "format"),
        `format ${describe(node.format)} is not one of ${[...ANTHROPIC_FORMATS].join(", ")}`,
      );
    }
    if ("minItems" in node && node.minItems !== 0 && node.minItems !== 1)
      report.add(
        join(path, "minItems"),
        `minItems may only be 0 or 1, got ${describe(node.minItems)}`,
      );
    if ("anyOf" in node && (!Array.isArray(node.anyOf) || node.anyOf.length === 0))
      report.add(join(path, "anyOf"), "anyOf must be a non-empty list of schemas");
    if ("enum" in node && (!Array.isArray(node.enum) || node.enum.length === 0))
      report.add(join(path, "enum"), "enum must be a non-empty list");
    if ("properties" in node && !isObject(node.properties))
      report.add(
        join(path, "properties"),
        `properties must be an object, got ${describe(node.properties)}`,
      );
    if (
      "additionalProperties" in node &&
      typeof node.additionalProperties !== "boolean" &&
      !isObject(node.additionalProperties)
    ) {
      report.add(
        join(path, "additionalProperties"),
        `additionalProperties must be a boolean or a schema, got ${describe(node.additionalProperties)}`,
      );
    }
    checkRequiredNamesProperties(report, node, path);
  });
  return report.violations;
};

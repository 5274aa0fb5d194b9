/**
 * OpenAI function tools (Responses and Chat Completions), checked against the Structured
 * Outputs rules of strict mode (`strict: true`): every object closed with
 * `additionalProperties: false` and every property required, only the supported keywords,
 * `$ref` only into the root's `$defs` and alone, nullable arrays and objects as an `anyOf` with
 * `{type: "null"}`, and the published size limits. A `strict: false` entry is checked for its
 * shape, its name and an object root only.
 */
import {
  checkKeys,
  checkName,
  checkRef,
  checkString,
  describe,
  isObject,
  isStringArray,
  join,
  Report,
  typesOf,
  walk,
  type Checker,
  type Obj,
} from "./shared.js";

export const OPENAI_NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const OPENAI_FORMATS = new Set([
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
export const OPENAI_KEYWORDS = new Set([
  "type",
  "description",
  "enum",
  "anyOf",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "$ref",
  "$defs",
  "format",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
]);
/** Keywords often met in JSON Schema that strict mode rejects, with the reason. */
const FORBIDDEN: Record<string, string> = {
  prefixItems: "tuples (prefixItems) are not supported in strict mode",
  const: "const is not supported in strict mode (use a one-value enum)",
  oneOf: "oneOf is not supported in strict mode (use anyOf)",
  allOf: "allOf is not supported in strict mode",
  title: "title is not a supported keyword in strict mode",
};
const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
/** Which types a keyword applies to. */
const APPLIES: Record<string, readonly string[]> = {
  pattern: ["string"],
  format: ["string"],
  minimum: ["number", "integer"],
  maximum: ["number", "integer"],
  exclusiveMinimum: ["number", "integer"],
  exclusiveMaximum: ["number", "integer"],
  multipleOf: ["number", "integer"],
  minItems: ["array"],
  maxItems: ["array"],
  items: ["array"],
  properties: ["object"],
  required: ["object"],
  additionalProperties: ["object"],
};
export const OPENAI_LIMITS = {
  depth: 10,
  properties: 5000,
  enumValues: 1000,
  characters: 120_000,
  largeEnum: 250,
  largeEnumCharacters: 15_000,
};

/** Responses API: `{type: "function", name, description, parameters, strict}`. */
export const checkOpenAIResponses: Checker = (entry, toolId) => {
  const report = new Report(toolId);
  if (checkKeys(report, entry, "$", ["type", "name", "description", "parameters", "strict"])) {
    if (entry.type !== "function")
      report.add("$.type", `type must be "function", got ${describe(entry.type)}`);
    checkFunction(report, entry, "$");
  }
  return report.violations;
};

/** Chat Completions: `{type: "function", function: {name, description, parameters, strict}}`. */
export const checkOpenAIChat: Checker = (entry, toolId) => {
  const report = new Report(toolId);
  if (checkKeys(report, entry, "$", ["type", "function"])) {
    if (entry.type !== "function")
      report.add("$.type", `type must be "function", got ${describe(entry.type)}`);
    if (
      checkKeys(report, entry.function, "$.function", [
        "name",
        "description",
        "parameters",
        "strict",
      ])
    )
      checkFunction(report, entry.function, "$.function");
  }
  return report.violations;
};

function checkFunction(report: Report, fn: Obj, path: string): void {
  checkName(report, fn.name, join(path, "name"), OPENAI_NAME);
  checkString(report, fn.description, join(path, "description"), "description");
  if (typeof fn.strict !== "boolean")
    report.add(join(path, "strict"), `strict must be a boolean, got ${describe(fn.strict)}`);
  const parameters = fn.parameters;
  const at = join(path, "parameters");
  if (!isObject(parameters)) {
    report.add(at, `parameters must be a schema object, got ${describe(parameters)}`);
    return;
  }
  if (parameters.type !== "object")
    report.add(at, `the root must have type "object", got ${describe(parameters.type)}`);
  for (const union of ["anyOf", "oneOf", "allOf"])
    if (union in parameters) report.add(join(at, union), `the root must not be a union (${union})`);
  if (fn.strict === true) checkStrictSchema(report, parameters, at);
}

/** The strict-mode rules on a whole parameters schema. */
export function checkStrictSchema(report: Report, root: Obj, rootPath: string): void {
  let depth = 0;
  let deepest = rootPath;
  let properties = 0;
  let enumValues = 0;
  let characters = 0;
  if (isObject(root.$defs)) for (const name of Object.keys(root.$defs)) characters += name.length;

  walk(root, rootPath, (value, path, level) => {
    if (!isObject(value)) {
      report.add(path, `a schema must be an object, got ${describe(value)}`);
      return;
    }
    const node = value;
    for (const key of Object.keys(node)) {
      if (FORBIDDEN[key]) report.add(join(path, key), FORBIDDEN[key]);
      else if (!OPENAI_KEYWORDS.has(key))
        report.add(join(path, key), `"${key}" is not a keyword strict mode supports`);
    }
    if (node.$defs !== undefined && path !== rootPath)
      report.add(join(path, "$defs"), "$defs is only allowed at the root");

    // $ref: alone, into the root's $defs.
    if ("$ref" in node) {
      checkRef(report, node.$ref, join(path, "$ref"), root.$defs);
      const siblings = Object.keys(node).filter((key) => key !== "$ref");
      if (siblings.length > 0)
        report.add(path, `$ref must stand alone, found sibling keywords ${siblings.join(", ")}`);
      return;
    }
    if (!("type" in node) && !("anyOf" in node) && !("enum" in node))
      report.add(path, "every schema needs a type, an anyOf, an enum or a $ref");

    // type: a known type or a list of them; a list may not carry array or object.
    const types = typesOf(node);
    if ("type" in node) {
      if (typeof node.type !== "string" && !isStringArray(node.type))
        report.add(
          join(path, "type"),
          `type must be a string or a list of strings, got ${describe(node.type)}`,
        );
      for (const type of types)
        if (!TYPES.has(type)) report.add(join(path, "type"), `unknown type "${type}"`);
      if (Array.isArray(node.type)) {
        if (node.type.length === 0)
          report.add(join(path, "type"), "type must not be an empty list");
        if (types.includes("array") || types.includes("object")) {
          report.add(
            join(path, "type"),
            `a type list may not contain "array" or "object" (write a nullable array or object as anyOf [..., {type: "null"}]), got ${JSON.stringify(node.type)}`,
          );
        }
      }
      for (const [key, applies] of Object.entries(APPLIES)) {
        if (key in node && !applies.some((type) => types.includes(type)))
          report.add(
            join(path, key),
            `${key} only applies to ${applies.join("/")} schemas, this one is ${JSON.stringify(node.type)}`,
          );
      }
    }

    if ("format" in node && !OPENAI_FORMATS.has(node.format as string)) {
      report.add(
        join(path, "format"),
        `format ${describe(node.format)} is not one strict mode supports (${[...OPENAI_FORMATS].join(", ")})`,
      );
    }

    if ("anyOf" in node) {
      if (!Array.isArray(node.anyOf) || node.anyOf.length === 0)
        report.add(join(path, "anyOf"), "anyOf must be a non-empty list of schemas");
    }

    if ("enum" in node) {
      if (!Array.isArray(node.enum) || node.enum.length === 0) {
        report.add(join(path, "enum"), "enum must be a non-empty list");
      } else {
        enumValues += node.enum.length;
        let enumCharacters = 0;
        for (const [i, item] of node.enum.entries()) {
          if (typeof item === "string") {
            characters += item.length;
            enumCharacters += item.length;
          }
          if (
            "type" in node &&
            !types.includes(jsonType(item)) &&
            !(jsonType(item) === "integer" && types.includes("number"))
          ) {
            report.add(
              join(join(path, "enum"), i),
              `enum value ${JSON.stringify(item)} is not of the schema's type ${JSON.stringify(node.type)}`,
            );
          }
        }
        if (node.enum.includes(null) && !types.includes("null"))
          report.add(
            join(path, "type"),
            `an enum with null needs "null" in its type, got ${JSON.stringify(node.type)}`,
          );
        if (
          node.enum.length > OPENAI_LIMITS.largeEnum &&
          node.enum.every((item) => typeof item === "string") &&
          enumCharacters > OPENAI_LIMITS.largeEnumCharacters
        ) {
          report.add(
            join(path, "enum"),
            `a string enum of more than ${OPENAI_LIMITS.largeEnum} values may total at most ${OPENAI_LIMITS.largeEnumCharacters} characters, got ${enumCharacters}`,
          );
        }
      }
    }

    if (types.includes("object") || "properties" in node) {
      if (level > depth) {
        depth = level;
        deepest = path;
      }
      if (node.additionalProperties !== false)
        report.add(
          join(path, "additionalProperties"),
          `every object needs additionalProperties: false, got ${describe(node.additionalProperties)}`,
        );
      if (!isObject(node.properties)) {
        report.add(
          join(path, "properties"),
          `every object needs properties (an empty object for none), got ${describe(node.properties)}`,
        );
      } else {
        const names = Object.keys(node.properties);
        properties += names.length;
        for (const name of names) characters += name.length;
        if (!isStringArray(node.required)) {
          report.add(
            join(path, "required"),
            `every object needs required listing all its properties, got ${describe(node.required)}`,
          );
        } else {
          const required = node.required;
          const missing = names.filter((name) => !required.includes(name));
          const extra = required.filter((name) => !names.includes(name));
          const duplicated = required.filter((name, i) => required.indexOf(name) !== i);
          if (missing.length > 0)
            report.add(
              join(path, "required"),
              `required must list every property; missing ${missing.join(", ")}`,
            );
          if (extra.length > 0)
            report.add(
              join(path, "required"),
              `required lists names that are not properties: ${extra.join(", ")}`,
            );
          if (duplicated.length > 0)
            report.add(
              join(path, "required"),
              `required lists names twice: ${duplicated.join(", ")}`,
            );
        }
      }
    }
    if (types.includes("array") && !isObject(node.items))
      report.add(
        join(path, "items"),
        `every array needs an items schema, got ${describe(node.items)}`,
      );
  });

  if (depth > OPENAI_LIMITS.depth)
    report.add(
      deepest,
      `${depth} levels of object nesting exceed the limit of ${OPENAI_LIMITS.depth}`,
    );
  if (properties > OPENAI_LIMITS.properties)
    report.add(
      rootPath,
      `${properties} object properties exceed the limit of ${OPENAI_LIMITS.properties}`,
    );
  if (enumValues > OPENAI_LIMITS.enumValues)
    report.add(
      rootPath,
      `${enumValues} enum values exceed the limit of ${OPENAI_LIMITS.enumValues}`,
    );
  if (characters > OPENAI_LIMITS.characters) {
    report.add(
      rootPath,
      `${characters} characters of property names, definition names and enum values exceed the limit of ${OPENAI_LIMITS.characters}`,
    );
  }
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/**
 * compile/validators: the hint of an error, what a schema expects in a few words (`integer >= 1`,
 * `one of: a, b`, `Address object`, `string of 2-3 characters`), so that a model that broke a
 * constraint learns it from the refusal.
 */
import type { JsonValue } from "@zcp/runtime/definition";
import { count, isSchema, keywordBits, KIND_BITS, KINDS, typeList, type Schema } from "./schema.js";
import type { Unit } from "./unit.js";

/** What `schema` expects, in a few words. */
export function describe(tool: Unit, schema: JsonValue | undefined, depth = 0): string {
  if (!isSchema(schema)) return schema === false ? "nothing" : "any value";
  let text = tool.described.get(schema);
  if (text === undefined) {
    text = describeNow(tool, schema, depth);
    if (depth === 0) tool.described.set(schema, text);
  }
  return text;
}

function describeNow(tool: Unit, schema: Schema, depth: number): string {
  if (typeof schema.$ref === "string") {
    const def = tool.defs.get(schema.$ref)?.schema;
    if (depth > 2 || !isSchema(def)) return schema.$ref.replace(/^#\/\$defs\//, "");
    return describe(tool, def, depth + 1);
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return `one of: ${schema.enum.map(show).join(", ")}`;
  if (Array.isArray(schema.allOf)) {
    let text = "";
    for (const member of schema.allOf)
      text += `${text ? " and " : ""}${describe(tool, member, depth + 1)}`;
    return text;
  }
  for (const keyword of ["anyOf", "oneOf"]) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    let text = keyword === "oneOf" ? "exactly one of: " : "";
    for (let i = 0; i < branches.length; i++)
      text += `${i > 0 ? " or " : ""}${describe(tool, branches[i], depth + 1)}`;
    return text;
  }
  let types = typeList(schema);
  if (types === null) {
    const kinds: string[] = [];
    const bits = keywordBits(schema, tool.owner);
    for (const kind of KINDS) if (bits & KIND_BITS[kind]) kinds.push(kind);
    types = kinds;
  }
  if (types.length === 0) return "any value";
  let text = describeType(types[0]!, schema);
  for (let i = 1; i < types.length; i++) text += ` or ${describeType(types[i]!, schema)}`;
  return text;
}

function describeType(type: string, schema: Schema): string {
  if (type === "string") {
    let text = typeof schema.format === "string" ? `${schema.format} string` : "string";
    text += amount(count(schema.minLength), count(schema.maxLength), "character");
    if (typeof schema.pattern === "string") text += ` matching ${schema.pattern}`;
    return text;
  }
  if (type === "number" || type === "integer") {
    const bounds: string[] = [];
    for (const [keyword, operator] of HINT_BOUNDS)
      if (typeof schema[keyword] === "number") bounds.push(`${operator} ${schema[keyword]}`);
    let text = bounds.length > 0 ? `${type} ${bounds.join(" and ")}` : type;
    if (typeof schema.multipleOf === "number")
      text += `${bounds.length > 0 ? "," : ""} a multiple of ${schema.multipleOf}`;
    return text;
  }
  if (type === "array") {
    const items = amount(count(schema.minItems), count(schema.maxItems), "item");
    if (schema.uniqueItems !== true) return `array${items}`;
    return items
      ? `array${items.replace(/ items?$/, (word) => ` unique${word}`)}`
      : "array of unique items";
  }
  if (type === "object") {
    if (typeof schema.title === "string") return `${schema.title} object`;
    // An object known only by what it requires (a branch of "phone or email", hand-written or
    // listed; a type's schema always has its `type`): the names tell the branches apart.
    const required =
      schema.type === undefined && Array.isArray(schema.required) ? schema.required : [];
    return required.length > 0 ? `object with ${required.map(show).join(", ")}` : "object";
  }
  return type;
}

const HINT_BOUNDS: readonly (readonly [string, string])[] = [
  ["minimum", ">="],
  ["exclusiveMinimum", ">"],
  ["maximum", "<="],
  ["exclusiveMaximum", "<"],
];

/** ` of 1-16 characters`, ` of at least 2 items`... or "" without limits. */
function amount(min: number | null, max: number | null, word: string): string {
  if (min !== null && min > 0 && max !== null)
    return min === max ? ` of ${plural(min, word)}` : ` of ${min}-${max} ${word}s`;
  if (min !== null && min > 0) return ` of at least ${plural(min, word)}`;
  if (max !== null) return ` of at most ${plural(max, word)}`;
  return "";
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** An enum value in a hint: plain words bare, anything else as JSON. */
function show(value: JsonValue): string {
  return typeof value === "string" && /^[^\s,"]+(?: [^\s,"]+)*$/.test(value)
    ? value
    : JSON.stringify(value);
}

/**
 * extract: constraint and annotation tags (`@minimum`, `@pattern`, `@default`, ...) applied to a schema.
 * Tags use JSON Schema keyword names; each one is checked against the type it is applied to.
 * Also where a written type's tags come from: the aliases it names, through generic aliases,
 * conditional types, `Exclude<>`/`Extract<>`/`NonNullable<>`, indexed access to a property
 * (`T["x"]`), and the key alias of a mapped type.
 */
import { ts } from "@ts-morph/common";
import type { Code, Severity } from "../diagnostics.js";
import { patternError } from "../pattern.js";
import { ownDocs, tagsOf, type Tag } from "./jsdoc.js";
import type { Schema } from "./schema.js";
import { faithful, isLibSymbol } from "./type-facts.js";

/** Where a problem with a tag goes: a diagnostic at `node` (an error unless said otherwise). */
export type Diagnose = (
  node: Tag["node"],
  code: Code,
  message: string,
  severity?: Severity,
) => void;

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
  "examples",
  "title",
  "readOnly",
  "writeOnly",
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
      else if (needs("number")) place(schema, "number", name, value);
    } else if (name in LENGTH_TAGS) {
      const value = Number(tag.text);
      if (!/^\d+$/.test(tag.text))
        fail("ZCP1301", `expected a non-negative integer, got "${tag.text}"`);
      else if (needs(LENGTH_TAGS[name as keyof typeof LENGTH_TAGS]))
        place(schema, LENGTH_TAGS[name as keyof typeof LENGTH_TAGS], name, value);
    } else if (name === "pattern") {
      if (tag.text === "") fail("ZCP1301", "expected a regular expression");
      else if (patternError(tag.text) !== null)
        fail("ZCP1301", `"${tag.text}" is not a valid regular expression`);
      else if (needs("string")) place(schema, "string", name, tag.text);
    } else if (name === "format") {
      if (!FORMATS.has(tag.text))
        fail("ZCP1301", `unknown format "${tag.text}" (known: ${[...FORMATS].join(", ")})`);
      else if (needs("string")) place(schema, "string", name, tag.text);
    } else if (name === "uniqueItems") {
      if (tag.text !== "" && tag.text !== "true" && tag.text !== "false")
        fail("ZCP1301", `expected nothing, true or false, got "${tag.text}"`);
      else if (needs("array")) place(schema, "array", name, tag.text !== "false");
    } else if (name === "default") {
      schema.default = defaultValue(tag.text, schema);
    } else if (name === "example" || name === "examples") {
      const values = exampleValues(tag.text, name === "examples", appliesToString(schema));
      if (values === null)
        diagnose(
          tag.node,
          "ZCP1301",
          `@${name}: "${tag.text}" is not a JSON value; the example is left out`,
          "warning",
        );
      else schema.examples = [...((schema.examples as unknown[] | undefined) ?? []), ...values];
    } else if (name === "title") {
      if (tag.text === "") fail("ZCP1301", "expected a title");
      else schema.title = tag.text;
    } else if (name === "readOnly" || name === "writeOnly") {
      schema[name] = true;
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

/**
 * Sets a keyword of one kind of value (`minItems` of arrays): on the schema itself, or, on an
 * `anyOf` (`string[] | null`, `string | { id: number }`), on each branch that takes that kind,
 * so that the keyword sits beside the `type` it constrains (strict Ajv refuses it elsewhere).
 */
function place(schema: Schema, kind: Exclude<Kind, "any">, name: string, value: unknown): void {
  const branches = Array.isArray(schema.anyOf) ? (schema.anyOf as Schema[]) : [];
  const taking = branches.filter((branch) => {
    const types = typesOf(branch);
    return types !== "unknown" && appliesTo(branch, kind);
  });
  if (schema.type !== undefined || taking.length === 0) {
    schema[name] = value;
    return;
  }
  // Copies: a branch may be a schema the converter shares between uses of its type.
  schema.anyOf = branches.map((branch) => {
    if (!taking.includes(branch)) return branch;
    const copy = { ...branch };
    place(copy, kind, name, value);
    return copy;
  });
}

/**
 * A `@default`'s value: its JSON, or its text when it is no JSON value, or when the schema
 * takes strings and not the JSON's type (`@default 8080` on a string is `"8080"`).
 */
function defaultValue(text: string, schema: Schema): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const types = typesOf(schema);
  if (typeof value === "string" || types === "unknown" || !types.has("string")) return value;
  const type =
    value === null
      ? "null"
      : Array.isArray(value)
        ? "array"
        : typeof value === "number"
          ? "number"
          : typeof value;
  const fits = types.has(type) || (type === "number" && types.has("integer"));
  return fits ? value : text;
}

/**
 * The values an `@example` (one value) or `@examples` (a JSON array of values, or one value)
 * gives, without a caption: `<caption>...</caption>` before the value, or a first line that
 * is not a value above it. Text that is no JSON value is kept as a string example only where
 * the schema takes strings; null: the example is dropped.
 */
export function exampleValues(
  text: string,
  list: boolean,
  takesStrings: boolean,
): unknown[] | null {
  const uncaptioned = text.replace(/^<caption>[\s\S]*?<\/caption>\s*/, "");
  const firstLine = uncaptioned.indexOf("\n");
  const candidates = [uncaptioned];
  if (firstLine >= 0) candidates.push(uncaptioned.slice(firstLine + 1).trim());
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate);
      return list && Array.isArray(value) ? value : [value];
    } catch {
      // Not JSON as a whole: try without the first line, then as text.
    }
  }
  return takesStrings && uncaptioned !== "" ? [uncaptioned] : null;
}

function appliesToString(schema: Schema): boolean {
  const types = typesOf(schema);
  return types !== "unknown" && types.has("string");
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

/** An alias a written type names: its JSDoc applies, and `inner` (if any) is converted further. */
export interface WrittenAlias {
  /** The alias whose JSDoc applies to the type, or undefined when only `inner` is followed. */
  readonly declaration: ts.TypeAliasDeclaration | undefined;
  /**
   * The written node to convert `type` with (faithful to it): the alias's body, the branch a
   * conditional type takes, the filtered member of `Exclude<>`, the written type of the
   * property `T["x"]` reads; the reference itself for a generic alias (its type arguments still
   * describe the elements); undefined: none.
   */
  readonly inner: ts.TypeNode | undefined;
}

/** The alias `node` (faithful to `type`) names, if it is one of the project's or a filter of one. */
export function writtenAlias(
  checker: ts.TypeChecker,
  node: ts.TypeNode,
  type: ts.Type,
): WrittenAlias | undefined {
  if (ts.isIndexedAccessTypeNode(node)) {
    const written = propertyTypeNode(checker, node);
    const inner = written !== node ? faithful(checker, written, type) : undefined;
    return inner && { declaration: undefined, inner };
  }
  if (!ts.isTypeReferenceNode(node)) return undefined;
  const declaration = aliasDeclaration(checker, node);
  if (!declaration) return undefined;
  if (!isLib(checker, declaration)) {
    const body = branchTaken(checker, declaration.type, type);
    return { declaration, inner: body ?? (declaration.typeParameters ? node : undefined) };
  }
  // `Exclude<T, U>`, `Extract<T, U>` and `NonNullable<T>` keep part of `T`: what `T` says of
  // itself still holds. `T` may be `Src["x"]`: then it is the type written for `x` in `Src`.
  const filtered = node.typeArguments?.[0];
  if (!filtered || !FILTERS.has(declaration.name.text)) return undefined;
  const written = propertyTypeNode(checker, filtered);
  const member = [filtered, written, ...(ts.isUnionTypeNode(written) ? written.types : [])].find(
    (candidate) => faithful(checker, candidate, type),
  );
  if (member) return { declaration: undefined, inner: member };
  const source = ts.isTypeReferenceNode(written) ? aliasDeclaration(checker, written) : undefined;
  return source && !source.typeParameters ? { declaration: source, inner: undefined } : undefined;
}

/** The lib aliases that keep part of their first type argument. */
const FILTERS = new Set(["Exclude", "Extract", "NonNullable"]);

/**
 * The type written for the property an indexed access reads (`Src["x"]`, `Src["x"]["y"]`, with
 * a literal key), looking through parentheses; `node` itself when there is none to follow (a
 * computed key, a property without a written type, a mapped type's key).
 */
function propertyTypeNode(checker: ts.TypeChecker, node: ts.TypeNode): ts.TypeNode {
  for (;;) {
    while (ts.isParenthesizedTypeNode(node)) node = node.type;
    if (!ts.isIndexedAccessTypeNode(node)) return node;
    const key = checker.getTypeFromTypeNode(node.indexType);
    if (!key.isStringLiteral() && !key.isNumberLiteral()) return node;
    const object = checker.getTypeFromTypeNode(node.objectType);
    const declaration = checker.getPropertyOfType(object, String(key.value))?.valueDeclaration;
    const written =
      declaration &&
      (ts.isPropertySignature(declaration) ||
        ts.isPropertyDeclaration(declaration) ||
        ts.isParameter(declaration))
        ? declaration.type
        : undefined;
    if (!written) return node;
    node = written;
  }
}

function aliasDeclaration(
  checker: ts.TypeChecker,
  node: ts.TypeReferenceNode,
): ts.TypeAliasDeclaration | undefined {
  let symbol = checker.getSymbolAtLocation(node.typeName);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol?.declarations?.find(ts.isTypeAliasDeclaration);
}

function isLib(checker: ts.TypeChecker, declaration: ts.TypeAliasDeclaration): boolean {
  const symbol = checker.getSymbolAtLocation(declaration.name);
  return symbol !== undefined && isLibSymbol(symbol);
}

/**
 * The written node of an alias body that denotes `type`: the body itself, or, for a conditional
 * type, the one branch that does. Only branches free of type parameters count (`T extends
 * string ? T : Slug` at `string` took `T`, though `Slug` is a `string` too), and only when
 * exactly one matches.
 */
function branchTaken(
  checker: ts.TypeChecker,
  body: ts.TypeNode,
  type: ts.Type,
): ts.TypeNode | undefined {
  const branches: ts.TypeNode[] = [];
  const collect = (node: ts.TypeNode): boolean => {
    while (ts.isParenthesizedTypeNode(node)) node = node.type;
    if (ts.isConditionalTypeNode(node)) return collect(node.trueType) && collect(node.falseType);
    if (mentionsTypeParameter(checker, node)) return false;
    branches.push(node);
    return true;
  };
  if (!ts.isConditionalTypeNode(body)) return faithful(checker, body, type);
  if (!collect(body)) return undefined;
  const taken = branches.filter((branch) => faithful(checker, branch, type));
  return taken.length === 1 ? taken[0] : undefined;
}

function mentionsTypeParameter(checker: ts.TypeChecker, node: ts.Node): boolean {
  if (ts.isInferTypeNode(node)) return true;
  if (ts.isTypeReferenceNode(node)) {
    const symbol = checker.getSymbolAtLocation(node.typeName);
    if (symbol && symbol.flags & ts.SymbolFlags.TypeParameter) return true;
  }
  return (
    ts.forEachChild(node, (child) => mentionsTypeParameter(checker, child) || undefined) ?? false
  );
}

/** String constraints a key alias can carry; they apply to every key (`propertyNames`). */
const KEY_TAGS = new Set(["pattern", "minLength", "maxLength", "format"]);

/**
 * An open object written as `Record<Key, V>` or `{ [K in Key]: V }`, where the alias `Key`
 * carries string constraints (`@pattern`): the schema with them as `propertyNames`.
 */
export function withKeyConstraints(
  checker: ts.TypeChecker,
  schema: Schema,
  node: ts.TypeNode | undefined,
  diagnose: Diagnose,
): Schema {
  if (!node || typeof schema.additionalProperties !== "object" || schema.propertyNames)
    return schema;
  let key: ts.TypeNode | undefined;
  if (ts.isMappedTypeNode(node)) key = node.typeParameter.constraint;
  else if (ts.isTypeReferenceNode(node) && node.typeArguments?.length === 2) {
    const declaration = aliasDeclaration(checker, node);
    if (declaration?.name.text === "Record" && isLib(checker, declaration))
      key = node.typeArguments[0];
  }
  const alias = key && ts.isTypeReferenceNode(key) ? aliasDeclaration(checker, key) : undefined;
  const doc = alias && ownDocs(alias).at(-1);
  if (!doc) return schema;
  const names: Schema = { type: "string" };
  applySchemaTags(
    names,
    tagsOf(doc).filter((tag) => KEY_TAGS.has(tag.name)),
    diagnose,
  );
  delete names.type;
  return Object.keys(names).length === 0 ? schema : { ...schema, propertyNames: names };
}

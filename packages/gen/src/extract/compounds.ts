/**
 * extract: the schemas of compound types for the schema converter: unions (literal enums,
 * nullable types, `anyOf` in written order), tuples (`prefixItems`, a rest element as `items`,
 * length bounds), object types (properties, index signatures), interfaces extending arrays and
 * intersections with arrays (`allOf`).
 */
import { setOwn } from "@zcp/runtime";
import { canonicalJson, type JsonValue } from "@zcp/runtime/definition";
import { ts } from "@ts-morph/common";
import type { ConvertContext } from "./convert-host.js";
import { ownDocs, symbolDoc } from "./jsdoc.js";
import type { Schema } from "./schema.js";
import { alternatives, templatePattern } from "./templates.js";
import {
  compareLiterals,
  compareText,
  faithful,
  isBooleanLiteral,
  literalEnum,
  literalValue,
  mergeSimpleTypes,
  nullable,
  objectName,
  unionMembers,
} from "./type-facts.js";

export function unionSchema(
  c: ConvertContext,
  type: ts.UnionType,
  node: ts.TypeNode | undefined,
  site: ts.Node,
): Schema {
  const members = unionMembers(c.checker, type, node).filter(
    ([t]) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)),
  );
  if (members.length === 0)
    return c.fail(
      node ?? site,
      "ZCP1202",
      "a type that is only `undefined` is not representable as JSON",
    );
  const hasNull = members.some(([t]) => t.flags & ts.TypeFlags.Null);
  let rest = members.filter(([t]) => !(t.flags & ts.TypeFlags.Null));
  // `null | undefined`: what is left is `null` alone.
  if (rest.length === 0) return { type: "null" };
  const hasTrue = rest.some(([t]) => isBooleanLiteral(t, "true"));
  const hasFalse = rest.some(([t]) => isBooleanLiteral(t, "false"));
  const merged: Schema[] = [];
  const booleanAt = rest.findIndex(([t]) => t.flags & ts.TypeFlags.BooleanLiteral);
  if (hasTrue && hasFalse) rest = rest.filter(([t]) => !(t.flags & ts.TypeFlags.BooleanLiteral));
  // Without a written union, the checker's member order depends on what it happened to
  // check first; sort then, so output does not depend on file order or watch history.
  // Enums keep their declaration order, which the checker preserves.
  const ordered = rest.every(([t, n]) => n !== undefined || t.flags & ts.TypeFlags.EnumLiteral);
  if (
    rest.length > 0 &&
    rest.every(
      ([t]) =>
        t.flags &
        (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral | ts.TypeFlags.BooleanLiteral),
    ) &&
    !(hasTrue && hasFalse)
  ) {
    const values = rest.map(([t]) => literalValue(t));
    return literalEnum(
      ordered ? values : values.sort(compareLiterals),
      hasNull,
      enumDescription(
        c,
        rest.map(([t]) => t),
      ),
    );
  }
  // Template literals (`${"a" | "b"}-${string}` is a union of two), with string literals or
  // not: one pattern of their alternatives.
  const strings = rest.map(([t]) => t);
  if (
    strings.some((t) => t.flags & ts.TypeFlags.TemplateLiteral) &&
    strings.every((t) => t.flags & (ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringLiteral))
  ) {
    const body = alternatives(strings);
    if (body !== null) return nullable({ type: "string", pattern: `^${body}$` }, hasNull);
  }
  for (const [member, memberNode] of rest)
    merged.push(c.convert(member, memberNode, memberNode ?? node ?? site));
  if (hasTrue && hasFalse) merged.splice(booleanAt, 0, { type: "boolean" });
  if (!ordered)
    merged.sort((a, b) =>
      compareText(canonicalJson(a as JsonValue), canonicalJson(b as JsonValue)),
    );
  return nullable(mergeSimpleTypes(merged), hasNull);
}

/** The JSDoc of the enum that all `members` belong to, if they do. */
function enumDescription(c: ConvertContext, members: readonly ts.Type[]): string | undefined {
  const enums = new Set(
    members.map((member) =>
      member.flags & ts.TypeFlags.EnumLiteral
        ? c.checker.getBaseTypeOfLiteralType(member).getSymbol()
        : undefined,
    ),
  );
  const symbol = enums.size === 1 ? [...enums][0] : undefined;
  if (!symbol || !(symbol.flags & ts.SymbolFlags.Enum)) return undefined;
  symbol.declarations?.forEach((d) => c.track(d));
  return symbolDoc(symbol) || undefined;
}

export function tupleSchema(
  c: ConvertContext,
  type: ts.TupleTypeReference,
  node: ts.TypeNode | undefined,
  site: ts.Node,
): Schema {
  const elements = c.checker.getTypeArguments(type);
  const target = type.target;
  const nodes = node && ts.isTupleTypeNode(node) ? node.elements : undefined;
  const prefixItems: Schema[] = [];
  let rest: Schema | undefined;
  let minItems = 0;
  elements.forEach((element, index) => {
    const flags = target.elementFlags[index]!;
    let written: ts.TypeNode | undefined = nodes?.[index];
    if (written && ts.isNamedTupleMember(written)) written = written.type;
    if (written && (ts.isOptionalTypeNode(written) || ts.isRestTypeNode(written)))
      written = written.type;
    const schema = c.at(`[${index}]`, () =>
      c.convert(element, faithful(c.checker, written, element), written ?? node ?? site),
    );
    if (flags & ts.ElementFlags.Variable) rest = schema;
    else {
      prefixItems.push(schema);
      if (flags & ts.ElementFlags.Required) minItems = prefixItems.length;
    }
  });
  // `[]`: the meta-schema wants at least one `prefixItems` entry, and none is needed.
  if (!rest && prefixItems.length === 0) return { type: "array", maxItems: 0 };
  const schema: Schema = { type: "array", prefixItems, items: rest ?? false, minItems };
  if (!rest) schema.maxItems = prefixItems.length;
  return schema;
}

/** Keys TypeScript reads as numbers (`"0"`, `"-1.5"`): the keys of a numeric index signature. */
const NUMERIC_KEY = "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$";

/**
 * The keywords of an object's other keys, from its index signatures: a string index is
 * `additionalProperties`; a numeric one beside named keys is `patternProperties` (the named
 * keys stay allowed, the object closed), alone it is `propertyNames` with its value schema;
 * a template literal index (`` Record<`x-${string}`, V> ``) is `patternProperties` of its
 * pattern; an index of `never` (`Record<string, never>`) or none closes the object.
 */
export function indexKeywords(
  c: ConvertContext,
  type: ts.Type,
  site: ts.Node,
  named: boolean,
): Schema {
  const checker = c.checker;
  // The index signature's JSDoc (`/** A label per locale. @minLength 1 */ [k: string]: string`)
  // documents and constrains every value it admits.
  const valueOf = (index: ts.IndexInfo): Schema =>
    c.at("*", () =>
      c.describe(
        c.convert(
          index.type,
          index.declaration ? faithful(checker, index.declaration.type, index.type) : undefined,
          index.declaration ?? site,
        ),
        index.declaration,
        index.declaration ?? site,
      ),
    );
  const patterns: Record<string, Schema> = {};
  for (const info of checker.getIndexInfosOfType(type)) {
    if (!(info.keyType.flags & ts.TypeFlags.TemplateLiteral)) continue;
    if (info.type.flags & ts.TypeFlags.Never) continue;
    const source = templatePattern(info.keyType);
    if (source !== null) setOwn(patterns, source, valueOf(info));
  }
  const templates = Object.keys(patterns).length > 0;
  const stringIndex = checker.getIndexInfoOfType(type, ts.IndexKind.String);
  const numberIndex = checker.getIndexInfoOfType(type, ts.IndexKind.Number);
  const index = stringIndex ?? numberIndex;
  if (!index || index.type.flags & ts.TypeFlags.Never)
    return templates
      ? { patternProperties: patterns, additionalProperties: false }
      : { additionalProperties: false };
  const value = valueOf(index);
  if (stringIndex)
    return templates
      ? { patternProperties: patterns, additionalProperties: value }
      : { additionalProperties: value };
  if (named || templates)
    return {
      patternProperties: { [NUMERIC_KEY]: value, ...patterns },
      additionalProperties: false,
    };
  return { additionalProperties: value, propertyNames: { pattern: NUMERIC_KEY } };
}

/** An array, a tuple, or an interface that extends `Array<T>` or `ReadonlyArray<T>`. */
export function arrayLike(checker: ts.TypeChecker, type: ts.Type): boolean {
  return (
    checker.isArrayType(type) || checker.isTupleType(type) || arrayBase(checker, type) !== null
  );
}

/** The `Array<T>` (or `ReadonlyArray<T>`) that an interface extends, directly or not. */
export function arrayBase(checker: ts.TypeChecker, type: ts.Type): ts.TypeReference | null {
  if (!(type.flags & ts.TypeFlags.Object)) return null;
  if (!((type as ts.ObjectType).objectFlags & ts.ObjectFlags.ClassOrInterface)) return null;
  for (const base of checker.getBaseTypes(type as ts.InterfaceType)) {
    if (checker.isArrayType(base)) return base as ts.TypeReference;
    const inner = arrayBase(checker, base);
    if (inner) return inner;
  }
  return null;
}

/**
 * `interface Rows extends Array<Row>`: the array schema of its element. Members of its own are
 * not represented (a JSON array has none): a warning names them.
 */
export function arrayInterfaceSchema(
  c: ConvertContext,
  type: ts.Type,
  base: ts.TypeReference,
  site: ts.Node,
): Schema {
  const checker = c.checker;
  const symbol = type.getSymbol();
  symbol?.declarations?.forEach((d) => c.track(d));
  const element = checker.getTypeArguments(base)[0]!;
  const schema: Schema = {
    type: "array",
    items: c.at("[]", () => c.convert(element, undefined, site)),
  };
  const description = symbol && symbolDoc(symbol);
  if (description) schema.description = description;
  const inherited = new Set(checker.getPropertiesOfType(base).map((p) => p.getName()));
  const own = checker
    .getPropertiesOfType(type)
    .map((p) => p.getName())
    .filter((name) => !inherited.has(name));
  if (own.length > 0)
    c.warn(
      site,
      "ZCP1208",
      `"${checker.typeToString(type)}" extends an array; its own members (${own.join(", ")}) are not represented, the schema is the array's`,
    );
  return schema;
}

/**
 * An intersection with arrays or tuples in it (`[string, number] & string[]`): `allOf` of the
 * array members, which keeps its meaning exactly. Other members (`{ length: 2 }`) are not
 * represented: a warning names them.
 */
export function intersectionSchema(
  c: ConvertContext,
  type: ts.IntersectionType,
  node: ts.TypeNode | undefined,
  site: ts.Node,
): Schema {
  const checker = c.checker;
  const written = node && ts.isIntersectionTypeNode(node) ? node.types : [];
  const parts: Schema[] = [];
  const dropped: string[] = [];
  for (const member of type.types) {
    if (!arrayLike(checker, member)) {
      dropped.push(checker.typeToString(member));
      continue;
    }
    const memberNode = written.find((n) => checker.getTypeFromTypeNode(n) === member);
    parts.push(c.convert(member, memberNode, memberNode ?? node ?? site));
  }
  if (dropped.length > 0)
    c.warn(
      node ?? site,
      "ZCP1208",
      `${dropped.map((text) => `"${text}"`).join(", ")} in an intersection with arrays ${dropped.length === 1 ? "is" : "are"} not represented; the schema checks the array part only`,
    );
  return parts.length === 1 ? parts[0]! : { allOf: parts };
}

/**
 * An object type: its properties, its other keys (`indexKeywords`), its title and JSDoc. An
 * interface's or class's JSDoc is its description and its tags (`@title`, `@deprecated`,
 * `@examples`...), from the first of its (merged) declarations that has one, as an alias's are.
 */
export function objectSchema(c: ConvertContext, type: ts.Type, site: ts.Node): Schema {
  const schema: Schema = { type: "object" };
  const name = objectName(type);
  if (name) schema.title = name;
  const symbol = type.aliasSymbol ?? type.getSymbol();
  let documented: ts.Declaration | undefined;
  if (symbol && symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class)) {
    symbol.declarations?.forEach((d) => c.track(d));
    documented = symbol.declarations?.find((d) => ownDocs(d).length > 0);
  }
  const { properties, required } = c.properties(type, site);
  schema.properties = properties;
  schema.required = required;
  const object = { ...schema, ...indexKeywords(c, type, site, Object.keys(properties).length > 0) };
  return documented ? c.describe(object, documented, site) : object;
}

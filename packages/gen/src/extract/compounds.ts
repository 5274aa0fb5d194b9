/**
 * extract: the schemas of compound types for the schema converter: unions (literal enums,
 * nullable types, `anyOf` in written order), tuples (`prefixItems`, a rest element as `items`,
 * length bounds) and object types (properties, index signatures).
 */
import { canonicalJson, type JsonValue } from "@zcp/runtime/codegen";
import { ts } from "ts-morph";
import type { ConvertContext } from "./convert-host.js";
import { symbolDoc } from "./jsdoc.js";
import type { Schema } from "./schema.js";
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
  const schema: Schema = { type: "array", prefixItems, items: rest ?? false, minItems };
  if (!rest) schema.maxItems = prefixItems.length;
  return schema;
}

/** An object type: its properties, `additionalProperties` from an index signature (or false), its title and JSDoc. */
export function objectSchema(c: ConvertContext, type: ts.Type, site: ts.Node): Schema {
  const checker = c.checker;
  const schema: Schema = { type: "object" };
  const name = objectName(type);
  if (name) schema.title = name;
  const symbol = type.aliasSymbol ?? type.getSymbol();
  if (symbol && symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class)) {
    symbol.declarations?.forEach((d) => c.track(d));
    const description = symbolDoc(symbol);
    if (description) schema.description = description;
  }
  const { properties, required } = c.properties(type, site);
  schema.properties = properties;
  schema.required = required;
  const stringIndex = checker.getIndexInfoOfType(type, ts.IndexKind.String);
  const numberIndex = checker.getIndexInfoOfType(type, ts.IndexKind.Number);
  const index = stringIndex ?? numberIndex;
  if (index) {
    schema.additionalProperties = c.at("*", () =>
      c.convert(
        index.type,
        index.declaration ? faithful(checker, index.declaration.type, index.type) : undefined,
        index.declaration ?? site,
      ),
    );
    if (!stringIndex) schema.propertyNames = { pattern: "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$" };
  } else {
    schema.additionalProperties = false;
  }
  return schema;
}

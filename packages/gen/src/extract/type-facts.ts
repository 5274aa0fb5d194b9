/**
 * extract: facts about TypeScript types and the written type nodes beside them, for the schema
 * converter (`types.ts`): union members in written order, literals, nullability, names, and the
 * texts diagnostics show.
 */
import { ts } from "@ts-morph/common";
import type { Schema } from "./schema.js";

/** The written type `node`, if the checker agrees that it denotes `type`. */
export function faithful(
  checker: ts.TypeChecker,
  node: ts.TypeNode | undefined,
  type: ts.Type,
): ts.TypeNode | undefined {
  if (!node) return undefined;
  const written = checker.getTypeFromTypeNode(node);
  if (written === type) return node;
  // `a?: T` reads back as `T | undefined`: the written `T` still describes it.
  if (!type.isUnion()) return undefined;
  const members = new Set(written.isUnion() ? written.types : [written]);
  const rest = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined));
  return rest.length === members.size && rest.every((t) => members.has(t)) ? node : undefined;
}

/**
 * True when the written type says `null` (`string | null`) and the checker's type has lost it:
 * without `strictNullChecks`, TypeScript lets `null` into every type and drops it from unions.
 * The author who wrote `| null` means a value that may be null.
 */
export function erasedNull(type: ts.Type, node: ts.TypeNode | undefined): boolean {
  const saysNull = writtenUnionHas(node, (member) =>
    ts.isLiteralTypeNode(member) ? member.literal.kind === ts.SyntaxKind.NullKeyword : false,
  );
  const hasNull = (t: ts.Type) => (t.flags & ts.TypeFlags.Null) !== 0;
  return saysNull && !(hasNull(type) || (type.isUnion() && type.types.some(hasNull)));
}

/**
 * Whether a schema already admits `null` at its top: a written union's members are read from
 * its nodes (`null` among them) even where the checker's type has lost it.
 */
export function takesNull(schema: Schema): boolean {
  const type = schema.type;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  return Array.isArray(schema.anyOf) && (schema.anyOf as Schema[]).some(takesNull);
}

/**
 * True when the written type is a union with `undefined` in it (`p: T | undefined`), which makes
 * `p` optional as `includesUndefined` does, also where the checker has dropped the `undefined`
 * (without `strictNullChecks`).
 */
export function writtenUndefined(node: ts.TypeNode | undefined): boolean {
  return writtenUnionHas(node, (member) => member.kind === ts.SyntaxKind.UndefinedKeyword);
}

function writtenUnionHas(
  node: ts.TypeNode | undefined,
  test: (member: ts.TypeNode) => boolean,
): boolean {
  let written = node;
  while (written && ts.isParenthesizedTypeNode(written)) written = written.type;
  return written !== undefined && ts.isUnionTypeNode(written) && written.types.some(test);
}

/** True when `type` is `undefined` or a union with `undefined` in it (an optional value). */
export function includesUndefined(type: ts.Type): boolean {
  if (type.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return true;
  return (
    type.isUnion() && type.types.some((t) => t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void))
  );
}

export function unionMembers(
  checker: ts.TypeChecker,
  type: ts.UnionType,
  node: ts.TypeNode | undefined,
): [ts.Type, ts.TypeNode | undefined][] {
  let written = node;
  while (written && ts.isParenthesizedTypeNode(written)) written = written.type;
  if (written && ts.isUnionTypeNode(written)) {
    const flat: [ts.Type, ts.TypeNode | undefined][] = [];
    for (const member of written.types) {
      const memberType = checker.getTypeFromTypeNode(member);
      if (
        memberType.isUnion() &&
        !(memberType.flags & ts.TypeFlags.EnumLiteral) &&
        !(memberType.flags & ts.TypeFlags.Boolean)
      ) {
        flat.push(...unionMembers(checker, memberType, member));
      } else flat.push([memberType, member]);
    }
    // Only trust the written order when it accounts for the checker's members.
    const seen = new Set(flat.map(([t]) => t));
    if (
      type.types.every(
        (t) =>
          seen.has(t) ||
          t.flags & ts.TypeFlags.Undefined ||
          isBooleanLiteral(t, "true") ||
          isBooleanLiteral(t, "false"),
      )
    ) {
      return dedupe(
        flat.flatMap(([t, n]) =>
          t.flags & ts.TypeFlags.Boolean && t.isUnion()
            ? t.types.map((b) => [b, undefined] as [ts.Type, undefined])
            : [[t, n] as [ts.Type, ts.TypeNode | undefined]],
        ),
      );
    }
  }
  return type.types.map((t) => [t, undefined]);
}

function dedupe(
  members: [ts.Type, ts.TypeNode | undefined][],
): [ts.Type, ts.TypeNode | undefined][] {
  const seen = new Set<ts.Type>();
  return members.filter(([t]) => (seen.has(t) ? false : (seen.add(t), true)));
}

export function elementNode(
  checker: ts.TypeChecker,
  node: ts.TypeNode | undefined,
  element: ts.Type,
): ts.TypeNode | undefined {
  if (!node) return undefined;
  if (ts.isArrayTypeNode(node)) return faithful(checker, node.elementType, element);
  if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.ReadonlyKeyword)
    return elementNode(checker, node.type, element);
  if (ts.isTypeReferenceNode(node) && node.typeArguments?.length === 1)
    return faithful(checker, node.typeArguments[0], element);
  return undefined;
}

export function literalValue(type: ts.Type): string | number | boolean {
  if (type.flags & ts.TypeFlags.BooleanLiteral) return intrinsicName(type) === "true";
  return (type as ts.LiteralType).value as string | number;
}

export function literalEnum(
  values: (string | number | boolean)[],
  hasNull: boolean,
  description: string | undefined,
): Schema {
  const types: string[] = [];
  const add = (t: string) => types.includes(t) || types.push(t);
  const unique = [...new Set(values)];
  for (const value of unique) add(typeof value === "number" ? "number" : typeof value);
  if (types.includes("number") && unique.every((v) => typeof v !== "number" || Number.isInteger(v)))
    types[types.indexOf("number")] = "integer";
  if (hasNull) add("null");
  const schema: Schema = { type: types.length === 1 ? types[0] : types };
  if (description) schema.description = description;
  if (unique.length === 1 && !hasNull) schema.const = unique[0];
  else schema.enum = hasNull ? [...unique, null] : unique;
  return schema;
}

/** `T | null`: a `null` type entry for plain types, a `{type:"null"}` branch otherwise. */
export function nullable(schema: Schema, hasNull: boolean): Schema {
  if (!hasNull) return schema;
  const keys = Object.keys(schema);
  if (typeof schema.type === "string" && keys.every((k) => SIMPLE_TYPE_KEYS.has(k)))
    return { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.anyOf) && keys.length === 1)
    return { anyOf: [...schema.anyOf, { type: "null" }] };
  return { anyOf: [schema, { type: "null" }] };
}

/** Keywords that keep their meaning when `type` becomes a list with "null" in it. */
const SIMPLE_TYPE_KEYS = new Set([
  "type",
  "format",
  "description",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
]);

/** `string | number` as one `type` list instead of an `anyOf` of bare types. */
export function mergeSimpleTypes(schemas: Schema[]): Schema {
  if (schemas.length === 1) return schemas[0]!;
  if (schemas.every((s) => Object.keys(s).length === 1 && typeof s.type === "string")) {
    return { type: [...new Set(schemas.map((s) => s.type as string))] };
  }
  return { anyOf: schemas };
}

export function compareLiterals(
  a: string | number | boolean,
  b: string | number | boolean,
): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return compareText(`${typeof a}:${a}`, `${typeof b}:${b}`);
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function isBooleanLiteral(type: ts.Type, value: "true" | "false"): boolean {
  return (type.flags & ts.TypeFlags.BooleanLiteral) !== 0 && intrinsicName(type) === value;
}

export function intrinsicName(type: ts.Type): string {
  return (type as { intrinsicName?: string }).intrinsicName ?? "";
}

export function isLibSymbol(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) => {
    const file = d.getSourceFile().fileName;
    return (
      /(^|\/)lib\.[^/]*\.d\.ts$/.test(file) ||
      file.includes("/node_modules/typescript/") ||
      file.includes("/node_modules/@types/node/")
    );
  });
}

export function objectName(type: ts.Type): string | undefined {
  const symbol = type.aliasSymbol ?? type.getSymbol();
  if (!symbol) return undefined;
  const name = symbol.getName();
  if (name.startsWith("__") || isLibSymbol(symbol)) return undefined;
  return name;
}

/** ` (imported from "x")` when the unresolved name comes from an import. */
export function importHint(checker: ts.TypeChecker, node: ts.TypeNode | undefined): string {
  if (!node || !ts.isTypeReferenceNode(node)) return "";
  const name = ts.isIdentifier(node.typeName) ? node.typeName : node.typeName.left;
  const declaration = checker.getSymbolAtLocation(name)?.declarations?.[0];
  let current: ts.Node | undefined = declaration;
  while (current && !ts.isImportDeclaration(current)) current = current.parent;
  return current && ts.isStringLiteral(current.moduleSpecifier)
    ? ` (imported from "${current.moduleSpecifier.text}", which cannot be resolved)`
    : "";
}

export function typeText(
  checker: ts.TypeChecker,
  type: ts.Type,
  node: ts.TypeNode | undefined,
): string {
  return node ? node.getText() : checker.typeToString(type);
}

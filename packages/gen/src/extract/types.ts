/**
 * TypeScript types to JSON Schema (draft 2020-12), through the type checker.
 *
 * Everything is inlined except recursive types, which go to `$defs` and are referenced with
 * `$ref` (the only use of references). Where the source has a faithful type node (the written
 * type of a parameter or property), it is followed, so that union members keep their written
 * order and type aliases contribute their JSDoc; otherwise the checker's resolved type is used.
 */
import { canonicalJson, type JsonValue } from "@zcp/runtime/codegen";
import { CONTEXT_BRAND, HANDLE_BRAND } from "@zcp/runtime/codegen";
import { ts } from "ts-morph";
import type { Code, Severity } from "../diagnostics.js";
import { applySchemaTags, type Report } from "./annotations.js";
import { ownDocs, symbolDoc, docText, tagsOf } from "./jsdoc.js";
import type { Schema } from "./schema.js";

export interface ConvertHost {
  readonly checker: ts.TypeChecker;
  /** Object schemas already built with this checker, shared by all tools of a run. */
  readonly cache: SchemaCache;
  /** `input` rejects `any`; `output` treats it as "any JSON". */
  readonly direction: "input" | "output";
  report(node: ts.Node, code: Code, message: string, severity?: Severity): void;
  /** Files whose declarations the converted types reach (for watch invalidation). */
  readonly deps: Set<string>;
}

/** What a top-level parameter type turned out to be. */
export type Special = { kind: "handle"; handleKind: string } | { kind: "context" } | null;

/**
 * Object types converted once per run: a shared interface used by many tools is built once.
 * Only results that are context-free are kept: no diagnostics, no `$ref` (recursion depends on
 * the root being built). Schemas are never mutated after they are built, so sharing is safe.
 */
export class SchemaCache {
  private readonly entries = { input: new Map<ts.Type, CachedSchema>(), output: new Map<ts.Type, CachedSchema>() };

  get(direction: ConvertHost["direction"], type: ts.Type): CachedSchema | undefined {
    return this.entries[direction].get(type);
  }

  set(direction: ConvertHost["direction"], type: ts.Type, entry: CachedSchema): void {
    this.entries[direction].set(type, entry);
  }
}

interface CachedSchema {
  readonly schema: Schema;
  /** Files the conversion reached, for the tool's dependency set. */
  readonly deps: readonly string[];
  /** Paths of `Date` values inside the object, relative to it (see `SchemaConverter.dates`). */
  readonly dates: readonly string[];
}

interface Pending {
  readonly name: string;
  recursive: boolean;
}

export class SchemaConverter {
  private readonly pending = new Map<ts.Type, Pending>();
  private readonly defNames = new Map<ts.Type, string>();
  private readonly usedNames = new Set<string>();
  private readonly annotatedDefs = new Set<string>();
  private readonly collectors: Set<string>[] = [];
  /** Diagnostics reported and `$ref`s produced so far: a conversion that changes either is not cached. */
  private reports = 0;
  private refs = 0;
  /** Where the conversion is, from the root: property names, `[]` for array items, `*` for map values. */
  private readonly path: string[] = [];
  /**
   * Dotted paths of the `Date` values below the root (`window.from`, `rows.[].created`): they
   * travel as ISO strings and are turned back into `Date`s before the call. Inside a recursive
   * type only the outermost occurrence is tracked (deeper ones are behind a `$ref`).
   */
  readonly dates = new Set<string>();
  /** Definitions of recursive types, keyed by name; emitted as `$defs` of the root schema. */
  readonly defs = new Map<string, Schema>();
  private readonly checker: ts.TypeChecker;

  constructor(private readonly host: ConvertHost) {
    this.checker = host.checker;
  }

  /** Recognises the runtime's `Handle<K>` and `ToolContext` types by their brand properties. */
  special(type: ts.Type): Special {
    if (!(type.flags & ts.TypeFlags.Object) && !(type.flags & ts.TypeFlags.Intersection)) return null;
    const handle = this.checker.getPropertyOfType(type, HANDLE_BRAND);
    if (handle) {
      const kindType = this.checker.getTypeOfSymbol(handle);
      const handleKind = kindType.isStringLiteral() ? kindType.value : "*";
      return { kind: "handle", handleKind };
    }
    return this.checker.getPropertyOfType(type, CONTEXT_BRAND) ? { kind: "context" } : null;
  }

  /**
   * Converts `type` written at `site`; `node` is the written type when it is faithful to `type`.
   * Problems are reported at `site` (or inside `node`) and yield `{}` for the offending part.
   */
  convert(type: ts.Type, node: ts.TypeNode | undefined, site: ts.Node): Schema {
    const alias = node && aliasDeclarationOf(this.checker, node);
    if (alias) {
      this.track(alias);
      const inner = alias.typeParameters ? undefined : faithful(this.checker, alias.type, type);
      const schema = inner ? this.convert(type, inner, site) : this.convertType(type, undefined, site);
      return this.annotateAlias(schema, alias, site);
    }
    if (!node && type.aliasSymbol?.declarations?.[0] && ts.isTypeAliasDeclaration(type.aliasSymbol.declarations[0])) {
      const declaration = type.aliasSymbol.declarations[0];
      this.track(declaration);
      return this.annotateAlias(this.convertType(type, undefined, site), declaration, site);
    }
    return this.convertType(type, node, site);
  }

  /**
   * Applies an alias declaration's JSDoc (description and tags) to the schema of its type. A
   * recursive alias is a `$ref`: its JSDoc goes on the definition, once, not on every reference.
   */
  private annotateAlias(schema: Schema, declaration: ts.TypeAliasDeclaration, site: ts.Node): Schema {
    if (typeof schema.$ref !== "string") return this.describe(schema, declaration, site);
    const name = schema.$ref.slice("#/$defs/".length);
    const definition = this.defs.get(name);
    if (definition && !this.annotatedDefs.has(name)) {
      this.annotatedDefs.add(name);
      this.defs.set(name, this.describe(definition, declaration, site));
    }
    return schema;
  }

  reportAt(fallback: ts.Node): Report {
    return (node, code, message) => this.report(node ?? fallback, code, message);
  }

  private fail(site: ts.Node, code: Code, message: string): Schema {
    this.report(site, code, message);
    return {};
  }

  /** Every diagnostic goes through here, so that a conversion knows whether it reported any. */
  private report(node: ts.Node, code: Code, message: string): void {
    this.reports++;
    this.host.report(node, code, message);
  }

  private track(declaration: ts.Node): void {
    this.addDep(declaration.getSourceFile().fileName);
  }

  private addDep(file: string): void {
    this.host.deps.add(file);
    for (const collector of this.collectors) collector.add(file);
  }

  /** Builds an object type's schema, or takes it from the run's cache. */
  private cachedObject(type: ts.Type, site: ts.Node): Schema {
    const cached = this.host.cache.get(this.host.direction, type);
    if (cached) {
      for (const file of cached.deps) this.addDep(file);
      for (const date of cached.dates) this.dates.add(this.pathTo(date));
      return cached.schema;
    }
    const deps = new Set<string>();
    const datesBefore = new Set(this.dates);
    const before = { reports: this.reports, refs: this.refs };
    this.collectors.push(deps);
    let schema: Schema;
    try {
      schema = this.withRecursion(type, () => this.object(type, site));
    } finally {
      this.collectors.pop();
    }
    if (this.reports === before.reports && this.refs === before.refs) {
      const prefix = this.path.length === 0 ? "" : `${this.path.join(".")}.`;
      const dates = [...this.dates].filter((date) => !datesBefore.has(date)).map((date) => date.slice(prefix.length));
      this.host.cache.set(this.host.direction, type, { schema, deps: [...deps], dates });
    }
    return schema;
  }

  /** Converts with `segment` appended to the current path. */
  at<T>(segment: string, convert: () => T): T {
    this.path.push(segment);
    try {
      return convert();
    } finally {
      this.path.pop();
    }
  }

  private pathTo(relative: string): string {
    return [...this.path, ...(relative === "" ? [] : [relative])].join(".");
  }

  private convertType(type: ts.Type, node: ts.TypeNode | undefined, site: ts.Node): Schema {
    const f = type.flags;
    const checker = this.checker;
    if (f & ts.TypeFlags.Any) {
      if ((type as { intrinsicName?: string }).intrinsicName === "error") {
        return this.fail(node ?? site, "ZCP1203", `cannot resolve type "${typeText(checker, type, node)}"${importHint(checker, node)}`);
      }
      if (this.host.direction === "output") return {};
      return this.fail(node ?? site, "ZCP1204", "type is `any`; give a precise type (or `unknown` for any JSON value)");
    }
    if (f & ts.TypeFlags.Unknown) return {};
    if (f & ts.TypeFlags.String) return { type: "string" };
    if (f & ts.TypeFlags.Number) return { type: "number" };
    if (f & ts.TypeFlags.Boolean) return { type: "boolean" };
    if (f & ts.TypeFlags.Null) return { type: "null" };
    if (f & (ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) return { type: "string" };
    if (f & ts.TypeFlags.StringLiteral) return { type: "string", const: (type as ts.StringLiteralType).value };
    if (f & ts.TypeFlags.NumberLiteral) {
      const value = (type as ts.NumberLiteralType).value;
      return { type: Number.isInteger(value) ? "integer" : "number", const: value };
    }
    if (f & ts.TypeFlags.BooleanLiteral) return { type: "boolean", const: intrinsicName(type) === "true" };
    if (f & ts.TypeFlags.TypeParameter) {
      return this.fail(node ?? site, "ZCP1205", `type parameter "${typeText(checker, type, node)}" has no JSON Schema; tools cannot be generic`);
    }
    if (f & (ts.TypeFlags.BigInt | ts.TypeFlags.BigIntLiteral)) return this.fail(node ?? site, "ZCP1202", "bigint is not representable as JSON");
    if (f & (ts.TypeFlags.ESSymbol | ts.TypeFlags.UniqueESSymbol)) return this.fail(node ?? site, "ZCP1202", "symbol is not representable as JSON");
    if (f & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never)) {
      return this.fail(node ?? site, "ZCP1202", `"${intrinsicName(type)}" is not representable as JSON here`);
    }
    if (f & ts.TypeFlags.Union) return this.withRecursion(type, () => this.union(type as ts.UnionType, node, site));
    if (f & ts.TypeFlags.Intersection) {
      const primitive = (type as ts.IntersectionType).types.find((t) => t.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike));
      // A branded primitive (`string & { __brand: "Id" }`) is the primitive on the wire.
      if (primitive) return this.convertType(primitive, undefined, site);
      return this.cachedObject(type, site);
    }
    if (f & ts.TypeFlags.Object) {
      if (this.special(type)) {
        return this.fail(node ?? site, "ZCP1206", "Handle and ToolContext are only allowed as the type of a tool parameter");
      }
      const symbol = type.getSymbol();
      const libName = symbol && isLibSymbol(symbol) && !symbol.getName().startsWith("__") ? symbol.getName() : undefined;
      if (libName === "Date") {
        this.dates.add(this.path.join("."));
        return { type: "string", format: "date-time" };
      }
      if (checker.isArrayType(type)) {
        const element = checker.getTypeArguments(type as ts.TypeReference)[0]!;
        return { type: "array", items: this.at("[]", () => this.convert(element, elementNode(checker, node, element), node ?? site)) };
      }
      if (checker.isTupleType(type)) return this.tuple(type as ts.TupleTypeReference, node, site);
      // Built-in classes (URL, Map, Uint8Array, Generator...) are behaviour, not data.
      if (libName) return this.fail(node ?? site, "ZCP1202", `${libName} is not representable as JSON; use a plain object, array or string`);
      if (checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0 || checker.getSignaturesOfType(type, ts.SignatureKind.Construct).length > 0) {
        return this.fail(node ?? site, "ZCP1201", `function type "${typeText(checker, type, node)}" is not representable as JSON`);
      }
      return this.cachedObject(type, site);
    }
    return this.fail(node ?? site, "ZCP1202", `type "${typeText(checker, type, node)}" is not representable as JSON`);
  }

  /** Runs `build` with `type` marked as in progress; a type met again inside itself becomes a `$ref`. */
  private withRecursion(type: ts.Type, build: () => Schema): Schema {
    const known = this.defNames.get(type);
    if (known) {
      this.refs++;
      return { $ref: `#/$defs/${known}` };
    }
    const pending = this.pending.get(type);
    if (pending) {
      this.refs++;
      pending.recursive = true;
      return { $ref: `#/$defs/${pending.name}` };
    }
    const entry: Pending = { name: this.defName(type), recursive: false };
    this.pending.set(type, entry);
    let schema: Schema;
    try {
      schema = build();
    } finally {
      this.pending.delete(type);
    }
    if (!entry.recursive) return schema;
    this.usedNames.add(entry.name);
    this.defNames.set(type, entry.name);
    this.defs.set(entry.name, schema);
    return { $ref: `#/$defs/${entry.name}` };
  }

  private defName(type: ts.Type): string {
    const symbol = type.aliasSymbol ?? type.getSymbol();
    const args = type.aliasSymbol ? type.aliasTypeArguments : (type as ts.TypeReference).typeArguments;
    let base = symbol && !symbol.getName().startsWith("__") ? symbol.getName() : "Type";
    if (args?.length) base += `_${args.map((arg) => this.checker.typeToString(arg)).join("_")}`;
    base = base.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "") || "Type";
    let name = base;
    for (let n = 2; this.usedNames.has(name) || [...this.pending.values()].some((p) => p.name === name); n++) name = `${base}_${n}`;
    return name;
  }

  private union(type: ts.UnionType, node: ts.TypeNode | undefined, site: ts.Node): Schema {
    const members = unionMembers(this.checker, type, node).filter(([t]) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    if (members.length === 0) return this.fail(node ?? site, "ZCP1202", "a type that is only `undefined` is not representable as JSON");
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
    if (rest.length > 0 && rest.every(([t]) => t.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral | ts.TypeFlags.BooleanLiteral)) && !(hasTrue && hasFalse)) {
      const values = rest.map(([t]) => literalValue(t));
      return literalEnum(ordered ? values : values.sort(compareLiterals), hasNull, this.enumDescription(rest.map(([t]) => t)));
    }
    for (const [member, memberNode] of rest) merged.push(this.convert(member, memberNode, memberNode ?? node ?? site));
    if (hasTrue && hasFalse) merged.splice(booleanAt, 0, { type: "boolean" });
    if (!ordered) merged.sort((a, b) => compareText(canonicalJson(a as JsonValue), canonicalJson(b as JsonValue)));
    return nullable(mergeSimpleTypes(merged), hasNull);
  }

  /** The JSDoc of the enum that all `members` belong to, if they do. */
  private enumDescription(members: readonly ts.Type[]): string | undefined {
    const enums = new Set(members.map((member) => (member.flags & ts.TypeFlags.EnumLiteral ? this.checker.getBaseTypeOfLiteralType(member).getSymbol() : undefined)));
    const symbol = enums.size === 1 ? [...enums][0] : undefined;
    if (!symbol || !(symbol.flags & ts.SymbolFlags.Enum)) return undefined;
    symbol.declarations?.forEach((d) => this.track(d));
    return symbolDoc(symbol) || undefined;
  }

  private tuple(type: ts.TupleTypeReference, node: ts.TypeNode | undefined, site: ts.Node): Schema {
    const elements = this.checker.getTypeArguments(type);
    const target = type.target;
    const nodes = node && ts.isTupleTypeNode(node) ? node.elements : undefined;
    const prefixItems: Schema[] = [];
    let rest: Schema | undefined;
    let minItems = 0;
    elements.forEach((element, index) => {
      const flags = target.elementFlags[index]!;
      let written: ts.TypeNode | undefined = nodes?.[index];
      if (written && ts.isNamedTupleMember(written)) written = written.type;
      if (written && (ts.isOptionalTypeNode(written) || ts.isRestTypeNode(written))) written = written.type;
      const schema = this.at(`[${index}]`, () => this.convert(element, faithful(this.checker, written, element), written ?? node ?? site));
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

  private object(type: ts.Type, site: ts.Node): Schema {
    const checker = this.checker;
    const schema: Schema = { type: "object" };
    const name = objectName(type);
    if (name) schema.title = name;
    const symbol = type.aliasSymbol ?? type.getSymbol();
    if (symbol && symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class)) {
      symbol.declarations?.forEach((d) => this.track(d));
      const description = symbolDoc(symbol);
      if (description) schema.description = description;
    }
    const { properties, required } = this.properties(type, site);
    schema.properties = properties;
    schema.required = required;
    const stringIndex = checker.getIndexInfoOfType(type, ts.IndexKind.String);
    const numberIndex = checker.getIndexInfoOfType(type, ts.IndexKind.Number);
    const index = stringIndex ?? numberIndex;
    if (index) {
      schema.additionalProperties = this.at("*", () => this.convert(index.type, index.declaration ? faithful(checker, index.declaration.type, index.type) : undefined, index.declaration ?? site));
      if (!stringIndex) schema.propertyNames = { pattern: "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$" };
    } else {
      schema.additionalProperties = false;
    }
    return schema;
  }

  /** The properties of an object type, converted, with descriptions and tags from their declarations. */
  properties(type: ts.Type, site: ts.Node): { properties: Record<string, Schema>; required: string[] } {
    const checker = this.checker;
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const property of checker.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (declaration) this.track(declaration);
      const propertyType = checker.getTypeOfSymbol(property);
      const written = declaration && (ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration)) ? declaration.type : undefined;
      const at = declaration ?? site;
      if (declaration && (ts.isMethodSignature(declaration) || ts.isMethodDeclaration(declaration))) {
        // Point at the user's code: a method declared in a .d.ts is reported where the type is used.
        const where = declaration.getSourceFile().isDeclarationFile ? site : declaration;
        this.report(where, "ZCP1201", `method "${property.getName()}" of "${this.checker.typeToString(type)}" is not representable as JSON`);
        continue;
      }
      const schema = this.at(property.getName(), () => this.convert(propertyType, faithful(checker, written, propertyType), written ?? at));
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0 || includesUndefined(propertyType);
      properties[property.getName()] = this.describe(schema, declaration, at);
      if (!optional) required.push(property.getName());
    }
    return { properties, required };
  }

  /** Adds a declaration's own JSDoc (description, schema tags) to the schema written there. */
  describe(schema: Schema, declaration: ts.Node | undefined, site: ts.Node): Schema {
    const doc = declaration ? ownDocs(declaration).at(-1) : undefined;
    if (!doc) return schema;
    const out: Schema = { ...schema };
    const description = docText(doc);
    if (description) out.description = description;
    applySchemaTags(out, tagsOf(doc), this.reportAt(site));
    return out;
  }
}

/** The written type `node`, if the checker agrees that it denotes `type`. */
export function faithful(checker: ts.TypeChecker, node: ts.TypeNode | undefined, type: ts.Type): ts.TypeNode | undefined {
  if (!node) return undefined;
  const written = checker.getTypeFromTypeNode(node);
  if (written === type) return node;
  // `a?: T` reads back as `T | undefined`: the written `T` still describes it.
  if (!type.isUnion()) return undefined;
  const members = new Set(written.isUnion() ? written.types : [written]);
  const rest = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined));
  return rest.length === members.size && rest.every((t) => members.has(t)) ? node : undefined;
}

/** True when `type` is `undefined` or a union with `undefined` in it (an optional value). */
export function includesUndefined(type: ts.Type): boolean {
  if (type.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return true;
  return type.isUnion() && type.types.some((t) => t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void));
}

function aliasDeclarationOf(checker: ts.TypeChecker, node: ts.TypeNode): ts.TypeAliasDeclaration | undefined {
  if (!ts.isTypeReferenceNode(node)) return undefined;
  let symbol = checker.getSymbolAtLocation(node.typeName);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.declarations?.find(ts.isTypeAliasDeclaration);
  return declaration && !node.typeArguments ? declaration : undefined;
}

function unionMembers(checker: ts.TypeChecker, type: ts.UnionType, node: ts.TypeNode | undefined): [ts.Type, ts.TypeNode | undefined][] {
  let written = node;
  while (written && ts.isParenthesizedTypeNode(written)) written = written.type;
  if (written && ts.isUnionTypeNode(written)) {
    const flat: [ts.Type, ts.TypeNode | undefined][] = [];
    for (const member of written.types) {
      const memberType = checker.getTypeFromTypeNode(member);
      if (memberType.isUnion() && !(memberType.flags & ts.TypeFlags.EnumLiteral) && !(memberType.flags & ts.TypeFlags.Boolean)) {
        flat.push(...unionMembers(checker, memberType, member));
      } else flat.push([memberType, member]);
    }
    // Only trust the written order when it accounts for the checker's members.
    const seen = new Set(flat.map(([t]) => t));
    if (type.types.every((t) => seen.has(t) || t.flags & ts.TypeFlags.Undefined || isBooleanLiteral(t, "true") || isBooleanLiteral(t, "false"))) {
      return dedupe(flat.flatMap(([t, n]) => (t.flags & ts.TypeFlags.Boolean && t.isUnion() ? t.types.map((b) => [b, undefined] as [ts.Type, undefined]) : [[t, n] as [ts.Type, ts.TypeNode | undefined]])));
    }
  }
  return type.types.map((t) => [t, undefined]);
}

function dedupe(members: [ts.Type, ts.TypeNode | undefined][]): [ts.Type, ts.TypeNode | undefined][] {
  const seen = new Set<ts.Type>();
  return members.filter(([t]) => (seen.has(t) ? false : (seen.add(t), true)));
}

function elementNode(checker: ts.TypeChecker, node: ts.TypeNode | undefined, element: ts.Type): ts.TypeNode | undefined {
  if (!node) return undefined;
  if (ts.isArrayTypeNode(node)) return faithful(checker, node.elementType, element);
  if (ts.isTypeOperatorNode(node) && node.operator === ts.SyntaxKind.ReadonlyKeyword) return elementNode(checker, node.type, element);
  if (ts.isTypeReferenceNode(node) && node.typeArguments?.length === 1) return faithful(checker, node.typeArguments[0], element);
  return undefined;
}

function literalValue(type: ts.Type): string | number | boolean {
  if (type.flags & ts.TypeFlags.BooleanLiteral) return intrinsicName(type) === "true";
  return (type as ts.LiteralType).value as string | number;
}

function literalEnum(values: (string | number | boolean)[], hasNull: boolean, description: string | undefined): Schema {
  const types: string[] = [];
  const add = (t: string) => types.includes(t) || types.push(t);
  const unique = [...new Set(values)];
  for (const value of unique) add(typeof value === "number" ? "number" : typeof value);
  if (types.includes("number") && unique.every((v) => typeof v !== "number" || Number.isInteger(v))) types[types.indexOf("number")] = "integer";
  if (hasNull) add("null");
  const schema: Schema = { type: types.length === 1 ? types[0] : types };
  if (description) schema.description = description;
  if (unique.length === 1 && !hasNull) schema.const = unique[0];
  else schema.enum = hasNull ? [...unique, null] : unique;
  return schema;
}

/** `T | null`: a `null` type entry for plain types, a `{type:"null"}` branch otherwise. */
function nullable(schema: Schema, hasNull: boolean): Schema {
  if (!hasNull) return schema;
  const keys = Object.keys(schema);
  if (typeof schema.type === "string" && keys.every((k) => SIMPLE_TYPE_KEYS.has(k))) return { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.anyOf) && keys.length === 1) return { anyOf: [...schema.anyOf, { type: "null" }] };
  return { anyOf: [schema, { type: "null" }] };
}

/** Keywords that keep their meaning when `type` becomes a list with "null" in it. */
const SIMPLE_TYPE_KEYS = new Set(["type", "format", "description", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]);

/** `string | number` as one `type` list instead of an `anyOf` of bare types. */
function mergeSimpleTypes(schemas: Schema[]): Schema {
  if (schemas.length === 1) return schemas[0]!;
  if (schemas.every((s) => Object.keys(s).length === 1 && typeof s.type === "string")) {
    return { type: [...new Set(schemas.map((s) => s.type as string))] };
  }
  return { anyOf: schemas };
}

function compareLiterals(a: string | number | boolean, b: string | number | boolean): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return compareText(`${typeof a}:${a}`, `${typeof b}:${b}`);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isBooleanLiteral(type: ts.Type, value: "true" | "false"): boolean {
  return (type.flags & ts.TypeFlags.BooleanLiteral) !== 0 && intrinsicName(type) === value;
}

function intrinsicName(type: ts.Type): string {
  return (type as { intrinsicName?: string }).intrinsicName ?? "";
}

function isLibSymbol(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) => {
    const file = d.getSourceFile().fileName;
    return /(^|\/)lib\.[^/]*\.d\.ts$/.test(file) || file.includes("/node_modules/typescript/") || file.includes("/node_modules/@types/node/");
  });
}

function objectName(type: ts.Type): string | undefined {
  const symbol = type.aliasSymbol ?? type.getSymbol();
  if (!symbol) return undefined;
  const name = symbol.getName();
  if (name.startsWith("__") || isLibSymbol(symbol)) return undefined;
  return name;
}

/** ` (imported from "x")` when the unresolved name comes from an import. */
function importHint(checker: ts.TypeChecker, node: ts.TypeNode | undefined): string {
  if (!node || !ts.isTypeReferenceNode(node)) return "";
  const name = ts.isIdentifier(node.typeName) ? node.typeName : node.typeName.left;
  const declaration = checker.getSymbolAtLocation(name)?.declarations?.[0];
  let current: ts.Node | undefined = declaration;
  while (current && !ts.isImportDeclaration(current)) current = current.parent;
  return current && ts.isStringLiteral(current.moduleSpecifier) ? ` (imported from "${current.moduleSpecifier.text}", which cannot be resolved)` : "";
}

function typeText(checker: ts.TypeChecker, type: ts.Type, node: ts.TypeNode | undefined): string {
  return node ? node.getText() : checker.typeToString(type);
}

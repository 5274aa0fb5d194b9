/**
 * extract: TypeScript types to JSON Schema (draft 2020-12), through the type checker.
 *
 * Everything is inlined except recursive types, which go to `$defs` and are referenced with
 * `$ref` (the only use of references). Where the source has a faithful type node (the written
 * type of a parameter or property), it is followed, so that union members keep their written
 * order and type aliases contribute their JSDoc; otherwise the checker's resolved type is used.
 */
import { setOwn } from "@zcp/runtime";
import { CONTENT_BRAND, CONTEXT_BRAND, HANDLE_BRAND } from "@zcp/runtime/definition";
import { ts } from "@ts-morph/common";
import type { Code, Severity } from "../diagnostics.js";
import { applySchemaTags, withKeyConstraints, writtenAlias, type Diagnose } from "./annotations.js";
import { declarationDoc } from "./jsdoc.js";
import {
  arrayBase,
  arrayInterfaceSchema,
  arrayLike,
  intersectionSchema,
  objectSchema,
  tupleSchema,
  unionSchema,
} from "./compounds.js";
import type { ConvertContext, ConvertHost, Special } from "./convert-host.js";
import type { Schema } from "./schema.js";
import { templatePattern } from "./templates.js";
import {
  elementNode,
  erasedNull,
  faithful,
  importHint,
  includesUndefined,
  intrinsicName,
  isLibSymbol,
  nullable,
  takesNull,
  typeText,
  writtenUndefined,
} from "./type-facts.js";

interface Pending {
  readonly name: string;
  recursive: boolean;
}

export class SchemaConverter implements ConvertContext {
  private readonly pending = new Map<ts.Type, Pending>();
  private readonly defNames = new Map<ts.Type, string>();
  private readonly usedNames = new Set<string>();
  private readonly annotatedDefs = new Set<string>();
  private readonly collectors: Set<string>[] = [];
  /** Diagnostics reported and `$ref`s produced so far: a conversion that changes either is not cached. */
  private diagnosed = 0;
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
  readonly checker: ts.TypeChecker;

  constructor(private readonly host: ConvertHost) {
    this.checker = host.checker;
  }

  /** Recognises the runtime's `Handle<K>`, `ToolContext` and content types by their brand properties. */
  special(type: ts.Type): Special {
    if (!(type.flags & ts.TypeFlags.Object) && !(type.flags & ts.TypeFlags.Intersection))
      return null;
    const specials = this.host.cache.specials;
    let special = specials.get(type);
    if (special === undefined) specials.set(type, (special = this.brandOf(type)));
    return special;
  }

  private brandOf(type: ts.Type): Special {
    const handle = this.checker.getPropertyOfType(type, HANDLE_BRAND);
    if (handle) {
      const kindType = this.checker.getTypeOfSymbol(handle);
      const handleKind = kindType.isStringLiteral() ? kindType.value : "*";
      return { kind: "handle", handleKind };
    }
    if (this.checker.getPropertyOfType(type, CONTENT_BRAND)) return { kind: "content" };
    return this.checker.getPropertyOfType(type, CONTEXT_BRAND) ? { kind: "context" } : null;
  }

  /**
   * Converts `type` written at `site`; `node` is the written type when it is faithful to `type`.
   * Problems are reported at `site` (or inside `node`) and yield `{}` for the offending part.
   */
  convert(type: ts.Type, node: ts.TypeNode | undefined, site: ts.Node): Schema {
    const alias = node && writtenAlias(this.checker, node, type);
    if (alias) {
      if (alias.declaration) this.track(alias.declaration);
      const converted =
        alias.inner && alias.inner !== node
          ? this.convert(type, alias.inner, site)
          : this.convertType(type, alias.inner, site);
      if (!alias.declaration) return converted;
      // `type Maybe<T> = T | null` said null where the checker may have dropped it.
      const written = erasedNull(type, alias.declaration.type) && !takesNull(converted);
      return this.annotateAlias(nullable(converted, written), alias.declaration, site);
    }
    if (
      !node &&
      type.aliasSymbol?.declarations?.[0] &&
      ts.isTypeAliasDeclaration(type.aliasSymbol.declarations[0])
    ) {
      const declaration = type.aliasSymbol.declarations[0];
      this.track(declaration);
      return this.annotateAlias(this.convertType(type, undefined, site), declaration, site);
    }
    const converted = this.convertType(type, node, site);
    const schema = nullable(converted, erasedNull(type, node) && !takesNull(converted));
    return withKeyConstraints(this.checker, schema, node, this.diagnoseAt(site));
  }

  /**
   * Applies an alias declaration's JSDoc (description and tags) to the schema of its type. A
   * recursive alias is a `$ref`: its JSDoc goes on the definition, once, not on every reference.
   */
  private annotateAlias(
    schema: Schema,
    declaration: ts.TypeAliasDeclaration,
    site: ts.Node,
  ): Schema {
    if (typeof schema.$ref !== "string") return this.describe(schema, declaration, site);
    const name = schema.$ref.slice("#/$defs/".length);
    const definition = this.defs.get(name);
    if (definition && !this.annotatedDefs.has(name)) {
      this.annotatedDefs.add(name);
      this.defs.set(name, this.describe(definition, declaration, site));
    }
    return schema;
  }

  diagnoseAt(fallback: ts.Node): Diagnose {
    return (node, code, message, severity) =>
      this.diagnose(node ?? fallback, code, message, severity);
  }

  fail(site: ts.Node, code: Code, message: string): Schema {
    this.diagnose(site, code, message);
    return {};
  }

  warn(site: ts.Node, code: Code, message: string): void {
    this.diagnose(site, code, message, "warning");
  }

  /** Every diagnostic goes through here, so that a conversion knows whether it reported any. */
  private diagnose(node: ts.Node, code: Code, message: string, severity?: Severity): void {
    this.diagnosed++;
    this.host.diagnose(node, code, message, severity);
  }

  track(declaration: ts.Node): void {
    this.addDep(declaration.getSourceFile().fileName);
  }

  private addDep(file: string): void {
    this.host.deps.add(file);
    for (const collector of this.collectors) collector.add(file);
  }

  /** The schema of an object type built before in this run, its files and dates recorded as if built here. */
  private fromCache(type: ts.Type): Schema | undefined {
    const cached = this.host.cache.get(this.host.direction, type);
    if (!cached) return undefined;
    for (const file of cached.deps) this.addDep(file);
    for (const date of cached.dates) this.dates.add(this.pathTo(date));
    return cached.schema;
  }

  /** Builds an object type's schema, or takes it from the run's cache. */
  private cachedObject(type: ts.Type, site: ts.Node): Schema {
    const cached = this.fromCache(type);
    if (cached) return cached;
    const deps = new Set<string>();
    const datesBefore = new Set(this.dates);
    const before = { diagnosed: this.diagnosed, refs: this.refs };
    this.collectors.push(deps);
    let schema: Schema;
    try {
      schema = this.withRecursion(type, () => objectSchema(this, type, site));
    } finally {
      this.collectors.pop();
    }
    if (this.diagnosed === before.diagnosed && this.refs === before.refs) {
      const prefix = this.path.length === 0 ? "" : `${this.path.join(".")}.`;
      const dates = [...this.dates]
        .filter((date) => !datesBefore.has(date))
        .map((date) => date.slice(prefix.length));
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
        return this.fail(
          node ?? site,
          "ZCP1203",
          `cannot resolve type "${typeText(checker, type, node)}"${importHint(checker, node)}`,
        );
      }
      if (this.host.direction === "output") return {};
      // `any` admits every value, as `{}` does: the tool is kept, and asked for a precise type.
      this.warn(
        node ?? site,
        "ZCP1204",
        "type is `any`, mapped to {} (any JSON value); give a precise type, or `unknown` to say any value",
      );
      return {};
    }
    if (f & ts.TypeFlags.Unknown) return {};
    if (f & ts.TypeFlags.String) return { type: "string" };
    if (f & ts.TypeFlags.Number) return { type: "number" };
    if (f & ts.TypeFlags.Boolean) return { type: "boolean" };
    if (f & ts.TypeFlags.Null) return { type: "null" };
    if (f & ts.TypeFlags.TemplateLiteral) {
      const pattern = templatePattern(type);
      return pattern === null ? { type: "string" } : { type: "string", pattern };
    }
    if (f & ts.TypeFlags.StringMapping) return { type: "string" };
    if (f & ts.TypeFlags.StringLiteral)
      return { type: "string", const: (type as ts.StringLiteralType).value };
    if (f & ts.TypeFlags.NumberLiteral) {
      const value = (type as ts.NumberLiteralType).value;
      return { type: Number.isInteger(value) ? "integer" : "number", const: value };
    }
    if (f & ts.TypeFlags.BooleanLiteral)
      return { type: "boolean", const: intrinsicName(type) === "true" };
    if (f & ts.TypeFlags.TypeParameter) {
      return this.fail(
        node ?? site,
        "ZCP1205",
        `type parameter "${typeText(checker, type, node)}" has no JSON Schema; tools cannot be generic`,
      );
    }
    if (f & (ts.TypeFlags.BigInt | ts.TypeFlags.BigIntLiteral))
      return this.fail(
        node ?? site,
        "ZCP1202",
        "bigint is not representable as JSON (JSON numbers are doubles, a model cannot send a bigint); use Integer from @zcp/runtime for whole numbers, or a string for larger ones",
      );
    if (f & (ts.TypeFlags.ESSymbol | ts.TypeFlags.UniqueESSymbol))
      return this.fail(node ?? site, "ZCP1202", "symbol is not representable as JSON");
    if (f & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never)) {
      return this.fail(
        node ?? site,
        "ZCP1202",
        `"${intrinsicName(type)}" is not representable as JSON here`,
      );
    }
    // Only object types that reached `cachedObject` (below) are in the cache, and every test on
    // the way there depends on the type alone: a type found there would take the same way again.
    if (f & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) {
      const cached = this.fromCache(type);
      if (cached) return cached;
    }
    if (f & ts.TypeFlags.Union)
      return this.withRecursion(type, () => unionSchema(this, type as ts.UnionType, node, site));
    if (f & ts.TypeFlags.Intersection) {
      const primitive = (type as ts.IntersectionType).types.find(
        (t) =>
          t.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike),
      );
      // A branded primitive (`string & { __brand: "Id" }`) is the primitive on the wire.
      if (primitive) return this.convertType(primitive, undefined, site);
      if ((type as ts.IntersectionType).types.some((t) => arrayLike(checker, t)))
        return this.withRecursion(type, () =>
          intersectionSchema(this, type as ts.IntersectionType, node, site),
        );
      return this.cachedObject(type, site);
    }
    if (f & ts.TypeFlags.Object) {
      const special = this.special(type);
      // A tool's own return type is content (`returnContent`); anywhere else it is not JSON.
      if (special?.kind === "content")
        return this.fail(
          node ?? site,
          "ZCP1209",
          "content types (Image, Audio, EmbeddedResource, ResourceLink, Text) are only a tool's return type, or the items of the array it returns",
        );
      if (special) {
        return this.fail(
          node ?? site,
          "ZCP1206",
          "Handle and ToolContext are only allowed as the type of a tool parameter",
        );
      }
      const symbol = type.getSymbol();
      const libName =
        symbol && isLibSymbol(symbol) && !symbol.getName().startsWith("__")
          ? symbol.getName()
          : undefined;
      if (libName === "Date") {
        this.dates.add(this.path.join("."));
        return { type: "string", format: "date-time" };
      }
      if (checker.isArrayType(type)) {
        const element = checker.getTypeArguments(type as ts.TypeReference)[0]!;
        return {
          type: "array",
          items: this.at("[]", () =>
            this.convert(element, elementNode(checker, node, element), node ?? site),
          ),
        };
      }
      if (checker.isTupleType(type))
        return tupleSchema(this, type as ts.TupleTypeReference, node, site);
      const base = arrayBase(checker, type);
      if (base) return this.withRecursion(type, () => arrayInterfaceSchema(this, type, base, site));
      // Built-in classes (URL, Map, Uint8Array, Generator...) are behaviour, not data.
      if (libName)
        return this.fail(
          node ?? site,
          "ZCP1202",
          `${libName} is not representable as JSON; use a plain object, array or string`,
        );
      if (
        checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0 ||
        checker.getSignaturesOfType(type, ts.SignatureKind.Construct).length > 0
      ) {
        return this.fail(
          node ?? site,
          "ZCP1201",
          `function type "${typeText(checker, type, node)}" is not representable as JSON`,
        );
      }
      return this.cachedObject(type, site);
    }
    // `object` also admits arrays and functions; as a parameter it means a JSON object.
    if (f & ts.TypeFlags.NonPrimitive) return { type: "object" };
    return this.fail(
      node ?? site,
      "ZCP1202",
      `type "${typeText(checker, type, node)}" is not representable as JSON`,
    );
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
    const args = type.aliasSymbol
      ? type.aliasTypeArguments
      : (type as ts.TypeReference).typeArguments;
    let base = symbol && !symbol.getName().startsWith("__") ? symbol.getName() : "Type";
    if (args?.length) base += `_${args.map((arg) => this.checker.typeToString(arg)).join("_")}`;
    base = base.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "") || "Type";
    let name = base;
    for (
      let n = 2;
      this.usedNames.has(name) || [...this.pending.values()].some((p) => p.name === name);
      n++
    )
      name = `${base}_${n}`;
    return name;
  }

  /** The properties of an object type, converted, with descriptions and tags from their declarations. */
  properties(
    type: ts.Type,
    site: ts.Node,
  ): { properties: Record<string, Schema>; required: string[] } {
    const checker = this.checker;
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const property of checker.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (declaration) this.track(declaration);
      const propertyType = checker.getTypeOfSymbol(property);
      const written =
        declaration &&
        (ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration))
          ? declaration.type
          : undefined;
      const at = declaration ?? site;
      if (
        declaration &&
        (ts.isMethodSignature(declaration) || ts.isMethodDeclaration(declaration))
      ) {
        // Point at the user's code: a method declared in a .d.ts is reported where the type is used.
        const where = declaration.getSourceFile().isDeclarationFile ? site : declaration;
        this.diagnose(
          where,
          "ZCP1201",
          `method "${property.getName()}" of "${this.checker.typeToString(type)}" is not representable as JSON`,
        );
        continue;
      }
      const optional =
        (property.flags & ts.SymbolFlags.Optional) !== 0 ||
        includesUndefined(propertyType) ||
        writtenUndefined(written);
      if (isAbsent(propertyType)) {
        // `p?: never`, `p: undefined`: no JSON value is allowed, so the key is left out (and a
        // closed object refuses it). A required `never` no value satisfies, unless a mapped type
        // produced it (`K extends "x" ? never : T[K]`), which is how such keys are removed.
        if (!optional && propertyType.flags & ts.TypeFlags.Never && !fromMappedType(property))
          this.diagnose(
            written ?? at,
            "ZCP1202",
            `required property "${property.getName()}" has type never: no value satisfies "${checker.typeToString(type)}"`,
          );
        continue;
      }
      const schema = this.at(property.getName(), () =>
        this.convert(propertyType, faithful(checker, written, propertyType), written ?? at),
      );
      setOwn(properties, property.getName(), this.describe(schema, declaration, at));
      if (!optional) required.push(property.getName());
    }
    return { properties, required };
  }

  /** Adds a declaration's own JSDoc (description, schema tags) to the schema written there. */
  describe(schema: Schema, declaration: ts.Node | undefined, site: ts.Node): Schema {
    const doc = declaration && declarationDoc(this.checker, declaration);
    if (!doc) return schema;
    const out: Schema = { ...schema };
    if (doc.description) out.description = doc.description;
    applySchemaTags(out, doc.tags, this.diagnoseAt(site));
    return out;
  }
}

/** `never`, `undefined` or `void`, alone or with each other: a property that JSON cannot carry. */
function isAbsent(type: ts.Type): boolean {
  const absent = ts.TypeFlags.Never | ts.TypeFlags.Undefined | ts.TypeFlags.Void;
  return type.isUnion() ? type.types.every((t) => t.flags & absent) : (type.flags & absent) !== 0;
}

/** The checker's `CheckFlags.Mapped`: a property of a mapped type's result (not in the public API). */
const MAPPED = 1 << 18;

function fromMappedType(property: ts.Symbol): boolean {
  const getCheckFlags = (ts as unknown as { getCheckFlags?(symbol: ts.Symbol): number })
    .getCheckFlags;
  return getCheckFlags !== undefined && (getCheckFlags(property) & MAPPED) !== 0;
}

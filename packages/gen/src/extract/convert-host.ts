/**
 * extract: what the schema converter (`types.ts`) works with: the checker, the run's shared
 * object schemas, the direction (input or output), where diagnostics and dependencies go.
 */
import type { ts } from "@ts-morph/common";
import type { Code, Severity } from "../diagnostics.js";
import type { Schema } from "./schema.js";

export interface ConvertHost {
  readonly checker: ts.TypeChecker;
  /** Object schemas already built with this checker, shared by all tools of a run. */
  readonly cache: SchemaCache;
  /** `input` rejects `any`; `output` treats it as "any JSON". */
  readonly direction: "input" | "output";
  diagnose(node: ts.Node, code: Code, message: string, severity?: Severity): void;
  /** Files whose declarations the converted types reach (for watch invalidation). */
  readonly deps: Set<string>;
}

/** What a top-level parameter type turned out to be. */
export type Special =
  { kind: "handle"; handleKind: string } | { kind: "context" } | { kind: "content" } | null;

/**
 * Object types converted once per run: a shared interface used by many tools is built once.
 * Only results that are context-free are kept: no diagnostics, no `$ref` (recursion depends on
 * the root being built). Schemas are never mutated after they are built, so sharing is safe.
 */
export class SchemaCache {
  private readonly entries = {
    input: new Map<ts.Type, CachedSchema>(),
    output: new Map<ts.Type, CachedSchema>(),
  };
  /** `SchemaConverter.special` of the types met: a function of the type alone (its brand properties). */
  readonly specials = new Map<ts.Type, Special>();

  get(direction: ConvertHost["direction"], type: ts.Type): CachedSchema | undefined {
    const entry = this.entries[direction].get(type);
    // An input schema serves an output too. The directions differ only at `any`, which an input
    // conversion reports (a warning), and a conversion that reported anything is not kept.
    return entry ?? (direction === "output" ? this.entries.input.get(type) : undefined);
  }

  set(direction: ConvertHost["direction"], type: ts.Type, entry: CachedSchema): void {
    this.entries[direction].set(type, entry);
  }
}

export interface CachedSchema {
  readonly schema: Schema;
  /** Files the conversion reached, for the tool's dependency set. */
  readonly deps: readonly string[];
  /** Paths of `Date` values inside the object, relative to it (see `SchemaConverter.dates`). */
  readonly dates: readonly string[];
}

/** What the converter offers the modules that convert parts of a type (`compounds.ts`). */
export interface ConvertContext {
  readonly checker: ts.TypeChecker;
  /** A type's schema (see `SchemaConverter.convert`). */
  convert(type: ts.Type, node: ts.TypeNode | undefined, site: ts.Node): Schema;
  /** Runs `convert` with `segment` appended to the path that diagnostics name. */
  at<T>(segment: string, convert: () => T): T;
  /** A diagnostic at `site`; `{}` in the schema's place. */
  fail(site: ts.Node, code: Code, message: string): Schema;
  /** A warning at `site`: the schema is kept, with a documented loss. */
  warn(site: ts.Node, code: Code, message: string): void;
  /** Records a declaration the schema depends on (its file, for watch mode). */
  track(declaration: ts.Node): void;
  /** Adds a declaration's own JSDoc (description, schema tags) to the schema written there. */
  describe(schema: Schema, declaration: ts.Node | undefined, site: ts.Node): Schema;
  /** The properties of an object type, converted, with their descriptions and tags. */
  properties(
    type: ts.Type,
    site: ts.Node,
  ): { properties: Record<string, Schema>; required: string[] };
}

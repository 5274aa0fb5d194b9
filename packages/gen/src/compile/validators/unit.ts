/**
 * compile/validators: the state of one compilation (a tool's validator or a shared type's
 * function, with the functions outlined from it): what it needs from the file, its `$defs`, and
 * memos of facts about its schemas. Nothing outlives the compilation but its `ValidatorCode`.
 */
import type { CodegenSymbol } from "@zcp/runtime/codegen/symbols";
import type { JsonValue } from "@zcp/runtime/definition";
import type { FunctionCode, ValidatorCode } from "./code.js";
import type { Schema } from "./schema.js";

/** The needs of a compilation, collected as it goes. */
export interface Needs {
  readonly shared: Map<string, Schema>;
  readonly helpers: Set<CodegenSymbol>;
  readonly formats: Set<CodegenSymbol>;
  readonly patterns: Map<string, string>;
}

/** The function that checks a schema a `$ref` points at. */
export interface Def {
  readonly fn: string;
  readonly schema: JsonValue;
  /** Its doc comment: `<alias>: $defs/<name>`, or `<alias>: <ref>`. */
  readonly doc: string;
  coerces: boolean;
}

/**
 * What one generated function (and those outlined from it) compiles against: the functions of
 * the schemas its `$ref`s point at (none in shared functions), and memos of facts about its
 * schemas.
 */
export interface Unit {
  readonly needs: Needs;
  /** Prefix of outlined functions' names. */
  readonly prefix: string;
  /** Named in errors about the schema. */
  readonly owner: string;
  /** `$ref` text → the function of what it points at (two texts may share one). */
  readonly defs: Map<string, Def>;
  /**
   * The strict variants (no coercion: `<def fn>$strict`) of the functions a recursive `$ref`
   * calls from a strict test, in the order first called.
   */
  readonly strictDefs: Map<Def, string>;
  /** Functions for deeply nested schemas, compiled after the one that calls them. */
  readonly outlined: { readonly fn: string; readonly schema: Schema }[];
  readonly coerces: Map<Schema, boolean>;
  readonly described: Map<Schema, string>;
  /** Whether the `$defs` coercion facts are final (then facts about schemas are memoized). */
  settled: boolean;
}

export function unit(prefix: string, owner: string): Unit {
  const needs: Needs = {
    shared: new Map(),
    helpers: new Set(),
    formats: new Set(),
    patterns: new Map(),
  };
  return {
    needs,
    prefix,
    owner,
    defs: new Map(),
    strictDefs: new Map(),
    outlined: [],
    coerces: new Map(),
    described: new Map(),
    settled: false,
  };
}

export function validatorCode(state: Unit, functions: FunctionCode[]): ValidatorCode {
  const { shared, helpers, formats, patterns } = state.needs;
  return { functions, shared, helpers, formats, patterns };
}

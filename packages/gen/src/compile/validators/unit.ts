/**
 * compile/validators: the state of one compilation (a tool's validator or a shared type's
 * function, with the functions outlined from it): what it needs from the file, its `$defs`, and
 * memos of facts about its schemas. Nothing outlives the compilation but its `ValidatorCode`.
 */
import type { JsonValue } from "@zcp/runtime/codegen";
import type { FunctionCode, ValidatorCode } from "./code.js";
import type { Schema } from "./schema.js";

/** The needs of a compilation, collected as it goes. */
export interface Needs {
  readonly shared: Map<string, Schema>;
  readonly helpers: Set<string>;
  readonly formats: Set<string>;
  readonly patterns: Map<string, string>;
}

/**
 * What one generated function (and those outlined from it) compiles against: the tool's `$defs`
 * (none in shared functions), and memos of facts about its schemas.
 */
export interface Unit {
  readonly needs: Needs;
  /** Prefix of outlined functions' names. */
  readonly prefix: string;
  /** Named in errors about the schema. */
  readonly owner: string;
  /** `$defs` name → its function and schema. */
  readonly defs: Map<string, { readonly fn: string; readonly schema: JsonValue; coerces: boolean }>;
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

/**
 * compile/validators: the code a validator is made of, as data. The compiler decides what is
 * checked, in which order, with which hint and where a failure goes; `emit` lays the statements
 * out as prettier would (`emit/layout.ts`): where a line breaks is the only thing left to it. A
 * statement that prettier may break (a condition list, a call, a property read, an enum test) is
 * a node of its own; everything else is a line of code.
 */
import type { CodegenSymbol } from "@zcp/runtime/codegen/symbols";
import type { Schema } from "./schema.js";

/** A string literal in generated code: emit prints it with prettier's choice of quotes. */
interface Str {
  readonly str: string;
}

/** Code text, or a string literal. */
export type Part = string | Str;

/** One line of code: its text, or its parts in order. */
export type Line = string | readonly Part[];

/** `head` on a line, the body indented, then `}`. */
export interface Block {
  readonly kind: "block";
  /** Set once the body is known where it depends on it (a label that a failed check uses). */
  head: string;
  readonly body: Statement[];
}

/** `if (a && b) {`, or prettier's broken form with one condition per line, then the body. */
export interface If {
  readonly kind: "if";
  readonly conditions: readonly string[];
  readonly operator: "&&" | "||";
  readonly body: Statement[];
}

/** `head(args...)tail`, on one line or with one argument per line. */
interface Call {
  readonly kind: "call";
  readonly head: string;
  readonly args: readonly Part[];
  readonly tail: string;
}

/** `const name = object["key"];` */
interface Read {
  readonly kind: "read";
  readonly name: string;
  readonly object: string;
  readonly key: string;
}

/**
 * The test that `value` is one of `values` (printed literals), with `fail` when it is not:
 * `if (value !== "x") {` for one value when that fits on a line, else a `switch`.
 */
interface EnumCheck {
  readonly kind: "enum";
  readonly value: string;
  readonly values: readonly (string | number | boolean | null)[];
  readonly fail: readonly Statement[];
}

/** A line decided after the code that follows it (a `let` that only a coercion needs), or none. */
export interface Slot {
  readonly kind: "slot";
  text: string | null;
}

export type Statement = Line | Block | If | Call | Read | EnumCheck | Slot;

/** One generated function: `function name(input: unknown)` (a tool's) or `(value, path)`. */
export interface FunctionCode {
  readonly name: string;
  /** Its doc comment's text (a tool's alias, a type's title), or null for none. */
  readonly doc: string | null;
  readonly params: "input" | "value-path";
  readonly body: readonly Statement[];
}

/** What compiling a tool or a shared type produced, and what it needs from the file. */
export interface ValidatorCode {
  readonly functions: readonly FunctionCode[];
  /** Function name → schema of the shared types it calls. */
  readonly shared: ReadonlyMap<string, Schema>;
  /** The helpers of `@zcp/runtime/codegen` it calls (`invalid`, `isObject`...). */
  readonly helpers: ReadonlySet<CodegenSymbol>;
  /** The format checkers of `@zcp/runtime/codegen` it calls (`isDate`...). */
  readonly formats: ReadonlySet<CodegenSymbol>;
  /** Name of a module-level RegExp → pattern source. */
  readonly patterns: ReadonlyMap<string, string>;
}

/** Everything `validators.ts` holds: each tool's validator in tool order, then the shared types' functions. */
export interface ValidatorSet {
  readonly tools: readonly {
    readonly id: string;
    readonly fn: string;
    readonly code: ValidatorCode;
  }[];
  /** By function name. */
  readonly shared: ReadonlyMap<string, ValidatorCode>;
  /** The server configuration's validator, when a tool reads a typed one (`ToolContext<Config>`). */
  readonly config?: { readonly fn: string; readonly code: ValidatorCode };
}

/** A number as prettier prints it. */
export function numberText(value: number): string {
  return JSON.stringify(value).replace("e+", "e");
}

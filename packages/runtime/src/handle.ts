import type { HANDLE_BRAND } from "./brands.js";

/**
 * A handle reference parameter. The model passes a handle id such as `"#T1"`; before the call,
 * the runtime looks the id up in the caller's session, checks its kind and expiry, and passes
 * this resolved object to the tool. `zcp gen` recognises the type by its brand property and
 * gives the parameter a handle-id string schema.
 *
 * @example
 * export function sumColumn(rows: Handle<"table", Row[]>, column: string): number
 */
export interface Handle<K extends string = string, T = unknown> {
  /** Brand that marks handle parameters for `zcp gen`: the expected kind. */
  readonly [HANDLE_BRAND]: K;
  readonly id: string;
  readonly kind: K;
  readonly value: T;
}

// A number that must be an integer: `zcp gen` emits `"type": "integer"` for it. (A line
// comment on purpose: a type alias's JSDoc text becomes the description of every use.)
/** @type integer */
export type Integer = number;

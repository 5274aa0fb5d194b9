/**
 * What a tool call returns to a caller: a value inline, content blocks (a tool that returns the
 * runtime's content types: `content.ts`), a handle to a value kept in the runtime, or an error
 * code with a hint. Errors are values; nothing is thrown across this boundary.
 *
 * Error codes: `missing:<path>`, `invalid:<path>`, `unknown:<name>`, `forbidden:<alias>`,
 * `approval_required`, `timeout`, `cancelled`, `expired:<handle>`, `busy` (too many calls at
 * once in the session), `exec:error` (the tool threw; the message stays on the server),
 * `exec:too_large` (the result is larger than `maxResultBytes`), and the code of a `ToolError`
 * the tool threw.
 */
import type { JsonValue } from "../definition/registry.js";
import type { ContentBlock } from "./content.js";

export interface HandleMeta {
  readonly kind: string;
  /** Bytes of the value's compact JSON. */
  readonly size: number;
  /** Time left before it expires, e.g. `10m`. */
  readonly ttl: string;
  /** For a list: how many items. */
  readonly count?: number;
  /** For a text: how many lines. */
  readonly lines?: number;
  /** For a text: how many characters. */
  readonly chars?: number;
  /**
   * The `zcp.handle` arguments (besides `handle`) that page on after the result's `head`, e.g.
   * `{"op":"view","offset":40}`; absent when the head is the whole of what a view pages.
   */
  readonly next?: { readonly [argument: string]: JsonValue };
}

export type CallResult =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: true; readonly content: readonly ContentBlock[] }
  | {
      readonly ok: true;
      readonly handle: string;
      readonly summary: string;
      readonly meta: HandleMeta;
      /**
       * The first page of the value, sized to the call's token budget: a text's first lines (or
       * characters), a list's first items, a record's first fields. Absent when nothing fits.
       */
      readonly head?: JsonValue;
    }
  | { readonly ok: false; readonly error: string; readonly hint: string };

export type CallError = Extract<CallResult, { ok: false }>;

export function failure(error: string, hint: string): CallError {
  return { ok: false, error, hint };
}

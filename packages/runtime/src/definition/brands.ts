/**
 * The marks `zcp gen` and the runtime agree on: the brand properties by which the generator
 * recognises the runtime's `Handle`, `ToolContext` and content types (by property, not by import path,
 * so re-exports and aliases work), the branded types tool authors declare (`Handle`,
 * `Integer`), and the one wire form of a handle id.
 */

/** Brand property of `Handle<K, T>`; its value is the expected kind. */
export const HANDLE_BRAND = "~zcp.handle";

/** Brand property of `ToolContext`. */
export const CONTEXT_BRAND = "~zcp.context";

/** Brand property of `PromptContext`: a prompt's trailing parameter that `zcp gen` passes it. */
export const PROMPT_CONTEXT_BRAND = "~zcp.prompt-context";

/**
 * Brand property of the content types a tool returns (`Image`, `Audio`, `EmbeddedResource`,
 * `ResourceLink`, `Text`); its value is the block's kind. Type-only: the blocks on the wire
 * never carry it.
 */
export const CONTENT_BRAND = "~zcp.content";

/**
 * A handle id as models see and send it: `#`, one upper-case letter, then a session's counter
 * from 1 (`#T1`: at most 16 digits) or a random number of 30 digits (`#T` + 99.5 random bits:
 * `SessionOptions.handleIds`); anything longer was never issued. The schema pattern of every
 * handle parameter and of the handle tool, and what the handle store accepts.
 */
export const HANDLE_ID_PATTERN = "^#[A-Z][1-9][0-9]{0,29}$";

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

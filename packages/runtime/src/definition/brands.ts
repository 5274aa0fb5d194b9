/**
 * The marks `zcp gen` and the runtime agree on: the brand properties by which the generator
 * recognises the runtime's `Handle` and `ToolContext` types (by property, not by import path,
 * so re-exports and aliases work), and the one wire form of a handle id.
 */

/** Brand property of `Handle<K, T>`; its value is the expected kind. */
export const HANDLE_BRAND = "~zcp.handle";

/** Brand property of `ToolContext`. */
export const CONTEXT_BRAND = "~zcp.context";

/**
 * A handle id as models see and send it: `#`, one upper-case letter, then a session's counter
 * from 1 (`#T1`: at most 16 digits) or a random number of 30 digits (`#T` + 99.5 random bits:
 * `SessionOptions.handleIds`); anything longer was never issued. The schema pattern of every
 * handle parameter and of the handle tool, and what the handle store accepts.
 */
export const HANDLE_ID_PATTERN = "^#[A-Z][1-9][0-9]{0,29}$";

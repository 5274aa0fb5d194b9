import { cut } from "../results/clip.js";

/**
 * `ToolError`: how a tool answers a failure of its own with a code and a hint the model sees
 * (`throw new ToolError("invalid:$.range", "A1:XFD1048576 covers too many cells")`), instead of
 * the opaque `exec:error` that any other throw becomes.
 */

/** What a code must look like: a word, optionally `:` and a detail without white space. */
const CODE = /^[a-z][a-z_]*(:[^\s]{1,200})?$/;

/** A hint is cut to this many characters. */
const HINT_MAX = 300;

/**
 * Control characters (C0, DEL, C1) and the line and paragraph separators: a message written for
 * a log may hold line breaks, ANSI escapes or NULs, which a model's text should not.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** `text` as a hint the model sees: control characters as one space each run, then cut. */
export function hintText(text: string): string {
  return cut(text.replace(CONTROL, " ").trim(), HINT_MAX);
}

export class ToolError extends Error {
  override name = "ToolError";

  constructor(
    readonly code: string,
    hint: string,
  ) {
    super(hint);
  }
}

/**
 * The `{ code, hint }` a thrown value answers with when it is a `ToolError` with a valid code:
 * an instance, or (after crossing a thread boundary, where the class is lost) an error named
 * `ToolError` with string `code` and `message`. Null for anything else.
 */
export function toolErrorOf(error: unknown): { code: string; hint: string } | null {
  if (error === null || typeof error !== "object") return null;
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  if (!(error instanceof ToolError) && name !== "ToolError") return null;
  if (typeof code !== "string" || typeof message !== "string" || !CODE.test(code)) return null;
  return { code, hint: hintText(message) };
}

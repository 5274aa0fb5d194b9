/**
 * The bounds a call's arguments and result are held to, shared by every place that checks them:
 * the call pipeline, and whatever runs tools or programs in other threads and checks there,
 * before anything large crosses to the server's thread (the same limit, the same answer).
 */
import { failure, type CallError } from "../results/result.js";

/** Arguments nested deeper than this answer `invalid:<path>` (`RuntimeOptions.maxArgumentDepth`). */
export const DEFAULT_MAX_ARGUMENT_DEPTH = 64;

/** A result whose compact JSON is larger answers `exec:too_large` (`RuntimeOptions.maxResultBytes`). */
export const DEFAULT_MAX_RESULT_BYTES = 16 * 1024 * 1024;

/**
 * `exec:too_large` when a result's compact JSON (the text, or its size in UTF-8 bytes) has more
 * than `maxBytes` bytes.
 */
export function resultTooLarge(json: string | number, maxBytes: number): CallError | undefined {
  let bytes = json;
  if (typeof bytes === "string") {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: most results are counted without encoding.
    if (bytes.length * 3 <= maxBytes) return undefined;
    bytes = Buffer.byteLength(bytes);
  }
  return bytes > maxBytes
    ? failure("exec:too_large", `the result is ${bytes} bytes; at most ${maxBytes}`)
    : undefined;
}

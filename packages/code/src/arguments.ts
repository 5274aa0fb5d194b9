/**
 * The bounds of a program's tool-call arguments, checked in the worker on their JSON text before
 * it crosses to the server's thread, where it is parsed: the same bounds as a request's (its
 * message size, its nesting), so that a program cannot hand the server's thread more to parse
 * than a client can.
 */
import { failure, type CallError } from "@zcp/runtime";
import type { RunLimits } from "./options.js";

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Why the arguments' JSON text is refused (`invalid:$`), or undefined when it is within bounds. */
export function argumentsRefusal(
  json: string,
  limits: Pick<RunLimits, "argumentBytes" | "argumentDepth">,
): CallError | undefined {
  const max = limits.argumentBytes;
  // UTF-8 takes at most 3 bytes per UTF-16 unit: most arguments are counted without encoding.
  const bytes = json.length * 3 > max ? Buffer.byteLength(json) : json.length;
  if (bytes > max)
    return failure("invalid:$", `the arguments are ${bytes} bytes of JSON; at most ${max}`);
  // The argument object itself is at depth 0 (a parameter's value at 1), as the runtime counts.
  if (nesting(json) - 1 > limits.argumentDepth)
    return failure("invalid:$", `nested deeper than ${limits.argumentDepth} levels`);
  return undefined;
}

/** The deepest nesting of objects and arrays in JSON text (brackets inside strings not counted). */
function nesting(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const char = json.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === OPEN_BRACE || char === OPEN_BRACKET) deepest = Math.max(deepest, ++depth);
    else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) depth--;
  }
  return deepest;
}

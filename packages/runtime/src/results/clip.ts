/**
 * Cutting text that came from a client before it is echoed back (names in errors) or from a tool
 * (hints), so that no answer grows with what was sent. Cuts fall between code points: a
 * surrogate pair is never split.
 */

/** `text` when it has at most `max` characters, else its first `max` characters and `…`. */
export function clip(text: string, max = 64): string {
  const end = prefixEnd(text, max);
  return end === text.length ? text : `${text.slice(0, end)}…`;
}

/** The first `max` characters (code points) of `text`. */
export function cut(text: string, max: number): string {
  return text.slice(0, prefixEnd(text, max));
}

/** Where the first `max` code points of `text` end (`text.length` when it has no more). */
function prefixEnd(text: string, max: number): number {
  if (text.length <= max) return text.length;
  let end = 0;
  let count = 0;
  for (const char of text) {
    if (count === max) return end;
    end += char.length;
    count++;
  }
  return end;
}

/**
 * The id of a request whose line was too long to keep, read from the first bytes of the line,
 * so that the refusal can be matched by the client (an answer with `id: null` matches nothing,
 * and the caller would wait for its own timeout). The head is scanned, never evaluated: members
 * of the top-level object are stepped over, token by token, until `"id"`; string tokens are
 * decoded by `JSON.parse` of the token alone. Anything else (no object, a malformed member, an id
 * cut off by the end of the head, an id that is no string, number or null) tells nothing.
 */

/** How much of a skipped line is kept to find its id in: ids come first in practice. */
export const HEAD_BYTES = 1024;

/** The id the head's top-level object gives before anything cuts it off; undefined when none can be told. */
export function idOfHead(head: string): string | number | null | undefined {
  let at = space(head, 0);
  if (head[at] !== "{") return undefined;
  at++;
  for (;;) {
    const key = stringToken(head, space(head, at));
    if (key === undefined) return undefined;
    at = space(head, key.end);
    if (head[at] !== ":") return undefined;
    at = space(head, at + 1);
    if (key.value === "id") return idToken(head, at);
    const end = valueEnd(head, at);
    if (end === undefined) return undefined;
    at = space(head, end);
    // A `}` ends the object without an id: there is none to tell.
    if (head[at] !== ",") return undefined;
    at++;
  }
}

/** An id: a string, a finite number or null, complete (followed by `,` or `}`). */
function idToken(head: string, at: number): string | number | null | undefined {
  let value: string | number | null;
  let end: number;
  const string = stringToken(head, at);
  if (string !== undefined) ({ value, end } = string);
  else if (head.startsWith("null", at)) {
    value = null;
    end = at + 4;
  } else {
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(head);
    if (number === null) return undefined;
    value = Number(number[0]);
    end = NUMBER.lastIndex;
    if (!Number.isFinite(value)) return undefined;
  }
  const next = head[space(head, end)];
  return next === "," || next === "}" ? value : undefined;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

/** A JSON string token at `at`, decoded; undefined when there is none or it is cut off. */
function stringToken(
  head: string,
  at: number,
): { readonly value: string; readonly end: number } | undefined {
  const end = stringEnd(head, at);
  if (end === undefined) return undefined;
  try {
    return { value: JSON.parse(head.slice(at, end)) as string, end };
  } catch {
    return undefined;
  }
}

/** Where the string token at `at` ends (after its closing quote). */
function stringEnd(head: string, at: number): number | undefined {
  if (head[at] !== '"') return undefined;
  for (let i = at + 1; i < head.length; i++) {
    const char = head[i];
    if (char === "\\") i++;
    else if (char === '"') return i + 1;
  }
  return undefined;
}

/**
 * Where the value at `at` ends: a string, number or literal token, or an object or array
 * stepped over by its brackets (strings inside skipped whole); undefined when it is cut off.
 */
function valueEnd(head: string, at: number): number | undefined {
  const char = head[at];
  if (char === '"') return stringEnd(head, at);
  if (char !== "{" && char !== "[") {
    for (const token of [NUMBER, LITERAL]) {
      token.lastIndex = at;
      if (token.exec(head) !== null) return token.lastIndex;
    }
    return undefined;
  }
  let depth = 0;
  for (let i = at; i < head.length; i++) {
    const inner = head[i];
    if (inner === '"') {
      const end = stringEnd(head, i);
      if (end === undefined) return undefined;
      i = end - 1;
    } else if (inner === "{" || inner === "[") depth++;
    else if ((inner === "}" || inner === "]") && --depth === 0) return i + 1;
  }
  return undefined;
}

/** The first index from `at` that is not JSON white space. */
function space(head: string, at: number): number {
  while (at < head.length && " \t\n\r".includes(head[at]!)) at++;
  return at;
}

/**
 * The native session's token as the wire carries it: its header, its version prefix, how many
 * a client sends at once, and its fields read without verifying it (the server signs and checks
 * tokens in its native/token.ts).
 */

/**
 * The HTTP header that carries the native session's token both ways: the server sets it on each
 * answer (never chosen by a client); the client sends back the newest one it got.
 */
export const SESSION_HEADER = "zcp-session-id";

/**
 * The version prefix of a native session token: `z1.<payload>.<mac>`, the payload the base64url
 * of a JSON array whose first field is the token's revision (the server's native/token.ts).
 */
export const TOKEN_VERSION = "z1";

/**
 * Tokens of one session a client sends at once at most (comma-separated in `zcp-session-id`):
 * those of requests that each changed the state at the same time; a server refuses more.
 */
export const MAX_SESSION_TOKENS = 4;

/** The JSON fields of a session token's payload, unverified; undefined when it is not a token of this version. */
export function tokenFields(token: string): unknown[] | undefined {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== TOKEN_VERSION) return undefined;
  try {
    const base64 = parts[1]!.replace(/-/g, "+").replace(/_/g, "/");
    const text = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const fields: unknown = JSON.parse(text);
    return Array.isArray(fields) ? fields : undefined;
  } catch {
    return undefined;
  }
}

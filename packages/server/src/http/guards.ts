/**
 * The checks every endpoint that serves tools runs before anything else: the Host header must be
 * an allowed host and the Origin header, when there is one, an allowed origin (DNS-rebinding
 * protection; 403 otherwise); with a token, `Authorization: Bearer <token>` (401 with
 * `WWW-Authenticate: Bearer` otherwise). The Host checked is the header's, as the client sent it.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { json, jsonRpcError } from "./body.js";

/** The loopback names: the default allowed hosts, and the hosts of the default allowed origins. */
export const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

export interface GuardOptions {
  /** Host header values accepted: a name (any port) or `name:port` (that port only). Default: LOOPBACK. */
  readonly allowedHosts?: readonly string[];
  /** Origin header values accepted, exactly. Default: origins whose host is a loopback name. */
  readonly allowedOrigins?: readonly string[];
  /** A static bearer token every request must carry. Default: none (no check). */
  readonly token?: string;
}

/** The refusal of a request (403 or 401), or undefined when it may pass. */
export type Guard = (request: Request) => Response | undefined;

export function createGuard(options: GuardOptions): Guard {
  const hostAllowed = hostCheck(options.allowedHosts ?? LOOPBACK);
  const originAllowed = originCheck(options.allowedOrigins);
  const authorized = tokenCheck(options.token);
  return (request) => {
    const host = request.headers.get("host") ?? undefined;
    const origin = request.headers.get("origin") ?? undefined;
    const refusal = !hostAllowed(host)
      ? `Invalid Host header: ${String(host)}`
      : !originAllowed(origin)
        ? `Invalid Origin header: ${String(origin)}`
        : undefined;
    if (refusal !== undefined) return json(403, jsonRpcError(-32000, `Forbidden: ${refusal}`));
    if (!authorized(request.headers.get("authorization") ?? undefined)) {
      return json(401, jsonRpcError(-32000, "Unauthorized: a valid bearer token is required"), {
        "www-authenticate": 'Bearer realm="zcp"',
      });
    }
    return undefined;
  };
}

/** Whether an Authorization header carries the token (always true without one). */
function tokenCheck(token: string | undefined): (header: string | undefined) => boolean {
  if (token === undefined) return () => true;
  // Digests have equal lengths, so timingSafeEqual compares them without leaking the token's length.
  const expected = createHash("sha256").update(token, "utf8").digest();
  return (header) => {
    const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
    return (
      match !== null &&
      timingSafeEqual(createHash("sha256").update(match[1]!, "utf8").digest(), expected)
    );
  };
}

/** The host part of a Host header (`[::1]` keeps its brackets), lower-cased. */
function hostName(host: string): string {
  const text = host.toLowerCase();
  if (text.startsWith("[")) return text.slice(0, text.indexOf("]") + 1);
  const colon = text.indexOf(":");
  return colon === -1 ? text : text.slice(0, colon);
}

function hostCheck(allowed: readonly string[]): (host: string | undefined) => boolean {
  const exact = new Set(
    allowed.map((entry) => entry.toLowerCase()).filter((entry) => hostName(entry) !== entry),
  );
  const names = new Set(
    allowed.map((entry) => entry.toLowerCase()).filter((entry) => hostName(entry) === entry),
  );
  return (host) =>
    host !== undefined && (exact.has(host.toLowerCase()) || names.has(hostName(host)));
}

function originCheck(
  allowed: readonly string[] | undefined,
): (origin: string | undefined) => boolean {
  const exact = allowed && new Set(allowed.map((entry) => entry.toLowerCase().replace(/\/$/, "")));
  return (origin) => {
    if (origin === undefined) return true;
    if (exact) return exact.has(origin.toLowerCase());
    try {
      const url = new URL(origin);
      return (
        (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK.includes(url.hostname)
      );
    } catch {
      return false;
    }
  };
}

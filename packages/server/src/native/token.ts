/**
 * The native session over HTTP as a token the client returns: the session's state (its id,
 * stage, find format and found tools, a revision and an expiry), signed with HMAC-SHA-256 under
 * the server's secret and bound to the caller's identity, so that any replica holding the secret
 * serves any request from the token alone (nothing about the session is stored), the way MCP's
 * `requestState` is protected. The payload is readable (it is the client's own state; the
 * client reads the revision to keep the newest token); what the MAC forbids is changing it.
 *
 *   z1.<payload>.<mac>
 *   payload  base64url of the JSON [rev, expires, id, stage, findFormat, registry, found]
 *            rev       revision: one more each time the state changes (the client's
 *                      `SessionTokenJar` keeps the newest)
 *            stage     the client's stage; null when the stage is the server's (`clientStages:
 *                      false`: a token the client could replay must not carry it, http.ts)
 *            expires   ms since the epoch; each answer carries a token expiring one idle
 *                      timeout later
 *            registry  the first 12 hex digits of the registry's hash
 *            found     the found tools' positions in that registry, in the order found, base36,
 *                      "."-separated (a replica of another registry reads none of them)
 *   mac      base64url of HMAC-SHA-256(secret, DOMAIN ‖ "z1." ‖ payload ‖ NUL ‖ JSON(identity))
 *
 * The identity is in the MAC, not in the payload: a token names nobody, and one minted for
 * another identity (or none) does not verify. `open` answers undefined for any token it does
 * not accept (malformed, other version, other secret, other identity, expired), without saying
 * which: the caller answers each the same.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FindFormat, Registry } from "@zcp/runtime";
import { TOKEN_VERSION, tokenFields } from "@zcp/runtime/wire";

/** What a token carries. */
export interface TokenState {
  /** The runtime session's id: its handles are kept under it. */
  readonly id: string;
  readonly rev: number;
  readonly stage: string | null;
  readonly findFormat: FindFormat;
  /** Ids of the found tools, in the order found. */
  readonly found: readonly string[];
}

/**
 * Found tools a token carries at most: a discover session that found more keeps its first
 * `MAX_TOKEN_FOUND` in the token (about 4 KiB in a registry of 1,000 tools, 7 KiB in one of
 * 50,000), within the usual HTTP header limits (Node's 16 KiB).
 */
const MAX_TOKEN_FOUND = 1000;
/** A longer header is refused before any work (a token of `MAX_TOKEN_FOUND` tools is shorter). */
const MAX_TOKEN_CHARS = 12_288;
/** Secret bytes at least: a key as long as the MAC's hash output. */
const MIN_SECRET_BYTES = 32;
/**
 * Distinct byte values a secret must have at least: 32 random bytes have about 30, so fewer
 * means a pattern (`aaaa…`, a repeated word), not a random key.
 */
const MIN_DISTINCT_BYTES = 16;
/** Keeps these MACs apart from any other use of the same secret. */
const DOMAIN = "zcp-native-session\0";
const FIND_FORMATS: ReadonlySet<string> = new Set([
  "planner",
  "typescript",
  "openai-responses",
  "openai-chat",
  "anthropic",
  "gemini",
  "mcp",
]);

/** The message of a secret refused by `parseSecret` (the CLI and `NativeFetchOptions.secret`). */
export const SECRET_RULE = `must be at least ${MIN_SECRET_BYTES} random bytes, as hex (64 or more digits) or base64 (43 or more characters), e.g. the output of openssl rand -base64 32`;

/** The key a secret's text gives: hex when it is all hex digits, else base64 or base64url; or why it is refused. */
export function parseSecret(text: string): Buffer | string {
  const trimmed = text.trim();
  let key: Buffer | undefined;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(trimmed)) key = Buffer.from(trimmed, "hex");
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) key = Buffer.from(trimmed, "base64");
  if (key === undefined || key.length < MIN_SECRET_BYTES || new Set(key).size < MIN_DISTINCT_BYTES)
    return SECRET_RULE;
  return key;
}

/** A random secret, for a server given none: its tokens are good in this process only. */
export function randomSecret(): Buffer {
  return randomBytes(MIN_SECRET_BYTES);
}

/** Mints and opens the tokens of one registry under one secret. */
export class SessionTokens {
  readonly #registry: string;
  /** Tool id → its position in the registry, and back. */
  readonly #position: ReadonlyMap<string, number>;
  readonly #tools: readonly string[];

  constructor(
    private readonly secret: Uint8Array,
    registry: Registry,
    /** A token expires this long after it was minted (the idle timeout). */
    private readonly lifetimeMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.#registry = registry.hash.slice(0, 12);
    this.#tools = registry.tools.map((tool) => tool.id);
    this.#position = new Map(this.#tools.map((id, index) => [id, index]));
  }

  /** The token of `state` for `identity`, expiring one lifetime from now. */
  mint(state: TokenState, identity: string | null): string {
    const found = state.found
      .flatMap((id) => this.#position.get(id) ?? [])
      .slice(0, MAX_TOKEN_FOUND)
      .map((position) => position.toString(36))
      .join(".");
    const expires = this.now() + this.lifetimeMs;
    const fields = [
      state.rev,
      expires,
      state.id,
      state.stage,
      state.findFormat,
      this.#registry,
      found,
    ];
    const payload = Buffer.from(JSON.stringify(fields)).toString("base64url");
    return `${TOKEN_VERSION}.${payload}.${this.#mac(payload, identity).toString("base64url")}`;
  }

  /** The state of a token this server minted for `identity` and that has not expired; else undefined. */
  open(token: string, identity: string | null): TokenState | undefined {
    if (token.length > MAX_TOKEN_CHARS) return undefined;
    const parts = token.split(".");
    if (parts.length !== 3 || parts[0] !== TOKEN_VERSION) return undefined;
    const [, payload, mac] = parts as [string, string, string];
    const given = Buffer.from(mac, "base64url");
    const expected = this.#mac(payload, identity);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const [rev, expires, id, stage, findFormat, registry, found] = tokenFields(token) ?? [];
    // Minted here, so well-formed; checked all the same, as a secret may be shared by mistake.
    if (
      typeof rev !== "number" ||
      !Number.isSafeInteger(rev) ||
      typeof expires !== "number" ||
      expires <= this.now() ||
      typeof id !== "string" ||
      (stage !== null && typeof stage !== "string") ||
      typeof findFormat !== "string" ||
      !FIND_FORMATS.has(findFormat) ||
      typeof found !== "string"
    )
      return undefined;
    return {
      id,
      rev,
      stage,
      findFormat: findFormat as FindFormat,
      found: registry === this.#registry ? this.#ids(found) : [],
    };
  }

  /** The tool ids of a token's positions (those this registry does not have are left out). */
  #ids(found: string): string[] {
    if (found === "") return [];
    return found.split(".").flatMap((text) => this.#tools[parseInt(text, 36)] ?? []);
  }

  #mac(payload: string, identity: string | null): Buffer {
    return createHmac("sha256", this.secret)
      .update(`${DOMAIN}${TOKEN_VERSION}.${payload}\0${JSON.stringify(identity)}`)
      .digest();
  }
}

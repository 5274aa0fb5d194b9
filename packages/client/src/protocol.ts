/**
 * The native ZCP protocol's wire types and constants: what a client reads and a server
 * (`@zcp/server`) answers. No I/O here.
 */
import type { CallResult, JsonValue, ToolDefinition } from "@zcp/runtime";

/** The protocol version `initialize` answers. */
export const NATIVE_PROTOCOL_VERSION = "zcp/1";

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

/**
 * Tokens of one session a client sends at once at most (comma-separated in `zcp-session-id`):
 * those of requests that each changed the state at the same time; a server refuses more.
 */
export const MAX_SESSION_TOKENS = 4;

/**
 * The tokens of one native session a client holds, and sends back in `zcp-session-id`. Each
 * token has a revision, one more each time the session's state changed (a find, a stage, a find
 * format); the jar keeps the tokens of the highest revision it got:
 * - a lower revision is dropped: the answer of a request that changed nothing, arriving after
 *   one that found tools, does not take the found tools back;
 * - a token of the same revision and state as one held replaces it (a later expiry);
 * - one of the same revision and another state is kept beside it: two requests changed the
 *   state at once (two finds on two replicas). The server takes all of them in (the union of
 *   their found tools) and answers one token of a higher revision. At most
 *   `MAX_SESSION_TOKENS` (the oldest goes first).
 */
export class SessionTokenJar {
  #tokens: string[] = [];
  #revision = -1;

  /** The value of `zcp-session-id` to send; undefined before the first token. */
  get header(): string | undefined {
    return this.#tokens.length === 0 ? undefined : this.#tokens.join(", ");
  }

  keep(token: string): void {
    const fields = tokenFields(token);
    const rev = fields?.[0];
    // A token this client cannot read (another version): held alone, replaced by the next one.
    if (typeof rev !== "number" || !Number.isSafeInteger(rev) || rev < 0) {
      this.#tokens = [token];
      this.#revision = -1;
      return;
    }
    if (rev < this.#revision) return;
    if (rev > this.#revision) {
      this.#tokens = [token];
      this.#revision = rev;
      return;
    }
    const state = stateOf(fields!);
    const same = this.#tokens.findIndex((held) => stateOf(tokenFields(held) ?? []) === state);
    if (same >= 0) this.#tokens[same] = token;
    else this.#tokens = [...this.#tokens, token].slice(-MAX_SESSION_TOKENS);
  }

  clear(): void {
    this.#tokens = [];
    this.#revision = -1;
  }
}

/** A token's fields but its expiry (the second): what its state is. */
function stateOf(fields: readonly unknown[]): string {
  return JSON.stringify(fields.filter((_, index) => index !== 1));
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** Server errors (JSON-RPC's implementation-defined range). */
export const SERVER_ERROR = -32000;
export const SESSION_NOT_FOUND = -32001;

export type RequestId = string | number | null;

export interface RpcRequest {
  readonly jsonrpc: "2.0";
  readonly id?: RequestId;
  readonly method: string;
  readonly params?: { readonly [key: string]: unknown };
}

export interface RpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export type RpcResponse =
  | { readonly jsonrpc: "2.0"; readonly id: RequestId; readonly result: unknown }
  | { readonly jsonrpc: "2.0"; readonly id: RequestId; readonly error: RpcErrorObject };

// ---- method results -------------------------------------------------------------------------

/**
 * `compact`: planner lines; `typescript`: the API text (the tools as TypeScript declarations of
 * the `tools` object a `zcp.run` program calls, `zcp.run` itself left out); `json`: the tool
 * definitions; the others: the provider's tool entries.
 */
export type ListFormat =
  "compact" | "typescript" | "json" | "openai" | "openai-chat" | "anthropic" | "gemini";

export const LIST_FORMATS: readonly ListFormat[] = [
  "compact",
  "typescript",
  "json",
  "openai",
  "openai-chat",
  "anthropic",
  "gemini",
];

/**
 * The formats `initialize`'s `findFormat` takes, how `zcp.find_tools` lists the tools it found:
 * `compact`, their planner lines; `typescript`, one string in `tools`, their API text (as a
 * `typescript` listing renders it); a provider format, their entries as `tools/list` lists them
 * in that format.
 */
export type FindListFormat = Exclude<ListFormat, "json">;

export const FIND_FORMATS: readonly FindListFormat[] = [
  "compact",
  "typescript",
  "openai",
  "openai-chat",
  "anthropic",
  "gemini",
];

export interface InitializeParams {
  readonly protocolVersion?: string;
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** How the session's `zcp.find_tools` lists what it found (default `compact`: planner lines). */
  readonly findFormat?: FindListFormat;
}

export interface InitializeResult {
  readonly protocolVersion: typeof NATIVE_PROTOCOL_VERSION;
  readonly serverInfo: { readonly name: string; readonly version: string };
  readonly instructions?: string;
  /** `registry.hash`: every tool of the registry. */
  readonly registryHash: string;
  /** The hash of the session's exposed view (its surface's selection, in its stage). */
  readonly viewHash: string;
  readonly stage: string | null;
  readonly capabilities: {
    /**
     * `docs`: `tools/list` takes `docs: false` (compact listings without documentation); `lean`:
     * whether it takes `lean: true` (provider formats: the lean artifacts, when the server has them);
     * `findFormats`: the `findFormat`s `initialize` takes.
     */
    readonly tools: {
      readonly formats: readonly ListFormat[];
      readonly findFormats: readonly FindListFormat[];
      readonly knownHash: true;
      readonly clientFilters: boolean;
      readonly docs: true;
      readonly lean: boolean;
    };
    readonly handles: {
      readonly ops: readonly ("count" | "read" | "view" | "summary" | "release")[];
    };
    readonly stages: { readonly clientStages: boolean };
    readonly batch: { readonly maxSize: number };
  };
}

export interface ListToolsParams {
  readonly profile?: string;
  readonly groups?: readonly string[];
  readonly excludeGroups?: readonly string[];
  readonly stages?: readonly string[];
  /** Default `compact`. */
  readonly format?: ListFormat;
  /**
   * `compact` and `typescript` only: false lists the bare signatures (declarations), without
   * the tools' and parameters' first sentences (default true). The listing's hash then differs
   * from the documented one's.
   */
  readonly docs?: boolean;
  /**
   * Provider formats only: true lists the lean artifacts (first sentences, no constraints the
   * server's validators enforce; default false), when the server has them (`capabilities.tools.lean`).
   * The listing's hash then differs from the full one's.
   */
  readonly lean?: boolean;
  /**
   * The hash of a listing the client holds: answered with `{ unchanged: true, hash }` when the
   * listing asked for (same view and, for `docs: false` and `lean: true`, the same form) has it.
   */
  readonly knownHash?: string;
}

/** A tool definition as the `json` format lists it: everything but its source location. */
export type ToolListEntry = Omit<ToolDefinition, "source">;

export type ToolListing =
  | {
      readonly format: "compact";
      readonly hash: string;
      readonly count: number;
      readonly tools: string;
    }
  | {
      /** The API text: named types, then `declare const tools: {...};`. */
      readonly format: "typescript";
      readonly hash: string;
      /** The tools declared (the view's, but `zcp.run`). */
      readonly count: number;
      readonly tools: string;
    }
  | {
      readonly format: "json";
      readonly hash: string;
      readonly count: number;
      readonly tools: readonly ToolListEntry[];
    }
  | {
      readonly format: Exclude<ListFormat, "compact" | "typescript" | "json">;
      readonly hash: string;
      readonly count: number;
      readonly tools: readonly JsonValue[];
    };

export interface Unchanged {
  readonly unchanged: true;
  readonly hash: string;
}

export type ListToolsResult = ToolListing | Unchanged;

export interface StageResult {
  readonly stage: string | null;
  /** The hash of the session's new exposed view. */
  readonly hash: string;
}

export type { CallResult };

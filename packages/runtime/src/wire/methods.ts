/**
 * The native ZCP protocol's methods: the version `initialize` answers, the listing formats, and
 * each method's params and result as a client sends and reads them and a server answers them.
 */
import type { JsonValue, ToolDefinition } from "../definition/registry.js";
import type { CallResult } from "../results/result.js";

/** The protocol version `initialize` answers. */
export const NATIVE_PROTOCOL_VERSION = "zcp/1";

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
      readonly ops: readonly ("count" | "read" | "view" | "grep" | "summary" | "release")[];
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

/** `tools/call`'s result: the runtime's own, as it is. */
export type { CallResult };

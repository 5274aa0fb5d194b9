/**
 * The native ZCP dispatcher: JSON-RPC 2.0 over one runtime session, independent of the
 * transport. `handle(message)` takes a parsed message (or batch) and resolves to the response
 * (or batch of responses), or `undefined` when nothing is to be answered (notifications). It
 * never throws and never stops serving: bad input gets a JSON-RPC error.
 *
 *   initialize      server info, `zcp/1`, the registry hash, the session's view hash, capabilities
 *   tools/list      profile/groups/excludeGroups/stages, format, docs, lean, knownHash → listing or `{ unchanged, hash }`
 *   tools/call      name, arguments → the runtime's CallResult (tool errors are results)
 *   handles/count|read|view|summary|release   handle + op options → the store's answer (errors are results)
 *   session/stage   stage → `{ stage, hash }`
 *   session/close   ends the session (its handles are dropped)
 *   ping            `{}`
 */
import { createHash } from "node:crypto";
import {
  SelectionError,
  type ArtifactProvider,
  type Runtime,
  type Selection,
  type Session,
  type View,
} from "@zcp/runtime";
import {
  DEFAULT_MAX_BATCH,
  DEFAULT_MAX_DEPTH,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  LIST_FORMATS,
  METHOD_NOT_FOUND,
  NATIVE_PROTOCOL_VERSION,
  nestedDeeperThan,
  rpcError,
  rpcResult,
  SERVER_ERROR,
  type InitializeResult,
  type ListFormat,
  type ListToolsResult,
  type RequestId,
  type RpcResponse,
  type StageResult,
  type ToolListEntry,
} from "./protocol.js";

export interface NativeSessionOptions {
  /** `serverInfo.name` (default `zcp`). */
  readonly name?: string;
  /** `serverInfo.version` (default `0.1.0`). */
  readonly version?: string;
  /** Sent to the client in the `initialize` result. */
  readonly instructions?: string;
  /** The exposure-policy surface of the runtime session (default `native`). */
  readonly surface?: string;
  /** The session's initial stage. */
  readonly stage?: string;
  /** Whether the client may move the stage with `session/stage` (default true). */
  readonly clientStages?: boolean;
  /** Called with each new runtime session before the client can use it (e.g. to set its stage). */
  readonly onSession?: (session: Session) => void;
  /** Messages in one batch at most (default 50); a larger batch gets -32600. */
  readonly maxBatch?: number;
  /** Nesting levels of one message at most (default 64); deeper ones get -32600 before dispatch. */
  readonly maxDepth?: number;
  /** Unexpected errors (default: `console.error`, i.e. stderr). */
  readonly onError?: (error: unknown) => void;
}

export interface NativeSession {
  /** The runtime session behind this native session. */
  readonly session: Session;
  /** True once `close()` ran (or the client sent `session/close`). */
  readonly closed: boolean;
  /** Answers a parsed message or batch; `undefined` when there is nothing to answer. Never throws. */
  handle(message: unknown): Promise<RpcResponse | RpcResponse[] | undefined>;
  /** Ends the runtime session: its handles are dropped, later calls answer `cancelled`. */
  close(): Promise<void>;
}

/** Raised by a method handler for a JSON-RPC error answer. */
class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

type Params = { readonly [key: string]: unknown };

const PROVIDERS: { readonly [F in Exclude<ListFormat, "compact" | "json">]: ArtifactProvider } = {
  openai: "openai-responses",
  "openai-chat": "openai-chat",
  anthropic: "anthropic",
  gemini: "gemini",
};

const HANDLE_OPS = ["count", "read", "view", "summary", "release"] as const;

/** A native session: one runtime session (surface `native` by default) behind a JSON-RPC dispatcher. */
export function createNativeSession(
  runtime: Runtime,
  options: NativeSessionOptions = {},
): NativeSession {
  const session = runtime.session({
    surface: options.surface ?? "native",
    ...(options.stage !== undefined ? { stage: options.stage } : {}),
  });
  options.onSession?.(session);
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const clientStages = options.clientStages ?? true;
  const clientFilters = runtime.options.exposure?.clientFilters ?? true;
  const onError = options.onError ?? ((error: unknown) => console.error("zcp native:", error));
  let closed = false;

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await session.close();
  };

  const methods: { readonly [method: string]: (params: Params) => unknown } = {
    initialize: (): InitializeResult => ({
      protocolVersion: NATIVE_PROTOCOL_VERSION,
      serverInfo: { name: options.name ?? "zcp", version: options.version ?? "0.1.0" },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      registryHash: runtime.registry.hash,
      viewHash: session.exposed.hash,
      stage: session.stage,
      capabilities: {
        tools: {
          formats: LIST_FORMATS,
          knownHash: true,
          clientFilters,
          docs: true,
          lean: session.exposed.hasLeanArtifacts,
        },
        handles: { ops: HANDLE_OPS },
        stages: { clientStages },
        batch: { maxSize: maxBatch },
      },
    }),

    ping: () => ({}),

    "tools/list": (params): ListToolsResult => {
      const format = optionalString(params, "format") ?? "compact";
      if (!(LIST_FORMATS as readonly string[]).includes(format))
        throw new RpcFailure(
          INVALID_PARAMS,
          `Invalid params: unknown format "${format}" (known: ${LIST_FORMATS.join(", ")})`,
        );
      const docs = optionalBoolean(params, "docs") ?? true;
      const lean = optionalBoolean(params, "lean") ?? false;
      if (!docs && format !== "compact")
        throw new RpcFailure(
          INVALID_PARAMS,
          `Invalid params: docs: false applies to the compact format only, not ${format}`,
        );
      if (lean && (format === "compact" || format === "json")) {
        throw new RpcFailure(
          INVALID_PARAMS,
          `Invalid params: lean: true applies to the provider formats (${Object.keys(PROVIDERS).join(", ")}), not ${format}`,
        );
      }
      const knownHash = optionalString(params, "knownHash");
      const view = select(session, params);
      if (lean && !view.hasLeanArtifacts)
        throw new RpcFailure(
          INVALID_PARAMS,
          "Invalid params: lean: true, but this server has no lean artifacts (capabilities.tools.lean is false)",
        );
      const hash = listingHash(view, docs ? (lean ? "lean" : null) : "bare");
      if (knownHash !== undefined && knownHash === hash) return { unchanged: true, hash };
      return listing(view, format as ListFormat, hash, docs, lean);
    },

    "tools/call": async (params) => {
      const name = requiredString(params, "name");
      const args = params["arguments"];
      if (
        args !== undefined &&
        (args === null || typeof args !== "object" || Array.isArray(args))
      ) {
        throw new RpcFailure(
          INVALID_PARAMS,
          "Invalid params: arguments must be an object of named parameters",
        );
      }
      return session.call(name, args ?? {});
    },

    "handles/count": (params) =>
      runtime.handles.count(session.id, requiredString(params, "handle")),
    "handles/read": (params) => {
      const handle = requiredString(params, "handle");
      return runtime.handles.read(session.id, handle, pick(params, ["item", "fields"]));
    },
    "handles/view": (params) => {
      const handle = requiredString(params, "handle");
      return runtime.handles.view(session.id, handle, pick(params, ["columns", "offset", "limit"]));
    },
    "handles/summary": (params) =>
      runtime.handles.summary(session.id, requiredString(params, "handle")),
    "handles/release": (params) =>
      runtime.handles.release(session.id, requiredString(params, "handle")),

    "session/stage": (params): StageResult => {
      if (!clientStages)
        throw new RpcFailure(
          INVALID_PARAMS,
          "Invalid params: this server does not let clients change the stage",
        );
      if (!("stage" in params))
        throw new RpcFailure(
          INVALID_PARAMS,
          "Invalid params: stage is required (a string, or null for no stage)",
        );
      const stage = params["stage"];
      if (stage !== null && typeof stage !== "string")
        throw new RpcFailure(INVALID_PARAMS, "Invalid params: stage must be a string or null");
      session.setStage(stage);
      return { stage: session.stage, hash: session.exposed.hash };
    },

    "session/close": async () => {
      await close();
      return {};
    },
  };

  /** One message (not a batch): a response, or undefined for a notification. */
  const one = async (message: unknown): Promise<RpcResponse | undefined> => {
    if (message === null || typeof message !== "object" || Array.isArray(message))
      return rpcError(null, INVALID_REQUEST, "Invalid Request: a message must be a JSON object");
    const record = message as Params;
    const rawId = record["id"];
    const idValid =
      rawId === undefined ||
      rawId === null ||
      typeof rawId === "string" ||
      (typeof rawId === "number" && Number.isFinite(rawId));
    const id: RequestId = idValid && rawId !== undefined ? (rawId as RequestId) : null;
    if (!idValid)
      return rpcError(
        null,
        INVALID_REQUEST,
        "Invalid Request: id must be a string, a number or null",
      );
    if (record["jsonrpc"] !== "2.0")
      return rpcError(id, INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"');
    const method = record["method"];
    if (typeof method !== "string")
      return rpcError(id, INVALID_REQUEST, "Invalid Request: method must be a string");
    if (nestedDeeperThan(message, maxDepth))
      return rpcError(
        id,
        INVALID_REQUEST,
        `Invalid Request: the message nests deeper than ${maxDepth} levels`,
      );
    const notification = !("id" in record);
    const params = record["params"];
    let response: RpcResponse;
    if (
      params !== undefined &&
      (params === null || typeof params !== "object" || Array.isArray(params))
    ) {
      response = rpcError(
        id,
        INVALID_PARAMS,
        "Invalid params: params must be an object of named parameters",
      );
    } else if (!Object.hasOwn(methods, method)) {
      response = rpcError(id, METHOD_NOT_FOUND, `Method not found: ${method}`);
    } else if (closed && method !== "ping") {
      response = rpcError(id, SERVER_ERROR, "Session closed: start a new session with initialize");
    } else {
      try {
        response = rpcResult(id, await methods[method]!((params ?? {}) as Params));
      } catch (error) {
        if (error instanceof RpcFailure) response = rpcError(id, error.code, error.message);
        else if (error instanceof SelectionError)
          response = rpcError(id, INVALID_PARAMS, `Invalid params: ${error.message}`);
        else {
          onError(error);
          response = rpcError(id, INTERNAL_ERROR, "Internal error");
        }
      }
    }
    return notification ? undefined : response;
  };

  const handle = async (message: unknown): Promise<RpcResponse | RpcResponse[] | undefined> => {
    try {
      if (!Array.isArray(message)) return await one(message);
      if (message.length === 0)
        return rpcError(null, INVALID_REQUEST, "Invalid Request: empty batch");
      if (message.length > maxBatch)
        return rpcError(
          null,
          INVALID_REQUEST,
          `Invalid Request: batch too large (at most ${maxBatch} messages)`,
        );
      // In order: a batch may initialize, call a tool and read its handle.
      const responses: RpcResponse[] = [];
      for (const element of message) {
        const response = await one(element);
        if (response) responses.push(response);
      }
      return responses.length > 0 ? responses : undefined;
    } catch (error) {
      onError(error);
      return rpcError(null, INTERNAL_ERROR, "Internal error");
    }
  };

  return {
    session,
    get closed() {
      return closed;
    },
    handle,
    close,
  };
}

function select(session: Session, params: Params): View {
  const selection: { -readonly [K in keyof Selection]: Selection[K] } = {};
  const profile = optionalString(params, "profile");
  if (profile !== undefined) selection.profile = profile;
  for (const key of ["groups", "excludeGroups", "stages"] as const) {
    const value = params[key];
    if (value === undefined) continue;
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string"))
      throw new RpcFailure(INVALID_PARAMS, `Invalid params: ${key} must be an array of strings`);
    selection[key] = value as string[];
  }
  return session.select(selection);
}

/**
 * The hash of a listing: the view's for the default forms (documented planner lines, full
 * artifacts), so that it equals `initialize`'s `viewHash` and `session/stage`'s `hash`; for a
 * `docs: false` or `lean: true` listing the view's combined with the form, so that a hash known
 * from one form never passes for the other.
 */
function listingHash(view: View, form: "bare" | "lean" | null): string {
  return form === null
    ? view.hash
    : createHash("sha256").update(`${view.hash}:${form}`).digest("hex").slice(0, 12);
}

function listing(
  view: View,
  format: ListFormat,
  hash: string,
  docs: boolean,
  lean: boolean,
): ListToolsResult {
  const count = view.tools.length;
  if (format === "compact") return { format, hash, count, tools: view.plannerText({ docs }) };
  if (format === "json") {
    const tools: ToolListEntry[] = view.tools.map(({ source: _source, ...rest }) => rest);
    return { format, hash, count, tools };
  }
  const entries = view.artifacts(PROVIDERS[format], { lean });
  return { format, hash, count: entries.length, tools: entries as never };
}

function optionalBoolean(params: Params, key: string): boolean | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== "boolean")
    throw new RpcFailure(INVALID_PARAMS, `Invalid params: ${key} must be a boolean`);
  return value;
}

function optionalString(params: Params, key: string): string | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string")
    throw new RpcFailure(INVALID_PARAMS, `Invalid params: ${key} must be a string`);
  return value;
}

function requiredString(params: Params, key: string): string {
  const value = optionalString(params, key);
  if (value === undefined)
    throw new RpcFailure(INVALID_PARAMS, `Invalid params: ${key} is required`);
  return value;
}

/** The op options present in params, passed on as they are: the store answers bad ones with `invalid:<option>` results. */
function pick(params: Params, keys: readonly string[]): { [key: string]: never } {
  const out: { [key: string]: unknown } = {};
  for (const key of keys) if (params[key] !== undefined) out[key] = params[key];
  return out as { [key: string]: never };
}

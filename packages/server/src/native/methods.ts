/**
 * The native protocol's methods over one runtime session: what each JSON-RPC method answers,
 * given its params (message validation, batches and errors are session.ts's). A handler throws
 * `RpcFailure` for a JSON-RPC error answer; a `SelectionError` becomes -32602 there too.
 */
import { createHash } from "node:crypto";
import {
  clip,
  type ArtifactProvider,
  type CallerIdentity,
  type FindFormat,
  type Runtime,
  type Selection,
  type Session,
  type View,
} from "@zcp/runtime";
import { CODE_TOOL_ALIAS } from "@zcp/runtime/definition";
import {
  FIND_FORMATS,
  INVALID_PARAMS,
  LIST_FORMATS,
  NATIVE_PROTOCOL_VERSION,
  type InitializeResult,
  type ListFormat,
  type ListToolsResult,
  type RequestId,
  type StageResult,
  type ToolListEntry,
} from "@zcp/runtime/wire";

/** Raised by a method handler for a JSON-RPC error answer. */
export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export type Params = { readonly [key: string]: unknown };

const PROVIDERS: {
  readonly [F in Exclude<ListFormat, "compact" | "typescript" | "json">]: ArtifactProvider;
} = {
  openai: "openai-responses",
  "openai-chat": "openai-chat",
  anthropic: "anthropic",
  gemini: "gemini",
};

const HANDLE_OPS = ["count", "read", "view", "grep", "summary", "release"] as const;

/**
 * A method's handler; `signal` aborts when the request is cancelled (used by `tools/call`);
 * `reserve` takes bytes of the response budget ahead for an answer whose size is known before
 * it is made (budget.ts), and throws `ResponseTooLarge` when they do not fit.
 */
export type Method = (
  params: Params,
  signal: AbortSignal | undefined,
  reserve: (bytes: number) => Promise<void>,
) => unknown;

/** What `initialize` says of the server; part of `NativeSessionOptions` (session.ts). */
export interface InitializeOptions {
  /** `serverInfo.name` (default `zcp`). */
  readonly name?: string;
  /** `serverInfo.version` (default `0.1.0`). */
  readonly version?: string;
  /** Sent to the client in the `initialize` result. */
  readonly instructions?: string;
}

/** What the methods of one native session share. */
export interface MethodContext {
  readonly runtime: Runtime;
  readonly session: Session;
  readonly options: InitializeOptions;
  /** Who makes the session's calls (`ctx.caller`); undefined: anonymous. */
  readonly caller: CallerIdentity | undefined;
  readonly maxBatch: number;
  readonly clientStages: boolean;
  readonly clientFilters: boolean;
  close(): Promise<void>;
  /** Cancels the running `tools/call` of that request id, if any. */
  cancel(requestId: RequestId): void;
}

export function nativeMethods(context: MethodContext): { readonly [method: string]: Method } {
  const { runtime, session, options, caller, maxBatch, clientStages, clientFilters } = context;
  const { close, cancel } = context;
  return {
    initialize: (params): InitializeResult => {
      const findFormat = optionalString(params, "findFormat");
      if (findFormat !== undefined) session.setFindFormat(findFormatOf(findFormat));
      return {
        protocolVersion: NATIVE_PROTOCOL_VERSION,
        serverInfo: { name: options.name ?? "zcp", version: options.version ?? "0.1.0" },
        ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
        registryHash: runtime.registry.hash,
        viewHash: session.exposed.hash,
        stage: session.stage,
        capabilities: {
          tools: {
            formats: LIST_FORMATS,
            findFormats: FIND_FORMATS,
            knownHash: true,
            clientFilters,
            docs: true,
            // Lean entries are derived from the registry like the full ones: always there.
            lean: true,
          },
          handles: { ops: HANDLE_OPS },
          stages: { clientStages },
          batch: { maxSize: maxBatch },
        },
      };
    },

    ping: () => ({}),

    "tools/list": (params) => listTools(session, params),

    "tools/call": async (params, signal, reserve) => {
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
      const maxResultTokens = params["maxResultTokens"];
      if (
        maxResultTokens !== undefined &&
        !(Number.isSafeInteger(maxResultTokens) && (maxResultTokens as number) >= 1)
      )
        throw new RpcFailure(
          INVALID_PARAMS,
          "Invalid params: maxResultTokens must be a whole number from 1",
        );
      // `zcp.handle` reserves what it reads, as `handles/read` does.
      return session.call(name, args ?? {}, {
        ...(signal ? { signal } : {}),
        ...(maxResultTokens !== undefined ? { maxResultTokens: maxResultTokens as number } : {}),
        ...(caller ? { caller } : {}),
        reserve,
      });
    },

    "handles/count": (params) =>
      runtime.handles.count(session.id, requiredString(params, "handle")),
    // The value's size is reserved before it is read: a read the request cannot afford is refused first.
    "handles/read": (params, _signal, reserve) => {
      const handle = requiredString(params, "handle");
      return runtime.handles.read(session.id, handle, pick(params, ["item", "fields"]), reserve);
    },
    "handles/view": (params, _signal, reserve) => {
      const handle = requiredString(params, "handle");
      return runtime.handles.view(
        session.id,
        handle,
        pick(params, ["columns", "offset", "limit", "start", "length"]),
        reserve,
      );
    },
    "handles/grep": (params, _signal, reserve) => {
      const handle = requiredString(params, "handle");
      return runtime.handles.grep(session.id, handle, pick(params, ["text", "limit"]), reserve);
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

    // A notification (nothing is answered); sent as a request, it answers `{}`.
    "notifications/cancelled": (params) => {
      const requestId = params["requestId"];
      if (
        typeof requestId !== "string" &&
        !(typeof requestId === "number" && Number.isFinite(requestId))
      )
        throw new RpcFailure(
          INVALID_PARAMS,
          "Invalid params: requestId must be a string or a number",
        );
      cancel(requestId);
      return {};
    },
  };
}

/** The runtime's find format for an `initialize` `findFormat`: a list format but `json`. */
function findFormatOf(format: string): FindFormat {
  if (format === "compact") return "planner";
  if (format === "typescript") return "typescript";
  if (Object.hasOwn(PROVIDERS, format)) return PROVIDERS[format as keyof typeof PROVIDERS];
  throw new RpcFailure(
    INVALID_PARAMS,
    `Invalid params: unknown findFormat "${clip(format)}" (known: ${FIND_FORMATS.join(", ")})`,
  );
}

/** `tools/list`: the view narrowed by the params, in the format and form asked for, or `{ unchanged }`. */
function listTools(session: Session, params: Params): ListToolsResult {
  const format = optionalString(params, "format") ?? "compact";
  if (!(LIST_FORMATS as readonly string[]).includes(format))
    throw new RpcFailure(
      INVALID_PARAMS,
      `Invalid params: unknown format "${format}" (known: ${LIST_FORMATS.join(", ")})`,
    );
  const docs = optionalBoolean(params, "docs") ?? true;
  const lean = optionalBoolean(params, "lean") ?? false;
  if (!docs && format !== "compact" && format !== "typescript")
    throw new RpcFailure(
      INVALID_PARAMS,
      `Invalid params: docs: false applies to the compact and typescript formats only, not ${format}`,
    );
  if (lean && (format === "compact" || format === "typescript" || format === "json")) {
    throw new RpcFailure(
      INVALID_PARAMS,
      `Invalid params: lean: true applies to the provider formats (${Object.keys(PROVIDERS).join(", ")}), not ${format}`,
    );
  }
  const knownHash = optionalString(params, "knownHash");
  const view = select(session, params);
  const hash = listingHash(view, docs ? (lean ? "lean" : null) : "bare");
  if (knownHash !== undefined && knownHash === hash) return { unchanged: true, hash };
  return listing(view, format as ListFormat, hash, docs, lean);
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
  if (format === "typescript") {
    const declared = view.tools.filter((tool) => tool.alias !== CODE_TOOL_ALIAS).length;
    return { format, hash, count: declared, tools: view.declarations({ docs }) };
  }
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

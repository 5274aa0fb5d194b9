/**
 * What the runtime, its sessions and the call pipeline share: the generated module, the
 * options, and the narrow interfaces a session and a call see of the runtime (`SessionHost`)
 * and of their session (`Caller`), so that none of them imports another's class. A built-in's
 * contract (`Builtin`, and `BuiltinCaller`, what it sees of its session) is here too: the
 * runtime holds the built-ins and they reach the runtime, so these types name each other.
 */
import type { CallOptions, Pending } from "./call-types.js";
import type { CodeRunner } from "./code-runner.js";
import type { ToolContext } from "../codegen/context.js";
import type { GeneratedModule } from "../codegen/module.js";
import type { FeatureErrorSink } from "../features/features.js";
import type { FindFormat, FindHost, FindOptions, FoundTool } from "../definition/find/find.js";
import type { HandleIdForm, HandleStore, HandleStoreOptions } from "../handles/store.js";
import type { JsonValue, ToolDefinition } from "../definition/registry.js";
import type { CallResult } from "../results/result.js";
import type { SessionStore } from "./state.js";
import type { BuiltinTool, Selection, View } from "../definition/view.js";

export type { GeneratedModule };

/**
 * The server owner's exposure policy. Each surface (e.g. `mcp`, `native`) starts from its own
 * default selection; clients may narrow it with their own filters when `clientFilters` is on,
 * never widen it; a call to a tool outside the session's exposed set is refused.
 */
export interface ExposurePolicy {
  /** Default selection per surface name; `"*"` applies to surfaces without their own. */
  readonly defaults?: { readonly [surface: string]: Selection };
  /** Whether `session.select` may narrow the listing (default true). */
  readonly clientFilters?: boolean;
  /**
   * Whether every view lists `zcp.find_tools` (default: only the views of a `discover` profile,
   * which always do).
   */
  readonly find?: boolean;
}

export interface RuntimeOptions {
  readonly exposure?: ExposurePolicy;
  /** Handle store settings, or a store shared with other runtimes. */
  readonly handles?: HandleStoreOptions | HandleStore;
  /**
   * Where session states are kept so that other runtimes (replicas) can `resume` the sessions
   * this one started; without it nothing is stored and sessions live in this process only.
   */
  readonly sessions?: SessionStore;
  /**
   * `auto` results up to this many tokens (estimated: `estimateTokens`, on a string's text or
   * another value's compact JSON) are inline, larger ones become a handle whose first page is
   * inline (default 8000, `DEFAULT_MAX_RESULT_TOKENS`); a tool's `@maxResultTokens` and a call's
   * `maxResultTokens` may only lower it. `Infinity` keeps every `auto` result inline. A whole
   * number from 1 or `Infinity`, else `createRuntime` throws a RangeError.
   */
  readonly maxResultTokens?: number;
  /** Calls one session may run at once (default 8); more answer `busy`. */
  readonly maxConcurrentCalls?: number;
  /** Time limit of a call unless the caller gives one (default 30 s). */
  readonly timeoutMs?: number;
  /** Decides calls of tools flagged `approval`; without it they answer `approval_required`. */
  readonly approve?: (
    tool: ToolDefinition,
    args: { readonly [name: string]: unknown },
    session: Caller,
  ) => boolean | Promise<boolean>;
  /**
   * Receives what a tool threw (the model only sees `exec:error`; a `ToolError`, or an error
   * type the tool declares with `@throws`, is the tool's own answer and is not reported).
   * Default: console.error.
   */
  readonly onToolError?: (error: unknown, tool: ToolDefinition, session: Caller) => void;
  /**
   * Receives what an author's prompt, resource or completion function threw, or the shape it
   * returned that is not one (the client gets an error that names no detail). Default: console.error.
   */
  readonly onFeatureError?: FeatureErrorSink;
  /**
   * What the model is told of a throw that `onToolError` receives: a text (the hint of
   * `exec:error`, control characters replaced and cut to 300 characters), or undefined to tell
   * nothing ("the details are in the server's log"). It decides for every such throw, so it
   * must not pass on a message it does not know to be safe. Default: `systemErrorHint`, Node's
   * system errors by code and fixed words (`ENOENT: no such file or directory (open)`), never
   * their message, which names paths and hosts.
   */
  readonly exposeError?: (
    error: unknown,
    tool: ToolDefinition,
    session: Caller,
  ) => string | undefined;
  /**
   * The server's configuration, which every tool taking a `ToolContext` reads as
   * `context.config` (JSON data when it crosses to worker threads). Default: undefined.
   */
  readonly config?: unknown;
  /** Runs the tools elsewhere (e.g. worker threads); default: in this thread. */
  readonly executor?: ToolExecutor;
  /** Arguments nested deeper than this answer `invalid:<path>` (default 64). */
  readonly maxArgumentDepth?: number;
  /** A result whose compact JSON is larger answers `exec:too_large` (default 16 MiB). */
  readonly maxResultBytes?: number;
  /**
   * Code mode: runs the programs of the built-in `zcp.run`, which every view lists when this is
   * set (never otherwise), e.g. `@zcp/code`'s `createCodeRunner()`.
   */
  readonly code?: CodeRunner;
}

/**
 * Runs tool calls elsewhere than in the runtime's thread. Every call goes through it but the
 * runtime's own `zcp.handle`; the pipeline keeps the time limit and answers `timeout` or
 * `cancelled` itself, and holds the call's concurrency slot until the promise settles.
 */
export interface ToolExecutor {
  /**
   * Runs one call of `tool` elsewhere (e.g. a worker thread) and resolves with what its
   * dispatcher returned, or rejects with what it threw (a ToolError included). `context.signal`
   * aborts on cancel, timeout or session close: the executor must then stop the work and settle.
   * `call` (always given by the runtime) carries the call's limits, and lets an executor that
   * queues calls keep the time limit from running while the call waits.
   */
  execute(
    tool: ToolDefinition,
    args: { readonly [name: string]: unknown },
    context: ToolContext,
    call?: ExecutedCall,
  ): Promise<unknown>;
}

/** What the pipeline tells an executor about one call, and what the executor tells it back. */
export interface ExecutedCall {
  /** The call's time limit, in ms (it runs from `started()`, or from the call's start). */
  readonly timeoutMs: number;
  /**
   * The result's limit (`maxResultBytes`): an executor that runs the tool in another thread
   * refuses a larger result there (`exec:too_large`), before it crosses.
   */
  readonly maxResultBytes: number;
  /** The call waits (e.g. for a worker): its time limit does not run until `started()`. */
  queued(): void;
  /** The tool starts: a `queued()` call's time limit runs from now. */
  started(): void;
}

export interface SessionOptions {
  /** The surface the session is served on, for the exposure policy (default `native`). */
  readonly surface?: string;
  /** Initial stage. */
  readonly stage?: string;
  /**
   * How `zcp.find_tools` lists what it found (default `"planner"` on the `native` surface,
   * `"mcp"` on every other); `session.setFindFormat` changes it later.
   */
  readonly findFormat?: FindFormat;
  /** The surface's own data, stored with the session's state (`session.data`). */
  readonly data?: JsonValue;
  /**
   * The stateless form (MCP 2026-07-28): the exposed view is chosen once, from the surface and
   * the stage, and never changes (no `onChange`, `setStage` throws). A discover view lists
   * `zcp.find_tools`, whose finds add nothing, and `zcp.call_tool`, which calls what they found.
   * Default false: the view follows the stage and grows with finds.
   */
  readonly fixed?: boolean;
  /**
   * The session's id, as the surface derives it (e.g. from the caller's authorization), instead
   * of a new random one: a `Session` with the same id (another request, another replica sharing
   * the handle store) reads the same handles. Close such a session with `{ keep: true }`, or its
   * handles are dropped for every `Session` of that id.
   */
  readonly id?: string;
  /**
   * The form of the handle ids this session makes: `"short"` (default), a counter per session
   * (`#T1`), for a session only its own caller can use; `"random"`, at least 96 random bits
   * (`#T` and 30 digits), for a session whose id callers share (anonymous callers on the
   * stateless protocol), where an id must grant nothing by itself.
   */
  readonly handleIds?: HandleIdForm;
}

/** The session a call belongs to, as approval and error hooks see it. */
export interface Caller {
  readonly id: string;
  /** The surface the session is served on (`mcp`, `native`, ...). */
  readonly surface: string;
  readonly stage: string | null;
}

/** What a session and its calls need of the runtime. */
export interface SessionHost extends FindHost {
  readonly generated: GeneratedModule;
  readonly options: RuntimeOptions;
  readonly handles: HandleStore;
  /** The runtime's built-in tools, in view order. */
  readonly builtins: readonly Builtin[];
  /** The built-in of that id, if it is one. */
  builtin(id: string): Builtin | undefined;
  /** The surface's default selection (the exposure policy's). */
  selectionFor(surface: string): Selection;
}

/** What decides which built-ins a view lists (builtins/table.ts). */
export interface ViewRules {
  /** The surface's exposure is a `discover` profile: the session finds its tools. */
  readonly discover: boolean;
  /** The session is fixed (the stateless form): its view never changes. */
  readonly fixed: boolean;
  /** The exposure policy's `find`: every view lists `zcp.find_tools`. */
  readonly find: boolean;
  /** The runtime has a `CodeRunner`. */
  readonly code: boolean;
  /** A tool the view lets the client call (listed, or through `zcp.call_tool`) makes or takes handles. */
  readonly handles: boolean;
}

/**
 * What a built-in's `run` sees of the session that calls it. Not the session itself: `invoke`
 * calls a tool the view does not list, which only a built-in may ask for.
 */
export interface BuiltinCaller {
  /** The session, as approval and error hooks see it. */
  readonly caller: Caller;
  readonly host: SessionHost;
  /** The session's exposed view, as it is now. */
  readonly exposed: View;
  readonly fixed: boolean;
  readonly findFormat: FindFormat;
  /** Aborts when the session closes. */
  readonly closing: AbortSignal;
  /** Whether `find` may return `tool` in the session's stage: the tools `zcp.call_tool` may call. */
  findable(tool: ToolDefinition): boolean;
  find(query: string, options: FindOptions): FoundTool[];
  /** Adds found tools to a discover view (see `Session.expose`): how many became exposed. */
  expose(tools: readonly ToolDefinition[]): number;
  /**
   * `Session.call`, made by the built-in for the model: the name resolved and checked against
   * the exposed view; a tool that declares `x-mcp-header` answers `forbidden:<alias>`, since
   * only a direct call carries its headers (`header-params.ts`).
   */
  call(name: string, args: unknown, options: CallOptions): Promise<CallResult>;
  /**
   * A call of `tool` past the exposure check, made by the built-in for the model: a tool that
   * declares `x-mcp-header` answers `forbidden:<alias>`, as in `call`; else the concurrency
   * limit, then the call runs.
   */
  invoke(tool: ToolDefinition, args: unknown, options: CallOptions): Promise<CallResult>;
}

export interface Builtin {
  /** The id of every form (`zf`, `zc`, `zr`, `zh`). */
  readonly id: string;
  /** The form names resolve to (`Runtime.tool`); a view may list another form of it. */
  readonly tool: BuiltinTool;
  /** The form a view under `rules` lists, and whether before the registry's tools; undefined: not listed. */
  list(rules: ViewRules): { readonly tool: BuiltinTool; readonly first: boolean } | undefined;
  /**
   * Whether a call holds one of the session's call slots (`maxConcurrentCalls`) while it runs;
   * false for one that answers at once or whose work is another call (which holds its own).
   */
  readonly slot: boolean;
  run(session: BuiltinCaller, args: unknown, options: CallOptions): CallResult | Pending;
}

/**
 * A session: one client's isolated state (id, stage, exposed view, running calls). A call is
 * resolved by name, checked against the exposed view and the concurrency limit here, then run by
 * the session's `CallPipeline` (call.ts). Errors are values.
 *
 * A call holds its concurrency slot until its tool has stopped, not merely until it answered:
 * a tool that ignores its signal after a timeout or cancel still runs, and cancel-and-resubmit
 * must not run more than the limit at once.
 */
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { CallPipeline, closedAnswer, forbiddenTool, unknownTool } from "./call.js";
import { Pending, type CallOptions } from "./call-types.js";
import { DEFAULT_MAX_RESULT_TOKENS } from "./result-budget.js";
import { ARTIFACT_PROVIDERS } from "../definition/artifacts/index.js";
import { clip } from "../results/clip.js";
import {
  findTools,
  type FindFormat,
  type FindOptions,
  type FoundTool,
} from "../definition/find/find.js";
import { makesOrTakesHandles } from "../handles/handle.js";
import { calledOnlyDirectly, declaresHeaders } from "./header-params.js";
import type { HandleIdForm } from "../handles/store.js";
import type { Builtin, BuiltinCaller, Caller, SessionHost, ViewRules } from "./host.js";
import type { JsonValue, ToolDefinition } from "../definition/registry.js";
import { failure, type CallError, type CallResult } from "../results/result.js";
import { mergeStates, parseState } from "./merge.js";
import { stateJson, type SessionState } from "./state.js";
import {
  applySelection,
  DISCOVER,
  inStage,
  View,
  type BuiltinTool,
  type Selection,
} from "../definition/view.js";

export type { CallOptions } from "./call-types.js";
export type { FindOptions, FoundTool } from "../definition/find/find.js";

type ChangeListener = (view: View) => void;

/** What a session starts from besides its surface, stage and find format (`runtime.resume` gives all). */
export interface SessionStart {
  /** A stored session's id; a new random one otherwise. */
  readonly id?: string;
  readonly data?: JsonValue;
  /** The tools found so far, in the order found. */
  readonly found?: readonly ToolDefinition[];
  /** The state as loaded from the store (`stateJson`), so that `save` writes only changes. */
  readonly saved?: string;
  /** `SessionOptions.fixed`. */
  readonly fixed?: boolean;
  /** `SessionOptions.handleIds`. */
  readonly handleIds?: HandleIdForm;
}

export interface CloseOptions {
  /**
   * Unloads the session from this process only: its calls end as on any close, but its handles
   * and stored state stay for another replica to resume. Default false: the session ends.
   */
  readonly keep?: boolean;
}

const DEFAULT_MAX_CONCURRENT = 8;
const HANDLE_ID_FORMS: readonly HandleIdForm[] = ["short", "random"];
/** Saves of one state that may each find it changed by another replica before `save` gives up. */
const MAX_SAVE_ATTEMPTS = 8;

export class Session implements Caller {
  /** Random (crypto): a session id is never guessable; or the one the surface gave (`SessionOptions.id`). */
  readonly id: string;
  /** `SessionOptions.fixed`: the view never changes. */
  readonly fixed: boolean;
  private currentStage: string | null;
  private exposedView: View;
  private active = 0;
  private readonly listeners = new Set<ChangeListener>();
  private closed = false;
  /** Aborted by `close()`: the pipeline stops running tools and starts no new ones. */
  private readonly closing = new AbortController();
  /** Answers the asynchronous calls in progress `cancelled` when the session closes. */
  private readonly inProgress = new Set<() => void>();
  private readonly pipeline: CallPipeline;
  /** `profile: "discover"`: the view holds the found tools only. */
  private readonly discover: boolean;
  /** The tools found so far, in the order found (a discover view lists them in this order). */
  private found: ToolDefinition[];
  /** How `zcp.find_tools` lists what it found. */
  private currentFindFormat: FindFormat;
  private currentData: JsonValue | undefined;
  /** `stateJson` of what the store holds, as far as this process knows (`save` skips equal states). */
  private saved: string | undefined;
  /** What the session's built-ins see of it (`invoke` is for them only). */
  private readonly inside: BuiltinCaller;
  /** The tools `find` may return in a fixed session's stage (which never changes), made on first use. */
  private findableTools: ReadonlySet<ToolDefinition> | undefined;

  constructor(
    private readonly runtime: SessionHost,
    readonly surface: string,
    stage: string | null,
    findFormat?: FindFormat,
    start: SessionStart = {},
  ) {
    if (start.id !== undefined && (typeof start.id !== "string" || start.id === ""))
      throw new TypeError("a session id must be a non-empty string");
    if (start.handleIds !== undefined && !HANDLE_ID_FORMS.includes(start.handleIds))
      throw new TypeError(
        `unknown handle id form "${clip(String(start.handleIds))}" (known: ${HANDLE_ID_FORMS.join(", ")})`,
      );
    this.id = start.id ?? randomUUID();
    this.fixed = start.fixed === true;
    this.found = [...(start.found ?? [])];
    this.currentData = start.data;
    this.saved = start.saved;
    this.currentStage = stage;
    this.currentFindFormat = surface === "native" ? "planner" : "mcp";
    if (findFormat !== undefined) this.setFindFormat(findFormat);
    // Each running asynchronous call listens to it: as many as `maxConcurrentCalls`, no leak.
    setMaxListeners(Infinity, this.closing.signal);
    this.pipeline = new CallPipeline(runtime, this, this.closing.signal, start.handleIds);
    this.discover = runtime.selectionFor(surface).profile === DISCOVER;
    this.inside = this.builtinCaller();
    this.exposedView = this.computeExposed();
  }

  /** Calls whose tools have not stopped yet (each holds one of `maxConcurrentCalls`). */
  get running(): number {
    return this.active;
  }

  get stage(): string | null {
    return this.currentStage;
  }

  /**
   * How `zcp.find_tools` lists the tools it found: `"planner"`, their planner lines;
   * `"typescript"`, their API text (one string); a provider, its artifact entries for them.
   * Default `"planner"` on the `native` surface, else `"mcp"`.
   */
  get findFormat(): FindFormat {
    return this.currentFindFormat;
  }

  /**
   * Sets `findFormat`; a value that is neither `"planner"`, `"typescript"` nor a provider throws
   * a TypeError.
   */
  setFindFormat(format: FindFormat): void {
    if (format !== "planner" && format !== "typescript" && !ARTIFACT_PROVIDERS.includes(format))
      throw new TypeError(
        `unknown find format "${clip(String(format))}" (known: planner, typescript, ${ARTIFACT_PROVIDERS.join(", ")})`,
      );
    this.currentFindFormat = format;
  }

  /**
   * The tools this session may call: the surface's default selection, in the current stage; with
   * `profile: "discover"`, only the tools found so far among them (and the built-in tools).
   */
  get exposed(): View {
    return this.exposedView;
  }

  /**
   * A listing for the client: the exposed set narrowed by `selection` (ignored when the server
   * does not allow client filters). Never wider than `exposed`.
   */
  select(selection: Selection = {}): View {
    if (this.runtime.options.exposure?.clientFilters === false) return this.exposedView;
    return this.view(applySelection(this.exposedView.selected, selection));
  }

  /** The surface's own data, kept with the session's state (MCP: the initialize request). */
  get data(): JsonValue | undefined {
    return this.currentData;
  }

  setData(data: JsonValue | undefined): void {
    this.currentData = data;
  }

  /** A snapshot of what a replica needs to continue the session (what `save` stores). */
  get state(): SessionState {
    return {
      surface: this.surface,
      stage: this.currentStage,
      found: this.found.map((tool) => tool.id),
      findFormat: this.currentFindFormat,
      ...(this.currentData === undefined ? {} : { data: this.currentData }),
    };
  }

  /**
   * Writes `state` to the runtime's session store when it differs from what was last saved or
   * loaded; true without a store. When another replica saved the session meanwhile, its changes
   * and this one's are merged (`mergeStates`: found tools are a union), applied here, and the
   * merge is saved. False when the session is gone from the store (ended or expired elsewhere),
   * or, saved for the first time, when the store has no room for it (`client`: who opened it, as
   * the store counts it; see `SessionStore.save`): it is then closed here too, and the handles
   * made meanwhile are dropped. Rejects when the store does, or when the state kept changing
   * under `MAX_SAVE_ATTEMPTS` tries.
   */
  async save(client?: string): Promise<boolean> {
    const store = this.runtime.options.sessions;
    if (store === undefined) return true;
    for (let attempt = 1; attempt <= MAX_SAVE_ATTEMPTS; attempt++) {
      const base = this.saved;
      const state = this.state;
      const json = stateJson(state);
      if (json === base) return true;
      const saved = await store.save(this.id, state, base, client);
      if (saved.status === "gone" || saved.status === "full") {
        await this.close();
        return false;
      }
      if (saved.status === "saved") this.saved = json;
      else this.adopt(saved.stored);
    }
    throw new Error(
      `session ${this.id}: its stored state changed under each of ${MAX_SAVE_ATTEMPTS} tries to save it`,
    );
  }

  /**
   * Catches up with the stored state, which another replica may have changed (merged with this
   * session's unsaved changes, as `save` does): false when it is gone (the session ended or
   * expired elsewhere), else true, with its stage, found tools, find format and data applied
   * (the listeners told when the view changed). True without a store. Rejects when the store
   * does.
   */
  async refresh(): Promise<boolean> {
    const store = this.runtime.options.sessions;
    if (store === undefined) return true;
    const state = await store.load(this.id);
    if (state === undefined) return false;
    this.adopt(state);
    return true;
  }

  /** Takes `stored` as what the store holds, with this session's changes since `saved` kept. */
  private adopt(stored: SessionState): void {
    const json = stateJson(stored);
    const ours = this.state;
    const merged = json === this.saved ? ours : mergeStates(parseState(this.saved), ours, stored);
    this.saved = json;
    if (stateJson(merged) === stateJson(ours)) return;
    const before = this.exposedView;
    this.setFindFormat(merged.findFormat);
    this.currentData = merged.data;
    // A fixed session's view is its address: its stage and found tools stay.
    if (this.fixed) return;
    this.currentStage = merged.stage;
    this.found = merged.found.flatMap((id) => this.runtime.tool(id) ?? []);
    this.exposedView = this.computeExposed();
    if (this.exposedView.hash !== before.hash) this.notify();
  }

  /**
   * The view the session would have with no stage: the tools of every stage of its surface (in a
   * discover view, of those found). A request that lists these and allows only `exposed` (OpenAI's
   * `allowed_tools`) keeps the same tool list across `setStage`, and so its prompt cache.
   */
  get everyStage(): View {
    return this.currentStage === null ? this.exposedView : this.computeExposed(null);
  }

  /**
   * Moves the session to `stage` (null: no stage, every tool) and tells the listeners. A fixed
   * session throws a TypeError: its stage is part of its view's address.
   */
  setStage(stage: string | null): void {
    if (stage === this.currentStage) return;
    if (this.fixed)
      throw new TypeError(
        "a fixed session cannot change its stage: the stage is part of its view's address; start a session with the other stage",
      );
    this.currentStage = stage;
    this.exposedView = this.computeExposed();
    this.notify();
  }

  /**
   * The tools this session's surface could ever expose (in any stage, unless `stages` says) that
   * match `query` best, best first; the view does not change (`zcp.find_tools` adds what it finds).
   */
  find(query: string, options: FindOptions = {}): FoundTool[] {
    return findTools(this.runtime, this.surface, query, options);
  }

  /**
   * Adds `tools` to a discover view, after those found before, in order and once each (a tool
   * the surface's policy excludes, or the current stage does not allow, is kept but not shown);
   * tells the listeners when the view changed. Returns how many tools became newly exposed (0
   * outside discover: the view already holds every exposable tool of the stage; 0 on a fixed
   * session, whose view never changes).
   */
  expose(tools: readonly ToolDefinition[]): number {
    if (!this.discover || this.fixed) return 0;
    const before = this.exposedView;
    for (const tool of tools) if (!this.found.includes(tool)) this.found.push(tool);
    this.exposedView = this.computeExposed();
    if (this.exposedView.hash === before.hash) return 0;
    this.notify();
    return this.exposedView.selected.filter((tool) => !before.find(tool.id)).length;
  }

  /** Called with the new exposed view whenever it changes; returns the unsubscribe function. */
  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Calls a tool by alias, id or provider name (the view's form of a built-in). Never throws:
   * errors are results.
   */
  call(name: string, args: unknown, options: CallOptions = {}): Promise<CallResult> {
    const tool = this.callable(name);
    return "ok" in tool ? Promise.resolve(tool) : this.invoke(tool, args, options);
  }

  /** The tool a call of `name` runs: in the exposed view; else the answer that refuses it. */
  private callable(name: string): ToolDefinition | CallError {
    if (this.closed) return closedAnswer(this.closing.signal);
    const tool = this.exposedView.find(name) ?? this.runtime.tool(name);
    if (!tool) return unknownTool(name);
    if (!this.exposedView.find(tool.id)) return forbiddenTool(tool);
    return tool;
  }

  /**
   * A call a built-in makes for the model (`zcp.call_tool`'s, a `zcp.run` program's): the
   * request is the built-in's, whose schema declares no `Mcp-Param-*` headers, so a tool whose
   * parameters travel in them is refused (`header-params.ts`), else it runs as `invoke` runs it.
   */
  private nested(tool: ToolDefinition, args: unknown, options: CallOptions): Promise<CallResult> {
    if (declaresHeaders(tool)) return Promise.resolve(calledOnlyDirectly(tool));
    return this.invoke(tool, args, options);
  }

  /**
   * Runs a call of `tool`, allowed: a built-in by its table entry (its own way, in a call slot
   * if it takes one), a registry tool through the pipeline, in a call slot.
   */
  private invoke(tool: ToolDefinition, args: unknown, options: CallOptions): Promise<CallResult> {
    const builtin = this.runtime.builtin(tool.id);
    if (builtin && !builtin.slot) {
      const outcome = builtin.run(this.inside, args, options);
      return outcome instanceof Pending ? outcome.answer : Promise.resolve(outcome);
    }
    const limit = this.runtime.options.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT;
    if (this.active >= limit)
      return Promise.resolve(
        failure("busy", `at most ${limit} calls at once in a session; wait for one to finish`),
      );
    this.active++;
    let outcome: CallResult | Pending;
    try {
      outcome = builtin
        ? builtin.run(this.inside, args, options)
        : this.pipeline.run(tool, args, options);
    } catch (error) {
      this.active--;
      return Promise.reject(error);
    }
    if (!(outcome instanceof Pending)) {
      this.active--;
      return Promise.resolve(outcome);
    }
    return this.follow(outcome);
  }

  /**
   * The answer of an asynchronous call, or `cancelled` at once when the session closes first;
   * the slot is freed once both the call's own answer and its tool's stop have settled.
   */
  private follow(call: Pending): Promise<CallResult> {
    let unsettled = 2;
    const release = () => {
      if (--unsettled === 0) this.active--;
    };
    call.stopped.then(release, release);
    return new Promise((resolve, reject) => {
      const onClose = () => resolve(closedAnswer(this.closing.signal));
      this.inProgress.add(onClose);
      call.answer.then(
        (result) => {
          this.inProgress.delete(onClose);
          release();
          resolve(result);
        },
        (error: unknown) => {
          this.inProgress.delete(onClose);
          release();
          reject(error);
        },
      );
    });
  }

  /**
   * Ends the session: calls in progress answer `cancelled` at once and their tools' signals
   * abort; its handles are dropped and its stored state deleted; further calls answer
   * `cancelled`, with `reason` as the hint. With `keep`, only this process lets it go (see
   * `CloseOptions`). Rejects when the handle storage or the session store does.
   */
  async close(reason = "the session is closed", options: CloseOptions = {}): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.listeners.clear();
      // Aborted first: the answers below read the reason from it.
      this.closing.abort(new Error(reason));
      for (const cancel of this.inProgress) cancel();
      this.inProgress.clear();
    }
    if (options.keep === true) return;
    await Promise.all([
      this.runtime.handles.dropSession(this.id),
      this.runtime.options.sessions?.delete(this.id),
    ]);
  }

  private notify(): void {
    for (const listener of this.listeners) listener(this.exposedView);
  }

  /** The registry tools of the surface in `stage` (all of them with none): what `find` may return. */
  private stageTools(stage: string | null): ToolDefinition[] {
    return this.runtime
      .exposedFor(this.surface)
      .filter((tool) => stage === null || inStage(tool, [stage]));
  }

  /**
   * The view in `stage`: the stage's tools, or in a discover view the tools found so far among
   * them. A fixed discover view calls them through `zcp.call_tool`, and lists only those that
   * declare `x-mcp-header` (which only a direct call may run): a set fixed by the stage, so the
   * listing stays byte-stable.
   */
  private computeExposed(stage = this.currentStage): View {
    const tools = this.stageTools(stage);
    if (!this.discover) return this.view(tools);
    if (this.fixed) return this.view(tools.filter(declaresHeaders));
    const exposable = new Set(tools);
    return this.view(this.found.filter((tool) => exposable.has(tool)));
  }

  /** The tools a fixed session's `find` may return: those `zcp.call_tool` may call. */
  private findable(): ReadonlySet<ToolDefinition> {
    this.findableTools ??= new Set(this.stageTools(this.currentStage));
    return this.findableTools;
  }

  /**
   * A view of `tools` with the built-ins the runtime's table lists under this session's rules
   * (`builtins/table.ts`): whether it is a discover view, fixed, with a code runner, and whether a tool
   * it lets the client call (listed, or in a fixed discover view, findable) makes or takes handles.
   */
  private view(tools: readonly ToolDefinition[]): View {
    const options = this.runtime.options;
    const callable = this.discover && this.fixed ? [...this.findable()] : tools;
    const { first, after } = listedBuiltins(this.runtime.builtins, {
      discover: this.discover,
      fixed: this.fixed,
      find: options.exposure?.find === true,
      code: options.code !== undefined,
      handles: makesOrTakesHandles(callable, options.maxResultTokens ?? DEFAULT_MAX_RESULT_TOKENS),
    });
    return new View(tools, this.runtime.generated.registry, after, first);
  }

  /** What the built-ins see of this session. */
  private builtinCaller(): BuiltinCaller {
    const exposed = () => this.exposedView;
    const findFormat = () => this.currentFindFormat;
    return {
      caller: this,
      host: this.runtime,
      get exposed() {
        return exposed();
      },
      fixed: this.fixed,
      get findFormat() {
        return findFormat();
      },
      closing: this.closing.signal,
      findable: (tool) => this.findable().has(tool),
      find: (query, options) => this.find(query, options),
      expose: (tools) => this.expose(tools),
      call: (name, args, options) => {
        const tool = this.callable(name);
        return "ok" in tool ? Promise.resolve(tool) : this.nested(tool, args, options);
      },
      invoke: (tool, args, options) => this.nested(tool, args, options),
    };
  }
}

/** The forms a view under `rules` lists before and after the registry's tools, in table order. */
function listedBuiltins(
  table: readonly Builtin[],
  rules: ViewRules,
): { readonly first: BuiltinTool[]; readonly after: BuiltinTool[] } {
  const first: BuiltinTool[] = [];
  const after: BuiltinTool[] = [];
  for (const builtin of table) {
    const listed = builtin.list(rules);
    if (listed) (listed.first ? first : after).push(listed.tool);
  }
  return { first, after };
}

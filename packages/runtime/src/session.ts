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
import {
  CallPipeline,
  DEFAULT_INLINE_MAX_BYTES,
  Pending,
  closedAnswer,
  type CallOptions,
} from "./call.js";
import { ARTIFACT_PROVIDERS } from "./artifacts/index.js";
import { clip } from "./clip.js";
import { codeTool, codeToolArguments, programHost } from "./code-tool.js";
import { findTools, type FindOptions, type FoundTool } from "./find/find.js";
import { findTool, findToolArguments } from "./find-tool.js";
import { handleTool } from "./handle-tool.js";
import type { Caller, FindFormat, SessionHost } from "./host.js";
import type { JsonValue, ToolDefinition } from "./registry.js";
import { failure, type CallResult } from "./result.js";
import { mergeStates, parseState } from "./sessions/merge.js";
import { stateJson, type SessionState } from "./sessions/state.js";
import {
  applySelection,
  DISCOVER,
  inStage,
  View,
  type BuiltinTool,
  type Selection,
} from "./view.js";

export type { CallOptions } from "./call.js";
export type { FindOptions, FoundTool } from "./find/find.js";

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
}

export interface CloseOptions {
  /**
   * Unloads the session from this process only: its calls end as on any close, but its handles
   * and stored state stay for another replica to resume. Default false: the session ends.
   */
  readonly keep?: boolean;
}

const DEFAULT_MAX_CONCURRENT = 8;
/** Saves of one state that may each find it changed by another replica before `save` gives up. */
const MAX_SAVE_ATTEMPTS = 8;
/** The runtime's own tools, which a view adds by its rules (see `view`). */
const BUILTINS: readonly BuiltinTool[] = [findTool, handleTool];

export class Session implements Caller {
  /** Random (crypto): a session id is never guessable. */
  readonly id: string;
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

  constructor(
    private readonly runtime: SessionHost,
    readonly surface: string,
    stage: string | null,
    findFormat?: FindFormat,
    start: SessionStart = {},
  ) {
    this.id = start.id ?? randomUUID();
    this.found = [...(start.found ?? [])];
    this.currentData = start.data;
    this.saved = start.saved;
    this.currentStage = stage;
    this.currentFindFormat = surface === "native" ? "planner" : "mcp";
    if (findFormat !== undefined) this.setFindFormat(findFormat);
    // Each running asynchronous call listens to it: as many as `maxConcurrentCalls`, no leak.
    setMaxListeners(Infinity, this.closing.signal);
    this.pipeline = new CallPipeline(runtime, this, this.closing.signal);
    this.discover = runtime.selectionFor(surface).profile === DISCOVER;
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
    this.currentStage = merged.stage;
    this.found = merged.found.flatMap((id) => this.runtime.tool(id) ?? []);
    this.currentData = merged.data;
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

  /** Moves the session to `stage` (null: no stage, every tool) and tells the listeners. */
  setStage(stage: string | null): void {
    if (stage === this.currentStage) return;
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
   * outside discover: the view already holds every exposable tool of the stage).
   */
  expose(tools: readonly ToolDefinition[]): number {
    if (!this.discover) return 0;
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

  /** Calls a tool by alias, id or provider name. Never throws: errors are results. */
  call(name: string, args: unknown, options: CallOptions = {}): Promise<CallResult> {
    if (this.closed) return Promise.resolve(closedAnswer(this.closing.signal));
    const tool = this.runtime.tool(name);
    if (!tool)
      return Promise.resolve(
        failure(`unknown:${clip(name)}`, "no tool by that name; list the tools to see what exists"),
      );
    if (!this.exposedView.find(tool.id))
      return Promise.resolve(
        failure(`forbidden:${tool.alias}`, "the tool is not available in this session"),
      );
    if (tool === findTool.definition) return Promise.resolve(this.runFindTool(args));
    const code = tool === codeTool.definition ? codeToolArguments(args) : null;
    if (code !== null && typeof code !== "string") return Promise.resolve(code);
    const limit = this.runtime.options.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT;
    if (this.active >= limit)
      return Promise.resolve(
        failure("busy", `at most ${limit} calls at once in a session; wait for one to finish`),
      );
    this.active++;
    if (code !== null) return this.follow(this.runProgram(code, options));
    let outcome: CallResult | Pending;
    try {
      outcome = this.pipeline.run(tool, args, options);
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
   * `zcp.run`: the program runs in the runtime's `CodeRunner` with this session's own `call`
   * (so every rule of a direct call applies to each of its calls); it holds one of the session's
   * call slots while it runs. What the runner throws is reported and answers `exec:error`.
   */
  private runProgram(code: string, options: CallOptions): Pending {
    const runner = this.runtime.options.code!;
    const signal = options.signal
      ? AbortSignal.any([options.signal, this.closing.signal])
      : this.closing.signal;
    const aliases = () => this.exposedView.tools.map((tool) => tool.alias);
    const host = programHost(
      {
        id: this.id,
        call: (name, args, callOptions) => this.call(name, args, callOptions),
        get aliases() {
          return aliases();
        },
        resolve: (name) => this.runtime.tool(name),
      },
      signal,
    );
    const answer = Promise.resolve()
      .then(() => runner(code, host))
      .catch((error: unknown) => {
        (this.runtime.options.onToolError ?? reportRunnerError)(error, codeTool.definition, this);
        return failure(
          "exec:error",
          "the program runner failed; the details are in the server's log",
        );
      });
    return new Pending(answer, answer);
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

  private computeExposed(stage = this.currentStage): View {
    const tools = this.runtime
      .exposedFor(this.surface)
      .filter((tool) => stage === null || inStage(tool, [stage]));
    if (!this.discover) return this.view(tools);
    const exposable = new Set(tools);
    return this.view(this.found.filter((tool) => exposable.has(tool)));
  }

  /**
   * `zcp.find_tools`: finds tools in the current stage and exposes them; lists them, and the
   * built-ins the view gained with them, in the session's `findFormat` (planner lines, a
   * provider's entries, or for `"typescript"` one string: their API text; none when nothing was
   * found).
   */
  private runFindTool(args: unknown): CallResult {
    if (typeof args !== "object" || args === null || Array.isArray(args))
      return failure("invalid:$", "arguments must be an object of named parameters");
    const checked = findToolArguments(args as { [name: string]: unknown });
    if ("ok" in checked) return checked;
    const stages = this.currentStage === null ? {} : { stages: [this.currentStage] };
    const tools = this.find(checked.query, { limit: checked.limit, ...stages }).map(
      (found) => found.tool,
    );
    const before = this.exposedView;
    const added = this.expose(tools);
    // A built-in the view gained with them (`zcp.handle`, once a found tool makes handles) is
    // listed after them: the client has not seen it, and could not call it otherwise.
    const gained = BUILTINS.filter(
      (builtin) =>
        this.exposedView.find(builtin.definition.id) && !before.find(builtin.definition.id),
    );
    const found = new View(tools, this.runtime.generated.registry, gained);
    const format = this.currentFindFormat;
    // `typescript`: one whole text (its named types declared once), none when nothing was found.
    const listed: JsonValue[] =
      format === "planner"
        ? found.tools.map((tool) => tool.planner)
        : format === "typescript"
          ? found.tools.length === 0
            ? []
            : [found.declarations()]
          : (found.artifacts(format) as unknown as JsonValue[]);
    return { ok: true, value: { tools: listed, added } };
  }

  /**
   * A view of `tools`, with the handle tool when one of them can produce or takes handles (an
   * `auto` tool cannot when `inlineMaxBytes` is infinite: every result is inline), the find
   * tool (first in a discover view, else after the registry's tools when the policy's `find` is
   * on), and `zcp.run` when the runtime has a `CodeRunner` (after the find tool, before the
   * handle tool).
   */
  private view(tools: readonly ToolDefinition[]): View {
    const autoMakesHandles = Number.isFinite(
      this.runtime.options.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES,
    );
    const needsHandles = tools.some(
      (tool) =>
        tool.outputMode === "handle" ||
        (tool.outputMode === "auto" && autoMakesHandles) ||
        Object.keys(tool.handleParams).length > 0,
    );
    const code = this.runtime.options.code !== undefined;
    const after: BuiltinTool[] = [];
    if (!this.discover && this.runtime.options.exposure?.find === true) after.push(findTool);
    if (code && !this.discover) after.push(codeTool);
    if (needsHandles) after.push(handleTool);
    // A discover view lists `zcp.run` right after `zcp.find_tools`: the found tools are appended after both.
    const first = this.discover ? (code ? [findTool, codeTool] : [findTool]) : [];
    return new View(tools, this.runtime.generated.registry, after, first);
  }
}

function reportRunnerError(error: unknown, tool: ToolDefinition, session: Caller): void {
  console.error(`zcp: ${tool.alias} failed in session ${session.id}:`, error);
}

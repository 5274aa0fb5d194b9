/**
 * A session: one client's isolated state (id, stage, exposed view, running calls). A call is
 * resolved by name, checked against the exposed view and the concurrency limit here, then run by
 * the session's `CallPipeline` (call.ts). Errors are values.
 */
import { randomUUID } from "node:crypto";
import { CallPipeline, DEFAULT_INLINE_MAX_BYTES, type CallOptions } from "./call.js";
import { handleTool } from "./handle-tool.js";
import type { Caller, SessionHost } from "./host.js";
import type { ToolDefinition } from "./registry.js";
import { failure, type CallResult } from "./result.js";
import { applySelection, inStage, View, type Selection } from "./view.js";

export type { CallOptions } from "./call.js";

type ChangeListener = (view: View) => void;

const DEFAULT_MAX_CONCURRENT = 8;

export class Session implements Caller {
  /** Random (crypto): a session id is never guessable. */
  readonly id = randomUUID();
  private currentStage: string | null;
  private exposedView: View;
  private running = 0;
  private readonly listeners = new Set<ChangeListener>();
  private closed = false;
  private readonly pipeline: CallPipeline;

  constructor(
    private readonly runtime: SessionHost,
    readonly surface: string,
    stage: string | null,
  ) {
    this.currentStage = stage;
    this.pipeline = new CallPipeline(runtime, this);
    this.exposedView = this.computeExposed();
  }

  get stage(): string | null {
    return this.currentStage;
  }

  /** The tools this session may call: the surface's default selection, in the current stage. */
  get exposed(): View {
    return this.exposedView;
  }

  /**
   * A listing for the client: the exposed set narrowed by `selection` (ignored when the server
   * does not allow client filters). Never wider than `exposed`.
   */
  select(selection: Selection = {}): View {
    if (this.runtime.options.exposure?.clientFilters === false) return this.exposedView;
    const registryTools = this.exposedView.tools.filter((tool) => tool !== handleTool.definition);
    return this.view(applySelection(registryTools, selection));
  }

  /** Moves the session to `stage` (null: no stage, every tool) and tells the listeners. */
  setStage(stage: string | null): void {
    if (stage === this.currentStage) return;
    this.currentStage = stage;
    this.exposedView = this.computeExposed();
    for (const listener of this.listeners) listener(this.exposedView);
  }

  /** Called with the new exposed view whenever it changes; returns the unsubscribe function. */
  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls a tool by alias, id or provider name. Never throws: errors are results. */
  call(name: string, args: unknown, options: CallOptions = {}): Promise<CallResult> {
    if (this.closed) return Promise.resolve(failure("cancelled", "the session is closed"));
    const tool = this.runtime.tool(name);
    if (!tool)
      return Promise.resolve(
        failure(`unknown:${name}`, "no tool by that name; list the tools to see what exists"),
      );
    if (!this.exposedView.find(tool.id))
      return Promise.resolve(
        failure(`forbidden:${tool.alias}`, "the tool is not available in this session"),
      );
    const limit = this.runtime.options.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT;
    if (this.running >= limit)
      return Promise.resolve(
        failure("busy", `at most ${limit} calls at once in a session; wait for one to finish`),
      );
    this.running++;
    let outcome: CallResult | Promise<CallResult>;
    try {
      outcome = this.pipeline.run(tool, args, options);
    } catch (error) {
      this.running--;
      return Promise.reject(error);
    }
    if (!(outcome instanceof Promise)) {
      this.running--;
      return Promise.resolve(outcome);
    }
    return outcome.then(
      (result) => {
        this.running--;
        return result;
      },
      (error: unknown) => {
        this.running--;
        throw error;
      },
    );
  }

  /** Ends the session: its handles are dropped, further calls answer `cancelled`. */
  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.runtime.handles.dropSession(this.id);
  }

  private computeExposed(): View {
    const tools = this.runtime
      .exposedFor(this.surface)
      .filter((tool) => this.currentStage === null || inStage(tool, [this.currentStage]));
    return this.view(tools);
  }

  /**
   * A view of `tools`, with the handle tool when one of them can produce or takes handles (an
   * `auto` tool cannot when `inlineMaxBytes` is infinite: every result is inline).
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
    return new View(tools, this.runtime.generated.artifacts, needsHandles ? [handleTool] : []);
  }
}

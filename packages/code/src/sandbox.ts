/**
 * One program run in a fresh QuickJS runtime and context, in whatever thread calls it (the
 * worker, in `createCodeRunner`): the prelude builds `tools` and `console`, the program runs as
 * an async function, its tool calls go to `bridge` (at most `maxParallelCalls` at once, at most
 * `maxCalls` in all), and its return value is serialized inside the sandbox. The interrupt
 * handler stops JavaScript past the deadline or once `stopped()`; between jobs, the run waits
 * for the calls in flight, the deadline, or nothing (a program awaiting what nothing can settle
 * fails at once).
 */
import { failure, type CallResult, type JsonValue } from "@zcp/runtime";
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
} from "quickjs-emscripten-core";
import { argumentsRefusal } from "./arguments.js";
import { discardQuickjs, quickjs } from "./engine.js";
import {
  CANCELLED,
  isInterrupted,
  isOutOfMemory,
  outOfMemory,
  PROGRAM_FILE,
  programError,
  syntaxFailure,
  timedOut,
} from "./errors.js";
import { LogBuffer } from "./logs.js";
import type { RunLimits } from "./options.js";
import { PRELUDE } from "./prelude.js";
import { transpile } from "./transpile.js";

/** Where a run's tool calls go: the arguments as JSON text, the answer a `CallResult`. */
export interface ToolBridge {
  call(alias: string, args: string): Promise<CallResult>;
}

export interface RunRequest {
  readonly code: string;
  readonly aliases: readonly string[];
  readonly limits: RunLimits;
  readonly bridge: ToolBridge;
  /** Whether the run was cancelled (read by the interrupt handler and between jobs). */
  readonly stopped?: () => boolean;
}

/** A queued or running tool call of the program. */
interface PendingCall {
  readonly alias: string;
  readonly args: string;
  readonly deferred: QuickJSDeferredPromise;
}

/** Runs one program; answers its `zcp.run` result. Never rejects. */
export async function runProgram(request: RunRequest): Promise<CallResult> {
  const stripped = transpile(request.code);
  if ("syntaxError" in stripped) return failure("invalid:$.code", stripped.syntaxError);
  const module = await quickjs(request.limits.memoryBytes);
  const { limits } = request;
  const deadline = Date.now() + limits.timeoutMs;
  const stopped = request.stopped ?? (() => false);
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const context = runtime.newContext();
  const run = new Run(context, request, deadline, stripped.code);
  runtime.setInterruptHandler(() => run.interrupt(stopped() || Date.now() > deadline));
  try {
    return await run.result();
  } catch (error) {
    // The thread's own stack ran out inside WebAssembly (before QuickJS's limit): this module's
    // state is not trusted any more.
    discardQuickjs();
    if (error instanceof RangeError)
      return failure("program_error", "InternalError: stack overflow");
    throw error;
  } finally {
    run.dispose();
    try {
      context.dispose();
      runtime.dispose();
    } catch {
      discardQuickjs();
    }
  }
}

/** The state of one run: its handles, its calls, its output. */
class Run {
  private readonly handles: QuickJSHandle[] = [];
  private readonly deferreds = new Set<QuickJSDeferredPromise>();
  private readonly queue: PendingCall[] = [];
  /** What arrived from the host since the last turn: applied in the run's loop. */
  private readonly arrived: (() => void)[] = [];
  private readonly logs: LogBuffer;
  private running = 0;
  private calls = 0;
  private wake: (() => void) | undefined;
  private finished = false;
  /**
   * The interrupt handler stopped the program's JavaScript once: the run is over, whatever
   * state the program is left in (a microtask loop that was cut leaves its promise pending,
   * as if nothing could settle it).
   */
  private interrupted = false;

  constructor(
    private readonly context: QuickJSContext,
    private readonly request: RunRequest,
    private readonly deadline: number,
    private readonly code: string,
  ) {
    this.logs = new LogBuffer(request.limits.logBytes);
  }

  /** The interrupt handler's answer, `stop`, remembered once true. */
  interrupt(stop: boolean): boolean {
    if (stop) this.interrupted = true;
    return stop;
  }

  async result(): Promise<CallResult> {
    const { context } = this;
    const serialize = this.prelude();
    if ("ok" in serialize) return serialize;
    const evaluated = context.evalCode(this.code, PROGRAM_FILE);
    if (evaluated.error) return this.failed(this.take(evaluated.error), true);
    const promise = this.keep(evaluated.value);
    for (;;) {
      for (const apply of this.arrived.splice(0)) apply();
      const jobs = context.runtime.executePendingJobs(-1);
      if (this.interrupted) {
        if (jobs.error) this.take(jobs.error);
        return this.stoppedOrTimedOut();
      }
      if (jobs.error) return this.failed(this.take(jobs.error));
      const state = context.getPromiseState(promise);
      if (state.type === "rejected") return this.failed(this.take(state.error));
      if (state.type === "fulfilled") {
        if (state.notAPromise !== true) this.keep(state.value);
        return this.returned(serialize.fn, state.value);
      }
      if (this.arrived.length > 0) continue;
      if (this.request.stopped?.()) return CANCELLED;
      if (this.running === 0)
        return failure(
          "program_error",
          "the program awaits a promise that nothing can settle (there are no timers)",
        );
      const left = this.deadline - Date.now();
      if (left <= 0) return timedOut(this.request.limits.timeoutMs);
      await this.nextArrival(left);
      if (this.request.stopped?.()) return CANCELLED;
    }
  }

  /** Disposes every handle the run made (the context cannot be disposed while any lives). */
  dispose(): void {
    this.finished = true;
    for (const deferred of this.deferreds) deferred.dispose();
    this.deferreds.clear();
    for (const handle of this.handles.splice(0)) if (handle.alive) handle.dispose();
  }

  /** Runs the prelude: `tools` and `console` exist, and the serializer is kept. */
  private prelude(): { fn: QuickJSHandle } | CallResult {
    const { context } = this;
    const factory = context.evalCode(PRELUDE, "prelude.js");
    if (factory.error) return this.failed(this.take(factory.error));
    const fn = this.keep(factory.value);
    const call = this.keep(
      context.newFunction("call", (alias, args) =>
        this.call(context.getString(alias), context.getString(args)),
      ),
    );
    const log = this.keep(
      context.newFunction("log", (line) => {
        this.logs.add(context.getString(line));
      }),
    );
    const aliases = this.keep(context.newString(JSON.stringify(this.request.aliases)));
    const made = context.callFunction(fn, context.undefined, call, log, aliases);
    if (made.error) return this.failed(this.take(made.error));
    return { fn: this.keep(made.value) };
  }

  /** A tool call from the program: a promise settled when the host answers. */
  private call(alias: string, args: string): QuickJSHandle {
    const deferred = this.context.newPromise();
    this.deferreds.add(deferred);
    // The library disposes what the function returns: the deferred keeps its own handle.
    const promise = deferred.handle.dup();
    const { limits } = this.request;
    const refused =
      ++this.calls > limits.maxCalls
        ? failure("program_calls", `a program may make at most ${limits.maxCalls} tool calls`)
        : argumentsRefusal(args, limits);
    if (refused) this.settle(deferred, refused);
    else {
      this.queue.push({ alias, args, deferred });
      this.pump();
    }
    return promise;
  }

  /** Starts queued calls while fewer than `maxParallelCalls` are in flight. */
  private pump(): void {
    while (this.running < this.request.limits.maxParallelCalls && this.queue.length > 0) {
      const next = this.queue.shift()!;
      this.running++;
      this.request.bridge.call(next.alias, next.args).then(
        (result) => this.arrive(next.deferred, result),
        () => this.arrive(next.deferred, failure("exec:error", "the tool call failed")),
      );
    }
  }

  private arrive(deferred: QuickJSDeferredPromise, result: CallResult): void {
    if (this.finished) return;
    this.arrived.push(() => {
      this.running--;
      this.settle(deferred, result);
      this.pump();
    });
    this.wake?.();
  }

  /** Resolves the program's promise of a call with the result's JSON (the prelude decodes it). */
  private settle(deferred: QuickJSDeferredPromise, result: CallResult): void {
    const text = this.context.newString(JSON.stringify(result));
    deferred.resolve(text);
    text.dispose();
    deferred.dispose();
    this.deferreds.delete(deferred);
  }

  private nextArrival(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).finally(() => (this.wake = undefined));
  }

  /** The run's result: the returned value's JSON, made inside the sandbox, within `resultBytes`. */
  private returned(serialize: QuickJSHandle, value: QuickJSHandle): CallResult {
    const { context } = this;
    const made = context.callFunction(serialize, context.undefined, value);
    if (made.error) {
      const dumped = this.take(made.error);
      if (this.interruptedOrOut(dumped)) return this.failed(dumped);
      const { name, message } = (dumped ?? {}) as { name?: unknown; message?: unknown };
      return failure(
        "program_result",
        `the returned value is not JSON (${String(name ?? "Error")}: ${String(message ?? dumped)})`,
      );
    }
    const handle = this.keep(made.value);
    const json = context.typeof(handle) === "string" ? context.getString(handle) : "null";
    const { resultBytes } = this.request.limits;
    const bytes = json.length * 3 > resultBytes ? Buffer.byteLength(json) : json.length;
    if (bytes > resultBytes)
      return failure(
        "program_result",
        `the returned value is ${bytes} bytes of JSON; at most ${resultBytes}`,
      );
    const logs = this.logs.result();
    return {
      ok: true,
      value: { value: JSON.parse(json) as JsonValue, ...(logs ? { logs } : {}) },
    };
  }

  private interruptedOrOut(dumped: unknown): boolean {
    return isInterrupted(dumped) || isOutOfMemory(dumped);
  }

  /** The failure a dumped error answers; `compiling`: the program's own compilation. */
  private failed(dumped: unknown, compiling = false): CallResult {
    const { limits } = this.request;
    if (isInterrupted(dumped)) return this.stoppedOrTimedOut();
    if (isOutOfMemory(dumped)) return outOfMemory(limits.memoryBytes);
    if (compiling) {
      const syntax = syntaxFailure(dumped);
      if (syntax) return syntax;
    }
    return programError(dumped);
  }

  /** What an interrupted run answers: `cancelled` when it was stopped, else `timeout`. */
  private stoppedOrTimedOut(): CallResult {
    return this.request.stopped?.() ? CANCELLED : timedOut(this.request.limits.timeoutMs);
  }

  /** The dumped value of a handle, which is disposed. */
  private take(handle: QuickJSHandle): unknown {
    try {
      return this.context.dump(handle);
    } catch {
      return null;
    } finally {
      handle.dispose();
    }
  }

  private keep(handle: QuickJSHandle): QuickJSHandle {
    this.handles.push(handle);
    return handle;
  }
}

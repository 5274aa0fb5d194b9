/**
 * `createWorkerExecutor`: a `ToolExecutor` that runs every call in a pool of worker threads
 * (piscina), so that a tool that spins, hangs or runs out of memory costs its worker, never the
 * server's thread: after an abort the tool has `stopGraceMs` to stop before its worker is
 * terminated and replaced, and a worker whose heap is full dies alone. Calls get workers fairly
 * across sessions (`FairWorkers`): the time limit runs from when a call gets one, and waiting
 * is bounded by `waitLimitMs(time limit, stopGraceMs)`. A result over the runtime's
 * `maxResultBytes` is refused in the worker, before it crosses.
 */
import os from "node:os";
import { pathToFileURL } from "node:url";
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import { Piscina } from "piscina";
import {
  DEFAULT_MAX_RESULT_BYTES,
  FairWorkers,
  ToolError,
  waitLimitMs,
  withSummary,
  type Handle,
  type ToolContext,
  type ToolDefinition,
  type ToolExecutor,
} from "@zcp/runtime";
import type {
  Abort,
  Answer,
  FromTool,
  PlainHandle,
  PlainSystemError,
  WorkerData,
  WorkerTask,
} from "./protocol.js";

export interface WorkerExecutorOptions {
  /**
   * The generated module the workers import: absolute path or file URL of `zcp.gen/index.{js,ts}`;
   * or several, which each worker composes with `composeGenerated` (no prefixes, in this order),
   * as the runtime's module must be composed.
   */
  readonly module: string | URL | readonly (string | URL)[];
  /**
   * Worker threads, hence calls running at once; further calls wait for a free worker
   * (default `max(2, os.availableParallelism())`). Two start at once, in the background; more
   * start when calls need them, and those idle for a minute stop.
   */
  readonly workers?: number;
  /** Heap limit of each worker, in MiB (default 512); a tool that needs more is stopped. */
  readonly memoryMb?: number;
  /** How long a tool may take to stop once its signal aborted, in ms, before its worker is terminated (default 1000). */
  readonly stopGraceMs?: number;
  /** Calls of one session waiting for a worker at most; more answer `busy` (default 64). */
  readonly maxQueuedPerSession?: number;
}

export interface WorkerExecutor extends ToolExecutor {
  /** Terminates every worker; calls still running reject. */
  close(): Promise<void>;
}

const WORKERS_STARTED_AT_ONCE = 2;
const IDLE_WORKER_MS = 60_000;

/** One worker per CPU, at least two: one tool that spins leaves another worker free. */
export function defaultWorkers(): number {
  return Math.max(2, os.availableParallelism());
}

export function createWorkerExecutor(options: WorkerExecutorOptions): WorkerExecutor {
  const workers = options.workers ?? defaultWorkers();
  const memoryMb = options.memoryMb ?? 512;
  const stopGraceMs = options.stopGraceMs ?? 1000;
  const { module } = options;
  const pool = new Piscina<WorkerTask, unknown>({
    // The built worker next to this module (dist/isolation/worker.js).
    filename: new URL("./worker.js", import.meta.url).href,
    workerData: (typeof module === "string" || module instanceof URL
      ? { module: fileUrl(module) }
      : module.length === 1
        ? { module: fileUrl(module[0]!) }
        : { modules: module.map(fileUrl) }) satisfies WorkerData,
    minThreads: Math.min(WORKERS_STARTED_AT_ONCE, workers),
    maxThreads: workers,
    idleTimeout: IDLE_WORKER_MS,
    resourceLimits: { maxOldGenerationSizeMb: memoryMb },
    // Workers keep running their event loop between calls, as the server's thread does: timers
    // a tool module starts are not frozen until the next call.
    atomics: "disabled",
  });
  // A worker that fails between calls (a tool's stray timer threw) is replaced; the pool reports
  // it here, and an EventEmitter's unheard 'error' would end the process.
  pool.on("error", (error: unknown) => console.error("zcp: a tool worker failed:", error));
  const fair = new FairWorkers({
    workers,
    ...(options.maxQueuedPerSession !== undefined
      ? { maxQueuedPerSession: options.maxQueuedPerSession }
      : {}),
  });
  let closing = false;

  return {
    async execute(tool, args, context, call) {
      if (context.signal.aborted) throw new Error("the call was aborted before it started");
      call?.queued();
      // Without the call's time limit, the caller's own signal bounds the wait.
      const admission = await fair.acquire(
        context.sessionId,
        context.signal,
        call && waitLimitMs(call.timeoutMs, stopGraceMs),
      );
      if ("refused" in admission)
        throw new ToolError(admission.refused.error, admission.refused.hint);
      try {
        // Aborted while its turn came: no abort event will reach the worker any more. (The call
        // has answered already; a ToolError is not reported as the tool's failure.)
        if (context.signal.aborted) throw new ToolError("cancelled", "the call was cancelled");
        call?.started();
        return await runInWorker(tool, args, context, call?.maxResultBytes);
      } finally {
        admission.release();
      }
    },
    close: () => {
      closing = true;
      return pool.destroy();
    },
  };

  /** One call on a worker of the pool (it has one: `fair` admitted it). */
  async function runInWorker(
    tool: ToolDefinition,
    args: { readonly [name: string]: unknown },
    context: ToolContext,
    maxResultBytes = DEFAULT_MAX_RESULT_BYTES,
  ): Promise<unknown> {
    const { port1, port2 } = new MessageChannel();
    let returned: { value: unknown } | undefined;
    const receive = (message: FromTool) => {
      if ("done" in message)
        returned = {
          value:
            message.summary === null ? message.done : withSummary(message.done, message.summary),
        };
      else if ("progress" in message) context.progress(...message.progress);
      else if ("log" in message) context.log(...message.log);
      else ask(context, message.ask, (answer) => port1.postMessage(answer));
    };
    port1.on("message", receive);
    const stop = new AbortController();
    let grace: NodeJS.Timeout | undefined;
    const onAbort = () => {
      const reason: unknown = context.signal.reason;
      port1.postMessage({
        abort: reason instanceof Error ? reason.message : String(reason),
      } satisfies Abort);
      grace = setTimeout(() => stop.abort(), stopGraceMs);
    };
    context.signal.addEventListener("abort", onAbort, { once: true });
    const handles = Object.keys(tool.handleParams).filter((name) => args[name] !== undefined);
    try {
      await pool.run(
        {
          toolId: tool.id,
          args: handles.length === 0 ? args : plainHandles(args, handles),
          handles,
          sessionId: context.sessionId,
          config: context.config,
          caller: context.caller,
          maxResultBytes,
          offers: context.clientOffers,
          port: port2,
        },
        { transferList: [port2], signal: stop.signal },
      );
    } catch (error) {
      throw fromWorker(error, tool, {
        memoryMb,
        stopGraceMs,
        stopped: stop.signal.aborted,
        closing,
      });
    } finally {
      clearTimeout(grace);
      context.signal.removeEventListener("abort", onAbort);
      // What the tool sent before its task ended is on the port already.
      for (let left = receiveMessageOnPort(port1); left; left = receiveMessageOnPort(port1))
        receive(left.message as FromTool);
      port1.close();
    }
    if (!returned) throw new Error(`the worker sent no result for ${tool.alias}`);
    return returned.value;
  }
}

function fileUrl(module: string | URL): string {
  return module instanceof URL || module.startsWith("file:")
    ? String(module)
    : pathToFileURL(module).href;
}

/**
 * A question of the tool's context, put to the call's client by the server thread's context
 * (which checks the answer); its answer or refusal goes back to the worker as plain data. One
 * that settles after the call ended is dropped with the closed port.
 */
function ask(
  context: ToolContext,
  { id, kind, args }: Extract<FromTool, { ask: unknown }>["ask"],
  reply: (answer: Answer) => void,
): void {
  const asked = (context[kind] as (...args: unknown[]) => Promise<unknown>).apply(context, args);
  asked.then(
    (value) => reply({ answer: id, value }),
    (error: unknown) =>
      reply({
        answer: id,
        error:
          error instanceof ToolError
            ? { name: "ToolError", code: error.code, message: error.message }
            : { message: error instanceof Error ? error.message : String(error) },
      }),
  );
}

/** Handles as plain data (`{ id, kind, value }`): the worker brands them again. */
function plainHandles(
  args: { readonly [name: string]: unknown },
  names: readonly string[],
): { readonly [name: string]: unknown } {
  const out = { ...args };
  for (const name of names) {
    const { id, kind, value } = args[name] as Handle;
    out[name] = { id, kind, value } satisfies PlainHandle;
  }
  return out;
}

/** What a failed task rejects the call with: the tool's ToolError, or why its worker ended. */
function fromWorker(
  error: unknown,
  tool: ToolDefinition,
  how: { memoryMb: number; stopGraceMs: number; stopped: boolean; closing: boolean },
): unknown {
  const plain = error as { name?: unknown; code?: unknown; message?: unknown } | undefined;
  if (plain?.name === "ToolError" && typeof plain.code === "string")
    return new ToolError(plain.code, String(plain.message));
  if (plain?.name === "SystemError") {
    const { message, stack, code, syscall } = error as PlainSystemError;
    return Object.assign(new Error(message), { stack, code, syscall });
  }
  if (plain?.code === "ERR_WORKER_OUT_OF_MEMORY")
    return new ToolError(
      "exec:error",
      `the tool ran out of memory (${how.memoryMb} MiB) and was stopped`,
    );
  if (how.closing)
    return new Error(
      `${tool.alias} was still running when the workers closed; they were terminated`,
    );
  if (how.stopped)
    return new Error(
      `${tool.alias} did not stop within ${how.stopGraceMs} ms of its abort; its worker was terminated`,
    );
  return error;
}

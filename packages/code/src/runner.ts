/**
 * `createCodeRunner`: a `CodeRunner` that runs each program in a pool of worker threads
 * (piscina), so that a program that spins never blocks the server's event loop. The worker
 * asks for tool calls over a MessagePort and `host.call` runs them here, in the server's
 * thread; a worker that does not answer within `timeoutMs` + 1 s of its start (or of a cancel)
 * is terminated and replaced. Programs get workers fairly across sessions (`FairWorkers`): a
 * program's limit runs from its start, and waiting for a worker is bounded by
 * `waitLimitMs(timeoutMs, WATCHDOG_GRACE_MS)`, past which the call answers `busy`.
 */
import { MessageChannel } from "node:worker_threads";
import {
  FairWorkers,
  failure,
  waitLimitMs,
  type CallResult,
  type CodeRunner,
  type ProgramHost,
} from "@zcp/runtime";
import { Piscina } from "piscina";
import { CANCELLED, timedOut } from "./errors.js";
import { DEFAULT_WORKERS, resolveLimits, type CodeOptions, type RunLimits } from "./options.js";
import type { FromWorker, ProgramTask, ToWorker } from "./protocol.js";

/** A `CodeRunner` with its worker pool; `close()` terminates the workers (runs in progress answer `cancelled`). */
export type PooledCodeRunner = CodeRunner & {
  /** Terminates every worker. */
  close(): Promise<void>;
};

/** How long past its limit (or its cancel) a worker may take to answer before it is terminated. */
export const WATCHDOG_GRACE_MS = 1000;
const IDLE_WORKER_MS = 60_000;
/** The worker's own JavaScript heap (QuickJS's heap is WebAssembly memory, outside it). */
const WORKER_HEAP_MB = 128;

/**
 * The worker's native stack: WebAssembly frames use it too, so it must hold many times the
 * QuickJS stack limit for QuickJS to report its own `stack overflow` first.
 */
function workerStackMb(stackBytes: number): number {
  return Math.max(4, Math.ceil((stackBytes * 16) / (1024 * 1024)));
}

/** A runner of programs in worker threads, with `options`' limits (see `CodeOptions`). */
export function createCodeRunner(options: CodeOptions = {}): PooledCodeRunner {
  const limits = resolveLimits(options);
  const workers = options.workers ?? DEFAULT_WORKERS;
  if (!Number.isSafeInteger(workers) || workers < 1)
    throw new RangeError(`workers must be a positive integer, got ${String(workers)}`);
  const pool = new Piscina<ProgramTask, CallResult>({
    // The built worker next to this module (dist/worker.js).
    filename: new URL("./worker.js", import.meta.url).href,
    minThreads: 1,
    maxThreads: workers,
    idleTimeout: IDLE_WORKER_MS,
    atomics: "disabled",
    resourceLimits: {
      stackSizeMb: workerStackMb(limits.stackBytes),
      maxOldGenerationSizeMb: WORKER_HEAP_MB,
    },
  });
  // A worker that fails between tasks is replaced; an unheard 'error' would end the process.
  pool.on("error", (error: unknown) => console.error("zcp: a program worker failed:", error));
  const fair = new FairWorkers({
    workers,
    ...(options.maxQueuedPerSession !== undefined
      ? { maxQueuedPerSession: options.maxQueuedPerSession }
      : {}),
  });
  const maxWaitMs = waitLimitMs(limits.timeoutMs, WATCHDOG_GRACE_MS);
  let closing = false;
  const runner = async (code: string, host: ProgramHost) => {
    if (closing) return CANCELLED;
    const admission = await fair.acquire(host.sessionId, host.signal, maxWaitMs);
    if ("refused" in admission) return host.signal.aborted ? CANCELLED : admission.refused;
    try {
      // Closed while it waited: the pool is gone.
      if (closing) return CANCELLED;
      return await runInPool(pool, limits, code, host);
    } finally {
      admission.release();
    }
  };
  return Object.assign(runner, {
    close: () => {
      closing = true;
      return pool.destroy();
    },
  });
}

/** One run: the task queued in the pool, its calls answered, its watchdog armed once it starts. */
async function runInPool(
  pool: Piscina<ProgramTask, CallResult>,
  limits: RunLimits,
  code: string,
  host: ProgramHost,
): Promise<CallResult> {
  if (host.signal.aborted) return CANCELLED;
  const { port1, port2 } = new MessageChannel();
  const stop = new SharedArrayBuffer(4);
  const calls = new AbortController();
  const kill = new AbortController();
  let started = false;
  let killedAt: "limit" | "cancel" | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  const arm = (why: "limit" | "cancel", ms: number) => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      killedAt = why;
      kill.abort();
    }, ms);
  };
  const onAbort = () => {
    Atomics.store(new Int32Array(stop), 0, 1);
    calls.abort();
    if (started) arm("cancel", WATCHDOG_GRACE_MS);
    else kill.abort();
  };
  host.signal.addEventListener("abort", onAbort, { once: true });
  port1.on("message", (message: FromWorker) => {
    if ("started" in message) {
      started = true;
      arm("limit", limits.timeoutMs + WATCHDOG_GRACE_MS);
      return;
    }
    const answer = (result: CallResult) =>
      port1.postMessage({ answer: message.call, result } satisfies ToWorker);
    host
      .call(message.alias, JSON.parse(message.args), { signal: calls.signal })
      .then(answer, () => answer(failure("exec:error", "the tool call failed")));
  });
  try {
    const result = await pool.run(
      { code, aliases: [...host.aliases], limits, port: port2, stop },
      { transferList: [port2], signal: kill.signal },
    );
    return host.signal.aborted ? CANCELLED : result;
  } catch (error) {
    if (killedAt === "limit") return timedOut(limits.timeoutMs);
    if (host.signal.aborted || killedAt === "cancel") return CANCELLED;
    throw error;
  } finally {
    clearTimeout(watchdog);
    calls.abort();
    host.signal.removeEventListener("abort", onAbort);
    port1.close();
  }
}

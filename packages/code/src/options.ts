/**
 * The limits of a program run (`CodeOptions`) and their defaults, resolved once per runner.
 */
import { DEFAULT_MAX_ARGUMENT_DEPTH } from "@zcp/runtime";

/** `createCodeRunner`'s options: the pool and the limits of each run. */
export interface CodeOptions {
  /**
   * Worker threads running programs at once (default 2, one started at once); more wait their
   * turn, shared fairly among sessions (see `FairWorkers` in @zcp/runtime).
   */
  readonly workers?: number;
  /** Programs of one session waiting for a worker at most; more answer `busy` (default 64). */
  readonly maxQueuedPerSession?: number;
  /** Wall-clock limit of a whole run, tool calls included, in ms (default 5000). */
  readonly timeoutMs?: number;
  /** Heap limit of a run's QuickJS runtime, in bytes (default 64 MiB). */
  readonly memoryBytes?: number;
  /** Stack limit of a run's QuickJS runtime, in bytes (default 512 KiB). */
  readonly stackBytes?: number;
  /** Tool calls one run may make (default 1000); further calls reject with `program_calls`. */
  readonly maxCalls?: number;
  /** Tool calls of one run in flight at once (default 4); the others wait their turn. */
  readonly maxParallelCalls?: number;
  /** Bytes of console output kept per run (default 16 KiB); the rest is dropped and counted. */
  readonly logBytes?: number;
  /** Bytes of the returned value's JSON at most (default 64 KiB). */
  readonly resultBytes?: number;
  /**
   * Bytes of one tool call's arguments (their JSON) at most: a request's limit, as a server
   * takes one (zcp-serve passes its message limit; default 1 MiB). Larger ones reject with
   * `invalid:$` in the program, before the server's thread parses them.
   */
  readonly argumentBytes?: number;
  /** Nesting of one tool call's arguments at most (default: the runtime's, 64), checked likewise. */
  readonly argumentDepth?: number;
}

/** The limits a worker applies to one run (every `CodeOptions` limit, resolved). */
export interface RunLimits {
  readonly timeoutMs: number;
  readonly memoryBytes: number;
  readonly stackBytes: number;
  readonly maxCalls: number;
  readonly maxParallelCalls: number;
  readonly logBytes: number;
  readonly resultBytes: number;
  readonly argumentBytes: number;
  readonly argumentDepth: number;
}

/** The defaults of every limit. */
export const DEFAULT_LIMITS: RunLimits = Object.freeze({
  timeoutMs: 5000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 512 * 1024,
  maxCalls: 1000,
  maxParallelCalls: 4,
  logBytes: 16 * 1024,
  resultBytes: 64 * 1024,
  argumentBytes: 1024 * 1024,
  argumentDepth: DEFAULT_MAX_ARGUMENT_DEPTH,
});

export const DEFAULT_WORKERS = 2;

/** The limits of `options` over the defaults; a RangeError names a limit that is not a positive integer. */
export function resolveLimits(options: CodeOptions = {}): RunLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof RunLimits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`${key} must be a positive integer, got ${String(value)}`);
    limits[key] = value;
  }
  return limits;
}

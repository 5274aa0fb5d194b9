/**
 * `FairWorkers`: which session's call gets the next free worker of a pool (the tool isolation
 * pool, the program pool), so that no session can starve the others however many calls it
 * sends. Calls wait in one queue per session; a free worker goes to the least recently served
 * session with a call waiting that holds fewer than its share of the workers (the workers over
 * the sessions with calls waiting or running, rounded up), else to the least recently served
 * with a call waiting (a worker never idles while a call waits). A session that was served goes
 * behind every session still waiting, so each other session gets at most one worker before it.
 *
 * The bound that follows: a call of a session holding fewer than its share starts after at most
 * one call of each of the S - 1 other sessions waiting, and every worker frees at least once in
 * any T + G (a call's time limit plus the grace before its worker is terminated). With W
 * workers a call would start within ceil(S / W) × (T + G) of being queued; one session alone
 * delays another's call by at most T + G. Waiting is bounded besides (`waitLimitMs`,
 * 2 × (T + G)): a call starts within min(ceil(S / W), 2) × (T + G), or, when it has not (only
 * with more than 2W sessions waiting), answers `busy` then. So is what one session may queue
 * (`maxQueuedPerSession`), also `busy` past it; under zcp-serve that limit matters only with
 * `--max-concurrent` above it, as the calls a session may have at once (8 by default) are
 * refused before.
 */
import { failure, type CallError } from "../results/result.js";

/** Calls one session may have waiting for a worker of one pool, at most (default). */
const DEFAULT_MAX_QUEUED_PER_SESSION = 64;

/**
 * How long a call may wait for a worker: two rounds of calls that run for their time limit
 * `timeoutMs` and the grace `graceMs` before their worker is terminated, as the bound above
 * gives for up to twice as many sessions as workers competing. Past it the pool is overloaded,
 * and the call says so instead of waiting on.
 */
export function waitLimitMs(timeoutMs: number, graceMs: number): number {
  return 2 * (timeoutMs + graceMs);
}

export interface FairWorkersOptions {
  /** Workers of the pool, hence calls running at once. */
  readonly workers: number;
  /** Calls of one session waiting at most; more answer `busy` (default 64). */
  readonly maxQueuedPerSession?: number;
}

/** A worker to use (call `release` once the call has left it), or why there is none. */
export type Admission = { readonly release: () => void } | { readonly refused: CallError };

interface Waiting {
  readonly admit: (admission: Admission) => void;
}

interface SessionCalls {
  readonly waiting: Waiting[];
  running: number;
  /** When the session last got a worker (a turn number); 0: not since it was last idle. */
  served: number;
}

export class FairWorkers {
  private readonly sessions = new Map<string, SessionCalls>();
  private readonly maxQueued: number;
  private free: number;
  private turn = 0;

  /** A RangeError names an option that is not a positive integer. */
  constructor(private readonly options: FairWorkersOptions) {
    this.free = options.workers;
    this.maxQueued = options.maxQueuedPerSession ?? DEFAULT_MAX_QUEUED_PER_SESSION;
    for (const [name, value] of [
      ["workers", this.free],
      ["maxQueuedPerSession", this.maxQueued],
    ] as const)
      if (!Number.isSafeInteger(value) || value < 1)
        throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }

  /**
   * A worker for a call of `sessionId`: at once when one is free and the session's turn, else
   * once its turn comes; `busy` past `maxWaitMs` of waiting (undefined: `signal` alone bounds
   * the wait) or when the session already has `maxQueuedPerSession` calls waiting;
   * `cancelled` when `signal` aborts first.
   */
  acquire(
    sessionId: string,
    signal: AbortSignal,
    maxWaitMs: number | undefined,
  ): Promise<Admission> {
    if (signal.aborted) return Promise.resolve({ refused: CANCELLED });
    const calls = this.sessionCalls(sessionId);
    if (calls.waiting.length >= this.maxQueued)
      return Promise.resolve({
        refused: failure(
          "busy",
          `at most ${this.maxQueued} calls of a session wait for a worker; wait for one to finish`,
        ),
      });
    return new Promise<Admission>((resolve) => {
      const leave = (admission: Admission) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        const at = calls.waiting.indexOf(waiting);
        if (at >= 0) calls.waiting.splice(at, 1);
        this.forgetIfIdle(sessionId, calls);
        resolve(admission);
      };
      const waiting: Waiting = {
        admit: (admission) => {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          resolve(admission);
        },
      };
      const onAbort = () => leave({ refused: CANCELLED });
      const timer =
        maxWaitMs === undefined
          ? undefined
          : setTimeout(
              () =>
                leave({
                  refused: failure(
                    "busy",
                    `no worker was free within ${maxWaitMs} ms (${this.options.workers} workers shared by the calls of ${this.sessions.size} sessions); try again`,
                  ),
                }),
              maxWaitMs,
            );
      signal.addEventListener("abort", onAbort, { once: true });
      calls.waiting.push(waiting);
      this.grant();
    });
  }

  private sessionCalls(sessionId: string): SessionCalls {
    let calls = this.sessions.get(sessionId);
    if (!calls) {
      calls = { waiting: [], running: 0, served: 0 };
      this.sessions.set(sessionId, calls);
    }
    return calls;
  }

  /** Hands free workers to the waiting calls whose turn it is. */
  private grant(): void {
    while (this.free > 0) {
      const next = this.nextServed();
      if (!next) return;
      const [sessionId, calls] = next;
      const waiting = calls.waiting.shift()!;
      calls.running++;
      calls.served = ++this.turn;
      this.free--;
      let released = false;
      waiting.admit({
        release: () => {
          if (released) return;
          released = true;
          calls.running--;
          this.free++;
          this.forgetIfIdle(sessionId, calls);
          this.grant();
        },
      });
    }
  }

  /** The least recently served session with a call waiting: one under its share first. */
  private nextServed(): [string, SessionCalls] | undefined {
    const share = Math.ceil(this.options.workers / Math.max(1, this.sessions.size));
    let under: [string, SessionCalls] | undefined;
    let any: [string, SessionCalls] | undefined;
    for (const entry of this.sessions) {
      const calls = entry[1];
      if (calls.waiting.length === 0) continue;
      if (!any || calls.served < any[1].served) any = entry;
      if (calls.running < share && (!under || calls.served < under[1].served)) under = entry;
    }
    return under ?? any;
  }

  /** A session with nothing waiting or running is forgotten: the map holds active ones only. */
  private forgetIfIdle(sessionId: string, calls: SessionCalls): void {
    if (calls.waiting.length === 0 && calls.running === 0) this.sessions.delete(sessionId);
  }
}

const CANCELLED = Object.freeze(failure("cancelled", "the call was cancelled"));

/**
 * `FairWorkers` (issue 27, item 6): which session's call gets the next free worker. A session
 * with many calls cannot keep another's waiting for more than one turn; waiting and queues are
 * bounded, each with its own `busy` answer.
 */
import { describe, expect, it } from "vitest";
import { FairWorkers, waitLimitMs, type Admission } from "../src/index.js";

/** Acquires for `session` and records the order in which calls get a worker. */
function recorder(fair: FairWorkers) {
  const order: string[] = [];
  const held: (() => void)[] = [];
  const acquire = (
    session: string,
    label = session,
    signal = new AbortController().signal,
    maxWaitMs?: number,
  ) =>
    fair.acquire(session, signal, maxWaitMs).then((admission: Admission) => {
      if ("release" in admission) {
        order.push(label);
        held.push(admission.release);
      }
      return admission;
    });
  /** Frees the worker the `index`th admitted call holds. */
  const release = async (index: number) => {
    held[index]!();
    await Promise.resolve();
    await Promise.resolve();
  };
  return { order, acquire, release };
}

describe("FairWorkers", () => {
  it("gives a session with nothing running the next free worker, before a session's eighth call", async () => {
    const fair = new FairWorkers({ workers: 2 });
    const { order, acquire, release } = recorder(fair);
    for (let i = 0; i < 8; i++) void acquire("a", `a${i}`);
    void acquire("b", "b0");
    await Promise.resolve();
    expect(order).toEqual(["a0", "a1"]);
    await release(0);
    expect(order).toEqual(["a0", "a1", "b0"]);
    await release(1);
    expect(order.at(-1)).toBe("a2");
  });

  it("serves the waiting sessions in turn (least recently served first), one call each", async () => {
    const fair = new FairWorkers({ workers: 1 });
    const { order, acquire, release } = recorder(fair);
    for (let i = 0; i < 3; i++) void acquire("a", `a${i}`);
    for (let i = 0; i < 3; i++) void acquire("b", `b${i}`);
    void acquire("c", "c0");
    await Promise.resolve();
    for (let i = 0; i < 6; i++) await release(i);
    expect(order).toEqual(["a0", "b0", "c0", "a1", "b1", "a2", "b2"]);
  });

  it("keeps a session to its share while another waits, and leaves no worker idle while calls wait", async () => {
    const fair = new FairWorkers({ workers: 4 });
    const { order, acquire, release } = recorder(fair);
    for (let i = 0; i < 6; i++) void acquire("a", `a${i}`);
    await Promise.resolve();
    // Alone, a session may use every worker.
    expect(order).toEqual(["a0", "a1", "a2", "a3"]);
    void acquire("b", "b0");
    void acquire("b", "b1");
    await release(0);
    await release(1);
    // Two sessions: a share is 2 workers; a holds 2, so both free workers go to b.
    expect(order.slice(4)).toEqual(["b0", "b1"]);
    await release(4);
    // b has nothing waiting: the worker goes to a although a holds its share.
    expect(order.at(-1)).toBe("a4");
  });

  it("answers busy past the wait limit and past the queue bound, cancelled on abort", async () => {
    const fair = new FairWorkers({ workers: 1, maxQueuedPerSession: 2 });
    const { acquire } = recorder(fair);
    await acquire("a");
    const waited = acquire("b", "b", undefined, 20);
    const aborted = new AbortController();
    const cancelled = acquire("b", "b", aborted.signal);
    expect(await acquire("b")).toEqual({
      refused: {
        ok: false,
        error: "busy",
        hint: "at most 2 calls of a session wait for a worker; wait for one to finish",
      },
    });
    aborted.abort();
    expect(await cancelled).toEqual({
      refused: { ok: false, error: "cancelled", hint: "the call was cancelled" },
    });
    expect(await waited).toEqual({
      refused: {
        ok: false,
        error: "busy",
        hint: "no worker was free within 20 ms (1 workers shared by the calls of 2 sessions); try again",
      },
    });
  });

  it("bounds waiting by two rounds of calls at their limit and grace, and checks its options", () => {
    expect(waitLimitMs(1000, 1000)).toBe(4000);
    expect(() => new FairWorkers({ workers: 0 })).toThrow(
      "workers must be a positive integer, got 0",
    );
    expect(() => new FairWorkers({ workers: 2, maxQueuedPerSession: 1.5 })).toThrow(
      "maxQueuedPerSession must be a positive integer, got 1.5",
    );
  });
});

/**
 * Issue 27, item 6: the program pool shares its workers fairly among sessions. Programs that
 * spin in three sessions delay a fourth session's program by at most
 * min(ceil(S / W), 2) × (T + G) (S sessions, W workers, T the program limit, G the watchdog's
 * grace), not by their number;
 * waiting for a worker does not count against a program's limit, and is itself bounded.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createRuntime, waitLimitMs, type CallResult } from "@zcp/runtime";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { createCodeRunner, WATCHDOG_GRACE_MS } from "../dist/index.js";

const TIMEOUT_MS = 500;
const WORKERS = 2;
const code = createCodeRunner({ timeoutMs: TIMEOUT_MS, workers: WORKERS });
afterAll(() => code.close());
const runtime = createRuntime(weather, { code });

const SPIN = "while (true) {}";
const BUSY =
  /^no worker was free within \d+ ms \(2 workers shared by the calls of \d+ sessions\); try again$/;

describe("the program pool across sessions", () => {
  it("3 sessions × 8 spinning programs delay a 4th session's `return 1` by at most ceil(S/W) × (T + G)", async () => {
    // Both workers started (the first run of each loads QuickJS).
    await Promise.all([1, 2].map(() => runtime.session().call("zcp.run", { code: "return 0" })));
    const spinning: Promise<CallResult>[] = [];
    for (let s = 0; s < 3; s++) {
      const session = runtime.session();
      for (let i = 0; i < 8; i++) spinning.push(session.call("zcp.run", { code: SPIN }));
    }
    const started = performance.now();
    const answer = await runtime.session().call("zcp.run", { code: "return 1" });
    const took = performance.now() - started;
    expect(answer).toEqual({ ok: true, value: { value: 1 } });
    const bound = Math.ceil(4 / WORKERS) * (TIMEOUT_MS + WATCHDOG_GRACE_MS);
    expect(took, `the 4th session's program answered after ${Math.round(took)} ms`).toBeLessThan(
      bound,
    );
    // The spinning programs answer timeout after their own limit (waiting is not part of it),
    // or busy once they have waited 2 × (T + G) for a worker.
    for (const result of await Promise.all(spinning)) {
      if (result.ok === false && result.error === "busy") expect(result.hint).toMatch(BUSY);
      else
        expect(result).toEqual({
          ok: false,
          error: "timeout",
          hint: `the program ran longer than ${TIMEOUT_MS} ms`,
        });
    }
    expect(waitLimitMs(TIMEOUT_MS, WATCHDOG_GRACE_MS)).toBe(3000);
  });

  it("bounds the programs one session may have waiting", async () => {
    const bounded = createCodeRunner({ timeoutMs: 300, workers: 1, maxQueuedPerSession: 2 });
    try {
      const session = createRuntime(weather, { code: bounded }).session();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => session.call("zcp.run", { code: SPIN })),
      );
      expect(answers.filter((answer) => answer.ok === false && answer.error === "busy")).toEqual([
        {
          ok: false,
          error: "busy",
          hint: "at most 2 calls of a session wait for a worker; wait for one to finish",
        },
        {
          ok: false,
          error: "busy",
          hint: "at most 2 calls of a session wait for a worker; wait for one to finish",
        },
      ]);
    } finally {
      await bounded.close();
    }
  });
});

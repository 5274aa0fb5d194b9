/**
 * Issue 12, item 4: cancelling a call stops its work, and its slot stays taken until the tool
 * has stopped. A cancel-and-resubmit loop can never run more calls at once than
 * `--max-concurrent`; an aborted careful_write never lands (cancelled by `notifications/cancelled`,
 * by the client going away, or by `@zcp/client`'s signal).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { connectHttp } from "@zcp/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FAULTY,
  limitFlags,
  LIMITS,
  nativeSession,
  Processes,
  sleep,
  warmUp,
  type HttpServed,
} from "./harness.js";

const processes = new Processes();
afterAll(() => processes.cleanup());

function call(id: number, name: string, args: object) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

function cancel(requestId: number) {
  return { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } };
}

for (const isolation of ["none", "worker"] as const)
  describe(`issue 12 item 4: cancellation (--isolation ${isolation})`, () => {
    let served: HttpServed;
    let dir: string;
    beforeAll(async () => {
      dir = processes.tempDir(`cancel-${isolation}`);
      served = await processes.http(
        [
          "--registry",
          FAULTY,
          ...limitFlags(isolation),
          ...(isolation === "worker" ? ["--workers", "8"] : []),
        ],
        { env: { FAULTY_DIR: dir } },
      );
      await warmUp(served.native, isolation === "worker" ? 8 : 1);
    });

    const written = (name: string) => path.join(dir, "written", name);

    it("cancel-and-resubmit pushes 40 calls through: never more than --max-concurrent at once", async () => {
      const session = await nativeSession(served.native);
      const HOLD_MS = 300;
      const WANTED = 40;
      const answers = new Map<string, number>();
      let id = 100;
      let started = 0;
      const deadline = performance.now() + 15_000;
      // Each call is cancelled 20 ms after it is sent, so a server that frees slots on cancel
      // lets every resubmission in while the cancelled tools keep running.
      while (started < WANTED && performance.now() < deadline) {
        const requestId = id++;
        let answered = false;
        const answer = session
          .send(call(requestId, "gauge", { ms: HOLD_MS }))
          .finally(() => (answered = true));
        // The cancel goes on another connection and may overtake the call: repeat it until
        // the call has answered (a cancel of a request that is not running is ignored).
        do {
          await sleep(20);
          await session.send(cancel(requestId));
        } while (!answered && performance.now() < deadline);
        const result = (await answer).messages[0]?.result;
        const code = result?.ok === false ? result.error : `ok:${JSON.stringify(result)}`;
        answers.set(code, (answers.get(code) ?? 0) + 1);
        if (code === "cancelled") started++;
        else if (code === "busy") await sleep(20);
        else throw new Error(`call ${requestId} answered ${code}; expected cancelled or busy`);
      }
      expect(started, `calls that started (answers: ${JSON.stringify([...answers])})`).toBe(WANTED);
      await sleep(HOLD_MS + 200);
      const peaksFile = path.join(dir, "gauge", "peaks");
      expect(existsSync(peaksFile), "no gauge call ever ran (all cancelled before starting)").toBe(
        true,
      );
      const peaks = readFileSync(peaksFile, "utf8").trim().split("\n").map(Number);
      expect(
        Math.max(...peaks),
        `at most ${LIMITS.maxConcurrent} gauge calls may run at once; running counts seen: ${peaks.join(",")}`,
      ).toBeLessThanOrEqual(LIMITS.maxConcurrent);
    });

    it("careful_write cancelled by notifications/cancelled answers cancelled and never lands", async () => {
      const session = await nativeSession(served.native);
      const answer = session.send(call(1, "careful_write", { name: "notified.txt", ms: 300 }));
      await sleep(50);
      expect((await session.send(cancel(1))).status, "the cancel notification").toBe(202);
      expect((await answer).messages[0]?.result, "the cancelled call's answer").toMatchObject({
        ok: false,
        error: "cancelled",
      });
      await sleep(500);
      expect(existsSync(written("notified.txt")), "the aborted write landed").toBe(false);
    });

    it("careful_write whose client went away (aborted POST) never lands", async () => {
      const session = await nativeSession(served.native);
      const gone = new AbortController();
      const answer = session
        .send(call(1, "careful_write", { name: "gone.txt", ms: 300 }), gone.signal)
        .catch((error: Error) => error);
      await sleep(50);
      gone.abort();
      expect(await answer).toBeInstanceOf(Error);
      await sleep(500);
      expect(existsSync(written("gone.txt")), "the write of a client that went away landed").toBe(
        false,
      );
    });

    it("@zcp/client call with an aborted signal resolves cancelled at once and the write never lands", async () => {
      const client = connectHttp(served.native);
      await client.initialize();
      const controller = new AbortController();
      const pending = (
        client.call as (
          name: string,
          args: object,
          options: { signal: AbortSignal },
        ) => Promise<unknown>
      )("careful_write", { name: "client.txt", ms: 300 }, { signal: controller.signal });
      await sleep(50);
      const aborted = performance.now();
      controller.abort();
      expect(await pending, "the aborted call's answer").toMatchObject({
        ok: false,
        error: "cancelled",
      });
      expect(performance.now() - aborted, "ms from abort to the answer").toBeLessThan(150);
      await sleep(500);
      expect(existsSync(written("client.txt")), "the aborted write landed").toBe(false);
      // The session is still usable.
      expect(await client.call("echo", { after: "abort" })).toMatchObject({ ok: true });
    });
  });

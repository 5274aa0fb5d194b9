/**
 * Issue 27, item 2: no upstream behaviour ends zcp-serve. A real zcp-serve (HTTP) serves a
 * gateway module over a hostile upstream (test/hostile-upstream.ts) that answers 2 and 12 MiB,
 * lines that do not end, garbage, JSON that is no JSON-RPC message, results of the wrong shape
 * and ids nobody asked for. In each case a second session's call is in flight on the same
 * connection: the bad call gets its exact error (or, when its answer carries no id the gateway
 * can find, its time limit), the other call its real answer, `/healthz` answers within 100 ms
 * throughout, the upstream is not restarted (same pid) and the next call works.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeGatewayModule } from "../gateway-module.js";
import {
  expectHealthy,
  nativeSession,
  Processes,
  rssMb,
  sleep,
  watchHealth,
  watchRss,
  within,
  type HttpServed,
} from "./harness.js";

const HOSTILE = fileURLToPath(new URL("../hostile-upstream.ts", import.meta.url));
const MIB = 1024 * 1024;
/** The gateway's default maxAnswerBytes (the SDK's 10 MiB). */
const LIMIT = 10 * MIB;
/** The calls' time limit: room for the large answers on a busy CI machine; two cases wait for it. */
const TIMEOUT_MS = 3000;

type Session = Awaited<ReturnType<typeof nativeSession>>;

const processes = new Processes();
let served: HttpServed;
let a: Session;
let b: Session;
let ids = 0;

/** A native `tools/call` of the hostile upstream's `tool`; its CallResult. */
async function call(session: Session, tool: string, args: object = {}): Promise<any> {
  const answer = await session.send({
    jsonrpc: "2.0",
    id: ++ids,
    method: "tools/call",
    params: { name: `hostile.${tool}`, arguments: args },
  });
  return answer.messages[0]?.result;
}

const pid = async () => ((await call(a, "pid")) as { value: string }).value;

/**
 * Session a's slow call in flight while session b makes `bad`: resolves to b's result once a's
 * has its real answer and `/healthz` was fine throughout, the upstream still the same process.
 */
async function whileAnotherCallRuns(
  what: string,
  bad: () => Promise<unknown>,
  slowMs = 300,
): Promise<any> {
  const before = await pid();
  const health = watchHealth(served.base);
  const other = call(a, "slow", { ms: slowMs, text: "the real answer" });
  await sleep(50);
  const result = await bad();
  expect(await other, `session a's call in flight during ${what}`).toEqual({
    ok: true,
    value: "the real answer",
  });
  expectHealthy(await health.stop(), what);
  expect(await call(b, "echo", { text: "next" }), `the call after ${what}`).toEqual({
    ok: true,
    value: "next",
  });
  expect(await pid(), `the upstream is not restarted by ${what}`).toBe(before);
  expect(served.child.exitCode, "zcp-serve is running").toBeNull();
  return result;
}

/** Waits until zcp-serve's stderr matches `pattern`. */
async function logged(pattern: RegExp): Promise<void> {
  await within(
    (async () => {
      while (!pattern.test(served.stderr())) await sleep(20);
    })(),
    3000,
    `zcp-serve logging ${pattern}`,
  );
}

beforeAll(async () => {
  const dir = processes.tempDir("upstream");
  const registry = path.join(dir, "index.js");
  await writeGatewayModule(
    { command: process.execPath, args: ["--import", "tsx", HOSTILE] },
    { name: "hostile" },
    registry,
  );
  served = await processes.http([
    "--isolation",
    "none",
    "--timeout-ms",
    String(TIMEOUT_MS),
    "--registry",
    registry,
  ]);
  a = await nativeSession(served.native);
  b = await nativeSession(served.native);
  // The first call starts the upstream (tsx: a second or more).
  expect(await call(a, "echo", { text: "up" })).toEqual({ ok: true, value: "up" });
});
afterAll(() => processes.cleanup());

describe("issue 27 item 2: a hostile upstream behind zcp-serve", () => {
  it("a 2 MiB answer is a result: a handle", async () => {
    const result = await whileAnotherCallRuns("a 2 MiB answer", () =>
      call(b, "big", { bytes: 2 * MIB }),
    );
    expect(result).toMatchObject({ ok: true, handle: expect.any(String) });
    expect(result.meta.size).toBeGreaterThan(2 * MIB);
  });

  for (const idFirst of [false, true])
    it(`a 12 MiB answer, past maxAnswerBytes (id ${idFirst ? "first" : "last"}): upstream_too_large, never held whole`, async () => {
      const before = rssMb(served.pid);
      const rss = watchRss(served.pid, 20);
      const result = await whileAnotherCallRuns("a 12 MiB answer", () =>
        call(b, "big", { bytes: 12 * MIB, idFirst }),
      );
      expect(result).toEqual({
        ok: false,
        error: "upstream_too_large",
        hint: `hostile answered more than ${LIMIT} bytes (maxAnswerBytes) to tools/call; the answer was dropped`,
      });
      expect(rss.stop() - before, "RSS growth (MiB) while skipping the answer").toBeLessThan(
        (2 * LIMIT) / MIB,
      );
    });

  it("a line that goes on and on, its id first: upstream_too_large at once, the line skipped to its end", async () => {
    const before = rssMb(served.pid);
    const rss = watchRss(served.pid, 20);
    const started = performance.now();
    let failedAfter = 0;
    const result = await whileAnotherCallRuns(
      "a line that goes on for 1.5 s",
      async () => {
        const answer = await call(b, "endless", { ms: 1500, idFirst: true });
        failedAfter = performance.now() - started;
        return answer;
      },
      100,
    );
    expect(result).toEqual({
      ok: false,
      error: "upstream_too_large",
      hint: `hostile answered more than ${LIMIT} bytes (maxAnswerBytes) to tools/call; the answer was dropped`,
    });
    expect(failedAfter, "the call failed before the line ended").toBeLessThan(1500);
    expect(rss.stop() - before, "RSS growth (MiB) while skipping the line").toBeLessThan(
      (2 * LIMIT) / MIB,
    );
  });

  it("a line that does not end within the time limit, its id last: the call ends at its time limit", async () => {
    const before = await pid();
    const health = watchHealth(served.base);
    const rss = watchRss(served.pid, 20);
    const start = rssMb(served.pid);
    const result = await call(b, "endless", { ms: TIMEOUT_MS + 1000 });
    expect(result).toMatchObject({ ok: false, error: "timeout" });
    expect(rss.stop() - start, "RSS growth (MiB) while skipping the line").toBeLessThan(
      (2 * LIMIT) / MIB,
    );
    // When the line ends, its id is found at its end; the call is over: logged, nothing else.
    await logged(/zcp gateway: hostile: Received a response for an unknown message ID/);
    expectHealthy(await health.stop(), "a line that does not end");
    expect(await call(b, "echo", { text: "next" })).toEqual({ ok: true, value: "next" });
    expect(await pid()).toBe(before);
  });

  for (const [tool, what] of [
    ["garbage", "a line that is not JSON"],
    ["not_jsonrpc", "JSON that is no JSON-RPC message"],
    ["wrong_shape", "an answer of the wrong shape"],
  ] as const)
    it(`${tool}, ${what}: upstream_invalid (its call found by the id at the end); no restart under the other session's call`, async () => {
      expect(await whileAnotherCallRuns(what, () => call(b, tool))).toEqual({
        ok: false,
        error: "upstream_invalid",
        hint: `hostile answered ${what} to tools/call; the answer was dropped`,
      });
    });

  it("a line with no id that is not JSON is dropped and logged; the call gets its answer", async () => {
    expect(
      await whileAnotherCallRuns("a stray line", () => call(b, "noise", { text: "after noise" })),
    ).toEqual({ ok: true, value: "after noise" });
    await logged(
      /zcp gateway: hostile: dropped what it answered \(a line that is not JSON\): no id in its first or last 1024 bytes; the call it answered ends at its time limit/,
    );
  });

  it("an answer to an id nobody asked for is logged and changes nothing; a call never answered ends at its time limit", async () => {
    expect(
      await whileAnotherCallRuns("a stray answer", () => call(b, "stray", { answer: true })),
    ).toEqual({ ok: true, value: "answered" });
    await logged(/zcp gateway: hostile: Received a response for an unknown message ID: .*"stray"/);
    expect(
      await whileAnotherCallRuns("an answer with the wrong id", () =>
        call(b, "stray", { answer: false }),
      ),
    ).toMatchObject({ ok: false, error: "timeout" });
  });

  it("nothing of it restarted the upstream or ended zcp-serve", () => {
    expect(served.stderr()).not.toMatch(/restart/);
    expect(served.child.exitCode).toBeNull();
  });
});

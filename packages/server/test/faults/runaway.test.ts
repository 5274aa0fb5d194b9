/**
 * Issue 12, item 1: a runaway tool (a synchronous infinite loop, a heap exhausted, a workbench
 * range of 17 billion cells) ends in an answer, never in a dead or deaf server.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectHttp, type ZcpClient } from "@zcp/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectHealthy,
  FAULTY,
  LIMIT_FLAGS,
  LIMITS,
  mcpText,
  Processes,
  rssMb,
  watchHealth,
  WARM_WORKBENCH,
  warmUp,
  watchRss,
  WORKBENCH,
  type HttpServed,
} from "./harness.js";

const processes = new Processes();
afterAll(() => processes.cleanup());

/** How late past its limit an answer may come on a busy CI machine. */
const SLACK_MS = 1500;

describe("issue 12 item 1: runaway tools under worker isolation", () => {
  let served: HttpServed;
  let native: ZcpClient;
  beforeAll(async () => {
    served = await processes.http(["--registry", FAULTY, ...LIMIT_FLAGS], {
      env: { FAULTY_DIR: processes.tempDir("runaway") },
    });
    await warmUp(served.native);
    native = connectHttp(served.native);
    await native.initialize();
  });

  it("spin (a synchronous infinite loop) answers timeout within --timeout-ms; the server keeps answering", async () => {
    const health = watchHealth(served.base);
    const started = performance.now();
    const answer = await native.call("spin", {});
    const took = performance.now() - started;
    expect(answer, "spin's answer").toEqual({
      ok: false,
      error: "timeout",
      hint: `the tool did not finish within ${LIMITS.timeoutMs} ms`,
    });
    expect(took, "spin answered timeout this late (ms)").toBeLessThan(LIMITS.timeoutMs + SLACK_MS);
    expect(await native.call("echo", { after: "spin" }), "the next call").toMatchObject({
      ok: true,
      value: { args: { after: "spin" } },
    });
    expectHealthy(await health.stop(), "a spinning tool");
  });

  it("two spins at once (as many as workers) still leave the server answering, and the pool recovers", async () => {
    const health = watchHealth(served.base);
    const answers = await Promise.all([native.call("spin", {}), native.call("spin", {})]);
    for (const answer of answers) expect(answer).toMatchObject({ ok: false, error: "timeout" });
    // The stuck workers are terminated and replaced: a call after that works.
    expect(await native.call("echo", { after: "two spins" })).toMatchObject({ ok: true });
    expectHealthy(await health.stop(), "two spinning tools");
  });

  it("hog (allocates until out of memory) answers exec:error, RSS stays bounded, the next call works", async () => {
    const before = rssMb(served.pid);
    const rss = watchRss(served.pid, 50);
    const health = watchHealth(served.base);
    const answer = await native.call("hog", {});
    const peak = rss.stop();
    console.info(`hog: server RSS ${before} MiB before, ${peak} MiB at most while the tool ran`);
    expect(answer, "hog's answer").toEqual({
      ok: false,
      error: "exec:error",
      hint: `the tool ran out of memory (${LIMITS.toolMemoryMb} MiB) and was stopped`,
    });
    expect(await native.call("echo", { after: "hog" })).toMatchObject({ ok: true });
    expectHealthy(await health.stop(), "a tool exhausting its heap");
    // The worker's heap is capped at --tool-memory-mb; the rest is its young generation and code.
    expect(
      peak - before,
      `RSS grew from ${before} MiB to ${peak} MiB while a tool exhausted a ${LIMITS.toolMemoryMb} MiB heap`,
    ).toBeLessThan(4 * LIMITS.toolMemoryMb);
  });

  it("huge (a 17 MB result) answers exec:too_large with the sizes", async () => {
    const bytes = 17_000_000;
    const answer = await native.call("huge", { bytes });
    // Compact JSON of the string: its characters and two quotes.
    expect(answer).toEqual({
      ok: false,
      error: "exec:too_large",
      hint: `the result is ${bytes + 2} bytes; at most 16777216`,
    });
    expect(await native.call("huge", { bytes: 10 })).toEqual({ ok: true, value: "x".repeat(10) });
  });
});

describe("issue 12 item 1: the workbench refuses a whole-sheet range at once", () => {
  let served: HttpServed;
  let mcp: Client;
  beforeAll(async () => {
    served = await processes.http(["--registry", WORKBENCH, ...LIMIT_FLAGS], {
      env: { ZCP_WORKBENCH_DIR: processes.tempDir("workbench-range") },
    });
    await warmUp(served.native, undefined, WARM_WORKBENCH);
    mcp = new Client({ name: "faults", version: "0" });
    await mcp.connect(new StreamableHTTPClientTransport(served.mcp));
    processes.defer(() => mcp.close());
    const created = await mcp.callTool({
      name: "excel_create_workbook",
      arguments: { path: "big.xlsx" },
    });
    expect(created.isError, mcpText(created)).toBeFalsy();
  });

  const WHOLE_SHEET = "A1:XFD1048576";
  const CELLS = 16_384 * 1_048_576;
  const cases: [string, Record<string, unknown>][] = [
    ["excel_format_range", { path: "big.xlsx", sheet: "Sheet1", range: WHOLE_SHEET, bold: true }],
    ["excel_read_data_from_excel", { path: "big.xlsx", sheet: "Sheet1", range: WHOLE_SHEET }],
  ];
  for (const [tool, args] of cases)
    it(`${tool} on ${WHOLE_SHEET} answers invalid:$.range at once; /healthz keeps answering`, async () => {
      const health = watchHealth(served.base);
      const rss = watchRss(served.pid, 50);
      const before = rssMb(served.pid);
      const started = performance.now();
      const result = await mcp.callTool({ name: tool, arguments: args });
      const took = performance.now() - started;
      const peak = rss.stop();
      expect(result.isError, `${tool} should answer an error: ${mcpText(result)}`).toBe(true);
      const answer = JSON.parse(mcpText(result));
      expect(answer).toMatchObject({ ok: false, error: "invalid:$.range" });
      expect(answer.hint).toMatch(
        new RegExp(
          `^${WHOLE_SHEET} covers ${String(CELLS).replace(/\B(?=(\d{3})+$)/g, ",?")} cells; at most 200,?000 per call: split it$`,
        ),
      );
      expect(took, `${tool} took ${Math.round(took)} ms to refuse`).toBeLessThan(1000);
      expect(peak - before, `RSS grew from ${before} to ${peak} MiB`).toBeLessThan(100);
      expectHealthy(await health.stop(), `${tool} on ${WHOLE_SHEET}`);
    });
});

/**
 * Issue 12, item 3: SIGTERM over HTTP and stdio. Native calls in flight get their real answers; past the
 * grace, running calls answer `cancelled` and the process exits 0 even when a tool hangs or
 * spins; a second SIGTERM exits 1 at once.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { connectHttp } from "@zcp/client";
import { afterEach, describe, expect, it } from "vitest";
import {
  FAULTY,
  limitFlags,
  LIMITS,
  MCP_INITIALIZE,
  mcpSession,
  mcpText,
  NATIVE_INITIALIZE,
  post,
  Processes,
  sleep,
  warmUp,
  within,
} from "./harness.js";

const processes = new Processes();
afterEach(() => processes.cleanup());

function call(id: number, name: string, args: object = {}) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

const SHUTTING_DOWN = { ok: false, error: "cancelled", hint: "the server is shutting down" };

async function start(extra: string[] = [], isolation: "worker" | "none" = "worker") {
  const dir = processes.tempDir("shutdown");
  const served = await processes.http(["--registry", FAULTY, ...limitFlags(isolation), ...extra], {
    env: { FAULTY_DIR: dir },
  });
  await warmUp(served.native);
  const native = connectHttp(served.native);
  await native.initialize();
  return { served, native, dir };
}

describe("issue 12 item 3: graceful shutdown", () => {
  it("a native call in flight during SIGTERM gets its real answer and its write lands; new sessions get 503; exit 0", async () => {
    const { served, native, dir } = await start();
    const running = native.call("careful_write", { name: "in-flight.txt", ms: 300 });
    await sleep(100);
    served.child.kill("SIGTERM");
    await sleep(50);
    const late = await Promise.all([
      post(served.native, NATIVE_INITIALIZE).catch((error: Error) => error),
      post(served.mcp, MCP_INITIALIZE).catch((error: Error) => error),
    ]);
    for (const answer of late)
      expect(
        answer instanceof Error ? "refused" : answer.status,
        "a new session during the grace",
      ).toSatisfy((status) => status === "refused" || status === 503);
    const answer = await running.catch((error: Error) => `rejected: ${error.message}`);
    expect(answer, "the in-flight native call's answer").toEqual({
      ok: true,
      value: path.join(dir, "written", "in-flight.txt"),
    });
    expect(existsSync(path.join(dir, "written", "in-flight.txt"))).toBe(true);
    expect(await within(served.exited, 5000, "exit after SIGTERM")).toEqual({
      code: 0,
      signal: null,
    });
  });

  it("past the grace a hung call answers cancelled on both surfaces, and the process exits 0", async () => {
    const { served, native } = await start(["--timeout-ms", "30000"]);
    const mcp = await mcpSession(served.mcp);
    const hungNative = native.call("hang", {});
    const hungMcp = mcp.send(call(9, "hang"));
    await sleep(200);
    const signalled = performance.now();
    served.child.kill("SIGTERM");
    expect(
      await hungNative.catch((error: Error) => `rejected: ${error.message}`),
      "the hung native call's answer",
    ).toEqual(SHUTTING_DOWN);
    const answered = await hungMcp.catch((error: Error) => error);
    if (answered instanceof Error) throw new Error(`the hung MCP call got no answer: ${answered}`);
    const message = answered.messages.find((m) => m.id === 9);
    expect(message?.result?.isError, `the hung MCP call's answer: ${answered.text}`).toBe(true);
    expect(JSON.parse(mcpText(message.result))).toEqual(SHUTTING_DOWN);
    expect(await within(served.exited, 5000, "exit after SIGTERM with a hung tool")).toEqual({
      code: 0,
      signal: null,
    });
    expect(performance.now() - signalled, "ms from SIGTERM to exit").toBeLessThan(
      LIMITS.graceMs + 3000,
    );
  });

  it("a spinning worker does not keep the process alive: exit 0 after the grace", async () => {
    const { served, native } = await start(["--timeout-ms", "30000"]);
    const spinning = native.call("spin", {}).catch((error: Error) => error);
    await sleep(200);
    served.child.kill("SIGTERM");
    expect(await within(served.exited, 6000, "exit after SIGTERM with a spinning tool")).toEqual({
      code: 0,
      signal: null,
    });
    expect(await spinning).toEqual(SHUTTING_DOWN);
  });

  it("a hung in-process tool (--isolation none) does not keep the process alive", async () => {
    const { served, native } = await start(["--timeout-ms", "30000"], "none");
    const hung = native.call("hang", {}).catch((error: Error) => error);
    await sleep(100);
    served.child.kill("SIGTERM");
    expect(await within(served.exited, 5000, "exit after SIGTERM, isolation none")).toEqual({
      code: 0,
      signal: null,
    });
    expect(await hung).toEqual(SHUTTING_DOWN);
  });

  it("a second SIGTERM exits at once with code 1", async () => {
    const { served, native } = await start(["--grace-ms", "10000", "--timeout-ms", "30000"]);
    const mcp = await mcpSession(served.mcp);
    // Hung calls on both surfaces, so that the first stop waits its grace.
    void native.call("hang", {}).catch(() => undefined);
    void mcp.send(call(1, "hang")).catch(() => undefined);
    await sleep(100);
    served.child.kill("SIGTERM");
    await sleep(200);
    const again = performance.now();
    served.child.kill("SIGTERM");
    expect(await within(served.exited, 3000, "exit after the second SIGTERM")).toEqual({
      code: 1,
      signal: null,
    });
    expect(performance.now() - again, "ms from the second SIGTERM to exit").toBeLessThan(1000);
  });

  for (const surface of ["mcp", "native"] as const)
    it(`over stdio (${surface}): past the grace a hung call answers cancelled, and the process exits 0`, async () => {
      const served = processes.stdio(surface, [
        "--registry",
        FAULTY,
        ...limitFlags(),
        "--grace-ms",
        "300",
        "--timeout-ms",
        "30000",
      ]);
      served.lines.send(surface === "mcp" ? MCP_INITIALIZE : NATIVE_INITIALIZE);
      await served.lines.answer(0, 15_000);
      if (surface === "mcp")
        served.lines.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      served.lines.send(call(1, "hang"));
      await sleep(300);
      const stopped = performance.now();
      served.child.kill("SIGTERM");
      const answer = await served.lines.answer(1, 5000);
      expect(surface === "mcp" ? JSON.parse(mcpText(answer.result)) : answer.result).toEqual(
        SHUTTING_DOWN,
      );
      expect(await within(served.exited, 5000, "exit after SIGTERM")).toEqual({
        code: 0,
        signal: null,
      });
      expect(performance.now() - stopped, "ms from SIGTERM to exit").toBeLessThan(3000);
    });
});

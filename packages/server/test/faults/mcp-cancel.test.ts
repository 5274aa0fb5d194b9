/**
 * Issue 12, item 5: over MCP Streamable HTTP, `notifications/cancelled` for a call in progress
 * ends that call's SSE stream at once (no response: MCP sends none for a cancelled request),
 * the tool's signal aborts, and a stop does not wait for the cancelled call.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FAULTY, LIMIT_FLAGS, mcpSession, Processes, sleep, warmUp, within } from "./harness.js";

const processes = new Processes();
afterEach(() => processes.cleanup());

/** POSTs a tools/call and reads its SSE stream as it comes; `ended` resolves with what it carried. */
async function streamCall(
  url: URL,
  sessionId: string,
  id: number,
  name: string,
  args: object,
): Promise<{ ended: Promise<string> }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args },
    }),
  });
  expect(response.status, "the tools/call POST").toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      text += decoder.decode(value);
    }
  })();
  return { ended };
}

async function start() {
  const dir = processes.tempDir("mcp-cancel");
  // A long time limit and grace: only the cancel may end these calls quickly.
  const served = await processes.http(
    ["--registry", FAULTY, ...LIMIT_FLAGS, "--timeout-ms", "30000", "--grace-ms", "10000"],
    { env: { FAULTY_DIR: dir } },
  );
  await warmUp(served.native);
  return { served, dir, session: await mcpSession(served.mcp) };
}

describe("issue 12 item 5: a cancelled MCP HTTP call", () => {
  it("its SSE stream ends at once without a response, and SIGTERM then stops without waiting the grace", async () => {
    const { served, session } = await start();
    const { ended } = await streamCall(served.mcp, session.id, 7, "hang", {});
    await sleep(200);
    const cancelled = performance.now();
    const notified = await session.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 7, reason: "the user gave up" },
    });
    expect(notified.status, "the cancel notification").toBe(202);
    const carried = await within(ended, 2000, "the cancelled call's SSE stream to end");
    expect(performance.now() - cancelled, "ms from cancel to the stream's end").toBeLessThan(1000);
    expect(carried, "no response to a cancelled request").not.toMatch(/"id":7/);
    // The session is still served.
    const listed = await session.send({ jsonrpc: "2.0", id: 8, method: "tools/list" });
    expect(
      listed.messages[0]?.result?.tools?.length,
      "tools/list after the cancel",
    ).toBeGreaterThan(0);

    const signalled = performance.now();
    served.child.kill("SIGTERM");
    expect(await within(served.exited, 5000, "exit after SIGTERM")).toEqual({
      code: 0,
      signal: null,
    });
    expect(
      performance.now() - signalled,
      "SIGTERM waited for a cancelled call (ms; the grace is 10000)",
    ).toBeLessThan(3000);
  });

  it("the cancelled tool's signal aborts: careful_write never lands", async () => {
    const { served, session, dir } = await start();
    const { ended } = await streamCall(served.mcp, session.id, 3, "careful_write", {
      name: "mcp.txt",
      ms: 400,
    });
    await sleep(100);
    await session.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 3 },
    });
    await within(ended, 2000, "the cancelled call's SSE stream to end");
    await sleep(600);
    expect(existsSync(path.join(dir, "written", "mcp.txt")), "the cancelled write landed").toBe(
      false,
    );
  });
});

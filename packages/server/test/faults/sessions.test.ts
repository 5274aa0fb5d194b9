/**
 * Issue 12, item 7: 1,000 idle sessions opened as fast as a client can never lock anyone else
 * out: a new client still initializes and calls, on /mcp and on /zcp, while /healthz answers
 * and RSS stays bounded. MCP sessions evicted to make room answer 404 (-32001) afterwards; a
 * native session evicted is only unloaded (its state is its token, native/token.ts) and is
 * loaded again by its next request.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectHttp } from "@zcp/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectHealthy,
  FAULTY,
  LIMIT_FLAGS,
  MCP_INITIALIZE,
  mcpText,
  NATIVE_INITIALIZE,
  post,
  Processes,
  rssMb,
  watchHealth,
  warmUp,
  watchRss,
  type HttpServed,
} from "./harness.js";

const processes = new Processes();
afterAll(() => processes.cleanup());

const IDLE = 1000;
const PARALLEL = 50;

/** Opens `count` sessions (initialize only, never used again); resolves with the status counts. */
async function flood(
  url: URL,
  initialize: object,
  header: string,
): Promise<{ statuses: Map<number, number>; first?: string }> {
  const statuses = new Map<number, number>();
  let first: string | undefined;
  let left = IDLE;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (left-- > 0) {
        const answer = await post(url, initialize);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        first ??= answer.headers.get(header) ?? undefined;
      }
    }),
  );
  return { statuses, ...(first !== undefined ? { first } : {}) };
}

describe("issue 12 item 7: 1,000 idle sessions", () => {
  let served: HttpServed;
  beforeAll(async () => {
    served = await processes.http(["--registry", FAULTY, ...LIMIT_FLAGS], {
      env: { FAULTY_DIR: processes.tempDir("sessions") },
    });
    await warmUp(served.native);
  });

  it("on /mcp: every initialize is answered, a new SDK client connects and calls, an evicted session gets 404", async () => {
    const before = rssMb(served.pid);
    const rss = watchRss(served.pid);
    const { statuses, first } = await flood(served.mcp, MCP_INITIALIZE, "mcp-session-id");
    // The flood itself saturates the server; the promise is about the state it leaves.
    const health = watchHealth(served.base);
    expect(Object.fromEntries(statuses), "initialize statuses while flooding").toEqual({
      200: IDLE,
    });

    const client = new Client({ name: "latecomer", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(served.mcp));
    processes.defer(() => client.close());
    const result = await client.callTool({ name: "echo", arguments: { late: true } });
    expect(JSON.parse(mcpText(result)), "the latecomer's call").toMatchObject({
      args: { late: true },
    });

    // The oldest idle session made room: it is gone, with the answer that tells a client to start over.
    const evicted = await post(
      served.mcp,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { "mcp-session-id": first!, "mcp-protocol-version": "2025-11-25" },
    );
    expect(evicted.status, `the first session after the flood: ${evicted.text}`).toBe(404);
    expect(evicted.messages[0]?.error?.code).toBe(-32001);
    expectHealthy(await health.stop(), "a new MCP client among 1,000 idle sessions");
    const peak = rss.stop();
    console.info(`1,000 MCP sessions: server RSS ${before} MiB before, ${peak} MiB at most`);
    expect(peak - before, `RSS grew from ${before} to ${peak} MiB`).toBeLessThan(300);
  });

  it("on /zcp: every initialize is answered, a new @zcp/client initializes and calls, an evicted session is loaded again from its token", async () => {
    const { statuses, first } = await flood(served.native, NATIVE_INITIALIZE, "zcp-session-id");
    const health = watchHealth(served.base);
    expect(Object.fromEntries(statuses), "initialize statuses while flooding").toEqual({
      200: IDLE,
    });
    const client = connectHttp(served.native);
    processes.defer(() => client.close());
    await client.initialize();
    expect(await client.call("echo", { late: true })).toMatchObject({
      ok: true,
      value: { args: { late: true } },
    });
    const evicted = await post(
      served.native,
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { "zcp-session-id": first! },
    );
    expect(evicted.status, `the first session after the flood: ${evicted.text}`).toBe(200);
    expect(evicted.messages[0]?.result?.format).toBe("compact");
    expectHealthy(await health.stop(), "a new native client among 1,000 idle sessions");
  });
});

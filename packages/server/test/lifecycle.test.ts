/**
 * Requests that end early over HTTP: cancellation ending MCP streams (with the official SDK
 * client on real sockets), bodies that are JSON but not JSON-RPC, and a native client going
 * away. The session caps are in lifecycle-caps.test.ts, the shutdown in lifecycle-shutdown.test.ts.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { POST_HEADERS } from "./checks.js";
import {
  cleanup,
  events,
  mcpSession,
  nativeCall,
  nativeSession,
  post,
  runCleanup,
  serve,
  SESSION_NOT_FOUND,
  sleep,
  waitingForAbort,
} from "./lifecycle-http.js";

afterEach(runCleanup);

/** Polls `check` every 10 ms until it holds, for `ms` at most; answers whether it did. */
async function eventually(check: () => boolean, ms = 2000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(10)) if (check()) return true;
  return check();
}

/** The text of a body, or "still open" when it has not ended within `ms`. */
function within(body: Promise<string>, ms: number): Promise<string> {
  return Promise.race([body, sleep(ms).then(() => "still open")]);
}

describe("MCP over HTTP: a cancelled request ends its stream (L3)", () => {
  it("with the SDK client: the POST's stream ends, its connection is free, the tool's signal aborts, shutdown does not wait", async () => {
    const { tool, generated } = waitingForAbort();
    const { server, url } = await serve(generated);
    let open = 0;
    server.on("request", (_req, res: { once(event: "close", listener: () => void): void }) => {
      open++;
      res.once("close", () => open--);
    });
    const client = new Client({ name: "lifecycle", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(url));
    cleanup.push(() => client.close());
    // The client's GET stream stays open.
    expect(await eventually(() => open === 1)).toBe(true);

    const controller = new AbortController();
    const calling = client.callTool({ name: "tables_load", arguments: { name: "t" } }, undefined, {
      signal: controller.signal,
    });
    expect(await eventually(() => tool.started === 1)).toBe(true);
    expect(open).toBe(2);
    controller.abort(new Error("the user gave up"));
    await expect(calling).rejects.toThrow("the user gave up");

    // Only the GET stream is left open; closing idle sockets leaves its one connection.
    expect(await eventually(() => open === 1)).toBe(true);
    expect(tool.aborted).toBe(1);
    server.closeIdleConnections();
    await sleep(50);
    expect(
      await new Promise((resolve) => server.getConnections((_e, count) => resolve(count))),
    ).toBe(1);

    // Nothing is in progress: a shutdown with a long grace ends at once.
    const started = Date.now();
    await server.shutdown(10_000);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("raw: the stream ends without a response; a batch's stream ends once the rest is answered; the session idles out", async () => {
    const { tool, generated } = waitingForAbort();
    const { server, url } = await serve(generated, { idleTimeoutMs: 200 });
    const session = await mcpSession(url);
    const call = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "tables_load", arguments: { name: "t" } },
    });
    const cancel = (requestId: number) => ({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId, reason: "no longer needed" },
    });

    const single = await post(url, session, call(3));
    expect([single.status, single.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    const singleBody = single.text();
    expect(await eventually(() => tool.started === 1)).toBe(true);
    expect(await within(singleBody, 100)).toBe("still open");
    expect((await post(url, session, cancel(3))).status).toBe(202);
    expect(await within(singleBody, 1000)).toBe("");
    expect(tool.aborted).toBe(1);

    // A batch: the cancelled call and a ping; the stream carries the ping's answer, then ends.
    const batch = await post(url, session, [call(4), { jsonrpc: "2.0", id: 5, method: "ping" }]);
    const batchBody = batch.text();
    expect(await eventually(() => tool.started === 2)).toBe(true);
    expect(await within(batchBody, 100)).toBe("still open");
    expect((await post(url, session, cancel(4))).status).toBe(202);
    expect(events(await within(batchBody, 1000))).toEqual([{ jsonrpc: "2.0", id: 5, result: {} }]);
    expect(tool.aborted).toBe(2);

    // A cancellation for a request that already answered changes nothing.
    expect((await post(url, session, cancel(5))).status).toBe(202);
    expect(server.sessionCount).toBe(1);
    await sleep(700);
    expect(server.sessionCount).toBe(0);
    const gone = await post(url, session, { jsonrpc: "2.0", id: 6, method: "ping" });
    expect([gone.status, await gone.json()]).toEqual([404, SESSION_NOT_FOUND]);
  });
});

describe("MCP over HTTP: bodies that are JSON but not JSON-RPC (P2)", () => {
  it("answer 400 with -32600, with or without a session, and the session serves on", async () => {
    const { url } = await serve(weather);
    const session = await mcpSession(url);
    const invalid = (message: string) => ({
      jsonrpc: "2.0",
      error: { code: -32600, message },
      id: null,
    });
    for (const headers of [session, POST_HEADERS]) {
      for (const [body, message] of [
        ["[]", "Invalid Request: empty batch"],
        ['{"foo":1}', "Invalid Request: not a JSON-RPC message"],
        ['"initialize"', "Invalid Request: not a JSON-RPC message"],
        ["42", "Invalid Request: not a JSON-RPC message"],
        ["null", "Invalid Request: not a JSON-RPC message"],
        ['{"jsonrpc":"1.0","id":1,"method":"ping"}', "Invalid Request: not a JSON-RPC message"],
        [
          '{"jsonrpc":"2.0","id":1,"method":"ping","extra":true}',
          "Invalid Request: not a JSON-RPC message",
        ],
        [
          '[{"jsonrpc":"2.0","id":1,"method":"ping"},7]',
          "Invalid Request: element 1 of the batch is not a JSON-RPC message",
        ],
      ] as const) {
        const answer = await post(url, headers, body);
        expect([body, answer.status, await answer.json()]).toEqual([body, 400, invalid(message)]);
      }
    }
    // Text that is not JSON stays -32700.
    const malformed = await post(url, session, "{");
    expect((await malformed.json()) as unknown).toMatchObject({ error: { code: -32700 } });
    const ping = await post(url, session, { jsonrpc: "2.0", id: 9, method: "ping" });
    expect(events(await ping.text())).toEqual([{ jsonrpc: "2.0", id: 9, result: {} }]);
  });
});

describe("native over HTTP: a client that goes away cancels its calls (L4)", () => {
  it("aborting the POST aborts the tool's signal", async () => {
    const { tool, generated } = waitingForAbort();
    const { url } = await serve(generated, { native: true });
    const zcp = new URL("/zcp", url);
    const session = await nativeSession(zcp);
    const controller = new AbortController();
    const calling = fetch(zcp, {
      method: "POST",
      headers: session,
      body: JSON.stringify(nativeCall(2, "tables.load", { name: "t" })),
      signal: controller.signal,
    });
    expect(await eventually(() => tool.started === 1)).toBe(true);
    controller.abort();
    await expect(calling).rejects.toThrow();
    expect(await eventually(() => tool.aborted === 1)).toBe(true);
    // The session serves on.
    const ping = await post(zcp, session, { jsonrpc: "2.0", id: 3, method: "ping" });
    expect(await ping.json()).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
  });
});

/**
 * What bounds the 2026-07-28 era, which has no session to hang them on: each client has its own
 * concurrency slots, response budget and (when anonymous) handles; an answer is counted against
 * the request's budget as a 2025 session's answers are; a session a request holds is never
 * unloaded under it; an `identify` identity binds native sessions as it binds MCP handles.
 */
import { createRuntime } from "@zcp/runtime";
import { afterAll, describe, expect, it } from "vitest";
import faulty from "../../../fixtures/faulty/src/zcp.gen/index.js";
import { createFetchHandler } from "../src/index.js";
import { StatelessMcp } from "../src/mcp/stateless.js";
import { NATIVE_INITIALIZE } from "./faults/harness.js";
import { modernBody, modernHeaders, postTo } from "./modern-wire.js";

const runtime = createRuntime(faulty, { maxConcurrentCalls: 1, timeoutMs: 60_000 });
const handler = createFetchHandler(runtime, {
  native: true,
  maxResponseBytes: 4096,
  // The test's stand-ins for the remote address and the server's authentication.
  clientKey: (request) => request.headers.get("x-test-client") ?? "",
  identify: (request) => request.headers.get("x-test-user") ?? undefined,
});
afterAll(() => handler.close());

const post = (url: string, body: unknown, headers: { [name: string]: string } = {}) =>
  postTo(handler, url, body, headers);

/** A 2026-07-28 request from `client`; its JSON-RPC answer. */
async function modern(method: string, params: object, client: string, user?: string) {
  const name = (params as { name?: string; uri?: string }).name ?? (params as { uri?: string }).uri;
  const { data } = await post("http://127.0.0.1/mcp", modernBody(method, params as never), {
    ...modernHeaders(method, name),
    "x-test-client": client,
    ...(user !== undefined ? { "x-test-user": user } : {}),
  });
  return data as {
    result?: { content: { text: string }[] };
    error?: { code: number; message: string };
  };
}

const text = (answer: Awaited<ReturnType<typeof modern>>) => answer.result!.content[0]!.text;

describe("the 2026-07-28 era's bounds", () => {
  it("a client's calls take its own slots: another anonymous client is not busy", async () => {
    // Client A's one slot is taken by a call that does not end.
    const hanging = handler.fetch(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: {
          host: "127.0.0.1",
          "content-type": "application/json",
          ...modernHeaders("tools/call", "hang"),
          "x-test-client": "a",
        },
        body: JSON.stringify(modernBody("tools/call", { name: "hang", arguments: {} })),
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const busy = await modern("tools/call", { name: "echo", arguments: {} }, "a");
    expect(text(busy)).toMatch(/^\{"ok":false,"error":"busy"/);
    const other = await modern("tools/call", { name: "echo", arguments: { x: 1 } }, "b");
    expect(JSON.parse(text(other))).toMatchObject({ args: { x: 1 } });
    void hanging.catch(() => undefined);
  });

  it("an anonymous client's handles are its own: another client's guess finds nothing", async () => {
    const made = JSON.parse(
      text(await modern("tools/call", { name: "bulk", arguments: { bytes: 600 } }, "c")),
    );
    const read = { name: "zcp_handle", arguments: { handle: made.handle, op: "read", limit: 1 } };
    expect(text(await modern("tools/call", read, "c"))).not.toMatch(/"error"/);
    expect(text(await modern("tools/call", read, "d"))).toMatch(`"error":"expired:${made.handle}"`);
  });

  it("an answer is counted against the request's budget: a read past it is refused", async () => {
    const made = JSON.parse(
      text(await modern("tools/call", { name: "bulk", arguments: { bytes: 100_000 } }, "e")),
    );
    const uri = `zcp://handle/${encodeURIComponent(made.handle)}`;
    const refusal = await modern("resources/read", { uri }, "e");
    expect(refusal.error).toEqual({
      code: -32000,
      message:
        "Response too large: the answers to one request may take 4096 bytes (maxResponseBytes, zcp-serve --max-response-bytes); read fewer or smaller handles per request",
    });
    const whole = await modern(
      "tools/call",
      { name: "zcp_handle", arguments: { handle: made.handle, op: "read" } },
      "e",
    );
    expect(whole.error?.message ?? text(whole)).toMatch(/Response too large/);
  });

  it("a session a request holds is not unloaded under it", async () => {
    const stateless = new StatelessMcp(runtime, {}, 1);
    const alice = stateless.open({ surface: "mcp" }, { client: "alice" });
    const bob = stateless.open({ surface: "mcp" }, { client: "bob" });
    // Both are loaded, over the bound of 1, until their requests end.
    const { Client } = await import("@modelcontextprotocol/client");
    const { InMemoryTransport } = await import("@modelcontextprotocol/server");
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await alice.server.connect(serverSide);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(clientSide);
    const result = await client.callTool({ name: "echo", arguments: {} });
    expect(result.isError).toBeFalsy();
    alice.end();
    bob.end();
    await client.close();
    await stateless.close();
  });

  it("an identify identity binds native sessions: another user's token finds nothing", async () => {
    const opened = await post("http://127.0.0.1/zcp", NATIVE_INITIALIZE, {
      "x-test-user": "alice",
    });
    const token = opened.response.headers.get("zcp-session-id")!;
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    const own = await post("http://127.0.0.1/zcp", ping, {
      "zcp-session-id": token,
      "x-test-user": "alice",
    });
    expect(own.response.status).toBe(200);
    const others: { [name: string]: string }[] = [{ "x-test-user": "bob" }, {}];
    for (const other of others) {
      const refused = await post("http://127.0.0.1/zcp", ping, {
        "zcp-session-id": token,
        ...other,
      });
      expect(refused.response.status).toBe(404);
    }
  });
});

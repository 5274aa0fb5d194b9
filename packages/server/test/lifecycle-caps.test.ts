/**
 * Per-client session caps over HTTP, evicting the least recently active idle session (L5): MCP
 * sessions on the node server, native ones on the fetch handler.
 */
import { createRuntime } from "@zcp/runtime";
import { afterEach, describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { createNativeFetchHandler, type NativeFetchOptions } from "../src/index.js";
import { INITIALIZE, POST_HEADERS } from "./checks.js";
import {
  cleanup,
  mcpSession,
  NATIVE_INITIALIZE,
  post,
  runCleanup,
  serve,
  SESSION_NOT_FOUND,
  sleep,
  waitingForAbort,
} from "./lifecycle-http.js";

afterEach(runCleanup);

describe("sessions: per-client caps, evicting the least recently active idle session (L5)", () => {
  it("MCP: the client's own idle session makes room, then the oldest idle one overall, else 503", async () => {
    const { generated } = waitingForAbort();
    const { server, url } = await serve(generated, {
      maxSessions: 3,
      maxSessionsPerClient: 2,
      clientKey: (request) => request.headers.get("x-client") ?? "",
    });
    const a = { "x-client": "a" };
    const b = { "x-client": "b" };
    const ping = (session: { [name: string]: string }) =>
      post(url, session, { jsonrpc: "2.0", id: 7, method: "ping" });
    const a1 = await mcpSession(url, a);
    const a2 = await mcpSession(url, a);
    // a1 has a POST in progress (a running call): it is not idle.
    const running = await post(url, a1, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "tables_load", arguments: { name: "t" } },
    });
    const a3 = await mcpSession(url, a);
    expect(server.sessionCount).toBe(2);
    const evicted = await ping(a2);
    expect([evicted.status, await evicted.json()]).toEqual([404, SESSION_NOT_FOUND]);
    expect((await ping(a1)).status).toBe(200);

    // The table is full (a1, a3, b1): b2 closes the least recently active idle session, a3.
    const b1 = await mcpSession(url, b);
    await sleep(5);
    await (await ping(b1)).text();
    const b2 = await mcpSession(url, b);
    expect(server.sessionCount).toBe(3);
    expect((await ping(a3)).status).toBe(404);
    expect((await ping(b1)).status).toBe(200);
    expect((await ping(b2)).status).toBe(200);

    // Nothing can be closed when every session of the client is busy.
    const one = await serve(generated, { maxSessions: 1 });
    const busy = await mcpSession(one.url);
    const held = await post(one.url, busy, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "tables_load", arguments: { name: "t" } },
    });
    const refused = await post(one.url, POST_HEADERS, INITIALIZE);
    expect([refused.status, await refused.json()]).toEqual([
      503,
      {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Service Unavailable: too many open sessions" },
        id: null,
      },
    ]);
    await running.body?.cancel();
    await held.body?.cancel();
  });

  it("MCP: 1,000 idle sessions opened at once never keep a new client out; per address by default", async () => {
    const { server, url } = await serve(weather, {
      clientKey: (request) => request.headers.get("x-client") ?? "flood",
    });
    const opened = await Promise.all(
      Array.from({ length: 1000 }, () =>
        post(url, POST_HEADERS, INITIALIZE).then(
          async (response) => (await response.text(), response.status),
        ),
      ),
    );
    expect(opened.every((status) => status === 200)).toBe(true);
    expect(server.sessionCount).toBe(100);
    await mcpSession(url, { "x-client": "newcomer" });
    expect(server.sessionCount).toBe(101);

    // On node:http the client is the remote address: 127.0.0.1 here, capped at 3.
    const local = await serve(weather, { maxSessionsPerClient: 3 });
    for (let i = 0; i < 5; i++) await mcpSession(local.url);
    expect(local.server.sessionCount).toBe(3);
  });

  it("native: the same policy bounds the sessions loaded; the identity is the client when there is one", async () => {
    // A native session's state is its token (native/token.ts): making room only unloads a
    // session, and its token loads it again (making room in turn).
    const PING = JSON.stringify({ jsonrpc: "2.0", id: 4, method: "ping" });
    const native = (options: NativeFetchOptions) => {
      const handler = createNativeFetchHandler(createRuntime(weather), options);
      cleanup.push(() => handler.close());
      const send = async (headers: { readonly [name: string]: string }) => {
        const response = await handler.fetch(
          new Request("http://127.0.0.1/zcp", {
            method: "POST",
            headers: { "content-type": "application/json", ...headers },
            body: headers["zcp-session-id"] ? PING : NATIVE_INITIALIZE,
          }),
        );
        await response.text();
        return { status: response.status, token: response.headers.get("zcp-session-id")! };
      };
      return { handler, send };
    };
    const one = native({ maxSessionsPerClient: 2, clientKey: () => "127.0.0.1" });
    const first = (await one.send({})).token;
    await one.send({});
    await one.send({});
    expect(one.handler.sessionCount).toBe(2);
    expect(await one.send({ "zcp-session-id": first })).toMatchObject({ status: 200 });
    expect(one.handler.sessionCount).toBe(2);

    const who = native({
      maxSessionsPerClient: 1,
      identity: (request) => request.headers.get("x-user"),
    });
    const alice = (await who.send({ "x-user": "alice" })).token;
    await who.send({ "x-user": "bob" });
    expect(who.handler.sessionCount).toBe(2);
    await who.send({ "x-user": "alice" });
    expect(who.handler.sessionCount).toBe(2);
    expect(await who.send({ "x-user": "alice", "zcp-session-id": alice })).toMatchObject({
      status: 200,
    });
    expect(who.handler.sessionCount).toBe(2);
  });
});

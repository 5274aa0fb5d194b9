/**
 * The web-standard handler, `createFetchHandler(runtime).fetch(request) → Response`, driven with
 * `Request` objects: no socket, no `node:http`. The SDK client talks to it through its `fetch`
 * option; raw requests cover the guards, limits and health checks with the same status codes as
 * the `node:http` server's.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createRuntime } from "@zcp/runtime";
import { afterEach, describe, expect, it } from "vitest";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import {
  createFetchHandler,
  createNativeFetchHandler,
  type FetchHandlerOptions,
  type ZcpFetchHandler,
} from "../src/index.js";
import {
  call,
  checkHandle,
  checkWeather,
  INITIALIZE,
  PAGE_SIZE,
  POST_HEADERS,
  text,
} from "./checks.js";

const ORIGIN = "http://127.0.0.1:8787";

const handlers: ZcpFetchHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

function handler(options: FetchHandlerOptions = {}, fixture = weather): ZcpFetchHandler {
  const created = createFetchHandler(createRuntime(fixture, { approve: () => true }), {
    pageSize: PAGE_SIZE,
    ...options,
  });
  handlers.push(created);
  return created;
}

/** A request as a server runtime hands it over: with the Host header of its URL. */
function request(
  path: string,
  init: RequestInit & { headers?: Record<string, string> } = {},
): Request {
  const url = new URL(path, ORIGIN);
  return new Request(url, {
    method: "POST",
    ...init,
    headers: { host: url.host, ...init.headers },
  });
}

/** A JSON body, to look into. */
const read = (response: Response): Promise<any> => response.json();

/** The JSON-RPC messages of an SSE body. */
async function events(response: Response): Promise<unknown[]> {
  const body = await response.text();
  return body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice("data: ".length)));
}

/** The SDK client on the handler: its `fetch` hands every request to `handler.fetch`. */
async function connect(
  served: ZcpFetchHandler,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: "zcp-fetch-test", version: "0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", ORIGIN), {
    fetch: (url, init) => {
      const sent = new Request(url, init);
      sent.headers.set("host", new URL(url).host);
      for (const [name, value] of Object.entries(headers)) sent.headers.set(name, value);
      return served.fetch(sent);
    },
  });
  await client.connect(transport);
  return client;
}

describe("createFetchHandler: MCP with Request objects", () => {
  it("initialize, initialized, tools/list, tools/call and DELETE, parsed from the SSE answers", async () => {
    const served = handler();
    const opened = await served.fetch(
      request("/mcp", { headers: POST_HEADERS, body: JSON.stringify(INITIALIZE) }),
    );
    expect(opened.status).toBe(200);
    expect(opened.headers.get("content-type")).toBe("text/event-stream");
    const session = opened.headers.get("mcp-session-id")!;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(await events(opened)).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        result: expect.objectContaining({
          protocolVersion: "2025-11-25",
          serverInfo: { name: "zcp", version: "0.1.0" },
        }),
      },
    ]);
    expect(served.sessionCount).toBe(1);

    const headers = {
      ...POST_HEADERS,
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
    };
    const initialized = await served.fetch(
      request("/mcp", {
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      }),
    );
    expect([initialized.status, initialized.body]).toEqual([202, null]);

    const listed = await events(
      await served.fetch(
        request("/mcp", {
          headers,
          body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
        }),
      ),
    );
    expect(listed).toMatchObject([
      {
        id: 2,
        result: {
          tools: [
            { name: "math_average" },
            { name: "math_subtract" },
            { name: "unit_celsius_to_fahrenheit" },
          ],
          nextCursor: expect.any(String),
        },
      },
    ]);
    const called = await events(
      await served.fetch(
        request("/mcp", {
          headers,
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 3,
            method: "tools/call",
            params: { name: "math_subtract", arguments: { a: 10, b: 4 } },
          }),
        }),
      ),
    );
    expect(called).toEqual([
      { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "6" }] } },
    ]);

    const deleted = await served.fetch(
      request("/mcp", { method: "DELETE", headers: { "mcp-session-id": session } }),
    );
    expect(deleted.status).toBe(200);
    expect(served.sessionCount).toBe(0);
    const stale = await served.fetch(
      request("/mcp", { headers, body: JSON.stringify({ jsonrpc: "2.0", id: 4, method: "ping" }) }),
    );
    expect(stale.status).toBe(404);
    expect(await stale.json()).toMatchObject({ error: { code: -32001 } });
  });

  it("serves the official SDK client through its fetch option: the weather checks and handles as resources", async () => {
    const client = await connect(handler());
    await checkWeather(client);
    await client.close();
    const sink = await connect(handler({}, kitchenSink));
    await checkHandle(sink);
    await sink.close();
  });
});

describe("createFetchHandler: guards, limits and health, as over node:http", () => {
  it("refuses a foreign Host or Origin with 403, a missing or wrong token with 401", async () => {
    const served = handler({ token: "s3cret" });
    const body = JSON.stringify(INITIALIZE);
    const bearer = { ...POST_HEADERS, authorization: "Bearer s3cret" };
    const badHost = await served.fetch(
      request("/mcp", { headers: { ...bearer, host: "evil.example:8787" }, body }),
    );
    expect(badHost.status).toBe(403);
    expect(await badHost.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Forbidden: Invalid Host header: evil.example:8787" },
      id: null,
    });
    const badOrigin = await served.fetch(
      request("/mcp", { headers: { ...bearer, origin: "http://evil.example" }, body }),
    );
    expect([badOrigin.status, (await read(badOrigin)).error.message]).toEqual([
      403,
      "Forbidden: Invalid Origin header: http://evil.example",
    ]);
    const noHost = await served.fetch(
      new Request(new URL("/mcp", ORIGIN), { method: "POST", headers: bearer, body }),
    );
    expect(noHost.status).toBe(403);

    for (const authorization of [undefined, "Bearer wrong", "Basic czNjcmV0"]) {
      const refused = await served.fetch(
        request("/mcp", {
          headers: { ...POST_HEADERS, ...(authorization ? { authorization } : {}) },
          body,
        }),
      );
      expect(refused.status, String(authorization)).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
    const client = await connect(served, {
      authorization: "Bearer s3cret",
      origin: "http://localhost:5173",
    });
    expect(text(await call(client, "math_subtract", { a: 3, b: 1 }))).toBe("2");
    await client.close();
  });

  it("answers 413 over maxBodyBytes (declared or streamed), 400 to malformed JSON, 404, 405 and health", async () => {
    const served = handler({ maxBodyBytes: 1024 });
    const big = `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"${"x".repeat(2048)}"}}`;
    const declared = await served.fetch(request("/mcp", { headers: POST_HEADERS, body: big }));
    expect([declared.status, declared.headers.get("connection")]).toEqual([413, "close"]);
    const chunk = new TextEncoder().encode("x".repeat(600));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(chunk);
      },
    });
    const streamed = await served.fetch(
      request("/mcp", { headers: POST_HEADERS, body: stream, duplex: "half" } as RequestInit & {
        headers: Record<string, string>;
      }),
    );
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toMatchObject({
      error: { code: -32000, message: "Payload Too Large: the body must not exceed 1024 bytes" },
    });

    // A batch past maxBatch (50) is refused whole before any of it is dispatched.
    const pings = (n: number) =>
      JSON.stringify(
        Array.from({ length: n }, (_, id) => ({ jsonrpc: "2.0", id, method: "ping" })),
      );
    const batched = handler({ maxBatch: 3 });
    const tooMany = await batched.fetch(request("/mcp", { headers: POST_HEADERS, body: pings(4) }));
    expect([tooMany.status, await tooMany.json()]).toEqual([
      400,
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid Request: batch too large (at most 3 messages)" },
      },
    ]);
    const byDefault = await handler().fetch(
      request("/mcp", { headers: POST_HEADERS, body: pings(51) }),
    );
    expect([byDefault.status, (await read(byDefault)).error.message]).toEqual([
      400,
      "Invalid Request: batch too large (at most 50 messages)",
    ]);

    const malformed = await served.fetch(
      request("/mcp", { headers: POST_HEADERS, body: '{"jsonrpc":' }),
    );
    expect([malformed.status, (await read(malformed)).error.code]).toEqual([400, -32700]);
    expect(
      (
        await served.fetch(
          request("/mcp", {
            headers: POST_HEADERS,
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
          }),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await served.fetch(
          request("/mcp", {
            headers: { ...POST_HEADERS, "mcp-session-id": "no-such-session" },
            body: "{}",
          }),
        )
      ).status,
    ).toBe(404);
    const put = await served.fetch(request("/mcp", { method: "PUT", body: "{}" }));
    expect([put.status, put.headers.get("allow")]).toEqual([405, "GET, POST, DELETE"]);
    expect(
      (
        await served.fetch(
          request("/mcp", {
            headers: { ...POST_HEADERS, accept: "application/json" },
            body: JSON.stringify(INITIALIZE),
          }),
        )
      ).status,
    ).toBe(406);
    expect(served.sessionCount).toBe(0);

    const health = await served.fetch(request("/healthz", { method: "GET" }));
    expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
    expect(await (await served.fetch(request("/readyz", { method: "GET" }))).json()).toEqual({
      status: "ready",
    });
    expect((await served.fetch(request("/other", { method: "GET" }))).status).toBe(404);
    await served.close();
    const closing = await served.fetch(request("/readyz", { method: "GET" }));
    expect([closing.status, await closing.json()]).toEqual([503, { status: "closing" }]);
    expect(
      (
        await served.fetch(
          request("/mcp", { headers: POST_HEADERS, body: JSON.stringify(INITIALIZE) }),
        )
      ).status,
    ).toBe(503);
  });
});

describe("the native surface with Request objects", () => {
  const rpc = (id: number, method: string, params?: object) =>
    JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });

  it("mounted on /zcp behind the token: initialize, tools/call, handles, session/close", async () => {
    const served = handler({ native: true, token: "t0ken" }, kitchenSink);
    const headers = { "content-type": "application/json", authorization: "Bearer t0ken" };
    expect(
      (
        await served.fetch(
          request("/zcp", {
            headers: { "content-type": "application/json" },
            body: rpc(1, "initialize"),
          }),
        )
      ).status,
    ).toBe(401);
    const opened = await served.fetch(request("/zcp", { headers, body: rpc(1, "initialize") }));
    expect(opened.status).toBe(200);
    expect((await read(opened)).result.protocolVersion).toBe("zcp/1");
    const session = { ...headers, "zcp-session-id": opened.headers.get("zcp-session-id")! };
    const loaded = await served.fetch(
      request("/zcp", {
        headers: session,
        body: rpc(2, "tools/call", { name: "tables.load", arguments: { name: "orders" } }),
      }),
    );
    expect((await read(loaded)).result).toMatchObject({ ok: true, handle: "#T1" });
    expect(
      (
        await read(
          await served.fetch(
            request("/zcp", { headers: session, body: rpc(3, "handles/count", { handle: "#T1" }) }),
          ),
        )
      ).result,
    ).toEqual({ ok: true, count: 3 });
    const notification = await served.fetch(
      request("/zcp", {
        headers: session,
        body: JSON.stringify({ jsonrpc: "2.0", method: "ping" }),
      }),
    );
    expect([notification.status, notification.body]).toEqual([202, null]);
    const closed = await served.fetch(
      request("/zcp", { headers: session, body: rpc(4, "session/close") }),
    );
    expect([closed.status, closed.headers.get("zcp-session-id")]).toEqual([200, null]);
    // The session's state is its token (native/token.ts): closing drops its handles, and the
    // token, good until it expires, opens the session again without them.
    expect(
      (
        await read(
          await served.fetch(
            request("/zcp", { headers: session, body: rpc(5, "handles/count", { handle: "#T1" }) }),
          ),
        )
      ).result,
    ).toMatchObject({ ok: false, error: "expired:#T1" });
  });

  it("createNativeFetchHandler alone: identity from the Request, 405, 400 and 413", async () => {
    const native = createNativeFetchHandler(createRuntime(weather), {
      maxBodyBytes: 256,
      identity: (sent) => sent.headers.get("x-user"),
    });
    try {
      const post = (body: string, headers: Record<string, string> = {}) =>
        native.fetch(
          new Request(`${ORIGIN}/zcp`, {
            method: "POST",
            headers: { "x-user": "alice", ...headers },
            body,
          }),
        );
      expect((await post(rpc(1, "initialize"), { "x-user": "" })).status).toBe(200); // "" is an identity; null is none
      expect(
        (
          await native.fetch(
            new Request(`${ORIGIN}/zcp`, { method: "POST", body: rpc(1, "initialize") }),
          )
        ).status,
      ).toBe(401);
      const opened = await post(rpc(1, "initialize"));
      const session = { "zcp-session-id": opened.headers.get("zcp-session-id")! };
      expect(
        await (
          await post(
            rpc(2, "tools/call", { name: "math.subtract", arguments: { a: 10, b: 4 } }),
            session,
          )
        ).json(),
      ).toEqual({ jsonrpc: "2.0", id: 2, result: { ok: true, value: 6 } });
      expect((await post(rpc(3, "ping"), { ...session, "x-user": "bob" })).status).toBe(404);
      expect((await post("{oops", session)).status).toBe(400);
      expect((await post(JSON.stringify("x".repeat(300)), session)).status).toBe(413);
      const get = await native.fetch(new Request(`${ORIGIN}/zcp`));
      expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
      expect(native.sessionCount).toBe(2);
    } finally {
      await native.close();
    }
  });
});

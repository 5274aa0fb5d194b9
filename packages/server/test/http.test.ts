/**
 * The MCP surface over Streamable HTTP: an in-process server on 127.0.0.1, port 0, the official
 * SDK client, and raw requests for what a client would never send.
 */
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createRuntime, type Session } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { createNativeHttpHandler, serveHttp, type McpHttpServer } from "../src/node/index.js";
import {
  call,
  checkHandle,
  checkRelease,
  checkWeather,
  expectRpcError,
  INITIALIZE,
  listAllTools,
  PAGE_SIZE,
  POST_HEADERS,
  text,
} from "./checks.js";

interface Served {
  readonly server: McpHttpServer;
  readonly url: URL;
  /** Runtime sessions, in the order the MCP sessions opened. */
  readonly sessions: Session[];
}

async function serve(fixture: "weather" | "kitchen-sink"): Promise<Served> {
  const sessions: Session[] = [];
  const runtime = createRuntime(fixture === "weather" ? weather : kitchenSink, {
    approve: () => true,
  });
  const { server, url } = await serveHttp(runtime, {
    name: `zcp-${fixture}`,
    pageSize: PAGE_SIZE,
    onSession: (session) => sessions.push(session),
  });
  return { server, url, sessions };
}

async function connect(
  url: URL,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "zcp-test", version: "0" });
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  return { client, transport };
}

function stop(server: McpHttpServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A raw request with any headers (fetch cannot set Host) and an optional streamed body. */
function request(
  url: URL,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    chunks?: Buffer[];
  },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? "POST", headers: options.headers ?? {} },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    if (options.chunks) {
      for (const chunk of options.chunks) req.write(chunk);
      req.end();
    } else req.end(options.body);
  });
}

describe("MCP over Streamable HTTP", () => {
  let weatherServer: Served;
  let sinkServer: Served;
  beforeAll(async () => {
    [weatherServer, sinkServer] = await Promise.all([serve("weather"), serve("kitchen-sink")]);
  });
  afterAll(async () => {
    await Promise.all([stop(weatherServer.server), stop(sinkServer.server)]);
  });

  it("serves the weather fixture: paginated list, every tool, tool errors, unknown tools, ping", async () => {
    const { client, transport } = await connect(weatherServer.url);
    expect(transport.sessionId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(transport.protocolVersion).toBe("2025-11-25");
    await checkWeather(client);
    await client.close();
  });

  it("turns a handle into a resource_link that only its own session can read", async () => {
    const { client } = await connect(sinkServer.url);
    const logs: unknown[] = [];
    client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      (notification) => void logs.push(notification.params),
    );
    const uri = await checkHandle(client);
    expect(logs).toContainEqual({ level: "info", logger: "tables_load", data: "loading orders" });

    const other = await connect(sinkServer.url);
    await expectRpcError(other.client.readResource({ uri }), -32602, /Resource not found/);
    // The URI names a handle of whichever session reads it: the other session's own #T1 is
    // another value under the same URI, and neither session reads the other's.
    const mine = await call(other.client, "tables_load", { name: "stock", limit: 2 });
    expect((mine.content[1] as { uri: string }).uri).toBe(uri);
    const read = (await other.client.readResource({ uri })).contents[0] as { text: string };
    expect(JSON.parse(read.text)).toHaveLength(2);
    const own = (await client.readResource({ uri })).contents[0] as { text: string };
    expect(JSON.parse(own.text)).toHaveLength(3);

    await checkRelease(client, uri);
    await Promise.all([client.close(), other.client.close()]);
  });

  it("sends tools/list_changed when the session's stage changes", async () => {
    const before = sinkServer.sessions.length;
    const { client } = await connect(sinkServer.url);
    const session = sinkServer.sessions[before]!;
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    expect(await listAllTools(client)).toContain("tables_load");
    // The notification travels on the GET stream, which the client opens in the background.
    for (let attempt = 0; changes === 0 && attempt < 100; attempt++) {
      session.setStage(attempt % 2 === 0 ? "operate" : "discover");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(changes).toBeGreaterThan(0);
    session.setStage("operate");
    const operate = await listAllTools(client);
    expect(operate).toContain("tables_sum");
    expect(operate).not.toContain("tables_load"); // stage discover only
    const refused = await call(client, "tables_load", { name: "orders" });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(text(refused))).toMatchObject({ error: "forbidden:tables.load" });
    await client.close();
  });

  it("ends a session on DELETE, closing its runtime session", async () => {
    const before = weatherServer.sessions.length;
    const count = weatherServer.server.sessionCount;
    const { client, transport } = await connect(weatherServer.url);
    const session = weatherServer.sessions[before]!;
    const sessionId = transport.sessionId!;
    expect(weatherServer.server.sessionCount).toBe(count + 1);
    await transport.terminateSession();
    expect(weatherServer.server.sessionCount).toBe(count);
    expect(await session.call("math_subtract", { a: 1, b: 1 })).toMatchObject({
      ok: false,
      error: "cancelled",
    });
    const stale = await request(weatherServer.url, {
      headers: { ...POST_HEADERS, "mcp-session-id": sessionId },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    });
    expect(stale.status).toBe(404);
    expect(JSON.parse(stale.body)).toMatchObject({ error: { code: -32001 } });
    await client.close();
  });

  it("refuses a foreign Host or Origin (DNS-rebinding protection)", async () => {
    const { url } = weatherServer;
    const body = JSON.stringify(INITIALIZE);
    const badHost = await request(url, {
      headers: { ...POST_HEADERS, host: `evil.example:${url.port}` },
      body,
    });
    expect(badHost.status).toBe(403);
    expect(JSON.parse(badHost.body)).toMatchObject({
      error: { message: expect.stringContaining("Host") },
    });
    const badOrigin = await request(url, {
      headers: { ...POST_HEADERS, origin: "http://evil.example" },
      body,
    });
    expect(badOrigin.status).toBe(403);
    expect(JSON.parse(badOrigin.body)).toMatchObject({
      error: { message: expect.stringContaining("Origin") },
    });
    expect(
      (await request(url, { headers: { ...POST_HEADERS, origin: "null" }, body })).status,
    ).toBe(403);

    const count = weatherServer.server.sessionCount;
    const local = await request(url, {
      headers: { ...POST_HEADERS, host: `localhost:${url.port}`, origin: "http://localhost:5173" },
      body,
    });
    expect(local.status).toBe(200);
    expect(local.headers["content-type"]).toBe("text/event-stream");
    expect(local.body).toContain('"serverInfo"');
    const opened = local.headers["mcp-session-id"] as string;
    expect(weatherServer.server.sessionCount).toBe(count + 1);
    const ended = await request(url, { method: "DELETE", headers: { "mcp-session-id": opened } });
    expect(ended.status).toBe(200);
    expect(weatherServer.server.sessionCount).toBe(count);
  });

  it("answers 413 to a body over 1 MiB, -32700 to malformed JSON, and keeps serving", async () => {
    const { client, transport } = await connect(weatherServer.url);
    const headers = { ...POST_HEADERS, "mcp-session-id": transport.sessionId! };
    const big = `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"${"x".repeat(1024 * 1024)}"}}`;
    const declared = await request(weatherServer.url, { headers, body: big });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({
      jsonrpc: "2.0",
      error: { code: -32000 },
      id: null,
    });
    // Streamed without a length: cut off at the first byte over the limit.
    const streamed = await request(weatherServer.url, {
      headers,
      chunks: Array.from({ length: 5 }, () => Buffer.alloc(300 * 1024, "x")),
    });
    expect(streamed.status).toBe(413);

    for (const sent of [headers, POST_HEADERS]) {
      const malformed = await request(weatherServer.url, {
        headers: sent,
        body: '{"jsonrpc":"2.0","id":3,',
      });
      expect(malformed.status).toBe(400);
      expect(JSON.parse(malformed.body)).toEqual({
        jsonrpc: "2.0",
        error: { code: -32700, message: expect.any(String) },
        id: null,
      });
    }
    expect(text(await call(client, "math_subtract", { a: 10, b: 4 }))).toBe("6");
    await client.close();
  });

  it("answers what is not MCP with plain HTTP errors, and health checks", async () => {
    const { url } = weatherServer;
    const count = weatherServer.server.sessionCount;
    expect(
      (
        await request(url, {
          headers: { ...POST_HEADERS, "mcp-session-id": "no-such-session" },
          body: "{}",
        })
      ).status,
    ).toBe(404);
    expect(
      (await request(url, { method: "GET", headers: { accept: "text/event-stream" } })).status,
    ).toBe(400);
    expect(
      (
        await request(url, {
          headers: POST_HEADERS,
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
        })
      ).status,
    ).toBe(400);
    expect((await request(url, { method: "PUT", body: "{}" })).status).toBe(405);
    // An initialize the transport refuses (it must accept SSE) leaves no session behind.
    expect(
      (
        await request(url, {
          headers: { ...POST_HEADERS, accept: "application/json" },
          body: JSON.stringify(INITIALIZE),
        })
      ).status,
    ).toBe(406);
    expect(weatherServer.server.sessionCount).toBe(count);

    const health = await request(new URL("/healthz", url), { method: "GET" });
    expect([health.status, JSON.parse(health.body)]).toEqual([200, { status: "ok" }]);
    const ready = await request(new URL("/readyz", url), { method: "GET" });
    expect([ready.status, JSON.parse(ready.body)]).toEqual([200, { status: "ready" }]);
    expect((await request(new URL("/other", url), { method: "GET" })).status).toBe(404);
  });

  it("closes sessions idle past idleTimeoutMs, not those with an open stream", async () => {
    const sessions: Session[] = [];
    const { server, url } = await serveHttp(createRuntime(weather), {
      idleTimeoutMs: 200,
      onSession: (session) => sessions.push(session),
    });
    const raw = await request(url, { headers: POST_HEADERS, body: JSON.stringify(INITIALIZE) }); // no GET stream, then silence
    expect(raw.status).toBe(200);
    const { client } = await connect(url); // keeps its GET stream open
    expect(server.sessionCount).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(server.sessionCount).toBe(1);
    expect(await sessions[0]!.call("math_subtract", { a: 1, b: 1 })).toMatchObject({
      error: "cancelled",
    });
    expect(text(await call(client, "math_subtract", { a: 1, b: 1 }))).toBe("0");
    await client.close();
    await stop(server);
  });

  it("closes native sessions idle past their idleTimeoutMs, through the same sweep", async () => {
    const { server, url } = await serveHttp(createRuntime(weather), {
      native: { idleTimeoutMs: 200 },
    });
    const zcp = new URL("/zcp", url);
    const opened = await request(zcp, {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize" }),
    });
    expect(opened.status).toBe(200);
    const session = {
      "content-type": "application/json",
      "zcp-session-id": String(opened.headers["zcp-session-id"]),
    };
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
    expect((await request(zcp, { headers: session, body: ping })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await request(zcp, { headers: session, body: ping })).status).toBe(404);
    await stop(server);
  });

  it("close() ends every session and stops the server", async () => {
    const served = await serve("weather");
    const clients = await Promise.all([connect(served.url), connect(served.url)]);
    expect(served.server.sessionCount).toBe(2);
    await stop(served.server);
    expect(served.server.sessionCount).toBe(0);
    expect(served.server.listening).toBe(false);
    for (const session of served.sessions)
      expect(await session.call("math_subtract", { a: 1, b: 1 })).toMatchObject({
        error: "cancelled",
      });
    await Promise.all(clients.map(({ client }) => client.close()));
  });
});

describe("request bodies still arriving (node/arriving.ts), on createNativeHttpHandler too", () => {
  /** A raw POST /zcp whose body (`length` bytes declared) starts with `first`; `rest` ends it. */
  const raw = (port: number, first: string, length: number) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let received = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (received += chunk));
    socket.write(
      `POST /zcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${length}\r\n\r\n${first}`,
    );
    const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(received)));
    return { closed, rest: (text: string) => socket.end(text) };
  };
  const refusal = (message: string) =>
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });

  it("one body arriving per address (maxBodiesPerAddress 1): the next POST gets 429 at once; past bodyTimeoutMs, 408", async () => {
    const runtime = createRuntime(weather, { approve: () => true });
    const handler = createNativeHttpHandler(runtime, {
      maxBodiesPerAddress: 1,
      bodyTimeoutMs: 300,
    });
    const server = http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const started = performance.now();
      const slow = raw(port, "{", 100);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const second = await raw(port, "{", 100).closed;
      expect(performance.now() - started).toBeLessThan(250);
      expect(second).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
      expect(second).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(second.split("\r\n\r\n")[1]).toBe(
        refusal(
          "Too Many Requests: this address has as many request bodies arriving as it may (1)",
        ),
      );
      const late = await slow.closed;
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
      expect(late).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(late.split("\r\n\r\n")[1]).toBe(
        refusal("Request Timeout: the body did not arrive within 300 ms"),
      );
      // The late body no longer counts: a body that arrives is served.
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize" });
      const served = raw(port, body.slice(0, 5), Buffer.byteLength(body));
      served.rest(body.slice(5));
      const answer = await served.closed;
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(JSON.parse(answer.split("\r\n\r\n")[1]!).result.protocolVersion).toBe("zcp/1");
    } finally {
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

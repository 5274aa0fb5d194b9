/**
 * The life of sessions and of the server over HTTP: cancellation ending MCP streams (with the
 * official SDK client on real sockets), a native client going away, per-client session caps with
 * eviction, bodies that are JSON but not JSON-RPC, the graceful shutdown of both surfaces, and
 * zcp-serve's stop (signals, exit codes, a hung tool), spawned.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createRuntime, type GeneratedModule } from "@zcp/runtime";
import { afterEach, describe, expect, it } from "vitest";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import {
  createFetchHandler,
  createNativeFetchHandler,
  type NativeFetchOptions,
} from "../src/index.js";
import { serveHttp, type McpHttpServer } from "../src/node/index.js";
import { INITIALIZE, POST_HEADERS } from "./checks.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = fileURLToPath(new URL("../dist/bin/zcp-serve.js", import.meta.url));
const FAULTY = "fixtures/faulty/src/zcp.gen/index.ts";
const NATIVE_INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize" });
const SESSION_NOT_FOUND = {
  jsonrpc: "2.0",
  error: { code: -32001, message: "Session not found" },
  id: null,
};

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 10 ms until it holds, for `ms` at most; answers whether it did. */
async function eventually(check: () => boolean, ms = 2000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(10)) if (check()) return true;
  return check();
}

/** A tool that runs until its signal aborts (it records that), in place of kitchen-sink's tables.load. */
function waitingForAbort() {
  const tool = { started: 0, aborted: 0 };
  const id = kitchenSink.registry.tools.find((entry) => entry.alias === "tables.load")!.id;
  const generated = {
    ...kitchenSink,
    dispatch: {
      ...kitchenSink.dispatch,
      [id]: (_args: unknown, context: { signal: AbortSignal }) =>
        new Promise((resolve) => {
          tool.started++;
          context.signal.addEventListener("abort", () => {
            tool.aborted++;
            resolve([]);
          });
        }),
    },
  } as GeneratedModule;
  return { tool, generated };
}

/** Weather with math.subtract made slow (`ms`), or hung (never settles, ignores its signal). */
function weatherWith(subtract: "hung" | number): GeneratedModule {
  const id = weather.registry.tools.find((entry) => entry.alias === "math.subtract")!.id;
  const original = weather.dispatch[id]!;
  return {
    ...weather,
    dispatch: {
      ...weather.dispatch,
      [id]:
        subtract === "hung"
          ? () => new Promise(() => undefined)
          : async (args: never, ctx: never) => (await sleep(subtract), original(args, ctx)),
    },
  } as GeneratedModule;
}

async function serve(
  generated: GeneratedModule,
  options: Parameters<typeof serveHttp>[1] = {},
): Promise<{ server: McpHttpServer; url: URL }> {
  const served = await serveHttp(createRuntime(generated, { approve: () => true }), options);
  cleanup.push(() => new Promise((resolve) => served.server.close(() => resolve(undefined))));
  return served;
}

/** A raw MCP session (no GET stream): initialize and initialized; the headers of its requests. */
async function mcpSession(
  url: URL,
  headers: { readonly [name: string]: string } = {},
): Promise<{ [name: string]: string }> {
  const opened = await fetch(url, {
    method: "POST",
    headers: { ...POST_HEADERS, ...headers },
    body: JSON.stringify(INITIALIZE),
  });
  expect(opened.status).toBe(200);
  await opened.text();
  const session = {
    ...POST_HEADERS,
    ...headers,
    "mcp-session-id": opened.headers.get("mcp-session-id")!,
    "mcp-protocol-version": "2025-11-25",
  };
  const initialized = await post(url, session, {
    jsonrpc: "2.0",
    method: "notifications/initialized",
  });
  expect(initialized.status).toBe(202);
  return session;
}

async function post(
  url: URL,
  headers: { readonly [name: string]: string },
  body: unknown,
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The JSON-RPC messages of an SSE body. */
function events(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as unknown);
}

/** The text of a body, or "still open" when it has not ended within `ms`. */
function within(body: Promise<string>, ms: number): Promise<string> {
  return Promise.race([body, sleep(ms).then(() => "still open")]);
}

async function nativeSession(
  url: URL,
  headers: { readonly [name: string]: string } = {},
): Promise<{ [name: string]: string }> {
  const opened = await post(
    url,
    { "content-type": "application/json", ...headers },
    NATIVE_INITIALIZE,
  );
  expect(opened.status).toBe(200);
  await opened.text();
  return {
    "content-type": "application/json",
    ...headers,
    "zcp-session-id": opened.headers.get("zcp-session-id")!,
  };
}

const nativeCall = (id: number, name: string, args: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

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

describe("shutdown(grace) on both surfaces (L1)", () => {
  it("the fetch handler refuses new sessions on /mcp and /zcp and /readyz at once, then waits for native requests too", async () => {
    const handler = createFetchHandler(createRuntime(weatherWith(300)), { native: true });
    // As a server runtime hands requests over: with the Host header of their URL.
    const request = (pathname: string, init: RequestInit & { headers?: object } = {}) =>
      handler.fetch(
        new Request(new URL(pathname, "http://localhost"), {
          ...init,
          headers: { host: "localhost", ...init.headers },
        }),
      );
    const opened = await request("/zcp", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: NATIVE_INITIALIZE,
    });
    // Read, as a server reads every body it writes: a POST is in progress until its body has ended.
    await opened.body?.cancel();
    const session = {
      "content-type": "application/json",
      "zcp-session-id": opened.headers.get("zcp-session-id")!,
    };
    const calling = request("/zcp", {
      method: "POST",
      headers: session,
      body: JSON.stringify(nativeCall(2, "math.subtract", { a: 9, b: 2 })),
    });
    await sleep(50);
    const started = Date.now();
    let stopped = false;
    const stopping = handler.shutdown(5_000).then(() => (stopped = true));
    const closing = {
      jsonrpc: "2.0",
      error: { code: -32000, message: "Service Unavailable: the server is closing" },
      id: null,
    };
    const mcp = await request("/mcp", {
      method: "POST",
      headers: POST_HEADERS,
      body: JSON.stringify(INITIALIZE),
    });
    expect([mcp.status, await mcp.json()]).toEqual([503, closing]);
    const native = await request("/zcp", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: NATIVE_INITIALIZE,
    });
    expect(native.status).toBe(503);
    const ready = await request("/readyz");
    expect([ready.status, await ready.json()]).toEqual([503, { status: "closing" }]);
    // The open native session is served on during the grace.
    const ping = await request("/zcp", {
      method: "POST",
      headers: session,
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }),
    });
    expect(await ping.json()).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    expect(stopped).toBe(false);
    expect(await (await calling).json()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { ok: true, value: 7 },
    });
    await stopping;
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("node server: a native call in flight gets its real answer; a hung call answers cancelled after the grace, on both surfaces", async () => {
    const { server, url } = await serve(weatherWith(300), { native: true });
    const zcp = new URL("/zcp", url);
    const session = await nativeSession(zcp);
    const slow = post(zcp, session, nativeCall(2, "math.subtract", { a: 9, b: 2 }));
    await sleep(50);
    await server.shutdown(5_000);
    const answer = await slow;
    expect([answer.status, await answer.json()]).toEqual([
      200,
      { jsonrpc: "2.0", id: 2, result: { ok: true, value: 7 } },
    ]);

    const hung = await serve(weatherWith("hung"), { native: true });
    const hungZcp = new URL("/zcp", hung.url);
    const nativeHung = post(
      hungZcp,
      await nativeSession(hungZcp),
      nativeCall(2, "math.subtract", { a: 1, b: 1 }),
    );
    const client = new Client({ name: "lifecycle", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(hung.url));
    const mcpHung = client.callTool({ name: "math_subtract", arguments: { a: 1, b: 1 } });
    await sleep(50);
    const started = Date.now();
    await hung.server.shutdown(300);
    expect(Date.now() - started).toBeLessThan(1500);
    const cancelled = { ok: false, error: "cancelled", hint: "the server is shutting down" };
    const nativeAnswer = await nativeHung;
    expect([nativeAnswer.status, await nativeAnswer.json()]).toEqual([
      200,
      { jsonrpc: "2.0", id: 2, result: cancelled },
    ]);
    const mcpAnswer = (await mcpHung) as { isError?: boolean; content: { text: string }[] };
    expect(mcpAnswer.isError).toBe(true);
    expect(JSON.parse(mcpAnswer.content[0]!.text)).toEqual(cancelled);
    expect(hung.server.listening).toBe(false);
    await client.close();
  });
});

interface Child {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly url: URL;
  kill(signal: NodeJS.Signals): void;
  stderr(): string;
}

/** `zcp-serve --transport http --port 0 ...` on the faulty fixture, once listening. */
async function startServe(args: string[], env: { [name: string]: string } = {}): Promise<Child> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", BIN, "--transport", "http", "--port", "0", "--registry", FAULTY, ...args],
    { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } },
  );
  let stderr = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  cleanup.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\/(?:mcp|zcp)/.exec(stderr);
      if (match) resolve(new URL("/mcp", match[1]!));
    });
    void exited.then(({ code }) => reject(new Error(`zcp-serve exited (${code}): ${stderr}`)));
  });
  return { exited, url, kill: (signal) => child.kill(signal), stderr: () => stderr };
}

describe("zcp-serve stops (L1, L2)", () => {
  it("exits 0 after SIGTERM although a tool hangs: the call answers cancelled after the grace", async () => {
    const served = await startServe(["--grace-ms", "300"]);
    const session = await mcpSession(served.url);
    const calling = post(served.url, session, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "hang", arguments: {} },
    }).then((response) => response.text());
    await sleep(200);
    const started = Date.now();
    served.kill("SIGTERM");
    expect(await served.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5000);
    const [answer] = events(await calling) as {
      result: { isError: boolean; content: { text: string }[] };
    }[];
    expect(answer!.result.isError).toBe(true);
    expect(JSON.parse(answer!.result.content[0]!.text)).toMatchObject({
      ok: false,
      error: "cancelled",
    });
    expect(served.stderr()).toMatch(/SIGTERM: stopping[\s\S]*zcp-serve: stopped/);
  });

  it("exits 0 at once after the grace although a tool on the main thread still holds a timer", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-lifecycle-"));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const served = await startServe(["--grace-ms", "300", "--isolation", "none"], {
      FAULTY_DIR: dir,
    });
    const session = await mcpSession(served.url);
    const calling = post(served.url, session, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "careful_write", arguments: { name: "late.txt", ms: 60_000 } },
    }).then((response) => response.text());
    await sleep(200);
    const started = Date.now();
    served.kill("SIGTERM");
    expect(await served.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5000);
    const [answer] = events(await calling) as { result: { content: { text: string }[] } }[];
    expect(JSON.parse(answer!.result.content[0]!.text)).toMatchObject({ error: "cancelled" });
    expect(fs.existsSync(path.join(dir, "written", "late.txt"))).toBe(false);
  });

  for (const [first, second] of [
    ["SIGTERM", "SIGTERM"],
    ["SIGINT", "SIGTERM"],
  ] as const)
    it(`a second signal during the grace exits at once with code 1 (${first}, then ${second})`, async () => {
      const served = await startServe(["--grace-ms", "30000"]);
      const session = await mcpSession(served.url);
      void post(served.url, session, {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "hang", arguments: {} },
      }).catch(() => undefined);
      await sleep(200);
      served.kill(first);
      await sleep(200);
      const started = Date.now();
      served.kill(second);
      expect(await served.exited).toEqual({ code: 1, signal: null });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(served.stderr()).toContain(`${second} again: exiting now`);
    });

  it("a native call in flight during SIGTERM gets its real answer", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-lifecycle-"));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const served = await startServe(["--surface", "native"], { FAULTY_DIR: dir });
    const zcp = new URL("/zcp", served.url);
    const session = await nativeSession(zcp);
    const calling = post(zcp, session, nativeCall(2, "careful_write", { name: "a.txt", ms: 600 }));
    await sleep(200);
    served.kill("SIGTERM");
    const answer = await calling;
    expect([answer.status, await answer.json()]).toEqual([
      200,
      { jsonrpc: "2.0", id: 2, result: { ok: true, value: path.join(dir, "written", "a.txt") } },
    ]);
    expect(fs.readFileSync(path.join(dir, "written", "a.txt"), "utf8")).toBe("written");
    expect(await served.exited).toEqual({ code: 0, signal: null });
  });
});

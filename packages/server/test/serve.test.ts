/**
 * `zcp-serve` as a host runs it (the real bin, spawned), and the HTTP server under many
 * concurrent sessions (in process).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { connectHttp, connectStdio } from "@zcp/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ResourceLink } from "@modelcontextprotocol/sdk/types.js";
import { createRuntime } from "@zcp/runtime";
import { type Dispatcher } from "@zcp/runtime/codegen";
import { afterEach, describe, expect, it } from "vitest";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { createHttpServer, type McpHttpServer } from "../src/http/node.js";
import { call, expectRpcError, text, WEATHER_TOOLS } from "./checks.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** The built bin, under tsx because the fixture registries it serves are TypeScript (compiled registries are the user-path test's). */
const BIN = fileURLToPath(new URL("../dist/bin/zcp-serve.js", import.meta.url));
const TSX = ["--import", "tsx"];
const WEATHER = "fixtures/weather/src/zcp.gen/index.ts";
const KITCHEN_SINK = "fixtures/kitchen-sink/src/zcp.gen/index.ts";
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "0" },
  },
};
const POST_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Runs the bin to its end; resolves with its exit code and output. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...TSX, BIN, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

interface HttpChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: URL;
  readonly exited: Promise<number | null>;
  stderr(): string;
}

/** Starts `zcp-serve --transport http --port 0 ...` and reads the URL it prints on stderr. */
async function startHttp(args: string[]): Promise<HttpChild> {
  const child = spawn(
    process.execPath,
    [...TSX, BIN, "--transport", "http", "--port", "0", ...args],
    { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] },
  );
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /zcp-serve: listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) resolve(new URL(match[1]!));
    });
    void exited.then((code) =>
      reject(new Error(`zcp-serve exited (${code}) before listening: ${stderr}`)),
    );
  });
  cleanup.push(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  return { child, url, exited, stderr: () => stderr };
}

async function httpClient(url: URL, token?: string): Promise<Client> {
  const client = new Client({ name: "zcp-serve-test", version: "0" });
  const transport = new StreamableHTTPClientTransport(
    url,
    token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } },
  );
  await client.connect(transport);
  cleanup.push(() => client.close());
  return client;
}

describe("zcp-serve: usage", () => {
  it("refuses bad arguments with exit code 2 and a message on stderr, never on stdout", async () => {
    const cases: [string[], RegExp][] = [
      [[], /--registry is required/],
      [["--registry", WEATHER, "--transport", "tcp"], /--transport must be stdio or http/],
      [["--registry", WEATHER, "--surface", "both"], /--surface both needs --transport http/],
      [["--registry", WEATHER, "--surface", "zcp"], /--surface must be mcp, native or both/],
      [
        ["--registry", WEATHER, "--transport", "http", "--port", "99999"],
        /--port must be an integer/,
      ],
      [["--registry", WEATHER, "--token", "s3cret"], /--token applies to --transport http only/],
      [["--registry", WEATHER, "--profile", "everything"], /unknown profile "everything"/],
      [["--registry", "fixtures/weather/src/nope.ts"], /no such file/],
      [
        ["--registry", "packages/server/src/cli/runtime-options.ts"],
        /is not a module generated by `zcp gen`/,
      ],
      [["--registry", WEATHER, "--bogus"], /Unknown option '--bogus'/],
    ];
    const results = await Promise.all(cases.map(([args]) => run(args)));
    results.forEach((result, i) => {
      expect(result.code, cases[i]![0].join(" ")).toBe(2);
      expect(result.stderr).toMatch(cases[i]![1]);
      expect(result.stdout).toBe("");
    });
  });
});

describe("zcp-serve over stdio", () => {
  it("serves the weather fixture to the SDK client: list and call", async () => {
    const client = new Client({ name: "zcp-serve-test", version: "0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...TSX, BIN, "--registry", WEATHER, "--name", "zcp-weather"],
      cwd: ROOT,
      stderr: "pipe",
    });
    await client.connect(transport);
    cleanup.push(() => client.close());
    expect(client.getServerVersion()?.name).toBe("zcp-weather");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(WEATHER_TOOLS);
    expect(text(await call(client, "math_subtract", { a: 10, b: 4 }))).toBe("6");
    const current = await call(client, "weather_get_current", { city: "Shanghai" });
    expect(current.structuredContent).toMatchObject({ city: "Shanghai", temperature: 22 });
  });

  it("stops on SIGTERM: the answers sent, the session closed, exit code 0", async () => {
    const child = spawn(process.execPath, [...TSX, BIN, "--registry", WEATHER], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on("exit", (code) => resolve(code)),
    );
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const answered = new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('"id":2')) resolve();
      }),
    );
    await new Promise<void>((resolve) =>
      child.stderr.on("data", () => stderr.includes("serving MCP on stdio") && resolve()),
    );
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
    );
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "math_subtract", arguments: { a: 3, b: 1 } } })}\n`,
    );
    await answered;
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/SIGTERM: stopping/);
    expect(
      stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).id),
    ).toEqual([1, 2]);
  });
});

describe("zcp-serve over HTTP", () => {
  it("checks the bearer token, hides and refuses tools whose scopes are not granted, stops on SIGTERM", async () => {
    const served = await startHttp([
      "--registry",
      KITCHEN_SINK,
      "--token",
      "s3cret-token",
      "--scopes",
      "tables:read",
    ]);
    const { url } = served;
    expect(served.stderr()).toMatch(/hidden by --profile\/--scopes/);

    const health = await fetch(new URL("/healthz", url));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });

    for (const authorization of [
      undefined,
      "Bearer wrong-token",
      "Bearer s3cret-token2",
      "Basic czNjcmV0LXRva2Vu",
      "Bearer ",
    ]) {
      const refused = await fetch(url, {
        method: "POST",
        headers: { ...POST_HEADERS, ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(INITIALIZE),
      });
      expect(refused.status, String(authorization)).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
      await refused.body?.cancel();
    }
    await expect(httpClient(url)).rejects.toThrow();

    const client = await httpClient(url, "s3cret-token");
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("tables_load");
    expect(names).not.toContain("tables_drop");
    const loaded = await call(client, "tables_load", { name: "orders" });
    expect(loaded.isError).toBeFalsy();
    expect(JSON.parse(text(loaded))).toMatchObject({ ok: true, handle: "#T1" });
    const dropped = await call(client, "tables_drop", { name: "orders" });
    expect(dropped.isError).toBe(true);
    expect(JSON.parse(text(dropped))).toMatchObject({ ok: false, error: "forbidden:tables.drop" });

    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
    expect(served.stderr()).toMatch(/SIGTERM: stopping[\s\S]*zcp-serve: stopped/);
  });

  it("with a token and no --scopes, serves only the tools that need no scope", async () => {
    const served = await startHttp(["--registry", KITCHEN_SINK, "--token", "t0ken"]);
    const client = await httpClient(served.url, "t0ken");
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain("tables_load");
    expect(names).not.toContain("tables_drop");
    expect(names).toContain("tables_sum");
    expect(JSON.parse(text(await call(client, "tables_load", { name: "orders" })))).toMatchObject({
      error: "forbidden:tables.load",
    });
    served.child.kill("SIGINT");
    expect(await served.exited).toBe(0);
  });

  it("without a token, serves every tool and needs no Authorization", async () => {
    const served = await startHttp(["--registry", WEATHER]);
    const client = await httpClient(served.url);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(WEATHER_TOOLS);
    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
  });
});

describe("MCP over HTTP under load", () => {
  let server: McpHttpServer | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it("shutdown(grace) lets a running call answer, refuses new sessions, then closes every session", async () => {
    // math.subtract, made slow: 300 ms.
    const id = weather.registry.tools.find((tool) => tool.alias === "math.subtract")!.id;
    const slow = {
      ...weather,
      dispatch: {
        ...weather.dispatch,
        [id]: (async (args, ctx) => (
          await new Promise((resolve) => setTimeout(resolve, 300)),
          weather.dispatch[id]!(args, ctx)
        )) satisfies Dispatcher,
      },
    };
    server = createHttpServer(createRuntime(slow));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const client = await httpClient(url);
    const running = call(client, "math_subtract", { a: 9, b: 2 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = server.shutdown(5_000);
    const late = await fetch(url, {
      method: "POST",
      headers: POST_HEADERS,
      body: JSON.stringify(INITIALIZE),
    }).catch((error: Error) => error);
    expect(late instanceof Error || late.status === 503).toBe(true);
    expect(text(await running)).toBe("7");
    await stopped;
    expect(server.sessionCount).toBe(0);
    expect(server.listening).toBe(false);
    server = undefined;
  });

  it("50 sessions, 1,000 concurrent calls: every answer right, no session reads another's handles", async () => {
    const SESSIONS = 50;
    const CHAINS = 10; // per session: tables_load then a zcp_handle read of its handle = 2 calls
    const runtime = createRuntime(kitchenSink, { maxConcurrentCalls: CHAINS * 2 });
    server = createHttpServer(runtime, { maxSessions: SESSIONS + 10 });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const clients = await Promise.all(Array.from({ length: SESSIONS }, () => httpClient(url)));
    expect(server.sessionCount).toBe(SESSIONS);

    let calls = 0;
    const started = performance.now();
    const uris = await Promise.all(
      clients.map(async (client, s) => {
        const chains = await Promise.all(
          Array.from({ length: CHAINS }, async (_, c) => {
            const name = `s${s}c${c}`;
            const limit = 1 + (c % 3);
            const loaded = await call(client, "tables_load", { name, limit });
            calls++;
            const encoded = JSON.parse(text(loaded)) as {
              ok: boolean;
              handle: string;
              meta: { count: number };
            };
            expect(encoded).toMatchObject({ ok: true, meta: { kind: "table", count: limit } });
            const read = await call(client, "zcp_handle", { op: "read", handle: encoded.handle });
            calls++;
            expect(read.isError).toBeFalsy();
            expect(JSON.parse(text(read)).value).toEqual(
              Array.from({ length: limit }, (_, i) => ({ sku: `${name}-${i}`, qty: i })),
            );
            return { handle: encoded.handle, uri: (loaded.content[1] as ResourceLink).uri };
          }),
        );
        // Handles are numbered per session: each session has its own #T1..#T10.
        expect(new Set(chains.map((chain) => chain.handle)).size).toBe(CHAINS);
        return chains.map((chain) => chain.uri);
      }),
    );
    const elapsed = performance.now() - started;
    expect(calls).toBe(SESSIONS * CHAINS * 2);

    // Every session reads its own URI and is refused another session's, with the "not found" answer.
    await Promise.all(
      clients.map(async (client, s) => {
        const own = await client.readResource({ uri: uris[s]![0]! });
        expect(JSON.parse((own.contents[0] as { text: string }).text)[0].sku).toMatch(
          new RegExp(`^s${s}c\\d+-0$`),
        );
        const other = uris[(s + 1) % SESSIONS]![0]!;
        await expectRpcError(client.readResource({ uri: other }), -32002, /Resource not found/);
      }),
    );
    console.info(`load: ${SESSIONS} sessions, ${calls} calls in ${elapsed.toFixed(0)} ms`);
  });
});

describe("zcp-serve: the native surface", () => {
  it("serves native ZCP on stdio", async () => {
    const client = connectStdio(
      process.execPath,
      [...TSX, BIN, "--registry", WEATHER, "--surface", "native"],
      { cwd: ROOT, stderr: "ignore" },
    );
    cleanup.push(() => client.close());
    expect((await client.initialize()).protocolVersion).toBe("zcp/1");
    const listing = await client.listTools();
    expect(String(listing.tools)).toContain("TOOL @b9634m weather.get_current(");
    expect(await client.call("math.subtract", { a: 10, b: 4 })).toEqual({ ok: true, value: 6 });
  });

  it("serves both surfaces over HTTP behind the same token: MCP on /mcp, native on /zcp", async () => {
    const server = await startHttp([
      "--registry",
      WEATHER,
      "--surface",
      "both",
      "--token",
      "s3cret",
    ]);
    expect(server.stderr()).toMatch(
      /listening on http:\/\/127\.0\.0\.1:\d+\/mcp and http:\/\/127\.0\.0\.1:\d+\/zcp \(bearer token required\)/,
    );
    const mcp = await httpClient(server.url, "s3cret");
    expect((await mcp.listTools()).tools.map((tool) => tool.name)).toContain("weather_get_current");
    const nativeUrl = new URL("/zcp", server.url);
    const unauthorized = await fetch(nativeUrl, {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize" }),
    });
    expect(unauthorized.status).toBe(401);
    const native = connectHttp(nativeUrl, { headers: { authorization: "Bearer s3cret" } });
    cleanup.push(() => native.close());
    await native.initialize();
    expect(await native.call("weather.get_current", { city: "Beijing" })).toMatchObject({
      ok: true,
      value: { city: "Beijing" },
    });
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });
});

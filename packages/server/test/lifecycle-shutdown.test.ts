/**
 * The graceful shutdown of both surfaces over HTTP (L1), in process, and zcp-serve's stop,
 * spawned (L1, L2): signals, exit codes, a hung tool, a native call in flight.
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
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { createFetchHandler } from "../src/index.js";
import { INITIALIZE, POST_HEADERS } from "./checks.js";
import {
  cleanup,
  events,
  mcpSession,
  NATIVE_INITIALIZE,
  nativeCall,
  nativeSession,
  post,
  runCleanup,
  serve,
  sleep,
} from "./lifecycle-http.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = fileURLToPath(new URL("../dist/bin/zcp-serve.js", import.meta.url));
const FAULTY = "fixtures/faulty/src/zcp.gen/index.ts";

afterEach(runCleanup);

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

/**
 * The native protocol on the wire (issue 12, P3): cancellation over stdio and HTTP (raw, and by
 * `@zcp/client`'s signal), Method not found clipped, a top-level `__proto__` argument; zcp-serve
 * spawned on the faulty fixture over stdio, and the HTTP server of src/node/server.ts in process.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { connectHttp, connectStdio, type ZcpClient } from "@zcp/client";
import { createRuntime, type Session } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import faulty from "../../../fixtures/faulty/src/zcp.gen/index.js";
import { serveHttp, type McpHttpServer } from "../src/node/index.js";
import {
  call,
  CLIPPED,
  faultyDir,
  LONG_NAME,
  ROOT,
  SERVE,
  Served,
  useFaultyDir,
} from "./wire-stdio.js";

const CANCELLED = { ok: false, error: "cancelled", hint: "the call was cancelled" };
const written = (name: string) => path.join(faultyDir(), "written", name);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long careful_write waits before it writes; a cancelled call answers well before. */
const WRITE_MS = 1000;
const ANSWERED_WITHIN_MS = 400;

useFaultyDir();

describe("P3: native cancellation, clipped names, __proto__", () => {
  it("over stdio: notifications/cancelled cancels that running call; the tool's write never lands", async () => {
    const served = new Served("native");
    served.send(call(7, "careful_write", { name: "stdio.txt", ms: WRITE_MS }));
    served.send(call(8, "echo", { ok: 1 }));
    await served.answer(8); // call 7 is running by now
    const sent = performance.now();
    served.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } });
    expect(await served.answer(7)).toEqual({ jsonrpc: "2.0", id: 7, result: CANCELLED });
    expect(performance.now() - sent).toBeLessThan(ANSWERED_WITHIN_MS);
    await sleep(WRITE_MS + 200);
    expect(existsSync(written("stdio.txt"))).toBe(false);
    // A cancel for an id that is not running, or sent as a request, changes nothing else.
    served.send({
      jsonrpc: "2.0",
      id: 9,
      method: "notifications/cancelled",
      params: { requestId: 7 },
    });
    expect(await served.answer(9)).toEqual({ jsonrpc: "2.0", id: 9, result: {} });
    served.send({ jsonrpc: "2.0", id: 10, method: "notifications/cancelled", params: {} });
    expect(await served.answer(10)).toEqual({
      jsonrpc: "2.0",
      id: 10,
      error: { code: -32602, message: "Invalid params: requestId must be a string or a number" },
    });
    expect(await served.end()).toBe(0);
  });

  it("over stdio: Method not found clips the method; a top-level __proto__ argument pollutes nothing", async () => {
    const served = new Served("native");
    served.send({ jsonrpc: "2.0", id: 1, method: LONG_NAME });
    expect(await served.answer(1)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32601, message: `Method not found: ${CLIPPED}` },
    });
    served.send(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"polluted":true},"a":1}}}`,
    );
    expect((await served.answer(2)).result).toEqual({
      ok: true,
      value: {
        args: JSON.parse('{"__proto__":{"polluted":true},"a":1}'),
        keys: ["__proto__", "a"],
        plainPrototype: true,
      },
    });
    expect(await served.end()).toBe(0);
  });

  describe("over HTTP", () => {
    let http: McpHttpServer;
    let zcpUrl: URL;
    const sessions: Session[] = [];
    /**
     * Until the newest session runs a call. Over HTTP the cancel travels in another request,
     * which may reach the server before the call's; a cancel for an unknown id is ignored.
     */
    const running = async () => {
      while (sessions.at(-1)?.running !== 1) await sleep(5);
    };
    beforeAll(async () => {
      const runtime = createRuntime(faulty, { approve: () => true });
      const served = await serveHttp(runtime, {
        host: "127.0.0.1",
        port: 0,
        native: { onSession: (session) => sessions.push(session) },
      });
      http = served.server;
      zcpUrl = new URL("/zcp", served.url);
    });
    afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

    it("notifications/cancelled in a second POST with the session header cancels the call", async () => {
      const post = (body: unknown, session?: string) =>
        fetch(zcpUrl, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(session !== undefined ? { "zcp-session-id": session } : {}),
          },
          body: JSON.stringify(body),
        });
      const opened = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
      const session = opened.headers.get("zcp-session-id")!;
      await opened.text();
      const answer = post(
        call(2, "careful_write", { name: "http.txt", ms: WRITE_MS }),
        session,
      ).then((response) => response.json());
      await running();
      const sent = performance.now();
      const cancelled = await post(
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } },
        session,
      );
      expect(cancelled.status).toBe(202);
      expect(await answer).toEqual({ jsonrpc: "2.0", id: 2, result: CANCELLED });
      expect(performance.now() - sent).toBeLessThan(ANSWERED_WITHIN_MS);
      await sleep(WRITE_MS + 200);
      expect(existsSync(written("http.txt"))).toBe(false);
    });

    it("@zcp/client: call with a signal resolves cancelled at once; the server stops the tool", async () => {
      await checkClientCancel(connectHttp(zcpUrl), "client-http.txt", running);
    });
  });

  it("@zcp/client over stdio: call with a signal resolves cancelled at once; the server stops the tool", async () => {
    const client = connectStdio(process.execPath, [...SERVE, "--surface", "native"], {
      cwd: ROOT,
      env: { ...process.env, FAULTY_DIR: faultyDir() },
      stderr: "ignore",
    });
    // On one stream the cancel cannot overtake the call.
    await checkClientCancel(client, "client-stdio.txt", async () => undefined);
  });
});

async function checkClientCancel(
  client: ZcpClient,
  file: string,
  running: () => Promise<void>,
): Promise<void> {
  await client.initialize();
  const controller = new AbortController();
  const pending = client.call(
    "careful_write",
    { name: file, ms: WRITE_MS },
    { signal: controller.signal },
  );
  await running();
  const aborted = performance.now();
  controller.abort();
  expect(await pending).toEqual(CANCELLED);
  // Resolved by the client itself: no round trip.
  expect(performance.now() - aborted).toBeLessThan(20);
  // Already aborted: nothing is sent, the answer is the same.
  expect(await client.call("echo", {}, { signal: controller.signal })).toEqual(CANCELLED);
  await sleep(WRITE_MS + 200);
  expect(existsSync(written(file))).toBe(false);
  expect(await client.call("echo", { after: 1 })).toMatchObject({ ok: true });
  await client.close();
}

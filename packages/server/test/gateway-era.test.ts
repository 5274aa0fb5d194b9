/**
 * The gateway's upstream in either MCP era, against real upstreams on the official SDKs
 * (test/era-upstream.ts): a 2026-only server (the v2 SDK, `legacy: "reject"`) over stdio and
 * HTTP, a dual-era one (2026 picked), 2025 ones that answer, ignore or exit on the probe, and an
 * upstream that changes era between connections: the remembered verdict goes stale, the era is
 * probed again once and the call made again (or, when the stale call ran, failed). Behind a
 * fault-injecting HTTP front: a 400 that says nothing of the era (a proxy's `text/html`) fails
 * its own call only, and a connection retired on an era refusal lets its calls in flight finish.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { openConnection } from "../src/gateway/connection.js";
import { STDIO_PROBE_TIMEOUT_MS } from "../src/gateway/era.js";
import { BACKOFF_START_MS, upstream, type Upstream } from "../src/gateway/index.js";
import { CALL_CONTEXT, httpEra, stdioEra } from "./gateway-module.js";

const tmp = mkdtempSync(path.join(os.tmpdir(), "zcp-gateway-era-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const opened: Upstream[] = [];
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((each) => each.close()));
  await Promise.all(stops.splice(0).map((stop) => stop()));
});
function open(server: Parameters<typeof upstream>[0]): Upstream {
  const each = upstream(server, { name: "era" });
  opened.push(each);
  return each;
}
const failed = { code: "upstream_error", message: "it failed on purpose" };
const later = () => new Promise((resolve) => setTimeout(resolve, BACKOFF_START_MS + 50));

describe("the gateway's upstream in either era", () => {
  it("a 2026-only upstream over stdio: calls work in the 2026 era; a tool error comes back clean", async () => {
    const era = open(stdioEra("modern"));
    expect(await era.call("echo", { text: "hi" }, CALL_CONTEXT)).toBe("modern hi");
    await expect(era.call("fail", {}, CALL_CONTEXT)).rejects.toMatchObject(failed);
  });

  it("a 2026-only upstream over HTTP, and a dual-era one (2026 picked)", async () => {
    for (const kind of ["modern", "dual"]) {
      const server = await httpEra(kind);
      stops.push(server.stop);
      const era = open({ url: server.url });
      expect(await era.call("echo", { text: kind }, CALL_CONTEXT)).toBe(`modern ${kind}`);
      await expect(era.call("fail", {}, CALL_CONTEXT)).rejects.toMatchObject(failed);
    }
    expect(await open(stdioEra("dual")).call("echo", { text: "x" }, CALL_CONTEXT)).toBe("modern x");
  });

  it("2025 upstreams: one that answers the probe, one that ignores it (within the probe's bound), one that exits on it", async () => {
    for (const kind of ["legacy", "exits"])
      expect(await open(stdioEra(kind)).call("echo", { text: kind }, CALL_CONTEXT)).toBe(
        `legacy ${kind}`,
      );
    const started = Date.now();
    const silent = open(stdioEra("silent"));
    expect(await silent.call("echo", { text: "silent" }, CALL_CONTEXT)).toBe("legacy silent");
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(STDIO_PROBE_TIMEOUT_MS);
    expect(took).toBeLessThan(STDIO_PROBE_TIMEOUT_MS + 5000);
    // The verdict is remembered: the restarted child is not probed (no wait).
    await restart(silent);
    const restarted = Date.now();
    expect(await silent.call("echo", { text: "again" }, CALL_CONTEXT)).toBe("legacy again");
    expect(Date.now() - restarted).toBeLessThan(STDIO_PROBE_TIMEOUT_MS);
  });

  it("over stdio, a 2025 upstream replaced by a 2026-only one: the restart's initialize is refused, the era probed again", async () => {
    const file = path.join(tmp, "stdio-2025-2026");
    writeFileSync(file, "legacy");
    const era = open(stdioEra(`@${file}`));
    expect(await era.call("echo", { text: "a" }, CALL_CONTEXT)).toBe("legacy a");
    writeFileSync(file, "modern");
    await restart(era);
    expect(await era.call("echo", { text: "b" }, CALL_CONTEXT)).toBe("modern b");
  });

  it("over stdio, a 2026 upstream replaced by a 2025-only one: the call it ran on the stale era fails; the next probes", async () => {
    const file = path.join(tmp, "stdio-2026-2025");
    writeFileSync(file, "modern");
    const era = open(stdioEra(`@${file}`));
    expect(await era.call("echo", { text: "a" }, CALL_CONTEXT)).toBe("modern a");
    writeFileSync(file, "legacy");
    await restart(era);
    await expect(era.call("echo", { text: "b" }, CALL_CONTEXT)).rejects.toMatchObject({
      code: "upstream_error",
      message: expect.stringMatching(
        /^era answered tools\/call as a server of another protocol era \(Invalid result for tools\/call: missing required resultType.*\); the call may have run; its era is probed on the next call$/,
      ) as unknown,
    });
    expect(await era.call("echo", { text: "c" }, CALL_CONTEXT)).toBe("legacy c");
  });

  it("over HTTP, an upstream that changes era between calls: the call is refused unrun, the era probed again and the call made again", async () => {
    let server = await httpEra("legacy");
    const era = open({ url: server.url });
    expect(await era.call("echo", { text: "a" }, CALL_CONTEXT)).toBe("legacy a");
    await server.stop();
    server = await httpEra("modern", server.port);
    expect(await era.call("echo", { text: "b" }, CALL_CONTEXT)).toBe("modern b");
    await server.stop();
    server = await httpEra("legacy", server.port);
    stops.push(server.stop);
    expect(await era.call("echo", { text: "c" }, CALL_CONTEXT)).toBe("legacy c");
    await expect(era.call("fail", {}, CALL_CONTEXT)).rejects.toMatchObject(failed);
  });
});

/** Kills the upstream's child and waits until the next call starts a new one (the backoff passed). */
async function restart(era: Upstream): Promise<void> {
  process.kill(era.pid!);
  while (era.pid !== null) await new Promise((resolve) => setTimeout(resolve, 10));
  await later();
}

/**
 * An HTTP front that passes requests on to `target`, and by the text of a request's body:
 * `poison` answers `400 text/html` (what nginx answers to a header too large), `asks-session`
 * answers the v1 SDK's 400 to a request without a session (`Bad Request: Server not
 * initialized`), `slow` is passed on after 500 ms. Counts the `server/discover` probes.
 */
async function faultyFront(target: string) {
  let probes = 0;
  const pass = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    if (body.includes('"server/discover"')) probes++;
    if (body.includes("poison"))
      return response
        .writeHead(400, { "content-type": "text/html" })
        .end("<html><body><h1>400 Request Header Or Cookie Too Large</h1></body></html>");
    if (body.includes("asks-session"))
      return response
        .writeHead(400, { "content-type": "application/json" })
        .end(
          '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}',
        );
    if (body.includes("slow")) await new Promise((resolve) => setTimeout(resolve, 500));
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (typeof value === "string" && name !== "host" && name !== "content-length")
        headers.set(name, value);
    const answer = await fetch(target, {
      method: request.method ?? "GET",
      headers,
      ...(chunks.length > 0 ? { body } : {}),
    });
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (answer.body !== null) for await (const chunk of answer.body) response.write(chunk);
    response.end();
  };
  const server = createServer((request, response) => {
    pass(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    probes: () => probes,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("a 2026 upstream's HTTP 400s, behind a fault-injecting front", () => {
  let front: Awaited<ReturnType<typeof faultyFront>>;
  let era: Upstream;
  /** A call of another session, held 500 ms by the front: in flight while the test goes on. */
  const slowInFlight = async () => {
    const answer = era.call("echo", { text: "slow" }, CALL_CONTEXT);
    answer.catch(() => undefined); // awaited later; not unhandled if it rejects first
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { answer };
  };
  beforeEach(async () => {
    const server = await httpEra("modern");
    stops.push(server.stop);
    front = await faultyFront(server.url);
    stops.push(front.stop);
    era = open({ url: front.url });
    expect(await era.call("echo", { text: "first" }, CALL_CONTEXT)).toBe("modern first");
    expect(front.probes()).toBe(1);
  });

  it("a 400 that says nothing of the era (a proxy's text/html) fails its own call only: no re-probe, the call in flight goes on", async () => {
    const { answer: inFlight } = await slowInFlight();
    await expect(era.call("echo", { text: "poison" }, CALL_CONTEXT)).rejects.toMatchObject({
      code: "upstream_error",
      message:
        "era answered HTTP 400 to tools/call: Error POSTing to endpoint: <html><body><h1>400 Request Header Or Cookie Too Large</h1></body></html>",
    });
    expect(await inFlight).toBe("modern slow");
    expect(await era.call("echo", { text: "next" }, CALL_CONTEXT)).toBe("modern next");
    expect(front.probes()).toBe(1);
  });

  it("a 2025 server's 400 asking for its session: the era is probed again and the call made again; the call in flight on the retired connection finishes", async () => {
    const { answer: inFlight } = await slowInFlight();
    await expect(era.call("echo", { text: "asks-session" }, CALL_CONTEXT)).rejects.toMatchObject({
      code: "upstream_error",
      message:
        "era refused tools/call again on a new connection, in the era probed anew (-32022 unsupported protocol version, or a 2025 server's HTTP 400 asking for its session)",
    });
    expect(front.probes()).toBe(2);
    expect(await inFlight).toBe("modern slow");
    expect(await era.call("echo", { text: "next" }, CALL_CONTEXT)).toBe("modern next");
  });

  it("a retired connection closes once its last call in flight has settled", async () => {
    const connection = await openConnection(
      { url: front.url },
      { maxAnswerBytes: 1 << 20, onError: () => undefined },
    );
    const call = connection.run((client) =>
      client.callTool({ name: "echo", arguments: { text: "slow" } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    let closed = false;
    const retired = connection.retire("retired by the test").then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(false);
    expect(await call).toMatchObject({ content: [{ type: "text", text: "modern slow" }] });
    await retired;
    expect(connection.endedWhy).toBe("retired by the test");
    await expect(
      connection.run((client) => client.callTool({ name: "echo", arguments: { text: "x" } })),
    ).rejects.toThrow();
  });
});

/**
 * A Streamable HTTP upstream: server-everything's `streamableHttp` transport, started by the
 * test on a free port named by `${NAME}` in the URL. Calls forward; the server stopped makes a
 * call answer `upstream_unavailable`; started again, a call after the backoff reconnects. An
 * answer past `maxAnswerBytes` fails its call only, as does an HTTP error status; a 404 for the
 * session starts a new one, and the calls in flight on the old one finish (a small upstream of
 * the test's own).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer as createHttpServer, type IncomingMessage } from "node:http";
import { createServer } from "node:net";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { AnswerFault } from "../src/gateway/answers.js";
import { boundedFetch } from "../src/gateway/bounded-fetch.js";
import { BACKOFF_START_MS, upstream } from "../src/gateway/index.js";
import { CALL_CONTEXT, npmServer } from "./gateway-module.js";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** server-everything over Streamable HTTP on `port`, once it listens. */
async function startEverything(port: number): Promise<ChildProcess> {
  const { command, args } = npmServer("everything", "streamableHttp");
  const child = spawn(command, args, {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes("listening on port")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`exited (${code}): ${stderr}`)));
  });
  return child;
}

const stopped = (child: ChildProcess) =>
  new Promise((resolve) => {
    child.once("exit", resolve);
    child.kill("SIGKILL");
  });

describe("an upstream over Streamable HTTP", () => {
  let child: ChildProcess | undefined;
  const shared = upstream({ url: "http://127.0.0.1:${ZCP_TEST_EVERYTHING_PORT}/mcp" });
  afterAll(async () => {
    await shared.close();
    if (child) await stopped(child);
  });

  it("forwards calls, answers upstream_unavailable when it is gone, reconnects when it is back", async () => {
    const port = await freePort();
    process.env["ZCP_TEST_EVERYTHING_PORT"] = String(port);
    child = await startEverything(port);
    expect(shared.name).toBe("127.0.0.1:${ZCP_TEST_EVERYTHING_PORT}");
    expect(await shared.call("echo", { message: "hi" }, CALL_CONTEXT)).toBe("Echo: hi");
    expect(shared.pid).toBeNull();

    await stopped(child);
    child = undefined;
    await expect(shared.call("echo", { message: "gone" }, CALL_CONTEXT)).rejects.toMatchObject({
      code: "upstream_unavailable",
      message: expect.stringMatching(
        /^the upstream MCP server 127\.0\.0\.1:\$\{ZCP_TEST_EVERYTHING_PORT\} failed \(.+\); restarting$/,
      ),
    });
    child = await startEverything(port);
    await new Promise((resolve) => setTimeout(resolve, BACKOFF_START_MS + 50));
    expect(await shared.call("echo", { message: "back" }, CALL_CONTEXT)).toBe("Echo: back");
  });

  it("an answer over maxAnswerBytes (an SSE event) fails its call with upstream_too_large; the next call works", async () => {
    const bounded = upstream(
      { url: "http://127.0.0.1:${ZCP_TEST_EVERYTHING_PORT}/mcp" },
      { name: "everything", maxAnswerBytes: 64 * 1024 },
    );
    try {
      expect(await bounded.call("echo", { message: "small" }, CALL_CONTEXT)).toBe("Echo: small");
      await expect(
        bounded.call("echo", { message: "x".repeat(100_000) }, CALL_CONTEXT),
      ).rejects.toMatchObject({
        code: "upstream_too_large",
        message:
          "everything answered more than 65536 bytes (maxAnswerBytes) to tools/call; the answer was dropped",
      });
      expect(await bounded.call("echo", { message: "after" }, CALL_CONTEXT)).toBe("Echo: after");
    } finally {
      await bounded.close();
    }
  });
});

/**
 * A small Streamable HTTP upstream answering JSON bodies: tools `echo`, `slow` (500 ms), `boom`
 * (HTTP 500), `drop` (the connection cut, no answer), `lost` (HTTP 404, as for a session it
 * does not know) and `html` (a body of type text/html). It keeps the sessions it started until
 * `forget()`; an unknown one is a 404.
 */
async function smallUpstream() {
  const sessions = new Set<string>();
  let started = 0;
  const read = async (request: IncomingMessage) => {
    let text = "";
    for await (const chunk of request) text += String(chunk);
    return JSON.parse(text) as { id?: number; method: string; params?: any };
  };
  const server = createHttpServer(async (request, response) => {
    if (request.method !== "POST") return response.writeHead(405).end();
    const message = await read(request);
    const answer = (result: unknown, headers = {}) =>
      response
        .writeHead(200, { "content-type": "application/json", ...headers })
        .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    if (message.method === "initialize") {
      const session = `s${++started}`;
      sessions.add(session);
      const { protocolVersion } = message.params;
      const info = {
        protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "small", version: "1" },
      };
      return answer(info, { "mcp-session-id": session });
    }
    if (!sessions.has(String(request.headers["mcp-session-id"])))
      return response.writeHead(404).end("no such session");
    if (message.id === undefined) return response.writeHead(202).end();
    const { name, arguments: args } = message.params;
    if (name === "boom") return response.writeHead(500).end("boom failed");
    if (name === "drop") return request.socket.destroy();
    if (name === "lost") return response.writeHead(404).end("no such session");
    if (name === "html") return response.writeHead(200, { "content-type": "text/html" }).end("<p>");
    if (name === "slow") await new Promise((resolve) => setTimeout(resolve, 500));
    answer({ content: [{ type: "text", text: `${name}: ${args.text}` }] });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    forget: () => sessions.clear(),
    started: () => started,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe("an HTTP upstream's error statuses", () => {
  let small: Awaited<ReturnType<typeof smallUpstream>>;
  let shared: ReturnType<typeof upstream>;
  beforeEach(async () => {
    small = await smallUpstream();
    shared = upstream({ url: small.url }, { name: "small" });
    expect(await shared.call("echo", { text: "first" }, CALL_CONTEXT)).toBe("echo: first");
  });
  afterEach(async () => {
    await shared.close();
    await small.close();
  });
  /** Session A's slow call, in flight when the test goes on (its answer awaited later). */
  const slowInFlight = async () => {
    const answer = shared.call("slow", { text: "a" }, CALL_CONTEXT);
    answer.catch(() => undefined); // rejected before the test awaits it: not unhandled
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { answer };
  };

  it("an HTTP 500 fails its own call with upstream_error; the other caller's call and the next go on", async () => {
    const { answer: a } = await slowInFlight();
    // Session B's call answers HTTP 500 while A's is in flight.
    await expect(shared.call("boom", { text: "b" }, CALL_CONTEXT)).rejects.toMatchObject({
      code: "upstream_error",
      message: "small answered HTTP 500 to tools/call: Error POSTing to endpoint: boom failed",
    });
    expect(await shared.call("echo", { text: "next" }, CALL_CONTEXT)).toBe("echo: next");
    expect(await a).toBe("slow: a");
    expect(small.started()).toBe(1);
  });

  it("a request that finds no answer restarts the connection: the calls in flight answer upstream_unavailable", async () => {
    const { answer: a } = await slowInFlight();
    const unavailable = {
      code: "upstream_unavailable",
      message: "the upstream MCP server small failed (fetch failed); restarting",
    };
    await expect(shared.call("drop", {}, CALL_CONTEXT)).rejects.toMatchObject(unavailable);
    await expect(a).rejects.toMatchObject(unavailable);
    await new Promise((resolve) => setTimeout(resolve, BACKOFF_START_MS + 50));
    expect(await shared.call("echo", { text: "back" }, CALL_CONTEXT)).toBe("echo: back");
    expect(small.started()).toBe(2);
  });

  it("a 404 for the session (the upstream forgot it) starts a new session and makes the call on it", async () => {
    small.forget();
    expect(await shared.call("echo", { text: "again" }, CALL_CONTEXT)).toBe("echo: again");
    expect(small.started()).toBe(2);
  });

  it("a 404 again on the new session fails the call with upstream_error; the other caller's call in flight on the old session finishes; the next call works", async () => {
    const { answer: a } = await slowInFlight();
    await expect(shared.call("lost", {}, CALL_CONTEXT)).rejects.toMatchObject({
      code: "upstream_error",
      message: "small answered HTTP 404 to tools/call on a new session; the session was not found",
    });
    expect(await a).toBe("slow: a");
    expect(await shared.call("echo", { text: "next" }, CALL_CONTEXT)).toBe("echo: next");
    expect(small.started()).toBe(3);
  });

  it("a body that is neither JSON nor an event stream fails its call with upstream_invalid", async () => {
    await expect(shared.call("html", {}, CALL_CONTEXT)).rejects.toMatchObject({
      code: "upstream_invalid",
      message:
        "small answered a body of another type (Unexpected content type: text/html) to tools/call; the answer was dropped",
    });
    expect(await shared.call("echo", { text: "next" }, CALL_CONTEXT)).toBe("echo: next");
    expect(small.started()).toBe(1);
  });
});

describe("boundedFetch", () => {
  const limit = 100;
  /** The bounded fetch over one canned answer, sent in `chunks`. */
  const over = (type: string, chunks: string[]) =>
    boundedFetch(limit, async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": type } });
    });
  const post = { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "x" }) };

  it("a JSON body past the limit rejects with the fault; one within it is whole", async () => {
    const small = await over("application/json", ['{"a":', '"b"}'])("http://x/", post);
    expect(await small.json()).toEqual({ a: "b" });
    const big = await over("application/json", ["[", "1,".repeat(60), "1]"])("http://x/", post);
    await expect(big.json()).rejects.toBeInstanceOf(AnswerFault);
  });

  it("an event past the limit is replaced by the error for the posted id; the events before it pass", async () => {
    const small = `event: message\r\ndata: ${"s".repeat(60)}\r\n\r\n`;
    const response = await over("text/event-stream", [
      small.slice(0, 30),
      small.slice(30),
      `data: ${"b".repeat(60)}`,
      `${"b".repeat(60)}\n\n`,
      "data: never read\n\n",
    ])("http://x/", post);
    const text = await response.text();
    expect(text.startsWith(small)).toBe(true);
    expect(text).not.toMatch(/never read/);
    const events = text.split(/\r?\n\r?\n/).filter((event) => event.includes("event: message"));
    const data = JSON.parse(events.at(-1)!.split("data: ")[1]!);
    expect(data).toMatchObject({
      jsonrpc: "2.0",
      id: 7,
      error: { message: `the upstream answered more than ${limit} bytes (maxAnswerBytes)` },
    });
    // The cut event is ended and typed so that the SDK skips it.
    expect(text).toMatch(/b\nevent: zcp-cut\n\n/);
  });

  it("on a GET stream (no posted id) an event past the limit errors the stream", async () => {
    const response = await over("text/event-stream", [`data: ${"b".repeat(200)}\n\n`])(
      "http://x/",
      { method: "GET" },
    );
    await expect(response.text()).rejects.toBeInstanceOf(AnswerFault);
  });
});

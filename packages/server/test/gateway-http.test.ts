/**
 * A Streamable HTTP upstream: server-everything's `streamableHttp` transport, started by the
 * test on a free port named by `${NAME}` in the URL. Calls forward; the server stopped makes a
 * call answer `upstream_unavailable`; started again, a call after the backoff reconnects. An
 * answer past `maxAnswerBytes` fails its call only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
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

/**
 * A Streamable HTTP upstream: server-everything's `streamableHttp` transport, started by the
 * test on a free port named by `${NAME}` in the URL. Calls forward; the server stopped makes a
 * call answer `upstream_unavailable`; started again, a call after the backoff reconnects.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { BACKOFF_START_MS, upstream } from "../src/gateway/index.js";
import { npmServer } from "./gateway-module.js";

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
    const context = {
      sessionId: "s",
      signal: new AbortController().signal,
      progress: () => undefined,
      log: () => undefined,
    } as never;
    expect(shared.name).toBe("127.0.0.1:${ZCP_TEST_EVERYTHING_PORT}");
    expect(await shared.call("echo", { message: "hi" }, context)).toBe("Echo: hi");
    expect(shared.pid).toBeNull();

    await stopped(child);
    child = undefined;
    await expect(shared.call("echo", { message: "gone" }, context)).rejects.toMatchObject({
      code: "upstream_unavailable",
      message: expect.stringMatching(
        /^the upstream MCP server 127\.0\.0\.1:\$\{ZCP_TEST_EVERYTHING_PORT\} failed \(.+\); restarting$/,
      ),
    });
    child = await startEverything(port);
    await new Promise((resolve) => setTimeout(resolve, BACKOFF_START_MS + 50));
    expect(await shared.call("echo", { message: "back" }, context)).toBe("Echo: back");
  });
});

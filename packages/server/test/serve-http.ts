/**
 * A real `zcp-serve` process on HTTP (port 0, under tsx as the tests run it), for the tests that
 * need a separate process: its URL once it listens, a native client of its `/zcp` endpoint, its
 * exit code and its stderr. `cleanup` collects what the test's afterEach must run.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { connectHttp, type ZcpClient } from "@zcp/client";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = fileURLToPath(new URL("../dist/bin/zcp-serve.js", import.meta.url));

export interface ServedHttp {
  readonly child: ChildProcess;
  /** The endpoint the log names (`/mcp` when the MCP surface is served, else `/zcp`). */
  readonly url: URL;
  /** A native client of `/zcp`, initialized. */
  readonly native: ZcpClient;
  readonly exited: Promise<number | null>;
  readonly stderr: () => string;
}

/** Starts `zcp-serve --transport http --port 0 <argv>` and waits until it listens. */
export async function serveHttp(
  argv: readonly string[],
  cleanup: (() => unknown)[],
): Promise<ServedHttp> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", BIN, "--transport", "http", "--port", "0", ...argv],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/(?:mcp|zcp))/.exec(stderr);
      if (match) resolve(new URL(match[1]!));
    });
    void exited.then((code) => reject(new Error(`zcp-serve exited (${code}): ${stderr}`)));
  });
  cleanup.push(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  const native = connectHttp(new URL("/zcp", url));
  cleanup.push(() => native.close());
  await native.initialize();
  return { child, url, native, exited, stderr: () => stderr };
}

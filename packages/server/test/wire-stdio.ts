/**
 * `zcp-serve` spawned over stdio on the faulty fixture, for the wire tests (wire-*.test.ts):
 * every message it writes, read line by line; an initialized MCP session; a temporary
 * `FAULTY_DIR` per test file.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const SERVE = [
  "--import",
  "tsx",
  "packages/server/dist/bin/zcp-serve.js",
  "--registry",
  "fixtures/faulty/src/zcp.gen/index.ts",
];
export const INIT = {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "t", version: "0" },
};
export const LONG_NAME = "n".repeat(100);
export const CLIPPED = `${"n".repeat(64)}…`;

let dir: string;
/** Gives the calling test file a temporary `FAULTY_DIR` (where careful_write writes), removed after its tests. */
export function useFaultyDir(): void {
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "zcp-wire-"));
    process.env["FAULTY_DIR"] = dir;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
}
/** The test file's `FAULTY_DIR`. */
export const faultyDir = () => dir;

export type Message = { id?: unknown; result?: any; error?: { code: number; message: string } };

/** zcp-serve over stdio, read line by line: every message it writes, in order. */
export class Served {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Message[] = [];
  readonly #waiters: (() => void)[] = [];

  constructor(surface: "mcp" | "native", flags: readonly string[] = []) {
    this.child = spawn(process.execPath, [...SERVE, "--surface", surface, ...flags], {
      cwd: ROOT,
      env: { ...process.env, FAULTY_DIR: dir },
    });
    this.child.stderr.resume();
    let buffered = "";
    this.child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf("\n")) !== -1) {
        this.messages.push(JSON.parse(buffered.slice(0, newline)) as Message);
        buffered = buffered.slice(newline + 1);
      }
      this.#waiters.splice(0).forEach((wake) => wake());
    });
  }

  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  }

  /** The `count`-th message written (1-based), once it is. */
  async nth(count: number): Promise<Message> {
    while (this.messages.length < count)
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    return this.messages[count - 1]!;
  }

  /** The answer to `id`, once it is written. */
  async answer(id: unknown): Promise<Message> {
    for (;;) {
      const found = this.messages.find((message) => message.id === id);
      if (found) return found;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Ends stdin; resolves to the exit code. */
  end(): Promise<number | null> {
    this.child.stdin.end();
    return new Promise((resolve) => this.child.once("exit", resolve));
  }
}

export async function mcpOverStdio(flags: readonly string[] = []): Promise<Served> {
  const served = new Served("mcp", flags);
  served.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: INIT });
  await served.answer(0);
  served.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return served;
}

export const call = (id: unknown, name: string, args: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

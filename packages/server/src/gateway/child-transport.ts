/**
 * The MCP client transport of a stdio upstream: the child process, spawned as the SDK's
 * `StdioClientTransport` spawns it (its default environment merged under the server's `env`),
 * but keeping what the gateway reports when it dies: the exit code or signal, and the last lines
 * the child wrote to stderr (which is forwarded to ours, as an inherited stderr would be).
 */
import { spawn, type ChildProcess } from "node:child_process";
import process from "node:process";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { StdioUpstream } from "./types.js";

/** How much of the child's stderr is kept for error messages. */
const STDERR_TAIL = 2000;
/** After stdin ends, how long the child may take to exit before SIGTERM, then SIGKILL. */
const STOP_MS = 2000;

export class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** How the child ended (`code N` or `signal S`), once it has. */
  exit: string | null = null;
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();
  private tail = "";

  constructor(private readonly server: StdioUpstream) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** The last lines the child wrote to stderr. */
  get stderrTail(): string {
    return this.tail.trim();
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.server.command, [...(this.server.args ?? [])], {
        env: { ...getDefaultEnvironment(), ...this.server.env },
        stdio: ["pipe", "pipe", "pipe"],
        shell: false,
        windowsHide: true,
        ...(this.server.cwd !== undefined ? { cwd: this.server.cwd } : {}),
      });
      this.child = child;
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => resolve());
      child.once("exit", (code, signal) => {
        this.exit = signal !== null ? `signal ${signal}` : `code ${code}`;
      });
      child.once("close", () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin!.on("error", (error) => this.onerror?.(error));
      child.stdout!.on("data", (chunk: Buffer) => {
        this.buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr!.on("data", (chunk: Buffer) => {
        process.stderr.write(chunk);
        this.tail = (this.tail + chunk.toString("utf8")).slice(-STDERR_TAIL);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends the child's stdin (a stdio server exits then), SIGTERM after STOP_MS, SIGKILL after twice that. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    const within = (ms: number) =>
      Promise.race([closed.then(() => true), delay(ms).then(() => false)]);
    child.stdin?.end();
    if (await within(STOP_MS)) return;
    child.kill("SIGTERM");
    if (await within(STOP_MS)) return;
    child.kill("SIGKILL");
    await closed;
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

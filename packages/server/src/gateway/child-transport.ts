/**
 * The MCP client transport of a stdio upstream: the child process, spawned as the SDK's
 * `StdioClientTransport` spawns it (its default environment merged under the server's `env`),
 * but keeping what the gateway reports when it dies: the exit code or signal, and the last lines
 * the child wrote to stderr (which is forwarded to ours, as an inherited stderr would be).
 *
 * Its stdout is read through the servers' bounded line reader, not the SDK's `ReadBuffer` (which
 * throws, from a stream event and so out of the process, once 10 MiB are buffered): a line over
 * `maxAnswerBytes` is skipped to its newline holding only its first and last KiB, and a line
 * that is no JSON-RPC message is dropped; either fails the call whose id it carries (answers.ts).
 *
 * The SDK probes the era on this transport in place (its own stdio transport probes a sibling
 * process instead): the child's first request is `server/discover`, bounded by
 * STDIO_PROBE_TIMEOUT_MS (era.ts), and connection.ts puts right what the probe gets wrong.
 */
import { spawn, type ChildProcess } from "node:child_process";
import process from "node:process";
import type { Readable } from "node:stream";
import {
  parseJSONRPCMessage,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/client";
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import { readLines } from "../stdio/lines.js";
import { AnswerFault, faultResponse, idOfLine, tooLarge } from "./answers.js";
import type { StdioUpstream } from "./types.js";

/** How much of the child's stderr is kept for error messages. */
const STDERR_TAIL = 2000;
/** After stdin ends, how long the child may take to exit before SIGTERM, then SIGKILL. */
const STOP_MS = 2000;
/** How much of each end of a malformed line is searched for its id (as of a skipped one). */
const WINDOW = 1024;

export class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** How the child ended (`code N` or `signal S`), once it has. */
  exit: string | null = null;
  private child: ChildProcess | undefined;
  private tail = "";

  constructor(
    private readonly server: StdioUpstream,
    private readonly maxAnswerBytes: number,
  ) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /**
   * The child's stderr (read here: forwarded to ours, its tail kept). With `pid`, what makes
   * the SDK take this transport for stdio (`gateway-sdk.test.ts` pins it): a probe that goes
   * unanswered then means a 2025 server, not an outage.
   */
  get stderr(): Readable | null {
    return this.child?.stderr ?? null;
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
      // Whether the line being skipped has failed its call already (its head had the id).
      let failed = false;
      readLines(child.stdout!, {
        maxLineBytes: this.maxAnswerBytes,
        onLine: (line) => this.safely(() => this.line(line)),
        onSkipping: (head) =>
          this.safely(() => {
            // An id at the start fails the call at once, not when (if ever) the line ends.
            const id = idOfLine(head, "");
            failed = id !== undefined && this.fail(id, tooLarge(this.maxAnswerBytes));
          }),
        onTooLong: (head, tail) =>
          this.safely(() => {
            if (!failed) this.fail(idOfLine(head, tail), tooLarge(this.maxAnswerBytes));
            failed = false;
          }),
        onEnd: () => undefined,
      });
      child.stderr!.on("data", (chunk: Buffer) => {
        process.stderr.write(chunk);
        this.tail = (this.tail + chunk.toString("utf8")).slice(-STDERR_TAIL);
      });
    });
  }

  /**
   * Runs a step of reading stdout: whatever it throws is reported, never thrown from the stream's
   * event (that would end the process), whatever the child wrote.
   */
  private safely(step: () => void): void {
    try {
      step();
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** A line of the child's stdout: a message for the client, else the failure of the call it answers. */
  private line(line: string): void {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.fail(
        idOfLine(line.slice(0, WINDOW), line.slice(-WINDOW)),
        new AnswerFault("upstream_invalid", "a line that is not JSON"),
      );
      return;
    }
    let message: JSONRPCMessage | undefined;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      message = undefined; // failed below, by the id it may carry
    }
    if (message !== undefined) {
      this.onmessage?.(message);
      return;
    }
    const id = (value as { id?: unknown } | null)?.id;
    this.fail(
      typeof id === "string" || typeof id === "number" ? id : undefined,
      new AnswerFault("upstream_invalid", "JSON that is no JSON-RPC message"),
    );
  }

  /** Fails call `id` with `fault`; without an id, reports the dropped answer. Whether a call was failed. */
  private fail(id: string | number | undefined, fault: AnswerFault): boolean {
    if (id === undefined) {
      this.onerror?.(
        new Error(
          `dropped what it answered (${fault.what}): no id in its first or last ${WINDOW} bytes; the call it answered ends at its time limit`,
        ),
      );
      return false;
    }
    this.onmessage?.(faultResponse(id, fault));
    return true;
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

/**
 * The fault suite's harness: real `zcp-serve` processes on loopback (HTTP or stdio), raw
 * JSON-RPC over both, a `/healthz` watcher and RSS samples. Each test file starts its servers
 * through `Processes`, which kills whatever is left after each test.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

export const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
/** The built bin, under tsx: the fixture registries it serves are TypeScript. */
const BIN = fileURLToPath(new URL("../../dist/bin/zcp-serve.js", import.meta.url));

export const FAULTY = "fixtures/faulty/src/zcp.gen/index.ts";
export const WORKBENCH = "fixtures/workbench/src/zcp.gen/index.ts";
export const KITCHEN_SINK = "fixtures/kitchen-sink/src/zcp.gen/index.ts";

/** The short limits every fault test runs under (CI has 2 cores and minutes for everything). */
export const LIMITS = {
  timeoutMs: 1000,
  graceMs: 500,
  maxConcurrent: 8,
  workers: 2,
  toolMemoryMb: 128,
} as const;

/** The flags of LIMITS, for `--isolation worker` (the default) or `none` (no pool flags then). */
export function limitFlags(isolation: "worker" | "none" = "worker"): string[] {
  return [
    "--isolation",
    isolation,
    "--timeout-ms",
    String(LIMITS.timeoutMs),
    "--grace-ms",
    String(LIMITS.graceMs),
    "--max-concurrent",
    String(LIMITS.maxConcurrent),
    ...(isolation === "worker"
      ? ["--workers", String(LIMITS.workers), "--tool-memory-mb", String(LIMITS.toolMemoryMb)]
      : []),
  ];
}

export const LIMIT_FLAGS = limitFlags();

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface Served {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  readonly exited: Promise<Exit>;
  stderr(): string;
}

export interface HttpServed extends Served {
  /** `http://127.0.0.1:<port>/` */
  readonly base: URL;
  readonly mcp: URL;
  readonly native: URL;
}

export interface SpawnOptions {
  /** Extra environment (e.g. FAULTY_DIR, ZCP_WORKBENCH_DIR). */
  readonly env?: { readonly [name: string]: string };
}

/** Spawned servers and temp folders, all gone after `cleanup()` (call it in afterEach/afterAll). */
export class Processes {
  readonly #steps: (() => unknown)[] = [];

  /** A fresh temp folder, removed at cleanup. */
  tempDir(prefix: string): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), `zcp-faults-${prefix}-`));
    this.#steps.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  /** Runs a step at cleanup (in reverse order of registration). */
  defer(step: () => unknown): void {
    this.#steps.push(step);
  }

  spawn(args: readonly string[], options: SpawnOptions = {}): Served {
    const child = spawn(process.execPath, ["--import", "tsx", BIN, ...args], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, ...options.env },
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<Exit>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
    this.#steps.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    });
    return { child, pid: child.pid!, exited, stderr: () => stderr };
  }

  /** `zcp-serve --transport http --port 0 --surface both …`, resolved once it listens. */
  async http(args: readonly string[], options: SpawnOptions = {}): Promise<HttpServed> {
    const served = this.spawn(
      ["--transport", "http", "--port", "0", "--surface", "both", ...args],
      options,
    );
    const mcp = await new Promise<URL>((resolve, reject) => {
      const look = () => {
        const match = /zcp-serve: listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(
          served.stderr(),
        );
        if (match) resolve(new URL(match[1]!));
      };
      served.child.stderr.on("data", look);
      void served.exited.then((exit) =>
        reject(
          new Error(
            `zcp-serve exited (${JSON.stringify(exit)}) before listening:\n${served.stderr()}`,
          ),
        ),
      );
    });
    return { ...served, base: new URL("/", mcp), mcp, native: new URL("/zcp", mcp) };
  }

  /** `zcp-serve --transport stdio --surface <surface> …` with a line reader on its stdout. */
  stdio(
    surface: "mcp" | "native",
    args: readonly string[],
    options: SpawnOptions = {},
  ): Served & { readonly lines: Lines } {
    const served = this.spawn(["--surface", surface, ...args], options);
    return { ...served, lines: new Lines(served.child) };
  }

  async cleanup(): Promise<void> {
    for (const step of this.#steps.splice(0).reverse()) await step();
  }
}

/** Messages of a stdio server, one JSON value per line, awaited by predicate. */
export class Lines {
  readonly received: unknown[] = [];
  /** Lines that were not JSON (a server must never write them). */
  readonly garbage: string[] = [];
  readonly #waiters = new Set<() => void>();
  #buffer = "";

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on("data", (chunk: Buffer) => {
      // Only the new chunk is searched for line ends: a line of many MiB costs linear time.
      const text = chunk.toString();
      let start = 0;
      let end: number;
      while ((end = text.indexOf("\n", start)) >= 0) {
        const line = (this.#buffer + text.slice(start, end)).trim();
        this.#buffer = "";
        start = end + 1;
        if (line === "") continue;
        try {
          this.received.push(JSON.parse(line));
        } catch {
          this.garbage.push(line);
        }
      }
      this.#buffer += text.slice(start);
      for (const wake of this.#waiters) wake();
    });
  }

  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  }

  /** The first message (from `from` on) that `match` accepts; rejects after `ms` with what came. */
  next(match: (message: any) => boolean, ms = 5000, from = 0): Promise<any> {
    return new Promise((resolve, reject) => {
      const look = () => {
        const found = this.received.slice(from).find(match);
        if (found === undefined) return false;
        this.#waiters.delete(look);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(look);
        reject(
          new Error(
            `no matching message on stdout within ${ms} ms; received: ${JSON.stringify(this.received.slice(from)).slice(0, 2000)}`,
          ),
        );
      }, ms);
      if (!look()) this.#waiters.add(look);
    });
  }

  /** The answer to request `id`. */
  answer(id: unknown, ms = 5000): Promise<any> {
    return this.next((message) => message?.id === id && !("method" in message), ms);
  }
}

export const MCP_INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "faults", version: "0" },
  },
};

export const NATIVE_INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "zcp/1", clientInfo: { name: "faults", version: "0" } },
};

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The JSON-RPC messages of the body (JSON or SSE `data:` lines); empty when there is none. */
  readonly messages: any[];
  readonly text: string;
}

/** One POST of `body` (a value, sent as JSON, or raw text); reads JSON and SSE answers alike. */
export async function post(
  url: URL,
  body: unknown,
  headers: { readonly [name: string]: string } = {},
  signal?: AbortSignal,
): Promise<HttpAnswer> {
  return (await postUnread(url, body, headers, signal)).read();
}

/**
 * `post`, its answer received but not decoded until `read()`: decoding and parsing an answer of
 * tens of MiB holds up this process, and with it the polls of a `watchHealth` running here.
 */
export async function postUnread(
  url: URL,
  body: unknown,
  headers: { readonly [name: string]: string } = {},
  signal?: AbortSignal,
): Promise<{ read(): HttpAnswer }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { read: () => answerOf(response, bytes.toString()) };
}

/**
 * A POST of `body` (JSON) on a raw socket that never reads its answer (nothing takes its bytes
 * past the socket's own buffers): a client that leaves its answers unread. Resolves once the
 * request is written; destroy the socket to end it.
 */
export async function postNeverRead(
  url: URL,
  body: unknown,
  headers: { readonly [name: string]: string } = {},
): Promise<net.Socket> {
  const text = JSON.stringify(body);
  const head = [
    `POST ${url.pathname} HTTP/1.1`,
    `host: ${url.host}`,
    "content-type: application/json",
    "accept: application/json, text/event-stream",
    `content-length: ${Buffer.byteLength(text)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  const socket = net.connect(Number(url.port), url.hostname);
  // Paused (no `data` listener): the socket reads no further than its buffers.
  socket.pause();
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.write(`${head.join("\r\n")}\r\n\r\n${text}`, () => {
      socket.off("error", reject);
      resolve();
    });
  });
  // The server may reset it (e.g. when it stops): nobody reads it to care.
  socket.on("error", () => undefined);
  return socket;
}

function answerOf(response: Response, text: string): HttpAnswer {
  let messages: any[] = [];
  if ((response.headers.get("content-type") ?? "").includes("text/event-stream"))
    messages = text
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trim())
      .filter((data) => data !== "")
      .map((data) => JSON.parse(data));
  else if (text.trim() !== "") {
    const parsed = JSON.parse(text);
    messages = Array.isArray(parsed) ? parsed : [parsed];
  }
  return { status: response.status, headers: response.headers, messages, text };
}

/** A raw MCP session over HTTP: initialize + initialized done; `send` posts with its header. */
export async function mcpSession(
  url: URL,
): Promise<{ id: string; send(body: unknown, signal?: AbortSignal): Promise<HttpAnswer> }> {
  const opened = await post(url, MCP_INITIALIZE);
  const id = opened.headers.get("mcp-session-id");
  if (opened.status !== 200 || id === null)
    throw new Error(`MCP initialize answered ${opened.status}: ${opened.text}`);
  const headers = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  return { id, send: (body, signal) => post(url, body, headers, signal) };
}

/** A raw native session over HTTP (`zcp-session-id`). */
export async function nativeSession(
  url: URL,
): Promise<{ id: string; send(body: unknown, signal?: AbortSignal): Promise<HttpAnswer> }> {
  const opened = await post(url, NATIVE_INITIALIZE);
  const id = opened.headers.get("zcp-session-id");
  if (opened.status !== 200 || id === null)
    throw new Error(`native initialize answered ${opened.status}: ${opened.text}`);
  return { id, send: (body, signal) => post(url, body, { "zcp-session-id": id }, signal) };
}

/** The text of an MCP tool result's first content block. */
export function mcpText(result: unknown): string {
  const first = (
    (result as { content?: unknown } | undefined)?.content as
      { type: string; text?: string }[] | undefined
  )?.[0];
  if (first?.type !== "text" || first.text === undefined)
    throw new Error(`the result has no text content: ${JSON.stringify(result).slice(0, 500)}`);
  return first.text;
}

export interface HealthReport {
  /** The slowest `/healthz` answer, in ms (a failed poll counts as its time to fail). */
  readonly worstMs: number;
  readonly polls: number;
  readonly failures: readonly string[];
}

/** Polls `/healthz` every 50 ms, one request at a time, until `stop()`. */
export function watchHealth(base: URL, everyMs = 50): { stop(): Promise<HealthReport> } {
  let running = true;
  let worstMs = 0;
  let polls = 0;
  const failures: string[] = [];
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(new URL("/healthz", base), {
          signal: AbortSignal.timeout(5000),
        });
        await response.body?.cancel();
        if (response.status !== 200) failures.push(`status ${response.status}`);
      } catch (error) {
        failures.push((error as Error).message);
      }
      const took = performance.now() - started;
      worstMs = Math.max(worstMs, took);
      polls++;
      await sleep(Math.max(0, everyMs - took));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { worstMs: Math.round(worstMs), polls, failures };
    },
  };
}

/** `/healthz` answered every poll within 100 ms. */
export function expectHealthy(report: HealthReport, during: string): void {
  expect(report.failures, `/healthz failed during ${during}`).toEqual([]);
  expect(
    report.worstMs,
    `/healthz took ${report.worstMs} ms at worst during ${during} (${report.polls} polls, every 50 ms); at most 100 ms is promised`,
  ).toBeLessThan(100);
}

/** Resident memory of a process (it and its threads), in MiB, from /proc/<pid>/status. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Math.round(Number(match[1]) / 1024);
}

/** Samples `rssMb(pid)` every `everyMs` until `stop()`, which gives the largest sample. */
export function watchRss(pid: number, everyMs = 100): { stop(): number } {
  let max = rssMb(pid);
  const timer = setInterval(() => {
    try {
      max = Math.max(max, rssMb(pid));
    } catch {
      // The process is gone: its last samples stand.
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return max;
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves with `promise`, or rejects after `ms` saying what did not happen. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A quick call of the faulty registry, and one of the workbench's (its tool runs and fails: no such file). */
export const WARM_ECHO = { name: "echo", arguments: {} };
export const WARM_WORKBENCH = {
  name: "excel.get_workbook_metadata",
  arguments: { path: "warm-up.xlsx" },
};

/**
 * Waits until `parallel` calls at once all answer (anything but `timeout`) over native HTTP:
 * the worker pool starts in the background and its first calls load the registry (under tsx,
 * a second or more).
 */
export async function warmUp(
  native: URL,
  parallel: number = LIMITS.workers,
  call: { name: string; arguments: object } = WARM_ECHO,
): Promise<void> {
  const session = await nativeSession(native);
  const deadline = performance.now() + 30_000;
  let last = "";
  while (performance.now() < deadline) {
    const answers = await Promise.all(
      Array.from({ length: parallel }, (_, i) =>
        session.send({
          jsonrpc: "2.0",
          id: i,
          method: "tools/call",
          params: call,
        }),
      ),
    );
    const answered = (answer: HttpAnswer) => {
      const result = answer.messages[0]?.result;
      return result !== undefined && result.error !== "timeout";
    };
    if (answers.every(answered)) return;
    last = answers.map((answer) => answer.text).join(" ");
  }
  throw new Error(`the server's tools never answered within 30 s: ${last.slice(0, 500)}`);
}

/**
 * `pnpm bench:serve`: round trips per second and p50/p99 latency of one small tool call
 * (`math.subtract {a, b}` of the weather fixture), sequential calls from one client, against
 * servers running as child processes: zcp-serve's MCP surface and its native surface, and the
 * usual MCP server (the SDK's McpServer + zod, usual-server.ts), each over stdio and over
 * Streamable HTTP on loopback. Every server runs as `node --import tsx ...`. Writes
 * tools/bench-serve/report.md and report.json.
 *
 * BENCH_CALLS (measured calls per variant per repeat, default 2,000), BENCH_WARMUP (default 200)
 * and BENCH_REPEATS (default 3) tune it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectHttp, connectStdio, type ZcpClient } from "@zcp/client";
import { consoleTable, writeReports, type Results, type VariantResult } from "./report.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const BIN = path.join(REPO, "packages/server/dist/bin/zcp-serve.js");
const REGISTRY = "fixtures/weather/src/zcp.gen/index.ts";
const USUAL = path.join(HERE, "usual-server.ts");
const TSX = ["--import", "tsx"];

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const CALLS = envInt("BENCH_CALLS", 2000);
const WARMUP = envInt("BENCH_WARMUP", 200);
const REPEATS = envInt("BENCH_REPEATS", 3);

const log = (message: string) => process.stdout.write(`${message}\n`);

/**
 * The SDK's StreamableHTTPClientTransport passes its one AbortSignal to every fetch, and undici
 * only drops its abort listener when the request is garbage-collected, so Node warns
 * (MaxListenersExceededWarning) once more than 1,500 are pending. Counted and reported, not printed.
 */
let abortListenerWarnings = 0;
process.removeAllListeners("warning");
process.on("warning", (warning) => {
  if (warning.name === "MaxListenersExceededWarning" && warning.message.includes("AbortSignal"))
    abortListenerWarnings++;
  else process.stderr.write(`${warning.stack ?? String(warning)}\n`);
});

export type Server = "ours-mcp" | "ours-native" | "usual";
export type Transport = "stdio" | "http";

interface Variant {
  readonly key: string;
  readonly server: Server;
  readonly transport: Transport;
  readonly label: string;
  /** Calls math.subtract(a, b) and resolves to the number it answered. */
  call(a: number, b: number): Promise<number>;
  close(): Promise<void>;
  /** A description of one call's answer, for the report's set-up checks. */
  readonly sample: string;
}

/** Every server process started, by pid, to check at the end that none is left. */
const children = new Map<number, string>();
/** HTTP servers we spawned ourselves: killed on the way out whatever happens. */
const spawned: ChildProcess[] = [];
process.on("exit", () => {
  for (const child of spawned)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** Spawns an HTTP server and resolves to the MCP URL it prints on stderr. */
function spawnHttp(
  name: string,
  args: readonly string[],
): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [...TSX, ...args], {
    cwd: REPO,
    stdio: ["ignore", "ignore", "pipe"],
  });
  spawned.push(child);
  if (child.pid !== undefined) children.set(child.pid, name);
  return new Promise((resolve, reject) => {
    let stderr = "";
    const timer = setTimeout(
      () => reject(new Error(`${name}: no "listening on" within 30 s\n${stderr}`)),
      30_000,
    );
    child.once("exit", (code, signal) =>
      reject(new Error(`${name} exited (${signal ?? `code ${code}`}) before listening\n${stderr}`)),
    );
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const match = /listening on (http:\/\/[^\s/]+)\/(?:mcp|zcp)\b/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: new URL("/mcp", match[1]!) });
      }
    });
  });
}

/** Sends SIGTERM and waits for the exit (SIGKILL after 3 s). */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
  await exited;
  clearTimeout(timer);
}

/** The first text content of a CallToolResult, as a number. */
function mcpNumber(result: unknown): number {
  const r = result as { isError?: boolean; content?: { type: string; text?: string }[] };
  const first = r.content?.[0];
  if (r.isError || first?.type !== "text")
    throw new Error(`unexpected MCP result ${JSON.stringify(result)}`);
  return Number(first.text);
}

async function mcpVariant(
  key: string,
  server: Server,
  transport: Transport,
  label: string,
  client: Client,
  tool: string,
  stop: () => Promise<void>,
): Promise<Variant> {
  const { tools } = await client.listTools();
  if (!tools.some((t) => t.name === tool)) throw new Error(`${key}: no ${tool} in tools/list`);
  const call = async (a: number, b: number) =>
    mcpNumber(await client.callTool({ name: tool, arguments: { a, b } }));
  const answer = await client.callTool({ name: tool, arguments: { a: 10, b: 4 } });
  return {
    key,
    server,
    transport,
    label,
    call,
    sample: `tools/list has ${tools.length} tool(s) incl. \`${tool}\`; ${tool} {a: 10, b: 4} answers \`${JSON.stringify(answer)}\``,
    close: async () => {
      await client.close().catch(() => undefined);
      await stop();
    },
  };
}

/** Sets up every variant into `variants` (so a failure half-way still closes the ones made). */
async function setUp(variants: Variant[]): Promise<void> {
  const clientInfo = { name: "bench-serve", version: "0" };

  // zcp-serve, MCP surface, stdio.
  {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...TSX, BIN, "--registry", REGISTRY],
      cwd: REPO,
      stderr: "ignore",
    });
    const client = new Client(clientInfo);
    await client.connect(transport);
    if (transport.pid !== null) children.set(transport.pid, "zcp-serve (mcp, stdio)");
    variants.push(
      await mcpVariant(
        "ours-mcp-stdio",
        "ours-mcp",
        "stdio",
        "zcp-serve, MCP surface: SDK Client + StdioClientTransport",
        client,
        "math_subtract",
        async () => undefined,
      ),
    );
  }
  // zcp-serve, MCP surface, HTTP.
  {
    const { child, url } = await spawnHttp("zcp-serve (mcp, http)", [
      BIN,
      "--registry",
      REGISTRY,
      "--transport",
      "http",
      "--port",
      "0",
    ]);
    const client = new Client(clientInfo);
    await client.connect(new StreamableHTTPClientTransport(url));
    variants.push(
      await mcpVariant(
        "ours-mcp-http",
        "ours-mcp",
        "http",
        "zcp-serve --transport http, MCP surface: SDK Client + StreamableHTTPClientTransport",
        client,
        "math_subtract",
        () => stopChild(child),
      ),
    );
  }
  // zcp-serve, native surface, stdio.
  {
    const client = connectStdio(
      process.execPath,
      [...TSX, BIN, "--registry", REGISTRY, "--surface", "native"],
      { cwd: REPO, stderr: "ignore" },
    );
    const pid = (client.transport as { child?: ChildProcess }).child?.pid;
    if (pid !== undefined) children.set(pid, "zcp-serve (native, stdio)");
    await client.initialize();
    variants.push(
      await nativeVariant(
        "ours-native-stdio",
        "stdio",
        "zcp-serve --surface native: native client connectStdio",
        client,
        async () => undefined,
      ),
    );
  }
  // zcp-serve, native surface, HTTP.
  {
    const { child, url } = await spawnHttp("zcp-serve (native, http)", [
      BIN,
      "--registry",
      REGISTRY,
      "--transport",
      "http",
      "--surface",
      "native",
      "--port",
      "0",
    ]);
    const client = connectHttp(new URL("/zcp", url));
    await client.initialize();
    variants.push(
      await nativeVariant(
        "ours-native-http",
        "http",
        "zcp-serve --transport http --surface native: native client connectHttp (/zcp)",
        client,
        () => stopChild(child),
      ),
    );
  }
  // The usual MCP server, stdio.
  {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...TSX, USUAL],
      cwd: REPO,
      stderr: "ignore",
    });
    const client = new Client(clientInfo);
    await client.connect(transport);
    if (transport.pid !== null) children.set(transport.pid, "usual McpServer (stdio)");
    variants.push(
      await mcpVariant(
        "usual-stdio",
        "usual",
        "stdio",
        "usual McpServer + zod (StdioServerTransport): SDK Client + StdioClientTransport",
        client,
        "math_subtract",
        async () => undefined,
      ),
    );
  }
  // The usual MCP server, HTTP.
  {
    const { child, url } = await spawnHttp("usual McpServer (http)", [USUAL, "--http"]);
    const client = new Client(clientInfo);
    await client.connect(new StreamableHTTPClientTransport(url));
    variants.push(
      await mcpVariant(
        "usual-http",
        "usual",
        "http",
        "usual McpServer + zod (StreamableHTTPServerTransport, stateful): SDK Client + StreamableHTTPClientTransport",
        client,
        "math_subtract",
        () => stopChild(child),
      ),
    );
  }
}

async function nativeVariant(
  key: string,
  transport: Transport,
  label: string,
  client: ZcpClient,
  stop: () => Promise<void>,
): Promise<Variant> {
  const call = async (a: number, b: number) => {
    const result = await client.call("math.subtract", { a, b });
    if (!result.ok || !("value" in result))
      throw new Error(`${key}: unexpected result ${JSON.stringify(result)}`);
    return result.value as number;
  };
  const answer = await client.call("math.subtract", { a: 10, b: 4 });
  return {
    key,
    server: "ours-native",
    transport,
    label,
    call,
    sample: `math.subtract {a: 10, b: 4} answers \`${JSON.stringify(answer)}\``,
    close: async () => {
      await client.close().catch(() => undefined);
      await stop();
    },
  };
}

/** `count` sequential calls, each timed; returns the latencies in µs and the loop's wall time. */
async function loop(
  variant: Variant,
  count: number,
  offset: number,
): Promise<{ latencies: Float64Array; wallMs: number }> {
  const latencies = new Float64Array(count);
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const a = offset + i;
    const t0 = performance.now();
    const answer = await variant.call(a, 1);
    latencies[i] = (performance.now() - t0) * 1000;
    if (answer !== a - 1) throw new Error(`${variant.key}: subtract(${a}, 1) answered ${answer}`);
  }
  return { latencies, wallMs: performance.now() - start };
}

const quantile = (sorted: Float64Array, q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const median = (values: readonly number[]): number => {
  const s = [...values].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const loadStart = os.loadavg();
  const started = performance.now();
  log(
    `bench:serve: ${CALLS} calls per variant per repeat, ${WARMUP} warm-up calls, ${REPEATS} repeats interleaved`,
  );
  let variants: Variant[] = [];
  try {
    await setUp(variants);
    log(`set up ${variants.length} variants in ${Math.round(performance.now() - started)} ms`);
    for (const v of variants) await loop(v, WARMUP, 1_000_000);

    const samples = new Map<string, { callsPerSec: number; latencies: Float64Array }[]>(
      variants.map((v) => [v.key, []]),
    );
    for (let r = 0; r < REPEATS; r++) {
      const order = variants.map((_, i) => variants[(i + r) % variants.length]!);
      for (const v of order) {
        const { latencies, wallMs } = await loop(v, CALLS, r * CALLS);
        samples.get(v.key)!.push({ callsPerSec: CALLS / (wallMs / 1000), latencies });
      }
      log(
        `repeat ${r + 1}/${REPEATS} done (${Math.round((performance.now() - started) / 1000)} s)`,
      );
    }

    const results: VariantResult[] = variants.map((v) => {
      const runs = samples.get(v.key)!;
      const pooled = new Float64Array(runs.reduce((n, run) => n + run.latencies.length, 0));
      let at = 0;
      for (const run of runs) {
        pooled.set(run.latencies, at);
        at += run.latencies.length;
      }
      pooled.sort();
      const perRepeat = runs.map((run) => run.callsPerSec);
      return {
        key: v.key,
        server: v.server,
        transport: v.transport,
        label: v.label,
        callsPerSec: {
          median: median(perRepeat),
          best: Math.max(...perRepeat),
          worst: Math.min(...perRepeat),
          perRepeat,
        },
        latencyUs: {
          p50: quantile(pooled, 0.5),
          p99: quantile(pooled, 0.99),
          max: pooled[pooled.length - 1]!,
        },
        sample: v.sample,
      };
    });

    for (const v of variants) await v.close();
    variants = [];
    await new Promise((resolve) => setTimeout(resolve, 200));
    const leftover = [...children]
      .filter(([pid]) => alive(pid))
      .map(([pid, name]) => `${name} (pid ${pid})`);
    if (leftover.length > 0)
      throw new Error(`child processes left running: ${leftover.join(", ")}`);

    const pkg = (name: string) =>
      (
        JSON.parse(
          fs.readFileSync(path.join(REPO, "tools/node_modules", name, "package.json"), "utf8"),
        ) as { version: string }
      ).version;
    const out: Results = {
      generatedAt: new Date().toISOString(),
      calls: CALLS,
      warmup: WARMUP,
      repeats: REPEATS,
      variants: results,
      childrenStopped: children.size,
      abortListenerWarnings,
      machine: {
        node: process.version,
        platform: `${os.platform()} ${os.release()} ${os.arch()}`,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? "?",
        memGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
      },
      versions: { "@modelcontextprotocol/sdk": pkg("@modelcontextprotocol/sdk"), zod: pkg("zod") },
      loadavg: { start: loadStart, end: os.loadavg() },
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
    log("");
    log(consoleTable(out));
    writeReports(out, path.join(HERE, "report.md"), path.join(HERE, "report.json"));
    log(
      `\nall ${children.size} server processes stopped; wrote ${path.relative(REPO, path.join(HERE, "report.md"))} and report.json in ${out.seconds} s`,
    );
  } finally {
    for (const v of variants) await v.close().catch(() => undefined);
    for (const child of spawned) await stopChild(child);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:serve failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});

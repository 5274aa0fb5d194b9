/**
 * `pnpm bench:soak`: many sessions at once, each looping mixed calls and handle reads, against
 * one zcp-serve over Streamable HTTP (both surfaces, worker isolation: the defaults) on the
 * kitchen-sink fixture, for `--seconds` (default 180). Half the sessions speak MCP (the SDK
 * Client), half native ZCP (@zcp/client). Samples the server's RSS every second; reports
 * throughput, p50/p99 latency per op kind, RSS over time and errors (report.json, report.md).
 *
 * By default each session releases every handle once it has read it, as a client that is done
 * with a result should: the server then holds only the handles in flight, and RSS levels off.
 * With `--keep` no handle is released, so the server keeps every one for its TTL (10 min) within
 * the handle budget (64 MiB of JSON), and RSS grows with the handles held: that is retention as
 * configured, not a leak (see report.md).
 *
 *   --seconds <n>     how long the load runs (default 180)
 *   --sessions <n>    sessions at once (default 50)
 *   --keep            never release handles (default: release each after reading it)
 *   --isolation <i>   zcp-serve's --isolation: worker (default) or none
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectHttp, type ZcpClient } from "@zcp/client";
import { consoleTable, writeReports, type OpKind, type SoakResults } from "./report.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const BIN = path.join(REPO, "packages/server/dist/bin/zcp-serve.js");
const REGISTRY = "fixtures/kitchen-sink/src/zcp.gen/index.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "180" },
    sessions: { type: "string", default: "50" },
    keep: { type: "boolean", default: false },
    isolation: { type: "string", default: "worker" },
  },
});
const SECONDS = Number(values.seconds);
const SESSIONS = Number(values.sessions);
const KEEP = values.keep;
const ISOLATION = values.isolation;
if (!(SECONDS > 0) || !Number.isInteger(SESSIONS) || SESSIONS < 2) {
  process.stderr.write("bench:soak: --seconds must be > 0 and --sessions an integer >= 2\n");
  process.exit(2);
}
if (ISOLATION !== "worker" && ISOLATION !== "none") {
  process.stderr.write("bench:soak: --isolation must be worker or none\n");
  process.exit(2);
}

const log = (message: string) => process.stdout.write(`${message}\n`);

/** Latencies (ms) per op kind, and what went wrong. */
const latencies = new Map<OpKind, number[]>();
const errors: string[] = [];

async function timed<T>(kind: OpKind, op: () => Promise<T>, ok: (value: T) => boolean) {
  const started = performance.now();
  try {
    const value = await op();
    const took = performance.now() - started;
    if (!ok(value)) errors.push(`${kind}: ${JSON.stringify(value).slice(0, 200)}`);
    else {
      const list = latencies.get(kind) ?? [];
      list.push(took);
      latencies.set(kind, list);
    }
    return value;
  } catch (error) {
    errors.push(`${kind}: ${(error as Error).message}`);
    return undefined;
  }
}

type NativeResult = { ok: boolean; handle?: string };

async function nativeLoop(client: ZcpClient, s: number, until: number): Promise<void> {
  for (let i = 0; performance.now() < until; i++) {
    const loaded = await timed(
      "native load",
      () =>
        client.call("tables.load", {
          name: `s${s}i${i}`,
          limit: 1 + (i % 3),
        }) as Promise<NativeResult>,
      (result) => result.ok && typeof result.handle === "string",
    );
    if (loaded?.handle)
      await timed(
        "native handle read",
        () => client.handles.read(loaded.handle!) as Promise<{ ok: boolean }>,
        (result) => result.ok,
      );
    if (loaded?.handle && !KEEP)
      await timed(
        "native release",
        () => client.handles.release(loaded.handle!),
        (result) => result.ok,
      );
    await timed(
      "native call",
      () => client.call("orders.add", { sku: `s${s}`, qty: i }) as Promise<{ ok: boolean }>,
      (result) => result.ok,
    );
  }
}

async function mcpLoop(client: Client, s: number, until: number): Promise<void> {
  const text = (result: unknown) =>
    ((result as { content?: { text?: string }[] }).content?.[0]?.text ?? "") as string;
  for (let i = 0; performance.now() < until; i++) {
    const loaded = await timed(
      "mcp load",
      () =>
        client.callTool({
          name: "tables_load",
          arguments: { name: `s${s}i${i}`, limit: 1 + (i % 3) },
        }),
      (result) => !result.isError,
    );
    const handle = loaded ? (JSON.parse(text(loaded)) as { handle?: string }).handle : undefined;
    if (handle)
      await timed(
        "mcp handle read",
        () => client.callTool({ name: "zcp_handle", arguments: { op: "read", handle } }),
        (result) => !result.isError,
      );
    if (handle && !KEEP)
      await timed(
        "mcp release",
        () => client.callTool({ name: "zcp_handle", arguments: { op: "release", handle } }),
        (result) => !result.isError,
      );
    await timed(
      "mcp call",
      () => client.callTool({ name: "ping_server", arguments: { echo: "soak", times: 2 } }),
      (result) => !result.isError && text(result) === JSON.stringify("soaksoak"),
    );
  }
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Math.round(Number(match[1]) / 1024) : Number.NaN;
}

const child = spawn(
  process.execPath,
  [
    "--import",
    "tsx",
    BIN,
    "--registry",
    REGISTRY,
    "--transport",
    "http",
    "--port",
    "0",
    "--surface",
    "both",
    "--isolation",
    ISOLATION,
  ],
  { cwd: REPO, stdio: ["ignore", "ignore", "pipe"] },
);
let stderr = "";
const mcpUrl = await new Promise<URL>((resolve, reject) => {
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
    if (match) resolve(new URL(match[1]!));
  });
  child.on("exit", (code) => reject(new Error(`zcp-serve exited (${code}): ${stderr}`)));
});
const nativeUrl = new URL("/zcp", mcpUrl);
const pid = child.pid!;

try {
  const half = Math.floor(SESSIONS / 2);
  const natives = await Promise.all(
    Array.from({ length: SESSIONS - half }, async () => {
      const client = connectHttp(nativeUrl);
      await client.initialize();
      return client;
    }),
  );
  const mcps = await Promise.all(
    Array.from({ length: half }, async () => {
      const client = new Client({ name: "bench-soak", version: "0" });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl));
      return client;
    }),
  );
  // Warm-up: one loop turn per session (the worker pool loads the registry), not measured.
  await Promise.all([
    ...natives.map((client, s) => nativeLoop(client, s, 0)),
    ...mcps.map((client, s) => mcpLoop(client, s, 0)),
  ]);
  latencies.clear();
  errors.length = 0;

  log(
    `bench:soak: ${SESSIONS} sessions (${half} MCP, ${SESSIONS - half} native) for ${SECONDS} s, handles ${KEEP ? "kept" : "released after reading"}, isolation ${ISOLATION}`,
  );
  const rss: { second: number; mb: number }[] = [{ second: 0, mb: rssMb(pid) }];
  const started = performance.now();
  const sampler = setInterval(() => {
    const second = Math.round((performance.now() - started) / 1000);
    rss.push({ second, mb: rssMb(pid) });
    if (second % 10 === 0) log(`  ${second} s: RSS ${rss.at(-1)!.mb} MiB, ${errors.length} errors`);
  }, 1000);
  const until = started + SECONDS * 1000;
  await Promise.all([
    ...natives.map((client, s) => nativeLoop(client, s, until)),
    ...mcps.map((client, s) => mcpLoop(client, s, until)),
  ]);
  const elapsed = (performance.now() - started) / 1000;
  clearInterval(sampler);
  rss.push({ second: Math.round(elapsed), mb: rssMb(pid) });
  await Promise.all([
    ...natives.map((client) => client.close()),
    ...mcps.map((client) => client.close()),
  ]);

  const results: SoakResults = {
    generatedAt: new Date().toISOString(),
    seconds: Math.round(elapsed * 10) / 10,
    sessions: SESSIONS,
    registry: REGISTRY,
    keep: KEEP,
    isolation: ISOLATION,
    latencies: Object.fromEntries(latencies),
    errors,
    rss,
    machine: {
      node: process.version,
      cpus: os.availableParallelism(),
      cpuModel: os.cpus()[0]?.model ?? "?",
    },
  };
  log(consoleTable(results));
  writeReports(HERE, results);
  log(`wrote ${path.relative(REPO, path.join(HERE, "report.md"))} and report.json`);
} finally {
  child.kill("SIGTERM");
}

/**
 * `pnpm bench:scale`: what sharing sessions through Redis costs and how replicas scale.
 *
 * 1. Replicas: calls/s and p50/p99 of `math.subtract` (weather fixture) on the native HTTP
 *    surface, BENCH_CLIENTS concurrent clients (one session each), every request sent to the
 *    next replica in turn: 1, 2 and 3 `zcp-serve --store redis://…` replicas on one Redis, and
 *    1 replica with the memory store for reference. CPU time per call of the replicas, of Redis
 *    and of this process, and Redis commands per call, measured over the same window.
 * 2. Handles in process: `HandleStore` create/get/read latency on `RedisHandleStorage` and on
 *    `MemoryHandleStorage`, with the Redis round trips per operation counted at the client.
 * 3. Resume: sessions made on one replica, that replica SIGKILLed; the first request of each on
 *    another replica (which resumes it from Redis) against its second request; and the time
 *    a new replica takes to start.
 *
 * BENCH_CLIENTS (default 8), BENCH_CALLS (measured calls per client per run, default 300),
 * BENCH_WARMUP (per client, default 30), BENCH_REPEATS (default 5, variants interleaved),
 * BENCH_HANDLE_OPS (default 2,000), BENCH_SESSIONS (resumed sessions, default 200) tune it.
 * Writes tools/bench-scale/report.md and report.json.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@redis/client";
import { SESSION_HEADER, ZcpClient, type ClientTransport } from "@zcp/client";
import { RedisHandleStorage, RedisSessionStore, type RedisCommander } from "@zcp/redis";
import { HandleStore, MemorySessionStore, stateJson, type SessionStore } from "@zcp/runtime";
import { startRedis, type RedisServer } from "../redis-server.ts";
import {
  writeReports,
  type HandleResult,
  type Latency,
  type ReplicaResult,
  type Results,
} from "./report.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const BIN = path.join(REPO, "packages/server/dist/bin/zcp-serve.js");
const REGISTRY = "fixtures/weather/src/zcp.gen/index.ts";

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const CLIENTS = envInt("BENCH_CLIENTS", 8);
const CALLS = envInt("BENCH_CALLS", 300);
const WARMUP = envInt("BENCH_WARMUP", 30);
const REPEATS = envInt("BENCH_REPEATS", 5);
const HANDLE_OPS = envInt("BENCH_HANDLE_OPS", 2000);
const SESSIONS = envInt("BENCH_SESSIONS", 200);

const log = (message: string) => process.stdout.write(`${message}\n`);

const newClient = (url: string) => createClient({ url, RESP: 2 });
type RawClient = ReturnType<typeof newClient>;

/** A client of the bench's own, for INFO (commands and CPU time) and for counting round trips. */
async function rawClient(url: string): Promise<RawClient> {
  const client = newClient(url);
  client.on("error", () => {});
  await client.connect();
  return client;
}

const info = async (raw: RawClient, section: string) =>
  String(await raw.sendCommand(["INFO", section]));

interface Replica {
  readonly name: string;
  readonly child: ChildProcess;
  readonly url: URL;
}

const spawned: ChildProcess[] = [];
process.on("exit", () => {
  for (const child of spawned) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Starts a native HTTP zcp-serve (with `--store` when given); resolves once it listens. */
function startReplica(name: string, store?: string): Promise<Replica> {
  const args = [BIN, "--registry", REGISTRY, "--transport", "http", "--surface", "native"];
  const child = spawn(
    process.execPath,
    ["--import", "tsx", ...args, "--port", "0", ...(store ? ["--store", store] : [])],
    { cwd: REPO, stdio: ["ignore", "ignore", "pipe"] },
  );
  spawned.push(child);
  return new Promise((resolve, reject) => {
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`${name}: not listening in 30 s`)), 30_000);
    child.once("exit", (code) => reject(new Error(`${name} exited (${code}): ${stderr}`)));
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const match = /listening on (http:\/\/[^\s/]+)\/zcp\b/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ name, child, url: new URL("/zcp", match[1]!) });
      }
    });
  });
}

async function stopReplica(replica: Replica, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  const { child } = replica;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
  await exited;
  clearTimeout(timer);
}

/**
 * A native HTTP transport that sends each request to the next of `urls` (starting at
 * `start`), carrying the session id: a load balancer without stickiness. `urls` may change.
 */
interface RoundRobin extends ClientTransport {
  urls: readonly URL[];
}

function roundRobin(urls: readonly URL[], start: number): RoundRobin {
  let sessionId: string | undefined;
  let next = start;
  const post = (body: unknown) =>
    fetch(transport.urls[next++ % transport.urls.length]!, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        ...(sessionId === undefined ? {} : { [SESSION_HEADER]: sessionId }),
      },
      body: JSON.stringify(body),
    });
  const transport: RoundRobin = {
    urls,
    async request(message) {
      const response = await post(message);
      sessionId = response.headers.get(SESSION_HEADER) ?? sessionId;
      const text = await response.text();
      if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`);
      return JSON.parse(text) as Awaited<ReturnType<ClientTransport["request"]>>;
    },
    async notify(message) {
      await (await post(message)).body?.cancel();
    },
    async close() {
      if (sessionId !== undefined)
        await (await post({ jsonrpc: "2.0", method: "session/close" })).body?.cancel();
      sessionId = undefined;
    },
  };
  return transport;
}

async function subtract(client: ZcpClient, a: number): Promise<void> {
  const result = await client.call("math.subtract", { a, b: 1 });
  if (!result.ok || !("value" in result) || result.value !== a - 1)
    throw new Error(`math.subtract(${a}, 1) answered ${JSON.stringify(result)}`);
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

interface RedisCounters {
  readonly cpu: number;
  readonly commands: number;
  readonly byCommand: ReadonlyMap<string, number>;
}

async function redisCounters(raw: RawClient): Promise<RedisCounters> {
  const text = await info(raw, "all");
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, "m").exec(text)![1]);
  const byCommand = new Map<string, number>();
  for (const match of text.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm))
    byCommand.set(match[1]!, Number(match[2]));
  return {
    cpu: field("used_cpu_user") + field("used_cpu_sys"),
    commands: field("total_commands_processed"),
    byCommand,
  };
}

const quantile = (sorted: Float64Array, q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
function latency(samples: readonly Float64Array[]): Latency {
  const pooled = new Float64Array(samples.reduce((n, s) => n + s.length, 0));
  let at = 0;
  for (const s of samples) {
    pooled.set(s, at);
    at += s.length;
  }
  pooled.sort();
  return { p50: quantile(pooled, 0.5), p99: quantile(pooled, 0.99) };
}
const median = (values: readonly number[]): number => {
  const s = [...values].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface Run {
  readonly callsPerSec: number;
  readonly latencies: Float64Array;
  readonly replicaCpu: number;
  readonly redisCpu: number;
  readonly clientCpu: number;
  readonly redisCommands: number;
  readonly byCommand: Map<string, number>;
}

/** One measured run: CLIENTS sessions, each making WARMUP then CALLS calls, round robin. */
async function runClients(replicas: readonly Replica[], raw: RawClient | null): Promise<Run> {
  const urls = replicas.map((replica) => replica.url);
  const clients = Array.from({ length: CLIENTS }, (_, i) => new ZcpClient(roundRobin(urls, i)));
  await Promise.all(clients.map((client) => client.initialize()));
  await Promise.all(
    clients.map(async (client) => {
      for (let k = 0; k < WARMUP; k++) await subtract(client, k);
    }),
  );
  const latencies = new Float64Array(CLIENTS * CALLS);
  const pids = replicas.map((replica) => replica.child.pid!);
  const cpuBefore = pids.map(cpuSeconds);
  const redisBefore = raw ? await redisCounters(raw) : null;
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, i) => {
      for (let k = 0; k < CALLS; k++) {
        const t0 = performance.now();
        await subtract(client, k);
        latencies[i * CALLS + k] = (performance.now() - t0) * 1000;
      }
    }),
  );
  const wallMs = performance.now() - started;
  const client = process.cpuUsage(clientBefore);
  const replicaCpu = pids.reduce((sum, pid, i) => sum + cpuSeconds(pid) - cpuBefore[i]!, 0);
  const redisAfter = raw ? await redisCounters(raw) : null;
  await Promise.all(clients.map((c) => c.close()));
  const byCommand = new Map<string, number>();
  if (redisBefore && redisAfter)
    for (const [name, calls] of redisAfter.byCommand) {
      const delta = calls - (redisBefore.byCommand.get(name) ?? 0) - (name === "info" ? 1 : 0);
      if (delta > 0) byCommand.set(name, delta);
    }
  return {
    callsPerSec: (CLIENTS * CALLS) / (wallMs / 1000),
    latencies,
    replicaCpu,
    redisCpu: redisBefore && redisAfter ? redisAfter.cpu - redisBefore.cpu : 0,
    clientCpu: (client.user + client.system) / 1e6,
    redisCommands: redisBefore && redisAfter ? redisAfter.commands - redisBefore.commands - 1 : 0,
    byCommand,
  };
}

async function benchReplicas(
  redisReplicas: readonly Replica[],
  memory: Replica,
  raw: RawClient,
): Promise<ReplicaResult[]> {
  const variants = [
    { key: "memory-1", store: "memory" as const, replicas: [memory] },
    ...[1, 2, 3].map((n) => ({
      key: `redis-${n}`,
      store: "redis" as const,
      replicas: redisReplicas.slice(0, n),
    })),
  ];
  const runs = new Map<string, Run[]>(variants.map((v) => [v.key, []]));
  for (let r = 0; r < REPEATS; r++) {
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(i + r) % variants.length]!;
      runs.get(variant.key)!.push(await runClients(variant.replicas, raw));
    }
    log(`replicas: repeat ${r + 1}/${REPEATS} done`);
  }
  return variants.map((variant) => {
    const done = runs.get(variant.key)!;
    const calls = CLIENTS * CALLS * done.length;
    const sum = (pick: (run: Run) => number) => done.reduce((total, run) => total + pick(run), 0);
    const commands = new Map<string, number>();
    for (const run of done)
      for (const [name, n] of run.byCommand) commands.set(name, (commands.get(name) ?? 0) + n);
    return {
      key: variant.key,
      store: variant.store,
      replicas: variant.replicas.length,
      callsPerSec: {
        median: median(done.map((run) => run.callsPerSec)),
        perRepeat: done.map((run) => run.callsPerSec),
      },
      latencyUs: latency(done.map((run) => run.latencies)),
      cpuUsPerCall: {
        replicas: (sum((run) => run.replicaCpu) / calls) * 1e6,
        redis: (sum((run) => run.redisCpu) / calls) * 1e6,
        client: (sum((run) => run.clientCpu) / calls) * 1e6,
      },
      redisCommandsPerCall: sum((run) => run.redisCommands) / calls,
      redisCommandsByName: Object.fromEntries(
        [...commands].sort().map(([name, n]) => [name, n / calls]),
      ),
    };
  });
}

/** A commander that counts what it sends: the round trips. */
function counting(client: RawClient): RedisCommander & { sent: number } {
  const counter = {
    sent: 0,
    sendCommand(args: string[]) {
      counter.sent++;
      return client.sendCommand(args);
    },
  };
  return counter;
}

/** Times `ops` sequential operations; resolves to their latencies in µs. */
async function timed(ops: number, op: (i: number) => Promise<unknown>): Promise<Float64Array> {
  const out = new Float64Array(ops);
  for (let i = 0; i < ops; i++) {
    const t0 = performance.now();
    await op(i);
    out[i] = (performance.now() - t0) * 1000;
  }
  return out;
}

async function benchHandles(redisUrl: string): Promise<HandleResult[]> {
  const client = await rawClient(redisUrl);
  const commander = counting(client);
  const rows = Array.from({ length: 20 }, (_, i) => ({ sku: `sku-${i}`, qty: i }));
  const results: HandleResult[] = [];
  const variants: ["memory" | "redis", HandleStore, SessionStore, () => number][] = [
    ["memory", new HandleStore(), new MemorySessionStore(), () => 0],
    [
      "redis",
      new HandleStore({ storage: new RedisHandleStorage(commander, { prefix: "bench" }) }),
      // Room for every id of the run, all of one client: each timed save replaces a state.
      new RedisSessionStore(commander, {
        prefix: "bench",
        maxSessions: HANDLE_OPS,
        maxSessionsPerClient: HANDLE_OPS,
      }),
      () => commander.sent,
    ],
  ];
  const state = { surface: "native", stage: null, found: [], findFormat: "planner" } as const;
  for (const [storage, store, sessions, sent] of variants) {
    const session = `bench-${storage}`;
    const saved = new Map<string, string>();
    const ops: [string, (i: number) => Promise<unknown>][] = [
      ["handle create", () => store.create(session, "table", rows, "20 rows")],
      ["handle get", (i) => store.get(session, `#T${(i % HANDLE_OPS) + 1}`, "table")],
      [
        "handle read (one item)",
        (i) => store.read(session, `#T${(i % HANDLE_OPS) + 1}`, { item: 3 }),
      ],
      // The warm-up creates each state, the timed run replaces it (a save names the state it replaces).
      [
        "session save",
        async (i) => {
          const id = `${session}-${i}`;
          const next = { ...state, stage: `s${i}` };
          await sessions.save(id, next, saved.get(id));
          saved.set(id, stateJson(next));
        },
      ],
      ["session load", (i) => sessions.load(`${session}-${i}`)],
    ];
    for (const [op, run] of ops) {
      await timed(Math.min(200, HANDLE_OPS), (i) => run(i)); // warm-up, same ids
      const before = sent();
      const latencies = await timed(HANDLE_OPS, run);
      results.push({
        op,
        storage,
        latencyUs: latency([latencies]),
        roundTrips: (sent() - before) / HANDLE_OPS,
      });
    }
    await store.dropSession(session);
  }
  await client.close();
  return results;
}

/**
 * SESSIONS sessions made on replica `a` (initialize and one call each), `a` SIGKILLed, then
 * each session's first request on `b` (a resume from Redis) and its second one (`b` has it
 * loaded); and how long a replacement for `a` takes to listen.
 */
async function benchResume(a: Replica, b: Replica, store: string) {
  const clients: ZcpClient[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const client = new ZcpClient(roundRobin([a.url], 0));
    await client.initialize();
    await subtract(client, i);
    clients.push(client);
  }
  await stopReplica(a, "SIGKILL");
  for (const client of clients) (client.transport as RoundRobin).urls = [b.url];
  const first = await timed(SESSIONS, (i) => subtract(clients[i]!, i));
  const second = await timed(SESSIONS, (i) => subtract(clients[i]!, i));
  const started = performance.now();
  const replacement = await startReplica("replica A, started again", store);
  const startMs = performance.now() - started;
  await Promise.all(clients.map((client) => client.close()));
  await stopReplica(replacement);
  return { sessions: SESSIONS, first: latency([first]), second: latency([second]), startMs };
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadStart = os.loadavg();
  log(
    `bench:scale: ${CLIENTS} clients x ${CALLS} calls (+${WARMUP} warm-up) per run, ${REPEATS} repeats; ${HANDLE_OPS} handle ops; ${SESSIONS} resumed sessions`,
  );
  let redis: RedisServer | undefined;
  const replicas: Replica[] = [];
  try {
    redis = await startRedis();
    const raw = await rawClient(redis.url);
    const redisVersion = /^redis_version:(\S+)/m.exec(await info(raw, "server"))![1]!;
    for (const name of ["replica A", "replica B", "replica C"])
      replicas.push(await startReplica(name, redis.url));
    const memory = await startReplica("memory replica");
    replicas.push(memory);
    log(`started Redis ${redisVersion} and ${replicas.length} replicas`);

    const replicaResults = await benchReplicas(replicas.slice(0, 3), memory, raw);
    await stopReplica(memory);
    log("handles in process...");
    const handles = await benchHandles(redis.url);
    log("resume after a replica is killed...");
    const resume = await benchResume(replicas[0]!, replicas[1]!, redis.url);
    await raw.close();

    const results: Results = {
      generatedAt: new Date().toISOString(),
      settings: {
        clients: CLIENTS,
        calls: CALLS,
        warmup: WARMUP,
        repeats: REPEATS,
        handleOps: HANDLE_OPS,
      },
      replicas: replicaResults,
      handles,
      resume,
      machine: {
        node: process.version,
        platform: `${os.platform()} ${os.release()} ${os.arch()}`,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? "?",
        redis: redisVersion,
      },
      loadavg: { start: loadStart, end: os.loadavg() },
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
    writeReports(results, path.join(HERE, "report.md"), path.join(HERE, "report.json"));
    log(`wrote tools/bench-scale/report.md and report.json in ${results.seconds} s`);
  } finally {
    for (const replica of replicas) await stopReplica(replica);
    await redis?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:scale failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});

/**
 * `pnpm bench:scale`: how replicas scale on each surface, and what a shared Redis costs.
 *
 * 1. Replicas: calls/s and p50/p99 of `math_subtract` (weather fixture) over HTTP, BENCH_CLIENTS
 *    concurrent clients, every request sent to the next replica in turn (no stickiness):
 *    - native surface (one session per client, its state in the signed token every replica
 *      opens with the shared `ZCP_SERVE_SECRET`): 1, 2 and 3 `zcp-serve --store redis://…`
 *      replicas on one Redis, and 1 replica with the memory store;
 *    - MCP 2026-07-28 (raw stateless `tools/call` POSTs): 1, 2 and 3 replicas with no store
 *      (memory), and 1 replica with `--store redis://…`.
 *    CPU time per call of the replicas, of Redis and of this process, the share of the
 *    machine's CPU these and all other processes used, and Redis commands per call, measured
 *    over the same window; the variants interleaved, after one unmeasured run of each.
 * 2. Handles in process: `HandleStore` create/get/read latency on `RedisHandleStorage` and on
 *    `MemoryHandleStorage`, and `RedisSessionStore` save/load (the 2025-era MCP sessions), with
 *    the Redis round trips per operation counted at the client.
 * 3. A replica killed: native sessions made on one replica, that replica SIGKILLed; the first
 *    request of each on another replica (which loads it from its token) against its second
 *    request; and the time a new replica takes to start.
 *
 * BENCH_CLIENTS (default 8), BENCH_CALLS (measured calls per client per run, default 300),
 * BENCH_WARMUP (per client, default 30), BENCH_REPEATS (default 5, variants interleaved),
 * BENCH_HANDLE_OPS (default 2,000), BENCH_SESSIONS (sessions moved, default 200) tune it.
 * Writes tools/bench-scale/report.md and report.json.
 */
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@redis/client";
import { RedisHandleStorage, RedisSessionStore, type RedisCommander } from "@zcp/redis";
import { HandleStore, MemorySessionStore, stateJson, type SessionStore } from "@zcp/runtime";
import { startRedis, type RedisServer } from "../redis-server.ts";
import { mcpCaller, nativeCaller, type Caller, type Route } from "./callers.ts";
import {
  cpuSeconds,
  machineCpu,
  startReplica,
  stopReplica,
  type Replica,
  type Surface,
} from "./replicas.ts";
import {
  writeReports,
  type HandleResult,
  type Latency,
  type ReplicaResult,
  type Results,
} from "./report.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));

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
  /** CPU seconds the rest of the machine used meanwhile, and all the cores had. */
  readonly otherCpu: number;
  readonly machineCpu: number;
  readonly redisCommands: number;
  readonly byCommand: Map<string, number>;
}

interface Variant {
  readonly key: string;
  readonly surface: Surface;
  readonly store: "memory" | "redis";
  readonly replicas: readonly Replica[];
}

const OPEN: { readonly [surface in Surface]: (route: Route) => Promise<Caller> } = {
  native: nativeCaller,
  mcp: (route) => Promise.resolve(mcpCaller(route)),
};

/**
 * One measured run: CLIENTS callers, client i starting at replica i, each making WARMUP then
 * CALLS calls; the counters read just around the measured calls (the `INFO` of the first read
 * is taken out of the command counts).
 */
async function runClients(variant: Variant, raw: RawClient): Promise<Run> {
  const urls = variant.replicas.map((replica) => replica.url);
  const callers = await Promise.all(
    Array.from({ length: CLIENTS }, (_, i) => OPEN[variant.surface]({ urls, next: i })),
  );
  await Promise.all(
    callers.map(async (caller) => {
      for (let k = 0; k < WARMUP; k++) await caller.subtract(k);
    }),
  );
  const latencies = new Float64Array(CLIENTS * CALLS);
  const pids = variant.replicas.map((replica) => replica.child.pid!);
  const cpuBefore = pids.map(cpuSeconds);
  const redisBefore = await redisCounters(raw);
  const clientBefore = process.cpuUsage();
  const machineBefore = machineCpu();
  const started = performance.now();
  await Promise.all(
    callers.map(async (caller, i) => {
      for (let k = 0; k < CALLS; k++) {
        const t0 = performance.now();
        await caller.subtract(k);
        latencies[i * CALLS + k] = (performance.now() - t0) * 1000;
      }
    }),
  );
  const wallMs = performance.now() - started;
  const machineAfter = machineCpu();
  const client = process.cpuUsage(clientBefore);
  const replicaCpu = pids.reduce((sum, pid, i) => sum + cpuSeconds(pid) - cpuBefore[i]!, 0);
  const redisAfter = await redisCounters(raw);
  const clientCpu = (client.user + client.system) / 1e6;
  const redisCpu = redisAfter.cpu - redisBefore.cpu;
  const ours = replicaCpu + redisCpu + clientCpu;
  await Promise.all(callers.map((caller) => caller.close()));
  const byCommand = new Map<string, number>();
  for (const [name, calls] of redisAfter.byCommand) {
    const delta = calls - (redisBefore.byCommand.get(name) ?? 0) - (name === "info" ? 1 : 0);
    if (delta > 0) byCommand.set(name, delta);
  }
  return {
    callsPerSec: (CLIENTS * CALLS) / (wallMs / 1000),
    latencies,
    replicaCpu,
    redisCpu,
    clientCpu,
    // Clock ticks round both sides: a run with no other load may come out a little below 0.
    otherCpu: Math.max(0, machineAfter.busy - machineBefore.busy - ours),
    machineCpu: machineAfter.total - machineBefore.total,
    redisCommands: redisAfter.commands - redisBefore.commands - 1,
    byCommand,
  };
}

/** Every variant REPEATS times, in an order rotated each repeat; the figures of each, pooled. */
async function benchReplicas(
  variants: readonly Variant[],
  raw: RawClient,
): Promise<ReplicaResult[]> {
  // One unmeasured run of each first: no replica is measured cold (JIT, worker threads).
  for (const variant of variants) await runClients(variant, raw);
  const runs = new Map<string, Run[]>(variants.map((v) => [v.key, []]));
  for (let r = 0; r < REPEATS; r++) {
    for (let i = 0; i < variants.length; i++) {
      const variant = variants[(i + r) % variants.length]!;
      runs.get(variant.key)!.push(await runClients(variant, raw));
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
      surface: variant.surface,
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
      load: {
        own:
          sum((run) => run.replicaCpu + run.redisCpu + run.clientCpu) /
          sum((run) => run.machineCpu),
        other: sum((run) => run.otherCpu) / sum((run) => run.machineCpu),
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
  const state = { surface: "mcp", stage: null, found: [], findFormat: "planner" } as const;
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
      // The form a 2026-07-28 request without authorization gets: unguessable, no id counter.
      [
        "handle create (random id)",
        () => store.create(session, "table", rows, "20 rows", "random"),
      ],
      // A 2025-era MCP session's state (the only kind stored). The warm-up creates each state,
      // the timed run replaces it (a save names the state it replaces).
      [
        "session save (2025-era MCP)",
        async (i) => {
          const id = `${session}-${i}`;
          const next = { ...state, stage: `s${i}` };
          await sessions.save(id, next, saved.get(id));
          saved.set(id, stateJson(next));
        },
      ],
      ["session load (2025-era MCP)", (i) => sessions.load(`${session}-${i}`)],
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
 * SESSIONS native sessions made on replica `a` (initialize and one call each), `a` SIGKILLed,
 * then each session's first request on `b` (which loads it from its token: `b` never saw it)
 * and its second one (`b` has it loaded); and how long a replacement for `a` takes to listen.
 */
async function benchResume(a: Replica, b: Replica, store: string, raw: RawClient) {
  const routes: Route[] = [];
  const callers: Caller[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const route: Route = { urls: [a.url], next: 0 };
    const caller = await nativeCaller(route);
    await caller.subtract(i);
    routes.push(route);
    callers.push(caller);
  }
  await stopReplica(a, "SIGKILL");
  for (const route of routes) route.urls = [b.url];
  const before = await redisCounters(raw);
  const first = await timed(SESSIONS, (i) => callers[i]!.subtract(i));
  const after = await redisCounters(raw);
  const second = await timed(SESSIONS, (i) => callers[i]!.subtract(i));
  const started = performance.now();
  const replacement = await startReplica("replica A, started again", "native", store);
  const startMs = performance.now() - started;
  await Promise.all(callers.map((caller) => caller.close()));
  await stopReplica(replacement);
  return {
    sessions: SESSIONS,
    first: latency([first]),
    second: latency([second]),
    redisCommandsPerFirst: (after.commands - before.commands - 1) / SESSIONS,
    startMs,
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadStart = os.loadavg();
  log(
    `bench:scale: ${CLIENTS} clients x ${CALLS} calls (+${WARMUP} warm-up) per run, ${REPEATS} repeats; ${HANDLE_OPS} handle ops; ${SESSIONS} sessions moved`,
  );
  let redis: RedisServer | undefined;
  const replicas: Replica[] = [];
  const start = async (name: string, surface: Surface, store?: string) => {
    const replica = await startReplica(name, surface, store);
    replicas.push(replica);
    return replica;
  };
  try {
    redis = await startRedis();
    const raw = await rawClient(redis.url);
    const redisVersion = /^redis_version:(\S+)/m.exec(await info(raw, "server"))![1]!;
    const native: Replica[] = [];
    for (const name of ["A", "B", "C"])
      native.push(await start(`native replica ${name}`, "native", redis.url));
    const nativeMemory = await start("native memory replica", "native");
    const mcp: Replica[] = [];
    for (const name of ["A", "B", "C"]) mcp.push(await start(`MCP replica ${name}`, "mcp"));
    const mcpRedis = await start("MCP Redis replica", "mcp", redis.url);
    log(`started Redis ${redisVersion} and ${replicas.length} replicas`);

    const variants: Variant[] = [
      { key: "native-memory-1", surface: "native", store: "memory", replicas: [nativeMemory] },
      ...[1, 2, 3].map((n): Variant => ({
        key: `native-redis-${n}`,
        surface: "native",
        store: "redis",
        replicas: native.slice(0, n),
      })),
      ...[1, 2, 3].map((n): Variant => ({
        key: `mcp-memory-${n}`,
        surface: "mcp",
        store: "memory",
        replicas: mcp.slice(0, n),
      })),
      { key: "mcp-redis-1", surface: "mcp", store: "redis", replicas: [mcpRedis] },
    ];
    const replicaResults = await benchReplicas(variants, raw);
    for (const replica of [nativeMemory, ...mcp, mcpRedis]) await stopReplica(replica);
    log("handles in process...");
    const handles = await benchHandles(redis.url);
    log("a replica killed...");
    const resume = await benchResume(native[0]!, native[1]!, redis.url, raw);
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

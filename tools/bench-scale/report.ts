/**
 * Formats `pnpm bench:scale` results as report.md and report.json. Every sentence of the
 * report is computed from the figures it sits beside, so that it cannot say more than they do.
 */
import fs from "node:fs";

export interface Latency {
  /** In µs. */
  readonly p50: number;
  readonly p99: number;
}

export interface ReplicaResult {
  readonly key: string;
  readonly store: "memory" | "redis";
  readonly replicas: number;
  readonly callsPerSec: { readonly median: number; readonly perRepeat: readonly number[] };
  /** Over every measured call of every repeat, pooled. */
  readonly latencyUs: Latency;
  /** CPU time per call: all replicas together, the Redis server, the load generator. */
  readonly cpuUsPerCall: {
    readonly replicas: number;
    readonly redis: number;
    readonly client: number;
  };
  /** Commands Redis executed per call, those run inside scripts included. */
  readonly redisCommandsPerCall: number;
  readonly redisCommandsByName: { readonly [command: string]: number };
}

export interface HandleResult {
  readonly op: string;
  readonly storage: "memory" | "redis";
  readonly latencyUs: Latency;
  /** Commands sent to Redis per operation, counted at the client (0 in memory). */
  readonly roundTrips: number;
}

export interface Results {
  readonly generatedAt: string;
  readonly settings: {
    readonly clients: number;
    readonly calls: number;
    readonly warmup: number;
    readonly repeats: number;
    readonly handleOps: number;
  };
  readonly replicas: readonly ReplicaResult[];
  readonly handles: readonly HandleResult[];
  readonly resume: {
    readonly sessions: number;
    readonly first: Latency;
    readonly second: Latency;
    readonly startMs: number;
  };
  readonly machine: {
    readonly node: string;
    readonly platform: string;
    readonly cpus: number;
    readonly cpuModel: string;
    readonly redis: string;
  };
  readonly loadavg: { readonly start: readonly number[]; readonly end: readonly number[] };
  readonly seconds: number;
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (us: number) => (us / 1000).toFixed(2);
const x = (n: number) => `${n.toFixed(2)}×`;
const fixed = (n: number, digits = 1) => n.toFixed(digits);

function replicaSection(results: Results): string[] {
  const { replicas, machine, settings } = results;
  const by = (key: string) => replicas.find((r) => r.key === key)!;
  const memory = by("memory-1");
  const redis = [1, 2, 3].map((n) => by(`redis-${n}`));
  const one = redis[0]!;
  const lines = [
    "## Replicas",
    "",
    `${settings.clients} concurrent clients, one native session each, call \`math.subtract\` (weather fixture) over HTTP; every request goes to the next replica in turn (no stickiness). ${settings.calls} measured calls per client per run after ${settings.warmup} warm-up calls, ${settings.repeats} runs per variant, variants interleaved. CPU is per call, over the measured window: all replicas together (/proc), the Redis server (INFO), and this load generator.`,
    "",
    "| variant | calls/s (median) | per run | p50 ms | p99 ms | CPU µs/call: replicas | Redis | load generator | Redis commands/call |",
    "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of replicas)
    lines.push(
      `| ${r.replicas} replica${r.replicas > 1 ? "s" : ""}, ${r.store} store | ${int(r.callsPerSec.median)} | ${r.callsPerSec.perRepeat.map(int).join(", ")} | ${ms(r.latencyUs.p50)} | ${ms(r.latencyUs.p99)} | ${int(r.cpuUsPerCall.replicas)} | ${int(r.cpuUsPerCall.redis)} | ${int(r.cpuUsPerCall.client)} | ${fixed(r.redisCommandsPerCall, 2)} |`,
    );
  const commands = Object.entries(one.redisCommandsByName)
    .map(([name, n]) => `${name.toUpperCase()} ${fixed(n, 2)}`)
    .join(", ");
  const total = (r: ReplicaResult) =>
    r.cpuUsPerCall.replicas + r.cpuUsPerCall.redis + r.cpuUsPerCall.client;
  const bound = (r: ReplicaResult) => (machine.cpus * 1e6) / total(r);
  const redisCeiling = 1e6 / Math.max(...redis.map((r) => r.cpuUsPerCall.redis));
  const range = (values: number[]) => [Math.min(...values), Math.max(...values)] as const;
  const perReplica = range(redis.map((r) => r.cpuUsPerCall.replicas));
  const clientCpu = range(redis.map((r) => r.cpuUsPerCall.client));
  const spread = (r: ReplicaResult) =>
    range([...r.callsPerSec.perRepeat])
      .map(int)
      .join(" to ");
  const overlap = (a: ReplicaResult, b: ReplicaResult) =>
    Math.min(...a.callsPerSec.perRepeat) <= Math.max(...b.callsPerSec.perRepeat) &&
    Math.min(...b.callsPerSec.perRepeat) <= Math.max(...a.callsPerSec.perRepeat);

  const used = (r: ReplicaResult) => r.callsPerSec.median / bound(r);
  const scripted = "evalsha" in one.redisCommandsByName || "eval" in one.redisCommandsByName;
  lines.push(
    "",
    `- With the Redis store, one replica served ${x(one.callsPerSec.median / memory.callsPerSec.median)} the calls/s of one with the memory store (${int(one.callsPerSec.median)} against ${int(memory.callsPerSec.median)}), at p50 ${ms(one.latencyUs.p50)} ms against ${ms(memory.latencyUs.p50)} ms, using ${int(one.cpuUsPerCall.replicas)} µs of replica CPU per call against ${int(memory.cpuUsPerCall.replicas)} µs${overlap(one, memory) ? `; the runs of the two overlap (${spread(one)} against ${spread(memory)} calls/s), so the difference in calls/s is within the run-to-run spread` : ""}.`,
    `- Per call Redis executed ${fixed(one.redisCommandsPerCall, 2)} commands with 1 replica (${commands || "none"})${scripted ? ", some of them inside scripts" : ": no handle is involved, so no script runs and each command is one round trip from the replica"}.`,
    `- 2 replicas served ${x(redis[1]!.callsPerSec.median / one.callsPerSec.median)} and 3 replicas ${x(redis[2]!.callsPerSec.median / one.callsPerSec.median)} the calls/s of 1 (${redis.map((r) => int(r.callsPerSec.median)).join(", ")}), and each call took ${redis.map((r) => int(r.cpuUsPerCall.replicas)).join(", ")} µs of replica CPU with 1, 2, 3 replicas on the same cores.`,
    `- Why: every process here shares ${machine.cpus} cores. The CPU one call takes, replicas, Redis and load generator together, is ${redis.map((r) => int(total(r))).join(", ")} µs with 1, 2, 3 replicas, which caps the machine at ${redis.map((r) => int(bound(r))).join(", ")} calls/s; the runs reached ${redis.map((r) => `${Math.round(100 * used(r))} %`).join(", ")} of that cap${redis.every((r) => used(r) >= 0.8) ? ": the cores are the limit here, not the number of replicas" : ""}.`,
    `- What this predicts for more cores: a replica needed ${int(perReplica[0])} to ${int(perReplica[1])} µs of CPU per call (the lowest and the highest figure of the 1-, 2- and 3-replica runs), so each core given to one more replica adds about ${int(1e6 / perReplica[1])} to ${int(1e6 / perReplica[0])} calls/s, as long as Redis and the clients have cores of their own (the load generator here used ${int(clientCpu[0])} to ${int(clientCpu[1])} µs per call). Redis runs commands on one thread and used at most ${int(1e6 / redisCeiling)} µs of CPU per call, so it saturates near ${int(redisCeiling)} calls/s, which about ${int(redisCeiling / (1e6 / perReplica[0]))} to ${int(redisCeiling / (1e6 / perReplica[1]))} such replicas would reach: that is where adding replicas stops helping, unless the work per call on Redis shrinks.`,
    `- Latency: on one machine a round trip to Redis is a loopback one; across a network each of the ${fixed(one.redisCommandsPerCall, 2)} commands per call adds one network round trip to every call.`,
  );
  return lines;
}

function handleSection(results: Results): string[] {
  const ops = [...new Set(results.handles.map((h) => h.op))];
  const get = (op: string, storage: string) =>
    results.handles.find((h) => h.op === op && h.storage === storage)!;
  const lines = [
    "## Handles and session state in process",
    "",
    `\`HandleStore\` on \`RedisHandleStorage\` against \`MemoryHandleStorage\`, and \`RedisSessionStore\` against \`MemorySessionStore\`: ${int(results.settings.handleOps)} sequential operations each after a warm-up, one session, a value of 20 rows; round trips counted at the Redis client.`,
    "",
    "| operation | memory p50 µs | p99 µs | Redis p50 µs | p99 µs | Redis round trips |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const op of ops) {
    const [m, r] = [get(op, "memory"), get(op, "redis")];
    lines.push(
      `| ${op} | ${fixed(m.latencyUs.p50)} | ${fixed(m.latencyUs.p99)} | ${int(r.latencyUs.p50)} | ${int(r.latencyUs.p99)} | ${fixed(r.roundTrips, 2)} |`,
    );
  }
  const create = get("handle create", "redis");
  const read = get("handle get", "redis");
  lines.push(
    "",
    `- A create took ${fixed(create.roundTrips, 2)} round trips (the expiry sweep's oldest, the id counter, the put, the session's and the total usage), a get ${fixed(read.roundTrips, 2)} (record, value, touch): the median latency divided by them is ${int(create.latencyUs.p50 / Math.max(create.roundTrips, 1))} µs per round trip for a create and ${int(read.latencyUs.p50 / Math.max(read.roundTrips, 1))} µs for a get, on loopback.`,
    `- In memory the same operations take ${fixed(get("handle create", "memory").latencyUs.p50)} µs and ${fixed(get("handle get", "memory").latencyUs.p50)} µs: with Redis, the round trips are the cost.`,
  );
  return lines;
}

function resumeSection(results: Results): string[] {
  const { resume } = results;
  return [
    "## A replica killed: what its sessions pay",
    "",
    `${resume.sessions} sessions were opened and called once on replica A only; A was then SIGKILLed and each session's next request sent to replica B, which had never seen them.`,
    "",
    "| request on B | p50 ms | p99 ms |",
    "| --- | ---: | ---: |",
    `| first (B resumes the session from Redis) | ${ms(resume.first.p50)} | ${ms(resume.first.p99)} |`,
    `| second (B has it loaded) | ${ms(resume.second.p50)} | ${ms(resume.second.p99)} |`,
    "",
    `- Resuming costs a session ${(Number(ms(resume.first.p50)) - Number(ms(resume.second.p50))).toFixed(2)} ms at the median, once per replica that takes it over; no request failed and no session had to be initialized again.`,
    `- A replacement replica took ${int(resume.startMs)} ms from spawn to listening (\`node --import tsx\`, the weather registry, the Redis connection); the sessions did not have to wait for it.`,
  ];
}

export function writeReports(results: Results, mdPath: string, jsonPath: string): void {
  const { machine, loadavg } = results;
  const md = [
    "# bench:scale",
    "",
    `Generated ${results.generatedAt} by \`pnpm bench:scale\` in ${results.seconds} s: Node ${machine.node}, Redis ${machine.redis}, ${machine.platform}, ${machine.cpus} × ${machine.cpuModel}; load average ${loadavg.start.map((n) => n.toFixed(2)).join(" ")} at the start, ${loadavg.end.map((n) => n.toFixed(2)).join(" ")} at the end. Redis, every replica and the load generator run on these ${machine.cpus} cores.`,
    "",
    ...replicaSection(results),
    "",
    ...handleSection(results),
    "",
    ...resumeSection(results),
    "",
  ].join("\n");
  fs.writeFileSync(mdPath, md);
  fs.writeFileSync(jsonPath, `${JSON.stringify(results, null, 2)}\n`);
}

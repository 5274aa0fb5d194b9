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
  /** `native`: ZCP sessions carried in signed tokens; `mcp`: stateless 2026-07-28 requests. */
  readonly surface: "native" | "mcp";
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
  /**
   * Shares of the machine's CPU time (all cores) during the measured windows: `own`, this
   * benchmark's processes (the variant's replicas, Redis, the load generator); `other`, every
   * other process (0 on a quiet machine).
   */
  readonly load: { readonly own: number; readonly other: number };
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
    /** Commands Redis executed per first request on B (the `INFO` reads taken out). */
    readonly redisCommandsPerFirst: number;
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
const percent = (share: number) => `${Math.round(100 * share)} %`;

/** Redis commands per call below this: the calls do not touch Redis (what is left is rounding). */
const NONE = 0.01;
const SURFACE = { native: "native", mcp: "MCP 2026-07-28" } as const;

const cpuTotal = (r: ReplicaResult) =>
  r.cpuUsPerCall.replicas + r.cpuUsPerCall.redis + r.cpuUsPerCall.client;
const range = (values: readonly number[]) => [Math.min(...values), Math.max(...values)] as const;
const spread = (r: ReplicaResult) => range(r.callsPerSec.perRepeat).map(int).join(" to ");
const overlap = (a: ReplicaResult, b: ReplicaResult) =>
  Math.min(...a.callsPerSec.perRepeat) <= Math.max(...b.callsPerSec.perRepeat) &&
  Math.min(...b.callsPerSec.perRepeat) <= Math.max(...a.callsPerSec.perRepeat);
const commandList = (r: ReplicaResult) =>
  Object.entries(r.redisCommandsByName)
    .map(([name, n]) => `${name.toUpperCase()} ${fixed(n, 2)}`)
    .join(", ") || "none";

/** `a` against `b` (one store against the other, or one surface against the other), as a sentence's tail. */
function against(a: ReplicaResult, b: ReplicaResult): string {
  return `${int(a.callsPerSec.median)} calls/s against ${int(b.callsPerSec.median)}, at p50 ${ms(a.latencyUs.p50)} ms against ${ms(b.latencyUs.p50)} ms, using ${int(a.cpuUsPerCall.replicas)} µs of replica CPU per call against ${int(b.cpuUsPerCall.replicas)} µs${overlap(a, b) ? `; the runs of the two overlap (${spread(a)} against ${spread(b)} calls/s), so the difference in calls/s is within the run-to-run spread` : ""}`;
}

/**
 * The machine counts as busy from this share of its CPU on: clients waiting for answers leave
 * some idle even when CPU is what limits them.
 */
const BUSY = 0.8;

/** Why 1, 2, 3 replicas of one kind served what they did on these cores. */
function capSentence(label: string, rows: readonly ReplicaResult[], cpus: number): string {
  const bound = (r: ReplicaResult) => (cpus * 1e6) / cpuTotal(r);
  const busy = rows.every((r) => r.load.own + r.load.other >= BUSY);
  return `the CPU one call takes (replicas, Redis and load generator together) is ${rows.map((r) => int(cpuTotal(r))).join(", ")} µs with 1, 2, 3 ${label} replicas, which caps the machine at ${rows.map((r) => int(bound(r))).join(", ")} calls/s; during the runs these processes used ${rows.map((r) => percent(r.load.own)).join(", ")} of the machine's CPU and other processes ${rows.map((r) => percent(r.load.other)).join(", ")}${busy ? ": the cores were busy, so they are the limit here, not the number of replicas" : ""}.`;
}

/** What each core given to one more replica adds, from the replicas' CPU per call. */
function perCore(rows: readonly ReplicaResult[]): string {
  const cpu = range(rows.map((r) => r.cpuUsPerCall.replicas));
  return `a replica needed ${int(cpu[0])} to ${int(cpu[1])} µs of CPU per call (the lowest and the highest figure of the 1-, 2- and 3-replica runs), so each core given to one more replica adds about ${int(1e6 / cpu[1])} to ${int(1e6 / cpu[0])} calls/s`;
}

function replicaTable(results: Results): string[] {
  const { settings } = results;
  const lines = [
    "## Replicas",
    "",
    `${settings.clients} concurrent clients call \`math_subtract\` (weather fixture) over HTTP; every request goes to the next replica in turn (no stickiness). Two surfaces: **native**, one ZCP session per client, whose state (id, stage, found tools) is an HMAC-signed token the client sends back in \`zcp-session-id\` and any replica started with the same \`ZCP_SERVE_SECRET\` opens; and **MCP 2026-07-28**, raw \`tools/call\` POSTs as the spec writes them (the \`_meta\` envelope, the \`MCP-Protocol-Version\`, \`Mcp-Method\` and \`Mcp-Name\` headers; fetch with keep-alive, JSON answers), with no handshake and no session. ${settings.calls} measured calls per client per run after ${settings.warmup} warm-up calls, ${settings.repeats} runs per variant, all variants interleaved. CPU is per call, over the measured window: all replicas of the variant together (/proc), the Redis server (INFO), and this load generator. "Machine CPU" is the share of all cores' time, over the same windows (/proc/stat), that these processes (bench) and all others used. Before the measured runs, every variant runs once unmeasured, so that no replica is measured cold.`,
    "",
    "| surface | replicas | store | calls/s (median) | per run | p50 ms | p99 ms | CPU µs/call: replicas | Redis | load generator | machine CPU: bench | others | Redis commands/call |",
    "| --- | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of results.replicas)
    lines.push(
      `| ${SURFACE[r.surface]} | ${r.replicas} | ${r.store} | ${int(r.callsPerSec.median)} | ${r.callsPerSec.perRepeat.map(int).join(", ")} | ${ms(r.latencyUs.p50)} | ${ms(r.latencyUs.p99)} | ${int(r.cpuUsPerCall.replicas)} | ${int(r.cpuUsPerCall.redis)} | ${int(r.cpuUsPerCall.client)} | ${percent(r.load.own)} | ${percent(r.load.other)} | ${fixed(r.redisCommandsPerCall, 2)} |`,
    );
  return lines;
}

function nativeSentences(results: Results): string[] {
  const { machine } = results;
  const by = (key: string) => results.replicas.find((r) => r.key === key)!;
  const memory = by("native-memory-1");
  const redis = [1, 2, 3].map((n) => by(`native-redis-${n}`));
  const one = redis[0]!;
  const most = Math.max(...redis.map((r) => r.redisCommandsPerCall));
  const scripted = "evalsha" in one.redisCommandsByName || "eval" in one.redisCommandsByName;
  const clientCpu = range(redis.map((r) => r.cpuUsPerCall.client));
  const redisCeiling = 1e6 / Math.max(...redis.map((r) => r.cpuUsPerCall.redis));
  const replicaCpu = range(redis.map((r) => r.cpuUsPerCall.replicas));
  return [
    "### Native surface",
    "",
    `- With the Redis store, one native replica served ${x(one.callsPerSec.median / memory.callsPerSec.median)} the calls/s of one with the memory store: ${against(one, memory)}.`,
    most < NONE
      ? `- Per call Redis executed ${fixed(one.redisCommandsPerCall, 2)}, ${fixed(redis[1]!.redisCommandsPerCall, 2)} and ${fixed(redis[2]!.redisCommandsPerCall, 2)} commands with 1, 2, 3 replicas: a native session's state travels in its token, which each replica checks with the shared secret, so a call that makes no handle never reaches Redis; Redis holds handles only. The Redis CPU column is then Redis's own background work and this bench's two INFO reads per run, spread over the calls.`
      : `- Per call Redis executed ${fixed(one.redisCommandsPerCall, 2)} commands with 1 replica (${commandList(one)})${scripted ? ", some of them inside scripts" : ": no handle is involved, so no script runs and each command is one round trip from the replica"}.`,
    `- 2 replicas served ${x(redis[1]!.callsPerSec.median / one.callsPerSec.median)} and 3 replicas ${x(redis[2]!.callsPerSec.median / one.callsPerSec.median)} the calls/s of 1 (${redis.map((r) => int(r.callsPerSec.median)).join(", ")}), and each call took ${redis.map((r) => int(r.cpuUsPerCall.replicas)).join(", ")} µs of replica CPU with 1, 2, 3 replicas on the same cores.`,
    `- Why: every process here shares ${machine.cpus} cores, and ${capSentence("native", redis, machine.cpus)}`,
    `- What this predicts for more cores: ${perCore(redis)}, as long as Redis and the clients have cores of their own (the load generator here used ${int(clientCpu[0])} to ${int(clientCpu[1])} µs per call). ${
      most < NONE
        ? "Redis executed no command for these calls, so it sets no ceiling on how far native replicas scale for them, and no Redis round trip is on their path, across a network as on loopback; only calls that make or read handles go to Redis (their round trips are in the next section)."
        : `Redis runs commands on one thread and used at most ${int(1e6 / redisCeiling)} µs of CPU per call, so it saturates near ${int(redisCeiling)} calls/s, which about ${int(redisCeiling / (1e6 / replicaCpu[0]))} to ${int(redisCeiling / (1e6 / replicaCpu[1]))} such replicas would reach: that is where adding replicas stops helping, unless the work per call on Redis shrinks. On one machine a round trip to Redis is a loopback one; across a network each of the ${fixed(one.redisCommandsPerCall, 2)} commands per call adds one network round trip to every call.`
    }`,
  ];
}

function mcpSentences(results: Results): string[] {
  const { machine } = results;
  const by = (key: string) => results.replicas.find((r) => r.key === key)!;
  const memory = [1, 2, 3].map((n) => by(`mcp-memory-${n}`));
  const native = [1, 2, 3].map((n) => by(`native-redis-${n}`));
  const shared = by("mcp-redis-1");
  const one = memory[0]!;
  const ratio = one.cpuUsPerCall.replicas / native[0]!.cpuUsPerCall.replicas;
  return [
    "### MCP 2026-07-28",
    "",
    `- With no store, 1, 2, 3 MCP replicas served ${memory.map((r) => int(r.callsPerSec.median)).join(", ")} calls/s at p50 ${memory.map((r) => ms(r.latencyUs.p50)).join(", ")} ms, every request sent to the next replica: no request depends on an earlier one (no handshake, no session), so any replica answers any request with no session store, no stickiness and no Redis. A store shared by replicas is needed only for handles that a request on one replica makes and a request on another reads.`,
    `- Beside the native surface on Redis with as many replicas (${native.map((r) => int(r.callsPerSec.median)).join(", ")} calls/s), an MCP call took ${memory.map((r) => int(r.cpuUsPerCall.replicas)).join(", ")} µs of replica CPU against ${native.map((r) => int(r.cpuUsPerCall.replicas)).join(", ")} µs (${x(ratio)} the native replica CPU with 1 replica)${ratio > 1.1 ? `: each 2026-07-28 request is answered by a fresh v2 SDK \`Server\` behind the SDK's HTTP handler (packages/server/src/mcp/stateless.ts), where a native call goes to ZCP's own dispatcher` : ""}.`,
    `- Why: on these ${machine.cpus} cores, ${capSentence("MCP", memory, machine.cpus)} For more cores: ${perCore(memory)}, and no shared store takes part, so nothing here caps how far they scale but the cores (and, in front of them, the load balancer).`,
    `- With \`--store redis://\`, one MCP replica against one with no store: ${against(shared, one)}. Its calls made ${fixed(shared.redisCommandsPerCall, 2)} Redis commands per call (${commandList(shared)})${shared.redisCommandsPerCall < NONE ? ", so a shared handle store costs a call that makes no handle no Redis round trip" : ", each a round trip that a call that makes no handle pays for the shared handle store"}.`,
  ];
}

function replicaSection(results: Results): string[] {
  return [...replicaTable(results), "", ...nativeSentences(results), "", ...mcpSentences(results)];
}

function handleSection(results: Results): string[] {
  const ops = [...new Set(results.handles.map((h) => h.op))];
  const get = (op: string, storage: string) =>
    results.handles.find((h) => h.op === op && h.storage === storage)!;
  const lines = [
    "## Handles and session state in process",
    "",
    `\`HandleStore\` on \`RedisHandleStorage\` against \`MemoryHandleStorage\`, and \`RedisSessionStore\` against \`MemorySessionStore\`: ${int(results.settings.handleOps)} sequential operations each after a warm-up, one session, a value of 20 rows; round trips counted at the Redis client. The session store keeps 2025-era MCP sessions only, which another replica resumes by replaying them; native sessions (their token) and 2026-07-28 requests (no session) keep nothing in it.`,
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
  const random = get("handle create (random id)", "redis");
  const read = get("handle get", "redis");
  lines.push(
    "",
    `- A create took ${fixed(create.roundTrips, 2)} round trips (the expiry sweep's oldest, the id counter, the put, the session's and the total usage), a get ${fixed(read.roundTrips, 2)} (record, value, touch): the median latency divided by them is ${int(create.latencyUs.p50 / Math.max(create.roundTrips, 1))} µs per round trip for a create and ${int(read.latencyUs.p50 / Math.max(read.roundTrips, 1))} µs for a get, on loopback.`,
    `- A create with a random id, the form a 2026-07-28 request without authorization gets (its handles' owner is shared, so the id must be unguessable), took ${fixed(random.roundTrips, 2)} round trips at p50 ${int(random.latencyUs.p50)} µs: no id counter to increment.`,
    `- In memory the same operations take ${fixed(get("handle create", "memory").latencyUs.p50)} µs and ${fixed(get("handle get", "memory").latencyUs.p50)} µs: with Redis, the round trips are the cost.`,
  );
  return lines;
}

function resumeSection(results: Results): string[] {
  const { resume } = results;
  const cost = (resume.first.p50 - resume.second.p50) / 1000;
  // Below this a difference of medians (ms) is not a cost this run can tell from its noise.
  const measurable = Math.max(0.05, (0.05 * resume.second.p50) / 1000);
  return [
    "## A replica killed: what its native sessions pay",
    "",
    `${resume.sessions} native sessions were opened and called once on replica A only; A was then SIGKILLed and each session's next request sent to replica B, which had never seen them and loads each from the token the request carries (B shares A's \`ZCP_SERVE_SECRET\`).`,
    "",
    "| request on B | p50 ms | p99 ms |",
    "| --- | ---: | ---: |",
    `| first (B loads the session from its token) | ${ms(resume.first.p50)} | ${ms(resume.first.p99)} |`,
    `| second (B has it loaded) | ${ms(resume.second.p50)} | ${ms(resume.second.p99)} |`,
    "",
    `- ${cost >= measurable ? `Loading a session from its token costs ${cost.toFixed(2)} ms at the median, once per replica that takes it over (and again after a replica unloads it from its bounded cache of loaded sessions)` : `Loading a session from its token cost nothing this run can tell from its noise at the median (${ms(resume.first.p50)} ms against ${ms(resume.second.p50)} ms)`}; Redis executed ${fixed(resume.redisCommandsPerFirst, 2)} commands per first request${resume.redisCommandsPerFirst < NONE ? " (nothing of a native session is stored to read back)" : ""}. No request failed and no session had to be initialized again.`,
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

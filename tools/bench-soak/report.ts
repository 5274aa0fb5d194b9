/** Formats `pnpm bench:soak` results: the console table, report.md and report.json. */
import fs from "node:fs";
import path from "node:path";

export type OpKind =
  | "native load"
  | "native handle read"
  | "native release"
  | "native call"
  | "mcp load"
  | "mcp handle read"
  | "mcp release"
  | "mcp call";

export interface SoakResults {
  readonly generatedAt: string;
  readonly seconds: number;
  readonly sessions: number;
  readonly registry: string;
  /** Whether the clients kept their handles (`--keep`) instead of releasing each after reading it. */
  readonly keep: boolean;
  /** zcp-serve's `--isolation`. */
  readonly isolation: "worker" | "none";
  /** Latencies in ms of the successful ops, per kind. */
  readonly latencies: { readonly [kind: string]: readonly number[] };
  readonly errors: readonly string[];
  /** The server's RSS (MiB) once a second. */
  readonly rss: readonly { readonly second: number; readonly mb: number }[];
  readonly machine: { readonly node: string; readonly cpus: number; readonly cpuModel: string };
}

interface Row {
  readonly kind: string;
  readonly count: number;
  readonly perSec: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function rows(results: SoakResults): Row[] {
  return Object.entries(results.latencies).map(([kind, list]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return {
      kind,
      count: sorted.length,
      perSec: sorted.length / results.seconds,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted.at(-1) ?? Number.NaN,
    };
  });
}

/** Growth below this over the run's second half counts as level: the samples wander by ~±20 MiB. */
const LEVEL_MIB_PER_MIN = 10;

/** Least-squares slope of RSS over the second half of the run, in MiB per minute. */
function secondHalfSlope(samples: SoakResults["rss"]): number {
  const half = samples.slice(Math.floor(samples.length / 2));
  if (half.length < 2) return Number.NaN;
  const mean = (list: number[]) => list.reduce((sum, x) => sum + x, 0) / list.length;
  const xs = half.map((sample) => sample.second);
  const ys = half.map((sample) => sample.mb);
  const [mx, my] = [mean(xs), mean(ys)];
  const cov = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0);
  const varX = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  return varX === 0 ? Number.NaN : (cov / varX) * 60;
}

function summary(results: SoakResults) {
  const all = rows(results);
  const mbs = results.rss.map((sample) => sample.mb);
  const total = all.reduce((sum, row) => sum + row.count, 0);
  const slope = secondHalfSlope(results.rss);
  return {
    rows: all,
    total,
    perSec: total / results.seconds,
    rss: {
      start: mbs[0]!,
      max: Math.max(...mbs),
      end: mbs.at(-1)!,
      secondHalfMibPerMin: Math.round(slope * 10) / 10,
      levelsOff: Math.abs(slope) < LEVEL_MIB_PER_MIN,
    },
    /** Handles the server still held at the end: every load's, when none was released. */
    held: results.keep
      ? all
          .filter((row) => row.kind.endsWith(" load"))
          .reduce((sum, row) => sum + row.count, results.sessions)
      : 0,
  };
}

function verdict(rss: ReturnType<typeof summary>["rss"]): string {
  return rss.levelsOff
    ? `levels off (${rss.secondHalfMibPerMin} MiB/min over the second half)`
    : `still growing (${rss.secondHalfMibPerMin} MiB/min over the second half)`;
}

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
const int = (value: number) => Math.round(value).toLocaleString("en-US");

function table(results: SoakResults): string {
  const { rows: all } = summary(results);
  return [
    "| op | ops | ops/s | p50 ms | p99 ms | max ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...all.map(
      (row) =>
        `| ${row.kind} | ${int(row.count)} | ${int(row.perSec)} | ${ms(row.p50)} | ${ms(row.p99)} | ${ms(row.max)} |`,
    ),
  ].join("\n");
}

export function consoleTable(results: SoakResults): string {
  const { total, perSec, rss } = summary(results);
  return [
    table(results),
    `total ${int(total)} ops in ${results.seconds} s = ${int(perSec)} ops/s; errors ${results.errors.length}`,
    `RSS MiB: start ${rss.start}, max ${rss.max}, end ${rss.end}: ${verdict(rss)}`,
  ].join("\n");
}

export function writeReports(dir: string, results: SoakResults): void {
  const { rows: all, total, perSec, rss, held } = summary(results);
  fs.writeFileSync(
    path.join(dir, "report.json"),
    `${JSON.stringify(
      {
        generatedAt: results.generatedAt,
        seconds: results.seconds,
        sessions: results.sessions,
        registry: results.registry,
        keep: results.keep,
        isolation: results.isolation,
        handlesHeldAtEnd: held,
        machine: results.machine,
        throughput: { ops: total, opsPerSec: Math.round(perSec) },
        ops: all.map((row) => ({ ...row, perSec: Math.round(row.perSec) })),
        rssMb: { ...rss, samples: results.rss },
        errors: { count: results.errors.length, first: results.errors.slice(0, 20) },
      },
      null,
      2,
    )}\n`,
  );
  const every = Math.max(1, Math.round(results.rss.length / 12));
  const curve = results.rss.filter((_, i) => i % every === 0 || i === results.rss.length - 1);
  fs.writeFileSync(
    path.join(dir, "report.md"),
    [
      "# Soak: many sessions, mixed calls and handle reads, zcp-serve over HTTP",
      "",
      `Generated by \`pnpm bench:soak${results.keep ? " --keep" : ""}\` on ${results.generatedAt}: ${results.sessions} sessions at once for ${results.seconds} s against one \`zcp-serve --transport http --surface both --isolation ${results.isolation}\` on ${results.registry}, on ${results.machine.cpus} × ${results.machine.cpuModel}, Node ${results.machine.node}. Handles: ${results.keep ? `**kept** (never released; the server held ${int(held)} at the end)` : "**released** by each session once it has read them"}.`,
      "",
      `Throughput: **${int(perSec)} ops/s** (${int(total)} ops); errors: **${results.errors.length}**; server RSS: start ${rss.start} MiB, max ${rss.max} MiB, end ${rss.end} MiB; RSS **${verdict(rss)}**.`,
      "",
      table(results),
      "",
      "RSS over time:",
      "",
      "| second | RSS MiB |",
      "| ---: | ---: |",
      ...curve.map((sample) => `| ${sample.second} | ${sample.mb} |`),
      "",
      "## What this measures",
      "",
      "- Half the sessions are MCP (the SDK `Client` over Streamable HTTP), half native ZCP (`@zcp/client` on `/zcp`). Each session loops, one op at a time: `tables.load` (a handle of 1-3 rows), a read of that handle (`zcp_handle` op read over MCP, `handles/read` natively), then, unless `--keep`, a release of it (`zcp_handle` op release, `handles/release`), and a small call (`ping_server` over MCP, `orders.add` natively); every answer is checked, a wrong one counts as an error.",
      "- Latency is the client's round trip on loopback, client libraries included; ops/s is per kind over the whole run, releases included. One warm-up turn per session (the worker pool loads the registry) is not measured.",
      `- RSS is the server process's VmRSS (its threads, the workers included) from /proc, once a second. "Levels off" means the least-squares slope over the run's second half is under ${LEVEL_MIB_PER_MIN} MiB/min (samples wander by about ±20 MiB as the heaps are collected).`,
      "",
      "## What the server retains, and why",
      "",
      "- Every handle a session does not release stays in the runtime's handle store for its TTL (10 minutes after its last use) as long as the store's budgets allow (16 MiB per session, 64 MiB in all). Over MCP each handle given to a session is also listed for `resources/list` (until it is released, or read as a resource after it expired). A soak shorter than the TTL whose clients never release (`--keep`) therefore holds every handle it made, and RSS grows with them: at ~600 loads/s that is ~110,000 handles in 180 s. That is retention as configured, not a leak.",
      "- The budgets count each value's compact JSON in UTF-8, not its bookkeeping. Measured in-process (`HandleStore` with memory storage, heap after `gc()`): a 1-row table handle counts 30 bytes and costs ~730 bytes of heap (24×), a 3-row one 89 bytes for ~790 (9×), 30 rows 930 for ~1,660 (1.8×), 300 rows 9.6 KB for ~10.3 KB (1.1×); an MCP session's `resources/list` entry adds ~250 bytes more. So the 64 MiB budget bounds memory to about 64 MiB for handles of kilobytes, but tiny handles can cost ~10-25× their counted size (hundreds of MiB to over a GiB) before it evicts anything.",
      "- With `--keep`, heap snapshots of the server (main thread, after a full GC) grow by ~20 MB of live objects in 80 s: the store's records (one object and ~4 strings per handle) and the MCP listing entries, nothing else growing; RSS grows faster (several MiB/s) because V8 sizes the heap to the allocation rate on top of a growing live set, and freed pages are not all returned. Releasing each handle after reading it, as a client that is done with a result should, keeps the live set flat and RSS level.",
      "",
    ].join("\n"),
  );
}

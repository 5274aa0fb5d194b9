/**
 * Child process of `pnpm bench:dispatch`: sets up every variant (variants.ts) in this one
 * process, warms them up, then measures them interleaved for BENCH_REPEATS rounds. Each round
 * and variant: a throughput loop (N sequential calls, each awaited before the next, no timers
 * inside) and a latency loop (the same N calls, each timed with performance.now()). The
 * code-mode rows (code.ts) go through the same loops with runs for calls: N = BENCH_PROGRAM_RUNS
 * runs, each one `zcp.run` (or one block of 100 session.calls). Prints one JSON line
 * (WorkerReport).
 *
 * With BENCH_COLD_START=1 it measures code mode's cold start instead (code.ts, `coldStart`: the
 * first run after createCodeRunner, once in this fresh process) and prints one JSON line
 * (ColdStartReport); run.ts starts BENCH_COLD_STARTS such processes per mode.
 *
 * It runs twice: as TypeScript through tsx, and bundled by esbuild into plain JavaScript
 * (run.ts), because tsx changes what zcp's TypeScript costs (see report.ts).
 */
import { coldStart } from "./code.js";
import type { Variant, VariantKey } from "./variant-shape.js";
import { createVariants } from "./variants.js";

export interface Sample {
  readonly callsPerSec: number;
  readonly p50Us: number;
  readonly p99Us: number;
}

export interface WorkerReport {
  /** Calls per loop; `programRuns`: runs per loop of the code-mode rows. */
  readonly calls: {
    readonly inProcess: number;
    readonly transport: number;
    readonly programRuns: number;
  };
  readonly repeats: number;
  readonly samples: { [key in VariantKey]?: Sample[] };
  readonly labels: { [key in VariantKey]?: string };
  readonly checks: Record<string, string>;
  /** Median cost of one empty `performance.now()` pair, in ns: the latency loop's own floor. */
  readonly timerOverheadNs: number;
}

/** What a BENCH_COLD_START=1 process prints: its one cold start and the run after it, in ms. */
export interface ColdStartReport {
  readonly coldStartMs: number;
  readonly secondRunMs: number;
}

const REPEATS = positive("BENCH_REPEATS", 10);
const IN_PROCESS_CALLS = positive("BENCH_CALLS", 20_000);
const TRANSPORT_CALLS = positive("BENCH_TRANSPORT_CALLS", 5_000);
const PROGRAM_RUNS = positive("BENCH_PROGRAM_RUNS", 50);

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, got ${process.env[name]}`);
  return value;
}

async function throughput(variant: Variant, n: number): Promise<number> {
  const call = variant.call;
  const start = performance.now();
  if (variant.key === "direct") {
    for (let i = 0; i < n; i++) call(i);
  } else {
    for (let i = 0; i < n; i++) await call(i);
  }
  return (n / (performance.now() - start)) * 1000;
}

async function latencies(variant: Variant, n: number): Promise<Float64Array> {
  const call = variant.call;
  const out = new Float64Array(n);
  if (variant.key === "direct") {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      call(i);
      out[i] = performance.now() - t;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await call(i);
      out[i] = performance.now() - t;
    }
  }
  return out.sort();
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function timerOverheadNs(): number {
  const n = 100_000;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    out[i] = performance.now() - t;
  }
  return Math.round(percentile(out.sort(), 50) * 1e6);
}

async function main(): Promise<void> {
  if (process.env["BENCH_COLD_START"] === "1") {
    const cold: ColdStartReport = await coldStart();
    process.stdout.write(`${JSON.stringify(cold)}\n`);
    return;
  }
  const variants = await createVariants();
  const calls = (variant: Variant) =>
    variant.toolCalls !== undefined
      ? PROGRAM_RUNS
      : variant.transport
        ? TRANSPORT_CALLS
        : IN_PROCESS_CALLS;

  // Warm-up: enough calls for the JIT to settle on every path.
  for (let round = 0; round < 2; round++) {
    for (const variant of variants.list) {
      await throughput(variant, calls(variant));
      await latencies(variant, Math.ceil(calls(variant) / 4));
    }
  }

  const samples: WorkerReport["samples"] = {};
  for (let round = 0; round < REPEATS; round++) {
    // Interleaved and rotated each round, so drift of the machine affects every variant alike.
    const order = variants.list.map((_, i) => variants.list[(i + round) % variants.list.length]!);
    for (const variant of order) {
      const n = calls(variant);
      const callsPerSec = await throughput(variant, n);
      const sorted = await latencies(variant, n);
      (samples[variant.key] ??= []).push({
        callsPerSec,
        p50Us: percentile(sorted, 50) * 1000,
        p99Us: percentile(sorted, 99) * 1000,
      });
    }
    process.stderr.write(
      `  round ${round + 1}/${REPEATS}: ${variants.list.map((v) => `${v.key} ${Math.round(samples[v.key]!.at(-1)!.callsPerSec)}/s`).join(", ")}\n`,
    );
  }
  await variants.close();

  const report: WorkerReport = {
    calls: { inProcess: IN_PROCESS_CALLS, transport: TRANSPORT_CALLS, programRuns: PROGRAM_RUNS },
    repeats: REPEATS,
    samples,
    labels: Object.fromEntries(variants.list.map((v) => [v.key, v.label])),
    checks: variants.checks,
    timerOverheadNs: timerOverheadNs(),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench-dispatch worker failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});

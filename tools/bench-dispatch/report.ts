/**
 * The dispatch benchmark's results: a console table, report.md for people and report.json for
 * tools. Per mode: the per-call table (a)-(e) and its ratios, then code mode's table (f)-(h),
 * per run and per tool call, with the cold starts of that mode's fresh processes.
 */
import fs from "node:fs";
import { machine } from "../bench-gen/report.js";
import type { VariantKey } from "./variant-shape.js";
import { PROGRAM_CALLS } from "./code.js";
import type { ColdStartReport, Sample, WorkerReport } from "./worker.js";

export interface Mode {
  readonly key: "tsc" | "bundle";
  readonly label: string;
  readonly report: WorkerReport;
  /** One per fresh process (BENCH_COLD_STARTS). */
  readonly coldStarts: readonly ColdStartReport[];
}

export interface Results {
  readonly modes: Mode[];
  readonly loadavg: { start: number[]; end: number[] };
  readonly esbuild: string;
}

interface Row {
  readonly key: VariantKey;
  readonly label: string;
  readonly calls: number;
  readonly cpsMedian: number;
  readonly cpsBest: number;
  readonly cpsWorst: number;
  readonly p50Us: number;
  readonly p99Us: number;
  /** How many times slower than the direct call, on median calls per second. */
  readonly overDirect: number;
  readonly samples: Sample[];
}

/** The aim ("Ship it"): the in-process path at least 30x the MCP SDK path, in calls per second, compiled. */
const AIM_RATIO = 30;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The code-mode rows (code.ts), reported per run in their own table. */
const CODE_KEYS: readonly VariantKey[] = ["program", "session100", "emptyProgram"];

function rows(mode: Mode): Row[] {
  const report = mode.report;
  const keys = (Object.keys(report.samples) as VariantKey[]).filter(
    (key) => !CODE_KEYS.includes(key),
  );
  const directMedian = median(report.samples.direct!.map((s) => s.callsPerSec));
  return keys.map((key) => {
    const samples = report.samples[key]!;
    const cps = samples.map((s) => s.callsPerSec);
    const cpsMedian = median(cps);
    return {
      key,
      label: report.labels[key] ?? key,
      calls: ["sdk", "zcpMcp", "worker"].includes(key)
        ? report.calls.transport
        : report.calls.inProcess,
      cpsMedian,
      cpsBest: Math.max(...cps),
      cpsWorst: Math.min(...cps),
      p50Us: median(samples.map((s) => s.p50Us)),
      p99Us: median(samples.map((s) => s.p99Us)),
      overDirect: directMedian / cpsMedian,
      samples,
    };
  });
}

function ratios(mode: Mode) {
  const r = Object.fromEntries(rows(mode).map((row) => [row.key, row])) as Record<VariantKey, Row>;
  const ratio = (a: Row, b: Row) => ({
    median: round2(a.cpsMedian / b.cpsMedian),
    best: round2(a.cpsBest / b.cpsBest),
  });
  const sessionOverSdk = ratio(r.session, r.sdk);
  return {
    sessionOverSdk,
    zcpMcpOverSdk: ratio(r.zcpMcp, r.sdk),
    directOverSession: ratio(r.direct, r.session),
    /** Microseconds session.call adds to the direct call (median calls per second). */
    sessionOverheadUs: round2(1e6 / r.session.cpsMedian - 1e6 / r.direct.cpsMedian),
    /** Microseconds the worker thread adds to session.call in process (median calls per second). */
    workerOverheadUs: round2(1e6 / r.worker.cpsMedian - 1e6 / r.session.cpsMedian),
    sessionOverWorker: ratio(r.session, r.worker),
    aim: {
      aim: `in-process session.call at least ${AIM_RATIO}x the MCP SDK path in calls/s`,
      measured: `${sessionOverSdk.median}x`,
      pass: sessionOverSdk.median >= AIM_RATIO,
    },
  };
}

/** A code-mode row: its unit is one run (one zcp.run, or one block of 100 session.calls). */
interface CodeRow {
  readonly key: VariantKey;
  readonly label: string;
  /** Runs per loop. */
  readonly runs: number;
  /** Tool calls per run. */
  readonly toolCalls: number;
  readonly runsPerSecMedian: number;
  readonly runsPerSecBest: number;
  readonly runsPerSecWorst: number;
  /** 1 / median runs per second, in ms: the mean cost of one run in the throughput loop. */
  readonly msPerRun: number;
  /** msPerRun / toolCalls, in µs (undefined for the empty program). */
  readonly usPerToolCall: number | undefined;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly samples: Sample[];
}

function codeRows(mode: Mode): CodeRow[] {
  const report = mode.report;
  return CODE_KEYS.filter((key) => report.samples[key] !== undefined).map((key) => {
    const samples = report.samples[key]!;
    const rps = samples.map((s) => s.callsPerSec);
    const runsPerSecMedian = median(rps);
    const toolCalls = key === "emptyProgram" ? 0 : PROGRAM_CALLS;
    const msPerRun = 1000 / runsPerSecMedian;
    return {
      key,
      label: report.labels[key] ?? key,
      runs: report.calls.programRuns,
      toolCalls,
      runsPerSecMedian,
      runsPerSecBest: Math.max(...rps),
      runsPerSecWorst: Math.min(...rps),
      msPerRun,
      usPerToolCall: toolCalls > 0 ? (msPerRun * 1000) / toolCalls : undefined,
      p50Ms: median(samples.map((s) => s.p50Us)) / 1000,
      p99Ms: median(samples.map((s) => s.p99Us)) / 1000,
      samples,
    };
  });
}

/** Code mode's figures, from the medians of codeRows and the cold starts. */
function codeSummary(mode: Mode) {
  const r = Object.fromEntries(codeRows(mode).map((row) => [row.key, row])) as Record<
    VariantKey,
    CodeRow
  >;
  const cold = mode.coldStarts.map((c) => c.coldStartMs);
  return {
    /** µs per tool call of (f): its run time / 100, the fixed cost of the run included. */
    programPerCallUs: round2(r.program.usPerToolCall!),
    /** µs per session.call of (g): its block time / 100. */
    sessionPerCallUs: round2(r.session100.usPerToolCall!),
    /** ms of (h): the fixed cost of one run. */
    emptyRunMs: round2(r.emptyProgram.msPerRun),
    /** ((f) - (h)) / 100 in µs: what one more call inside a program costs. */
    programMarginalPerCallUs: round2(
      ((r.program.msPerRun - r.emptyProgram.msPerRun) * 1000) / PROGRAM_CALLS,
    ),
    /** ((f) - (h)) / 100 - (g) / 100 in µs: what a call from a program adds to a session.call. */
    sandboxOverheadPerCallUs: round2(
      ((r.program.msPerRun - r.emptyProgram.msPerRun - r.session100.msPerRun) * 1000) /
        PROGRAM_CALLS,
    ),
    /** (f) / (g): how many times longer 100 calls take from a program than as session.calls. */
    programOverSession100: round2(r.program.msPerRun / r.session100.msPerRun),
    coldStart: {
      processes: cold.length,
      medianMs: round2(median(cold)),
      minMs: round2(Math.min(...cold)),
      maxMs: round2(Math.max(...cold)),
      samplesMs: cold.map(round2),
      /** The run right after the cold one, in the same process (median). */
      secondRunMedianMs: round2(median(mode.coldStarts.map((c) => c.secondRunMs))),
    },
  };
}

const NOTES = [
  "Every variant calls the weather fixture's math.subtract(a, b) with a = i, b = 1 and checks the answer (i - 1), one call at a time: each call is awaited before the next starts. Calls per second is therefore latency-bound throughput of one caller, not what a server sustains with many calls in flight.",
  "Calls per second come from a loop with no timers inside (median and best over the repeats); p50 and p99 from a second loop of the same calls, each timed with a pair of performance.now() calls (median over the repeats). The timer pair's own cost is included in every latency (the timer pair figure under each table); for the direct call the latency is at that resolution and says little.",
  "(a) is the floor: the synchronous tool function called in a loop with the answer check. V8 inlines it into the hot loop, so what remains is the subtraction and the check, about a nanosecond: the physical limit, not a realistic cost of a call. (a') awaits the same call: one promise turn, the floor of any async API, and the more useful floor for session.call.",
  "(b) session.call includes resolving the name, the exposure check, the concurrency slot, merging defaults, the generated validator, the call context and AbortController, the time-limit timer (a setTimeout and clearTimeout per call), the dispatch, and shaping the result (JSON.stringify and JSON.parse of the value; the output is scalar, so no handle is made). No approval, no handles.",
  "(c) McpServer: the SDK Client builds the JSON-RPC request and keeps its id and request timer, the server validates the request (CallToolRequestSchema) and the arguments (the tool's zod object), runs the callback, and the client validates the result (CallToolResultSchema). (d) is the same Client, transport and SDK protocol layer with zcp behind the SDK's low-level Server: its tools/call handler runs session.call and returns the value as compact JSON text.",
  "(e) is (b) with the tool in a worker thread, as zcp-serve runs tools by default (--isolation worker): the pipeline is the same up to the dispatch, then the executor opens a MessageChannel for the call (abort in, progress, log and the result out), the pool posts the task to a worker (arguments cloned), the worker builds a real ToolContext and AbortController, calls the dispatcher and posts the result back (cloned), and the main thread closes the channel. Two thread hops per call, each waking a thread that waits for messages: the cost is latency, paid per call, not CPU of the server's thread alone. Calls run one at a time, so one worker at a time is busy; with calls in flight the pool runs as many at once as it has workers.",
  "InMemoryTransport hands message objects over by reference: no JSON encoding or decoding, no I/O. Over stdio or HTTP every MCP call would also pay serialization both ways and the I/O, so (c) and (d) are lower bounds of a real MCP call.",
  "The worker runs twice, each time in one fresh process where all variants are set up side by side, warmed up (two unmeasured rounds) and measured interleaved (rotated each round): once compiled by tsc as a user's build does (the worker, the weather fixture's generated module and tool sources; @zcp/runtime as its published dist/ JavaScript), and once bundled by esbuild into one file (esbuild defaults, @zcp/runtime and the fixture bundled, the SDK and zod left as they are). No TypeScript loader runs in either mode. The SDK and zod are plain JavaScript and run the same in both modes.",
  "Compare ratios within one mode: the two modes run one after the other, so machine drift between them is not cancelled. Garbage collection is not forced; its pauses land in p99 and in calls per second. This is a shared 2-core machine: expect differences of 10% or more between runs.",
  `Code mode, (f)-(h), is measured per run in the same process, loops and rounds as (a)-(e) (interleaved and rotated with them), with runs for calls: the throughput loop makes the runs one after the other with no timers inside, the latency loop times each run. (f) is one session.call("zcp.run") of a program making ${PROGRAM_CALLS} sequential tools.math.subtract calls (a = i + k, b = 1, each awaited) that returns their sum, checked on the host; (g) is ${PROGRAM_CALLS} sequential session.call("math.subtract") on the same session of the same runtime, each checked; (h) is a program that returns its run number. One createCodeRunner() with its defaults (2 workers; runs are sequential, so one worker is busy at a time) serves (f) and (h). Per tool call is the run time / ${PROGRAM_CALLS}; the sandbox's overhead per call is ((f) - (h) - (g)) / ${PROGRAM_CALLS}: each call from a program is a session.call made in the main thread, plus the message from the program's worker and the answer back, plus the QuickJS side (the call's JSON, its promise, the job loop).`,
  "(h) is the fixed cost of one run: the task posted to a program worker (with a MessagePort), sucrase stripping the program, a fresh QuickJS runtime and context, the prelude that builds tools and console, the run, serializing the result, and the answer back through session.call (its validation of { code } and shaping of the result).",
  "The cold start is the first run (return 1) after createCodeRunner(), timed from createCodeRunner() to its answer, with @zcp/code already imported: the pool starts its first worker thread, the worker loads the sandbox (sucrase, quickjs-emscripten) and compiles the QuickJS WASM module, then the run. Each mode measures it in BENCH_COLD_STARTS fresh processes (the same program as the mode, started with BENCH_COLD_START=1, doing nothing else), one cold start each; the run right after it in that process is shown for comparison. The operating system's file cache is warm.",
  "In the bundle mode @zcp/code stays external (its worker file and the WASM file are loaded from its package), so (f)-(h) and the cold start run @zcp/code's dist in both modes; only the runtime's side of the session.call differs.",
];

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const us = (n: number) =>
  n < 0.01 ? n.toFixed(3) : n < 1 ? n.toFixed(2) : n < 10 ? n.toFixed(1) : n.toFixed(0);
/** A figure in ms or runs per second: two decimals under 10, one under 100, else a whole number. */
const fixed = (n: number) =>
  n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n).toLocaleString("en-US");
/** 1 / median calls per second, in µs: the mean cost of one call in the throughput loop. */
const perCall = (r: Row) => us(1e6 / r.cpsMedian);

export function consoleTable(results: Results): string {
  const lines: string[] = [];
  for (const mode of results.modes) {
    const rs = rows(mode);
    const width = Math.max(...rs.map((r) => r.label.length));
    lines.push(`== ${mode.key}: ${mode.label}`);
    lines.push(
      `${"variant".padEnd(width)}  ${"calls".padStart(6)}  ${"calls/s median".padStart(14)}  ${"best".padStart(13)}  ${"µs/call".padStart(7)}  ${"p50 µs".padStart(7)}  ${"p99 µs".padStart(7)}`,
    );
    for (const r of rs) {
      lines.push(
        `${r.label.padEnd(width)}  ${int(r.calls).padStart(6)}  ${int(r.cpsMedian).padStart(14)}  ${int(r.cpsBest).padStart(13)}  ${perCall(r).padStart(7)}  ${us(r.p50Us).padStart(7)}  ${us(r.p99Us).padStart(7)}`,
      );
    }
    const q = ratios(mode);
    lines.push(
      `(b)/(c) session.call vs MCP SDK: ${q.sessionOverSdk.median}x median (${q.sessionOverSdk.best}x best)   (d)/(c) zcp behind Server vs MCP SDK: ${q.zcpMcpOverSdk.median}x median (${q.zcpMcpOverSdk.best}x best)`,
      `session.call adds ${q.sessionOverheadUs} µs per call to the direct call; timer pair ${mode.report.timerOverheadNs} ns`,
      `(e) the worker thread adds ${q.workerOverheadUs} µs per call to session.call (${q.sessionOverWorker.median}x fewer calls/s than in process)`,
      `${q.aim.pass ? "PASS" : "MISS"}  ${q.aim.aim}: ${q.aim.measured}`,
      "",
    );
    const cs = codeRows(mode);
    const cw = Math.max(...cs.map((r) => r.label.length));
    lines.push(
      `${"code mode (per run)".padEnd(cw)}  ${"runs".padStart(5)}  ${"runs/s median".padStart(13)}  ${"ms/run".padStart(7)}  ${"µs/call".padStart(7)}  ${"p50 ms".padStart(7)}  ${"p99 ms".padStart(7)}`,
    );
    for (const r of cs) {
      lines.push(
        `${r.label.padEnd(cw)}  ${int(r.runs).padStart(5)}  ${fixed(r.runsPerSecMedian).padStart(13)}  ${fixed(r.msPerRun).padStart(7)}  ${(r.usPerToolCall === undefined ? "-" : us(r.usPerToolCall)).padStart(7)}  ${fixed(r.p50Ms).padStart(7)}  ${fixed(r.p99Ms).padStart(7)}`,
      );
    }
    const c = codeSummary(mode);
    lines.push(
      `a call from a program: ${c.programPerCallUs} µs (run / ${PROGRAM_CALLS}), ${c.programMarginalPerCallUs} µs past the empty run; a session.call ${c.sessionPerCallUs} µs; the sandbox adds ${c.sandboxOverheadPerCallUs} µs per call`,
      `empty program ${c.emptyRunMs} ms per run; cold start ${c.coldStart.medianMs} ms median of ${c.coldStart.processes} processes (${c.coldStart.minMs}-${c.coldStart.maxMs}), the run after it ${c.coldStart.secondRunMedianMs} ms`,
      "",
    );
  }
  return lines.join("\n").trimEnd();
}

export function writeReports(results: Results, markdownFile: string, jsonFile: string): void {
  const m = machine(results.loadavg);
  const generatedAt = new Date().toISOString();
  const versions = {
    "@modelcontextprotocol/sdk": version("@modelcontextprotocol/sdk"),
    zod: version("zod"),
    esbuild: results.esbuild,
  };
  const json = {
    generatedAt,
    machine: m,
    versions,
    modes: Object.fromEntries(
      results.modes.map((mode) => [
        mode.key,
        {
          label: mode.label,
          calls: mode.report.calls,
          repeats: mode.report.repeats,
          timerOverheadNs: mode.report.timerOverheadNs,
          variants: Object.fromEntries(
            rows(mode).map((r) => [
              r.key,
              {
                label: r.label,
                callsPerLoop: r.calls,
                callsPerSecMedian: Math.round(r.cpsMedian),
                callsPerSecBest: Math.round(r.cpsBest),
                callsPerSecWorst: Math.round(r.cpsWorst),
                p50UsMedian: round2(r.p50Us),
                p99UsMedian: round2(r.p99Us),
                timesSlowerThanDirect: round2(r.overDirect),
                samples: r.samples.map((s) => ({
                  callsPerSec: Math.round(s.callsPerSec),
                  p50Us: round2(s.p50Us),
                  p99Us: round2(s.p99Us),
                })),
              },
            ]),
          ),
          ratios: ratios(mode),
          code: {
            runsPerLoop: mode.report.calls.programRuns,
            toolCallsPerProgram: PROGRAM_CALLS,
            variants: Object.fromEntries(
              codeRows(mode).map((r) => [
                r.key,
                {
                  label: r.label,
                  runsPerLoop: r.runs,
                  toolCallsPerRun: r.toolCalls,
                  runsPerSecMedian: round2(r.runsPerSecMedian),
                  runsPerSecBest: round2(r.runsPerSecBest),
                  runsPerSecWorst: round2(r.runsPerSecWorst),
                  msPerRun: round2(r.msPerRun),
                  usPerToolCall: r.usPerToolCall === undefined ? null : round2(r.usPerToolCall),
                  p50MsMedian: round2(r.p50Ms),
                  p99MsMedian: round2(r.p99Ms),
                  samples: r.samples.map((s) => ({
                    runsPerSec: round2(s.callsPerSec),
                    p50Ms: round2(s.p50Us / 1000),
                    p99Ms: round2(s.p99Us / 1000),
                  })),
                },
              ]),
            ),
            summary: codeSummary(mode),
          },
          checks: mode.report.checks,
        },
      ]),
    ),
    notes: NOTES,
  };
  fs.writeFileSync(jsonFile, `${JSON.stringify(json, null, 2)}\n`);

  const first = results.modes[0]!.report;
  const md = [
    "# Dispatch benchmark: one small tool call, zcp vs. the MCP SDK",
    "",
    `Generated by \`pnpm bench:dispatch\` on ${generatedAt}. The weather fixture's \`math.subtract\`; ${first.repeats} repeats per variant; ${int(first.calls.inProcess)} calls per loop in process, ${int(first.calls.transport)} over a transport or to a worker thread; code mode ${int(first.calls.programRuns)} runs per loop, ${results.modes[0]!.coldStarts.length} cold starts per mode.`,
    "",
  ];
  for (const mode of results.modes) {
    const q = ratios(mode);
    md.push(
      `## ${mode.key}: ${mode.label}`,
      "",
      "| variant | calls/s median | best | worst | µs per call | p50 µs | p99 µs |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...rows(mode).map(
        (r) =>
          `| ${r.label} | ${int(r.cpsMedian)} | ${int(r.cpsBest)} | ${int(r.cpsWorst)} | ${perCall(r)} | ${us(r.p50Us)} | ${us(r.p99Us)} |`,
      ),
      "",
      `Ratios (same process): (b)/(c) session.call vs the MCP SDK **${q.sessionOverSdk.median}x** median calls/s (${q.sessionOverSdk.best}x on the best repeats); (d)/(c) zcp behind the SDK's Server vs the MCP SDK **${q.zcpMcpOverSdk.median}x** (${q.zcpMcpOverSdk.best}x). session.call adds ${q.sessionOverheadUs} µs per call to the direct call. Timer pair: ${mode.report.timerOverheadNs} ns.`,
      "",
      `Worker isolation: (e) the tool in a worker thread adds **${q.workerOverheadUs} µs** per call to (b) session.call in process (${q.sessionOverWorker.median}x fewer calls/s, one call at a time).`,
      "",
      `Aim: ${q.aim.aim}: **${q.aim.pass ? "pass" : "miss"}** (${q.aim.measured}, judged on medians).`,
      "",
    );
    const c = codeSummary(mode);
    md.push(
      `### ${mode.key}: code mode, a program making ${PROGRAM_CALLS} calls against ${PROGRAM_CALLS} session.calls`,
      "",
      "| row (one run) | tool calls per run | runs/s median | best | worst | ms per run | µs per tool call | p50 ms | p99 ms |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...codeRows(mode).map(
        (r) =>
          `| ${r.label} | ${r.toolCalls} | ${fixed(r.runsPerSecMedian)} | ${fixed(r.runsPerSecBest)} | ${fixed(r.runsPerSecWorst)} | ${fixed(r.msPerRun)} | ${r.usPerToolCall === undefined ? "-" : us(r.usPerToolCall)} | ${fixed(r.p50Ms)} | ${fixed(r.p99Ms)} |`,
      ),
      `| cold start: the first run (\`return 1\`) after createCodeRunner(), one per fresh process | 0 | | | | ${fixed(c.coldStart.medianMs)} (median of ${c.coldStart.processes}; ${fixed(c.coldStart.minMs)} to ${fixed(c.coldStart.maxMs)}) | - | | |`,
      "",
      `A tool call from a program costs **${c.programPerCallUs} µs** (the run / ${PROGRAM_CALLS}), ${c.programMarginalPerCallUs} µs once the empty run is taken off, against **${c.sessionPerCallUs} µs** per session.call on the same runtime: the sandbox adds **${c.sandboxOverheadPerCallUs} µs** per call (((f) - (h) - (g)) / ${PROGRAM_CALLS}), and the ${PROGRAM_CALLS} calls take ${c.programOverSession100}x as long from a program. A run costs **${c.emptyRunMs} ms** before any call (h); the cold start is **${c.coldStart.medianMs} ms** (median of ${c.coldStart.processes} fresh processes), the run right after it ${c.coldStart.secondRunMedianMs} ms.`,
      "",
    );
  }
  md.push(
    "## What this measures and what it does not",
    "",
    ...NOTES.map((note) => `- ${note}`),
    "",
    "## Checks made at set-up",
    "",
    ...Object.entries(first.checks).map(([name, value]) => `- ${name}: \`${value}\``),
    "",
    "## Machine and versions",
    "",
    `- Node ${m.node}, ${m.platform}; ${m.cpus} CPUs: ${m.cpuModel}; ${m.memoryGiB} GiB memory`,
    `- load average (1, 5, 15 min) at start ${m.loadavgAtStart.join(", ")}, at end ${m.loadavgAtEnd.join(", ")}`,
    ...Object.entries(versions).map(([name, v]) => `- ${name} ${v}`),
    "",
  );
  fs.writeFileSync(markdownFile, md.join("\n"));
}

function version(pkg: string): string {
  try {
    return (
      JSON.parse(
        fs.readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url), "utf8"),
      ) as { version: string }
    ).version;
  } catch {
    return "unknown";
  }
}

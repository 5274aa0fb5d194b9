/**
 * The benchmark's results: a console table, report.md for people and report.json for tools.
 */
import fs from "node:fs";
import os from "node:os";
import type { Stats } from "./measure.js";

export interface Measurement {
  readonly key: "cold" | "floor" | "tjs" | "noChange" | "watch";
  readonly label: string;
  readonly stats: Stats;
}

interface Aim {
  readonly aim: string;
  readonly measured: string;
  readonly pass: boolean;
}

export interface Results {
  readonly repeats: number;
  readonly measurements: Measurement[];
  readonly project: {
    toolFiles: number;
    tools: number;
    sourceBytes: number;
    /** Every generated file's size in bytes (the first cold run's output folder), by path. */
    outputBytes: Record<string, number>;
  };
  readonly versions: Record<string, string>;
  readonly checks: Record<string, string | number | boolean | null>;
  readonly loadavg: { start: number[]; end: number[] };
}

export function machine(loadavg: Results["loadavg"]) {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    loadavgAtStart: loadavg.start.map((l) => Math.round(l * 100) / 100),
    loadavgAtEnd: loadavg.end.map((l) => Math.round(l * 100) / 100),
  };
}

function get(results: Results, key: Measurement["key"]): Stats {
  return results.measurements.find((m) => m.key === key)!.stats;
}

function ratios(results: Results) {
  const ratio = (a: Stats, b: Stats) => ({
    min: round2(a.min / b.min),
    median: round2(a.median / b.median),
  });
  return {
    coldOverFloor: ratio(get(results, "cold"), get(results, "floor")),
    coldOverTjs: ratio(get(results, "cold"), get(results, "tjs")),
  };
}

/** The aim for the generated output: at most 8 KB (8,000 bytes) per tool, every file included. */
const BYTES_PER_TOOL_AIM = 8000;

/** Each generated file's bytes and bytes per tool, then the total. */
function sizes(results: Results): { file: string; bytes: number; perTool: number }[] {
  const { outputBytes, tools } = results.project;
  const rows = Object.entries(outputBytes).map(([file, bytes]) => ({
    file,
    bytes,
    perTool: Math.round(bytes / tools),
  }));
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  return [...rows, { file: "total", bytes: total, perTool: Math.round(total / tools) }];
}

/** The aims: times judged on medians (a min can be a lucky outlier on a shared machine). */
function aims(results: Results): Aim[] {
  const r = ratios(results);
  const noChange = get(results, "noChange").median;
  const watch = get(results, "watch").median;
  const perTool = sizes(results).at(-1)!.perTool;
  return [
    {
      aim: "cold zcp gen within 1.5x of the floor",
      measured: `${r.coldOverFloor.median}x`,
      pass: r.coldOverFloor.median <= 1.5,
    },
    {
      aim: "cold zcp gen faster than typescript-json-schema",
      measured: `${r.coldOverTjs.median}x`,
      pass: r.coldOverTjs.median < 1,
    },
    {
      aim: "no-change re-run under 300 ms",
      measured: `${Math.round(noChange)} ms`,
      pass: noChange < 300,
    },
    {
      aim: "one-file watch change under 300 ms",
      measured: `${Math.round(watch)} ms`,
      pass: watch < 300,
    },
    {
      aim: "generated output at most 8 KB (8,000 bytes) per tool",
      measured: `${perTool} B/tool`,
      pass: perTool <= BYTES_PER_TOOL_AIM,
    },
  ];
}

const NOTES = [
  "Fresh-process timings (cold, floor, typescript-json-schema, no-change) are wall time from spawn to exit, taken by the parent: they include Node start-up, tsx registration and module loading, not just the work.",
  "Caches are warm: one unmeasured run of each script precedes the measured repeats, so tsx's compile cache and the OS file cache are populated. This is not a first-run-after-install time.",
  "Cold zcp gen: the output folder and node_modules/.cache/zcp are deleted before each repeat, and --force is passed.",
  "The floor includes loading ts-morph (which bundles TypeScript), parsing, binding and resolving each @tool parameter's type and nested property types. It reads no JSDoc, builds no schema, ignores return types, and formats and writes nothing; zcp also converts return types (output schemas), renders planner lines, hashes every tool, prints the registry (in prettier's style, checked against prettier in the tests, without running it) and writes every generated file.",
  "Sizes: the bytes of every file of the first cold run's output folder, and per tool (divided by the tool count; 1 KB = 1,000 bytes). The project's configuration has no `jsonFiles`: provider artifacts are derived by the runtime from the registry, and registry.json is the small manifest.",
  "typescript-json-schema runs with required:true and its defaults: it uses its own TypeScript 5.9 and type-checks the whole program before generating (zcp does not type-check). Its output (draft-07 with shared $ref definitions) is smaller and differently shaped than zcp's inlined registry, so the comparison is of time to a usable result, not of identical work.",
  "The cold, floor and typescript-json-schema repeats are interleaved (one of each per round), so slow drift of the machine affects all three alike.",
  "No-change re-run: a fresh `zcp gen` right after a successful run; each repeat is checked to have taken the cache (cached:true).",
  "Watch change: from just before writing one tool file to the arrival of the watcher's next JSON line in the parent. It includes fs.watch latency, zcp's 25 ms debounce, regeneration and writing the registry; it excludes the watcher's start-up (reported separately). Edits alternate between adding and removing an optional parameter, and always change the description.",
  "The machine may be shared: the load average at start and end is recorded. With few repeats, expect run-to-run differences around 10%.",
];

const fmt = (ms: number) => String(Math.round(ms));
const round2 = (n: number) => Math.round(n * 100) / 100;

export function consoleTable(results: Results): string {
  const width = Math.max(...results.measurements.map((m) => m.label.length));
  const lines = [
    `${"measurement".padEnd(width)}  ${"min ms".padStart(8)}  ${"median ms".padStart(9)}`,
  ];
  for (const m of results.measurements)
    lines.push(
      `${m.label.padEnd(width)}  ${fmt(m.stats.min).padStart(8)}  ${fmt(m.stats.median).padStart(9)}`,
    );
  const r = ratios(results);
  lines.push(
    "",
    `cold / floor: ${r.coldOverFloor.median}x median (${r.coldOverFloor.min}x min)`,
    `cold / typescript-json-schema: ${r.coldOverTjs.median}x median (${r.coldOverTjs.min}x min)`,
    "",
  );
  for (const a of aims(results)) lines.push(`${a.pass ? "PASS" : "MISS"}  ${a.aim}: ${a.measured}`);
  return lines.join("\n");
}

export function writeReports(results: Results, markdownFile: string, jsonFile: string): void {
  const m = machine(results.loadavg);
  const r = ratios(results);
  const a = aims(results);
  const s = sizes(results);
  const json = {
    generatedAt: new Date().toISOString(),
    machine: m,
    versions: results.versions,
    project: results.project,
    repeats: results.repeats,
    measurements: Object.fromEntries(
      results.measurements.map((x) => [
        x.key,
        {
          label: x.label,
          minMs: Math.round(x.stats.min),
          medianMs: Math.round(x.stats.median),
          samplesMs: x.stats.samples,
        },
      ]),
    ),
    ratios: r,
    sizes: s,
    aims: a,
    checks: results.checks,
    notes: NOTES,
  };
  fs.writeFileSync(jsonFile, `${JSON.stringify(json, null, 2)}\n`);

  const md = [
    "# zcp gen benchmark",
    "",
    `Generated by \`pnpm bench:gen\` on ${json.generatedAt}. ${results.project.tools} tools in ${results.project.toolFiles} tool files plus src/types.ts, ${results.repeats} repeats per measurement; times in milliseconds.`,
    "",
    "| measurement | min | median | samples |",
    "| --- | ---: | ---: | --- |",
    ...results.measurements.map(
      (x) =>
        `| ${x.label} | ${fmt(x.stats.min)} | ${fmt(x.stats.median)} | ${x.stats.samples.join(", ")} |`,
    ),
    "",
    `Ratios: cold / floor **${r.coldOverFloor.median}x** (median; ${r.coldOverFloor.min}x on minimums), cold / typescript-json-schema **${r.coldOverTjs.median}x** (median; ${r.coldOverTjs.min}x on minimums).`,
    "",
    "| generated file | bytes | bytes per tool |",
    "| --- | ---: | ---: |",
    ...s.map((x) => `| ${x.file} | ${x.bytes} | ${x.perTool} |`),
    "",
    "| aim (times judged on medians) | measured | result |",
    "| --- | ---: | --- |",
    ...a.map((x) => `| ${x.aim} | ${x.measured} | ${x.pass ? "pass" : "**miss**"} |`),
    "",
    "## What this measures and what it does not",
    "",
    ...NOTES.map((note) => `- ${note}`),
    "",
    "## Machine and versions",
    "",
    `- Node ${m.node}, ${m.platform}`,
    `- ${m.cpus} CPUs: ${m.cpuModel}; ${m.memoryGiB} GiB memory`,
    `- load average (1, 5, 15 min) at start ${m.loadavgAtStart.join(", ")}, at end ${m.loadavgAtEnd.join(", ")}`,
    ...Object.entries(results.versions).map(([name, version]) => `- ${name}: ${version}`),
    "",
    "## Project and checks",
    "",
    `- source: ${results.project.toolFiles + 1} files, ${Math.round(results.project.sourceBytes / 1024)} KiB; generated: ${Object.keys(results.project.outputBytes).length} files, ${Math.round(s.at(-1)!.bytes / 1024)} KiB (sizes above)`,
    ...Object.entries(results.checks).map(([name, value]) => `- ${name}: ${value}`),
    "",
  ];
  fs.writeFileSync(markdownFile, md.join("\n"));
}

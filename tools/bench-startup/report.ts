/**
 * The start-up benchmark's results: a console table, report.md for people and report.json
 * for tools.
 */
import fs from "node:fs";
import { machine } from "../bench-gen/report.js";
import type { Stats } from "../bench-gen/measure.js";

export type VariantKey = "node" | "zcp" | "zcpMcp" | "sdk";

/** The JSON line a child prints (child.ts). */
export interface ChildReport {
  readonly phasesMs: Record<string, number>;
  readonly maxRssMiB: number;
  readonly tools: number;
  readonly bytes: Record<string, number>;
  readonly fidelity?: { tools: number; problems: number; firstProblems: string[] };
}

export interface Variant {
  readonly key: VariantKey;
  readonly label: string;
  /** Spawn to exit, measured by the parent. */
  readonly wall: Stats;
  /** The children's own reports, one per measured sample. */
  readonly reports: ChildReport[];
  /** The unmeasured first run's report (with the fidelity check on the SDK side). */
  readonly first: ChildReport | null;
}

export interface Results {
  readonly repeats: number;
  readonly variants: Variant[];
  readonly input: {
    tools: number;
    registryHash: string | null;
    zcpWarnings: number;
    dropped: Record<string, number>;
    bytes: Record<string, number>;
  };
  readonly loadavg: { start: number[]; end: number[] };
}

const SHORT: Record<VariantKey, string> = {
  node: "floor: node -e 0",
  zcp: "(a) zcp: runtime + planner + artifacts",
  zcpMcp: "(a2) zcp behind SDK Server, tools/list",
  sdk: "(b) SDK McpServer + zod, tools/list",
};

const PHASES = ["boot", "import", "build", "connect", "render", "list"] as const;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function get(results: Results, key: VariantKey): Variant {
  return results.variants.find((v) => v.key === key)!;
}

/** Median of each phase over the samples (phases a variant does not have are absent). */
function phaseMedians(variant: Variant): Partial<Record<(typeof PHASES)[number], number>> {
  const out: Partial<Record<(typeof PHASES)[number], number>> = {};
  for (const phase of PHASES) {
    const values = variant.reports
      .map((r) => r.phasesMs[phase])
      .filter((v): v is number => v !== undefined);
    if (values.length > 0) out[phase] = median(values);
  }
  return out;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const fmt = (ms: number | undefined) => (ms === undefined ? "" : String(Math.round(ms)));

function ratios(results: Results) {
  const wall = (key: VariantKey) => get(results, key).wall;
  const floor = wall("node");
  const over = (a: Stats, b: Stats) => ({
    min: round2(a.min / b.min),
    median: round2(a.median / b.median),
  });
  const aboveFloor = (a: Stats, b: Stats) => ({
    min: round2((a.min - floor.min) / (b.min - floor.min)),
    median: round2((a.median - floor.median) / (b.median - floor.median)),
  });
  return {
    sdkOverZcp: over(wall("sdk"), wall("zcp")),
    sdkOverZcpMcp: over(wall("sdk"), wall("zcpMcp")),
    sdkOverZcpAboveFloor: aboveFloor(wall("sdk"), wall("zcp")),
    sdkOverZcpMcpAboveFloor: aboveFloor(wall("sdk"), wall("zcpMcp")),
  };
}

const NOTES = [
  "Each sample is a fresh process, timed by the parent from spawn to exit (wall time): Node start-up, module loading and the work. Both sides run as compiled JavaScript under plain `node`, as a deployed server does: the benchmark compiles zcp's generated module, the zod server module, the tool sources and the child scripts with the repository's tsc (TypeScript 7, module nodenext) before measuring, and @zcp/runtime is its built dist/. The `node -e 0` floor is Node's own start-up. One unmeasured run of each variant precedes the repeats (file system cache warm), so this is not a first-run-after-install time.",
  "The phase columns are medians of the children's own marks (performance.now()): boot = process start to the child's first line (Node + the child script), import = loading the modules named below, build = creating the server objects, connect = the MCP initialize handshake, render/list = producing the listing and serializing it to JSON. They do not add up to the wall time exactly (process exit and spawn are outside them).",
  "(a) zcp: imports @zcp/runtime and the generated module (registry.js, which parses each tool's definition from its JSON text, validators.js and dispatch.js, which imports the 50 tool source modules), creates a runtime and a session, renders the exposed view's planner text and its openai-responses and mcp artifacts and serializes both with JSON.stringify. The runtime derives a provider's artifacts from the registry on first use, inside the render phase. No MCP, no transport.",
  '(a2) zcp behind the SDK: the same runtime behind the SDK\'s low-level Server (tools/list answers session.exposed.artifacts("mcp"), tools/call calls session.call), plus importing the SDK; an SDK Client connects over InMemoryTransport and asks for tools/list. It does not render the planner or the OpenAI artifacts. This is the like-for-like comparison with (b).',
  "(b) MCP SDK: imports the SDK, zod and a generated server module (sdk/tools.ts under .work, written and compiled before the measurements, with the 50 tool source modules it imports), creates an McpServer and calls registerTool 1,000 times with zod raw shapes (building the zod objects), then an SDK Client connects over InMemoryTransport and asks for tools/list. McpServer converts every zod schema to JSON Schema (zod's toJSONSchema, draft-07) on each tools/list request; it does not cache them.",
  "tools/list goes through the real request path on both MCP sides: JSON-RPC request, the SDK's Protocol dispatch, the server's handler, the response, and the client's zod validation of the result (ListToolsResultSchema). It is asked with client.request rather than client.listTools, because listTools also compiles an Ajv validator per output schema on the client (a client cost; only zcp's listing has output schemas). InMemoryTransport hands message objects over by reference: no JSON encoding, no I/O; both sides then serialize the listed tools once with JSON.stringify, which is the wire encoding's main cost.",
  "The listings are the same tools but not the same bytes: zcp's mcp listing carries output schemas for the tools that have an object output, the built-in zcp.handle tool (sizes in \"What each side produced\" above), and keeps the registry's JSON Schema 2020-12 (additionalProperties:false at the top level, prefixItems, $defs); the zod side lists draft-07 as zod writes it (with zod's email and date-time regular expressions), has no top-level additionalProperties:false (a raw shape goes through z.object, as a hand-written server's would), and drops uniqueItems, which zod cannot express. An unmeasured check compares the SDK's listing with the registry: tool names, descriptions, top-level property names, required sets and the number of descriptions inside each schema.",
  "Not measured: tools/call (see bench:dispatch), stdio or HTTP transports, memory after garbage collection, the time zcp gen takes to write the generated module (bench:gen) and the time to generate the zod module. Max RSS is each child's peak resident memory (process.resourceUsage), median over the samples.",
  "The variants run interleaved, rotated each round, so slow drift of the machine affects all alike. This is a shared 2-core machine: compare the ratios of one run, not absolute times across runs; expect differences of 10% or more between runs.",
];

export function consoleTable(results: Results): string {
  const width = Math.max(...results.variants.map((v) => SHORT[v.key].length));
  const floor = get(results, "node").wall.median;
  const head = `${"variant".padEnd(width)}  ${"min".padStart(6)}  ${"median".padStart(6)}  ${"-node".padStart(6)}  ${"boot".padStart(5)}  ${"import".padStart(6)}  ${"build".padStart(5)}  ${"conn".padStart(4)}  ${"rndr/list".padStart(9)}  ${"RSS MiB".padStart(7)}`;
  const lines = [head];
  for (const v of results.variants) {
    const p = phaseMedians(v);
    const rss =
      v.reports.length > 0 ? String(Math.round(median(v.reports.map((r) => r.maxRssMiB)))) : "";
    const above = v.key === "node" ? "" : fmt(v.wall.median - floor);
    lines.push(
      `${SHORT[v.key].padEnd(width)}  ${fmt(v.wall.min).padStart(6)}  ${fmt(v.wall.median).padStart(6)}  ${above.padStart(6)}  ${fmt(p.boot).padStart(5)}  ${fmt(p.import).padStart(6)}  ${fmt(p.build).padStart(5)}  ${fmt(p.connect).padStart(4)}  ${fmt(p.render ?? p.list).padStart(9)}  ${rss.padStart(7)}`,
    );
  }
  const r = ratios(results);
  lines.push(
    "(ms; min/median: wall time spawn to exit; -node: median minus the node floor's median; phases: medians of the child's marks)",
    "",
    `(b) SDK / (a) zcp:                      ${r.sdkOverZcp.median}x median wall (${r.sdkOverZcp.min}x min); above the node floor ${r.sdkOverZcpAboveFloor.median}x (${r.sdkOverZcpAboveFloor.min}x min)`,
    `(b) SDK / (a2) zcp behind SDK Server:   ${r.sdkOverZcpMcp.median}x median wall (${r.sdkOverZcpMcp.min}x min); above the node floor ${r.sdkOverZcpMcpAboveFloor.median}x (${r.sdkOverZcpMcpAboveFloor.min}x min)`,
  );
  return lines.join("\n");
}

export function writeReports(results: Results, markdownFile: string, jsonFile: string): void {
  const m = machine(results.loadavg);
  const r = ratios(results);
  const floor = get(results, "node").wall.median;
  const bytes = (key: VariantKey) => get(results, key).first?.bytes ?? {};
  const json = {
    generatedAt: new Date().toISOString(),
    machine: m,
    versions: versions(),
    repeats: results.repeats,
    input: results.input,
    variants: Object.fromEntries(
      results.variants.map((v) => [
        v.key,
        {
          label: v.label,
          minMs: Math.round(v.wall.min),
          medianMs: Math.round(v.wall.median),
          samplesMs: v.wall.samples,
          phaseMediansMs: Object.fromEntries(
            Object.entries(phaseMedians(v)).map(([k, ms]) => [k, Math.round(ms * 10) / 10]),
          ),
          maxRssMiBMedian: v.reports.length > 0 ? median(v.reports.map((x) => x.maxRssMiB)) : null,
          tools: v.first?.tools ?? null,
          bytes: v.first?.bytes ?? null,
        },
      ]),
    ),
    ratios: r,
    fidelity: get(results, "sdk").first?.fidelity ?? null,
    notes: NOTES,
  };
  fs.writeFileSync(jsonFile, `${JSON.stringify(json, null, 2)}\n`);

  const md = [
    "# Start-up benchmark: a 1,000-tool server, zcp vs. the MCP SDK",
    "",
    `Generated by \`pnpm bench:startup\` on ${json.generatedAt}. bench-gen's synthetic project (${results.input.tools} tools in 50 files), ${results.repeats} repeats per variant, each a fresh process; times in milliseconds.`,
    "",
    "| variant | min | median | median − node floor | boot | import | build | connect | render / list | max RSS MiB | samples |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...results.variants.map((v) => {
      const p = phaseMedians(v);
      const rss =
        v.reports.length > 0 ? String(Math.round(median(v.reports.map((x) => x.maxRssMiB)))) : "";
      const above = v.key === "node" ? "" : fmt(v.wall.median - floor);
      return `| ${v.label} | ${fmt(v.wall.min)} | ${fmt(v.wall.median)} | ${above} | ${fmt(p.boot)} | ${fmt(p.import)} | ${fmt(p.build)} | ${fmt(p.connect)} | ${fmt(p.render ?? p.list)} | ${rss} | ${v.wall.samples.join(", ")} |`;
    }),
    "",
    `Ratios (same run): (b) SDK / (a) zcp **${r.sdkOverZcp.median}x** median wall time (${r.sdkOverZcp.min}x on minimums), **${r.sdkOverZcpAboveFloor.median}x** above the node floor (${r.sdkOverZcpAboveFloor.min}x on minimums); (b) SDK / (a2) zcp behind the SDK's Server **${r.sdkOverZcpMcp.median}x** (${r.sdkOverZcpMcp.min}x on minimums), **${r.sdkOverZcpMcpAboveFloor.median}x** above the node floor (${r.sdkOverZcpMcpAboveFloor.min}x on minimums).`,
    "",
    "What each side produced (first, unmeasured run): " +
      [
        `(a) ${get(results, "zcp").first?.tools} tools; planner ${kib(bytes("zcp").planner)}, openai-responses ${kib(bytes("zcp")["openai-responses"])}, mcp ${kib(bytes("zcp").mcp)}`,
        `(a2) tools/list ${get(results, "zcpMcp").first?.tools} tools, ${kib(bytes("zcpMcp")["tools/list"])}`,
        `(b) tools/list ${get(results, "sdk").first?.tools} tools, ${kib(bytes("sdk")["tools/list"])}`,
      ].join("; ") +
      " (compact JSON).",
    "",
    "## What this measures and what it does not",
    "",
    ...NOTES.map((note) => `- ${note}`),
    "",
    "## Input, machine and versions",
    "",
    `- input files: ${Object.entries(results.input.bytes)
      .map(([f, b]) => `${f} ${kib(b)}`)
      .join(", ")}`,
    `- zcp gen on the project: ${results.input.zcpWarnings} warnings (provider diagnostics), registry hash ${results.input.registryHash}`,
    `- zod side: keywords dropped ${JSON.stringify(results.input.dropped)}; fidelity check ${JSON.stringify(json.fidelity)}`,
    `- Node ${m.node}, ${m.platform}; ${m.cpus} CPUs: ${m.cpuModel}; ${m.memoryGiB} GiB memory`,
    `- load average (1, 5, 15 min) at start ${m.loadavgAtStart.join(", ")}, at end ${m.loadavgAtEnd.join(", ")}`,
    ...Object.entries(json.versions).map(([name, version]) => `- ${name} ${version}`),
    "",
  ];
  fs.writeFileSync(markdownFile, md.join("\n"));
}

const kib = (n: number | undefined) => (n === undefined ? "?" : `${Math.round(n / 1024)} KiB`);

function versions(): Record<string, string> {
  const version = (pkg: string) => {
    try {
      const file = new URL(`../node_modules/${pkg}/package.json`, import.meta.url);
      return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
    } catch {
      return "unknown";
    }
  };
  return {
    "@modelcontextprotocol/sdk": version("@modelcontextprotocol/sdk"),
    zod: version("zod"),
    typescript: rootVersion("typescript"),
  };
}

function rootVersion(pkg: string): string {
  try {
    return (
      JSON.parse(
        fs.readFileSync(new URL(`../../node_modules/${pkg}/package.json`, import.meta.url), "utf8"),
      ) as { version: string }
    ).version;
  } catch {
    return "unknown";
  }
}

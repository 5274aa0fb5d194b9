/**
 * `pnpm bench:startup`: time to a ready 1,000-tool server, each sample a fresh process:
 * zcp (import the generated module, runtime + session, planner and provider artifacts; and the
 * same runtime behind the SDK's low-level Server answering tools/list) against the MCP SDK's
 * McpServer with the same tools registered with zod schemas, answering tools/list; with the
 * `node -e 0` floor. Both sides are compiled JavaScript (see prepare.ts). Writes tools/bench-startup/report.md and
 * report.json. BENCH_REPEATS overrides the repeat count (default 10).
 */
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { lastJsonLine, runNode, stats, type ProcessResult } from "../bench-gen/measure.js";
import { prepare } from "./prepare.js";
import {
  consoleTable,
  writeReports,
  type ChildReport,
  type Variant,
  type VariantKey,
} from "./report.js";

const REPEATS = Number(process.env.BENCH_REPEATS ?? 10);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const WORK = path.join(HERE, ".work");

const log = (message: string) => process.stdout.write(`${message}\n`);

interface Spec {
  readonly key: VariantKey;
  readonly label: string;
  readonly args: readonly string[];
  /** Whether the process prints a ChildReport line. */
  readonly reports: boolean;
}

async function main(): Promise<void> {
  if (!Number.isInteger(REPEATS) || REPEATS < 1)
    throw new Error(`BENCH_REPEATS must be a positive integer, got ${process.env.BENCH_REPEATS}`);
  const loadStart = os.loadavg();

  // Always from scratch: the synthetic project, zcp gen on it, and the zod server module.
  const prepareStart = performance.now();
  const input = await prepare(REPO, WORK);
  log(
    `prepared ${input.tools} tools under ${path.relative(REPO, WORK)} in ${Math.round(performance.now() - prepareStart)} ms (zcp gen: ${input.zcpWarnings} warnings; zod side drops ${JSON.stringify(input.dropped)})`,
  );

  // Everything compiled: plain `node`, no TypeScript loader, as a deployed server runs.
  const specs: Spec[] = [
    { key: "node", label: "floor: `node -e 0`", args: ["-e", "0"], reports: false },
    {
      key: "zcp",
      label:
        "(a) zcp: import generated module, runtime + session, planner + openai-responses + mcp artifacts",
      args: [input.children.zcp, "render", input.generatedIndex],
      reports: true,
    },
    {
      key: "zcpMcp",
      label: "(a2) zcp behind SDK low-level Server: tools/list through SDK Client",
      args: [input.children.zcp, "mcp", input.generatedIndex],
      reports: true,
    },
    {
      key: "sdk",
      label: "(b) MCP SDK McpServer: register 1,000 tools with zod, tools/list through SDK Client",
      args: [input.children.sdk, input.sdkModule],
      reports: true,
    },
  ];
  const run = async (
    spec: Spec,
    extra: readonly string[] = [],
  ): Promise<{ process: ProcessResult; report: ChildReport | null }> => {
    const result = await runNode([...spec.args, ...extra], REPO);
    if (result.code !== 0)
      throw new Error(`${spec.key}: exit code ${result.code}\n${result.stderr.slice(0, 3000)}`);
    return {
      process: result,
      report: spec.reports ? lastJsonLine<ChildReport>(result, spec.key) : null,
    };
  };

  // Unmeasured first runs: they warm the file system cache and check what each side produces.
  const first = new Map<VariantKey, ChildReport | null>();
  for (const spec of specs) {
    const extra = spec.key === "sdk" ? [input.generatedRegistry] : [];
    first.set(spec.key, (await run(spec, extra)).report);
  }
  const fidelity = first.get("sdk")?.fidelity;
  if (!fidelity || fidelity.problems > 0)
    throw new Error(`the zod side does not list the same tools: ${JSON.stringify(fidelity)}`);
  for (const key of ["zcp", "zcpMcp", "sdk"] as const) {
    const tools = first.get(key)?.tools;
    // zcp's views add the built-in zcp.handle tool when a tool returns handles.
    if (tools !== (key === "sdk" ? input.tools : input.tools + 1))
      throw new Error(`${key}: listed ${tools} tools`);
  }
  log(
    `checked: zcp lists ${first.get("zcp")!.tools} tools (1,000 + zcp.handle), the SDK ${first.get("sdk")!.tools}; zod side matches the registry (names, descriptions, properties, required, descriptions inside): ${fidelity.tools} tools, 0 problems`,
  );

  const samples = new Map<VariantKey, { wall: number[]; reports: ChildReport[] }>(
    specs.map((spec) => [spec.key, { wall: [], reports: [] }]),
  );
  for (let round = 0; round < REPEATS; round++) {
    // Interleaved, and rotated each round, so drift of the machine affects every variant alike.
    const order = specs.map((_, i) => specs[(i + round) % specs.length]!);
    const line: string[] = [];
    for (const spec of order) {
      const { process: p, report } = await run(spec);
      const s = samples.get(spec.key)!;
      s.wall.push(p.ms);
      if (report) s.reports.push(report);
      line.push(`${spec.key} ${Math.round(p.ms)}`);
    }
    log(`round ${round + 1}/${REPEATS}: ${line.join(", ")} ms`);
  }

  const variants: Variant[] = specs.map((spec) => {
    const s = samples.get(spec.key)!;
    return {
      key: spec.key,
      label: spec.label,
      wall: stats(s.wall),
      reports: s.reports,
      first: first.get(spec.key) ?? null,
    };
  });
  const results = {
    repeats: REPEATS,
    variants,
    input: {
      tools: input.tools,
      registryHash: input.registryHash,
      zcpWarnings: input.zcpWarnings,
      dropped: input.dropped,
      bytes: input.bytes,
    },
    loadavg: { start: loadStart, end: os.loadavg() },
  };
  log("");
  log(consoleTable(results));
  writeReports(results, path.join(HERE, "report.md"), path.join(HERE, "report.json"));
  log(`\nwrote ${path.relative(REPO, path.join(HERE, "report.md"))} and report.json`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:startup failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});

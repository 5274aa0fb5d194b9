/**
 * `pnpm bench:dispatch`: calls per second and p50/p99 latency of one small tool call
 * (`math.subtract` of the weather fixture) through a direct function call, zcp's
 * `session.call`, the MCP SDK's McpServer (zod) over InMemoryTransport, and zcp behind the
 * SDK's low-level Server over the same transport, and `session.call` with the tool in a worker
 * thread (zcp-serve's default isolation); and code mode (code.ts): a `zcp.run` program making
 * 100 calls against 100 session.calls on the same runtime, an empty program, and the cold start
 * of a code runner. The worker runs twice, each time in a fresh process, as a user's production
 * build runs: compiled by tsc (the worker, the fixture's generated module and tool sources;
 * @zcp/runtime and @zcp/code from their built dist/), and bundled by esbuild into one file. Each
 * mode then starts BENCH_COLD_STARTS fresh processes (default 5) that measure one cold start
 * each. Writes tools/bench-dispatch/report.md and report.json.
 *
 * BENCH_REPEATS (default 10), BENCH_CALLS (in-process calls per loop, default 20,000),
 * BENCH_TRANSPORT_CALLS (default 5,000), BENCH_PROGRAM_RUNS (code-mode runs per loop, default
 * 50) and BENCH_COLD_STARTS tune it.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, version as esbuildVersion } from "esbuild";
import { compileWithTsc } from "../bench-gen/measure.js";
import { consoleTable, writeReports, type Mode, type Results } from "./report.js";
import type { ColdStartReport, WorkerReport } from "./worker.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const WORK = path.join(HERE, ".work");
const BUNDLE = path.join(WORK, "worker.mjs");

const log = (message: string) => process.stdout.write(`${message}\n`);

const COLD_STARTS = Number(process.env["BENCH_COLD_STARTS"] ?? 5);
if (!Number.isInteger(COLD_STARTS) || COLD_STARTS < 1)
  throw new Error(`BENCH_COLD_STARTS must be a positive integer, got ${COLD_STARTS}`);

/**
 * Runs `node <args>` from the repository root; progress (stderr) goes to our stderr. The tool
 * workers of (e) import `workerModule`, the generated module compiled by tsc, in both modes.
 * With `coldStart` the process only measures code mode's cold start (worker.ts).
 */
function runWorker(args: readonly string[], workerModule: string): Promise<WorkerReport>;
function runWorker(
  args: readonly string[],
  workerModule: string,
  coldStart: true,
): Promise<ColdStartReport>;
function runWorker(
  args: readonly string[],
  workerModule: string,
  coldStart = false,
): Promise<WorkerReport | ColdStartReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: REPO,
      stdio: ["ignore", "pipe", "inherit"],
      env: {
        ...process.env,
        BENCH_WORKER_MODULE: workerModule,
        ...(coldStart ? { BENCH_COLD_START: "1" } : {}),
      },
    });
    const out: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const stdout = Buffer.concat(out).toString("utf8");
      const line = stdout.trim().split("\n").at(-1) ?? "";
      if (code !== 0)
        return reject(
          new Error(`worker ${args.join(" ")} exited with code ${code}\n${stdout.slice(0, 2000)}`),
        );
      try {
        resolve(JSON.parse(line) as WorkerReport | ColdStartReport);
      } catch {
        reject(new Error(`worker ${args.join(" ")} printed no report\n${stdout.slice(0, 2000)}`));
      }
    });
  });
}

/**
 * The worker bundled: one esbuild bundle of worker.ts, @zcp/runtime's dist and the weather
 * fixture (its generated module and tool sources), with esbuild's defaults (no keepNames); the
 * SDK and zod stay external, as they are plain JavaScript already, and so do @zcp/server (its
 * pool starts the worker file next to its own module, dist/isolation/worker.js) and @zcp/code
 * (its piscina pool starts dist/worker.js next to its runner, which loads the QuickJS WASM file
 * from its package); @zcp/code's dist imports @zcp/runtime's dist, a second copy next to the
 * bundled one, for `failure` only.
 */
async function bundle(): Promise<void> {
  await build({
    entryPoints: [path.join(HERE, "worker.ts")],
    outfile: BUNDLE,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: [
      "@modelcontextprotocol/sdk",
      "@modelcontextprotocol/sdk/*",
      "zod",
      "@zcp/server",
      "@zcp/code",
    ],
    logLevel: "warning",
  });
}

async function main(): Promise<void> {
  const loadStart = os.loadavg();
  fs.rmSync(WORK, { recursive: true, force: true });
  const compiled = await compileWithTsc(REPO, REPO, path.join(WORK, "tsc"), [
    path.join(HERE, "*.ts"),
    path.join(REPO, "fixtures/weather/src/**/*.ts"),
  ]);
  await bundle();
  log(
    `compiled the worker with tsc into ${path.relative(REPO, path.join(WORK, "tsc"))}; bundled it with esbuild ${esbuildVersion} into ${path.relative(REPO, BUNDLE)}`,
  );

  const modes: Mode[] = [];
  const runs: [Mode["key"], string, string[]][] = [
    [
      "tsc",
      "compiled by tsc (`node .work/tsc/tools/bench-dispatch/worker.js`), @zcp/runtime from its dist/",
      [compiled(path.join(HERE, "worker.ts"))],
    ],
    ["bundle", "bundled by esbuild into one file (`node .work/worker.mjs`)", [BUNDLE]],
  ];
  for (const [key, label, args] of runs) {
    log(`${key}: ${label}`);
    const started = performance.now();
    const workerModule = compiled(path.join(REPO, "fixtures/weather/src/zcp.gen/index.ts"));
    const report = await runWorker(args, workerModule);
    const coldStarts: ColdStartReport[] = [];
    for (let n = 0; n < COLD_STARTS; n++)
      coldStarts.push(await runWorker(args, workerModule, true));
    log(
      `${key}: cold starts ${coldStarts.map((c) => `${Math.round(c.coldStartMs)} ms`).join(", ")}`,
    );
    modes.push({ key, label, report, coldStarts });
    log(`${key}: done in ${Math.round((performance.now() - started) / 1000)} s`);
  }

  const results: Results = {
    modes,
    loadavg: { start: loadStart, end: os.loadavg() },
    esbuild: esbuildVersion,
  };
  log("");
  log(consoleTable(results));
  writeReports(results, path.join(HERE, "report.md"), path.join(HERE, "report.json"));
  log(`\nwrote ${path.relative(REPO, path.join(HERE, "report.md"))} and report.json`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:dispatch failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});

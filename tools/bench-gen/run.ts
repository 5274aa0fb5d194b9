/**
 * `pnpm bench:gen`: synthesizes a 1,000-tool project and times zcp gen (cold, no-change,
 * one-file watch change) side by side with a ts-morph floor and typescript-json-schema, and
 * measures the generated output (bytes of every file, per tool). Writes tools/bench-gen/report.md
 * and report.json. BENCH_REPEATS overrides the repeat count.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { saveManifest } from "./manifest.js";
import { lastJsonLine, runNode, stats, type ProcessResult } from "./measure.js";
import { consoleTable, writeReports, type Measurement, type Results } from "./report.js";
import { synthesize, writeProject, writeToolFile } from "./synth.js";
import { measureWatch } from "./watch.js";
import { assertGenerated, makeCold, type ZcpReport } from "./zcp.js";

const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const WORK = path.join(HERE, ".work");
const PROJECT = path.join(WORK, "project");
const MANIFEST = path.join(WORK, "manifest.json");
const ZCP = path.join(REPO, "packages/gen/dist/bin/zcp.js");
const OUT_DIR = "src/zcp.gen";
/** The tool file the watch benchmark edits, a file in the middle of the project. */
const EDIT_FILE = 25;

const log = (message: string) => process.stdout.write(`${message}\n`);

async function main(): Promise<void> {
  if (!Number.isInteger(REPEATS) || REPEATS < 1)
    throw new Error(`BENCH_REPEATS must be a positive integer, got ${process.env.BENCH_REPEATS}`);
  const loadStart = os.loadavg();

  // Always from scratch: a leftover project from an older synthesizer must not be measured.
  const files = synthesize();
  const manifest = writeProject(PROJECT, files, path.join(REPO, "packages/runtime"));
  saveManifest(MANIFEST, manifest);
  log(
    `synthesized ${manifest.tools} tools in ${files.length} files (+ src/types.ts) under ${path.relative(REPO, PROJECT)}`,
  );

  const zcpGen = (...flags: string[]) =>
    runNode([ZCP, "gen", "--reporter", "json", ...flags], PROJECT);
  const floor = () => runNode(["--import", "tsx", path.join(HERE, "floor.ts"), MANIFEST], REPO);
  const tjs = () => runNode(["--import", "tsx", path.join(HERE, "tjs.ts"), MANIFEST], REPO);

  // Unmeasured first runs: they check that every tool generates, and warm tsx's compile cache.
  makeCold(PROJECT, OUT_DIR);
  const first = lastJsonLine<ZcpReport>(await zcpGen("--force"), "first cold zcp gen");
  assertGenerated(first, manifest.tools, "first cold zcp gen");
  const warnings = first.diagnostics.length;
  const floorInfo = checkFloor(await floor(), manifest.tools);
  const tjsInfo = checkTjs(await tjs());
  log(
    `checked: zcp gen ${first.tools} tools (${warnings} warnings), floor ${floorInfo.tools} tools / ${floorInfo.types} types, typescript-json-schema ${tjsInfo.definitions} definitions`,
  );
  const outputBytes = fileSizes(path.join(PROJECT, OUT_DIR));

  const cold: number[] = [];
  const floorMs: number[] = [];
  const tjsMs: number[] = [];
  for (let round = 1; round <= REPEATS; round++) {
    makeCold(PROJECT, OUT_DIR);
    const c = await zcpGen("--force");
    assertGenerated(lastJsonLine<ZcpReport>(c, "cold zcp gen"), manifest.tools, "cold zcp gen");
    cold.push(c.ms);
    const f = await floor();
    checkFloor(f, manifest.tools);
    floorMs.push(f.ms);
    const t = await tjs();
    checkTjs(t);
    tjsMs.push(t.ms);
    log(
      `round ${round}/${REPEATS}: cold ${Math.round(c.ms)} ms, floor ${Math.round(f.ms)} ms, typescript-json-schema ${Math.round(t.ms)} ms`,
    );
  }

  // The last cold round left a fresh cache and output behind: nothing changed since.
  const noChange: number[] = [];
  let cachedRuns = 0;
  for (let i = 0; i < REPEATS; i++) {
    const run = await zcpGen();
    const report = lastJsonLine<ZcpReport>(run, "no-change zcp gen");
    assertGenerated(report, manifest.tools, "no-change zcp gen");
    if (report.cached) cachedRuns++;
    noChange.push(run.ms);
  }
  log(
    `no-change: ${noChange.map(Math.round).join(", ")} ms (${cachedRuns}/${REPEATS} took the cache)`,
  );

  const editFile = files[EDIT_FILE]!;
  const editTool = editFile.tools.findIndex((tool) => tool.form === "positional");
  const watch = await measureWatch({
    zcp: ZCP,
    project: PROJECT,
    tools: manifest.tools,
    repeats: REPEATS,
    // Alternate adding and removing a parameter; the revision number changes the text every time.
    change: (i) =>
      writeToolFile(PROJECT, editFile, {
        tool: editTool,
        revision: i + 1,
        extraParam: i % 2 === 0,
      }),
    restore: () => writeToolFile(PROJECT, editFile),
  });
  log(
    `watch: start-up ${Math.round(watch.startupMs)} ms, changes ${watch.samples.map(Math.round).join(", ")} ms`,
  );

  const measurements: Measurement[] = [
    { key: "cold", label: "cold `zcp gen --force` (fresh process)", stats: stats(cold) },
    {
      key: "floor",
      label: "floor: ts-morph load + program + parameter types (fresh process)",
      stats: stats(floorMs),
    },
    { key: "tjs", label: "typescript-json-schema 0.68.0 (fresh process)", stats: stats(tjsMs) },
    {
      key: "noChange",
      label: "no-change re-run `zcp gen` (fresh process)",
      stats: stats(noChange),
    },
    {
      key: "watch",
      label: "one-file change under `--watch` (write to report line)",
      stats: stats(watch.samples),
    },
  ];
  const results: Results = {
    repeats: REPEATS,
    measurements,
    project: {
      toolFiles: files.length,
      tools: manifest.tools,
      sourceBytes: manifest.files.reduce((sum, f) => sum + fs.statSync(f).size, 0),
      outputBytes,
    },
    versions: {
      "TypeScript in ts-morph 28.0.0 (zcp, floor)": floorInfo.typescript,
      "TypeScript in typescript-json-schema 0.68.0": tjsInfo.typescript,
    },
    checks: {
      "first cold run": `ok, ${first.tools} tools, 0 errors, ${warnings} warnings, registry hash ${first.hash}`,
      "no-change runs that took the cache": `${cachedRuns}/${REPEATS}`,
      "watch start-up (spawn to first report line, ms)": Math.round(watch.startupMs),
      "watch registry hash after undoing the edits equals the cold run's":
        watch.restoredHash === first.hash,
      "watch report lines nobody asked for": watch.unexpectedLines,
    },
    loadavg: { start: loadStart, end: os.loadavg() },
  };
  log("");
  log(consoleTable(results));
  writeReports(results, path.join(HERE, "report.md"), path.join(HERE, "report.json"));
  log(`\nwrote ${path.relative(REPO, path.join(HERE, "report.md"))} and report.json`);
}

/** The size in bytes of every file under `folder`, by path (posix, relative), sorted. */
function fileSizes(folder: string): Record<string, number> {
  return Object.fromEntries(
    fs
      .readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return [path.relative(folder, file).split(path.sep).join("/"), fs.statSync(file).size];
      })
      .sort(([a], [b]) => (a! < b! ? -1 : 1)),
  );
}

function checkFloor(
  result: ProcessResult,
  tools: number,
): { tools: number; types: number; typescript: string } {
  const info = lastJsonLine<{ tools: number; types: number; typescript: string }>(result, "floor");
  if (result.code !== 0 || info.tools !== tools)
    throw new Error(
      `floor: expected ${tools} tools, got ${info.tools} (exit code ${result.code})\n${result.stderr}`,
    );
  return info;
}

function checkTjs(result: ProcessResult): { definitions: number; typescript: string } {
  const info = lastJsonLine<{ definitions: number; missing: string[]; typescript: string }>(
    result,
    "typescript-json-schema",
  );
  if (result.code !== 0 || info.missing.length > 0) {
    throw new Error(
      `typescript-json-schema: exit code ${result.code}, ${info.missing.length} symbols without a schema (${info.missing.slice(0, 5).join(", ")})\n${result.stderr}`,
    );
  }
  return info;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:gen failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});

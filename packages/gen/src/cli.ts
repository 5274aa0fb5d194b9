/**
 * The `zcp` command line. `zcp gen` runs the pipeline once (or on every change with --watch)
 * and writes or checks the output folder.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig, type Config } from "./config.js";
import { diagnosticToJson, formatDiagnostic, hasErrors, hasRunErrors, relativePath, type Diagnostic } from "./diagnostics.js";
import { readFastPath, saveFastPath } from "./cache.js";
import type { Generator, GenerateResult } from "./pipeline.js";
import { buildReport, formatReport, loadTokenCounter, reportOptions, type ReportOptions, type TokenReport } from "./report.js";
import type { InputWatcher } from "./watch.js";
import { compareOutput, isClean, writeOutput, type KnownOutput, type OutputState } from "./write.js";

const USAGE = `Usage: zcp gen [options]

Compiles the @tool functions of a TypeScript project into a static tool registry.

Options:
  --config <file>     zcp.config.json or package.json to use (default: the one in the current folder)
  --check             write nothing; exit 1 if the output folder is not up to date
  --watch             regenerate whenever a source file changes
  --reporter <kind>   text (default) or json
  --force             ignore the no-change cache
  --report            print the tokens (o200k_base) of each tool's MCP entry, OpenAI entry and planner line
  --budget <tokens>   exit 1 when the selected listing (--profile, --groups; default all tools) is over <tokens>
  --budget-format <f> what --budget counts: mcp (default), openai or planner
  --profile <name>    select the listing of a profile: semantic-workflow
  --groups <a,b>      select the tools in any of these groups
  -h, --help          show this help
  -v, --version       show the version
`;

type Reporter = "text" | "json";

interface Options {
  config?: string;
  check: boolean;
  watch: boolean;
  force: boolean;
  reporter: Reporter;
  /** --report/--budget: the token report to compute after each run; null when not asked for. */
  tokens: ReportOptions | null;
}

export async function main(argv: string[], cwd = process.cwd()): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        config: { type: "string" },
        check: { type: "boolean", default: false },
        watch: { type: "boolean", default: false },
        force: { type: "boolean", default: false },
        reporter: { type: "string", default: "text" },
        report: { type: "boolean", default: false },
        budget: { type: "string" },
        "budget-format": { type: "string" },
        profile: { type: "string" },
        groups: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "v", default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`zcp: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (values.help || positionals.length === 0) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  if (positionals[0] !== "gen" || positionals.length > 1) {
    process.stderr.write(`zcp: unknown command "${positionals.join(" ")}"\n\n${USAGE}`);
    return 2;
  }
  if (values.reporter !== "text" && values.reporter !== "json") {
    process.stderr.write(`zcp: --reporter must be text or json, got "${values.reporter}"\n`);
    return 2;
  }
  if (values.check && values.watch) {
    process.stderr.write("zcp: --check and --watch cannot be combined\n");
    return 2;
  }
  const tokens = reportOptions({ report: values.report, budget: values.budget, budgetFormat: values["budget-format"], profile: values.profile, groups: values.groups });
  if (typeof tokens === "string") {
    process.stderr.write(`zcp: ${tokens}\n`);
    return 2;
  }
  const options: Options = { check: values.check, watch: values.watch, force: values.force, reporter: values.reporter, tokens, ...(values.config ? { config: values.config } : {}) };
  const loaded = loadConfig(cwd, options.config);
  if (!loaded.config) {
    report(options, cwd, { diagnostics: loaded.diagnostics, outDir: cwd, tools: 0, hash: null, state: null, written: [], removed: [] });
    return 1;
  }
  return options.watch ? watch(loaded.config, options, cwd) : once(loaded.config, options, cwd);
}

interface Summary {
  diagnostics: readonly Diagnostic[];
  outDir: string;
  tools: number;
  hash: string | null;
  /** For --check: what is out of date. */
  state: OutputState | null;
  written: string[];
  removed: string[];
  cached?: boolean;
  ms?: number;
  /** The token report, when asked for; null when the run had errors about the run as a whole. */
  tokens?: TokenReport | null;
}

async function once(config: Config, options: Options, cwd: string): Promise<number> {
  const started = performance.now();
  // The fast path keeps no registry or artifacts to count: a report needs a real run.
  const fast = options.force || options.tokens ? null : await readFastPath(config);
  if (fast) {
    const summary: Summary = { diagnostics: fast.diagnostics, outDir: config.outDir, tools: fast.tools, hash: fast.hash, state: options.check ? { stale: [], missing: [], extra: [] } : null, written: [], removed: [], cached: true, ms: performance.now() - started };
    report(options, cwd, summary);
    return hasErrors(fast.diagnostics) ? 1 : 0;
  }
  const { Generator } = await import("./pipeline.js");
  const result = await new Generator(config).generate();
  const state = compareOutput(config.outDir, result.files);
  const summary = apply(config, options, result, state);
  summary.tokens = await tokenReport(options, result);
  summary.ms = performance.now() - started;
  report(options, cwd, summary);
  if ((isClean(state) || !options.check) && !hasRunErrors(result.diagnostics)) await saveFastPath(config, result);
  return hasErrors(result.diagnostics) || (options.check && !isClean(state)) || summary.tokens?.budget?.ok === false ? 1 : 0;
}

function apply(config: Config, options: Options, result: GenerateResult, state: OutputState, known?: KnownOutput): Summary {
  const base = { diagnostics: result.diagnostics, outDir: config.outDir, tools: result.registry.tools.length, hash: result.registry.hash };
  if (options.check) return { ...base, state, written: [], removed: [] };
  if (hasRunErrors(result.diagnostics)) return { ...base, state: null, written: [], removed: [] };
  const { written, removed } = writeOutput(config.outDir, result.files, state, known);
  return { ...base, state: null, written, removed };
}

/** The token report of `result` when options ask for one (undefined when not); null after a run error. */
async function tokenReport(options: Options, result: GenerateResult): Promise<TokenReport | null | undefined> {
  if (!options.tokens) return undefined;
  if (hasRunErrors(result.diagnostics)) return null;
  return buildReport(result.registry, result.artifacts, await loadTokenCounter(), options.tokens);
}

async function watch(initial: Config, options: Options, cwd: string): Promise<number> {
  const [{ Generator }, { includeFolders, watchInputs }] = await Promise.all([import("./pipeline.js"), import("./watch.js")]);
  let config = initial;
  let generator: Generator = new Generator(config);
  const known: KnownOutput = new Map();
  /** The last run without errors about the run as a whole, with its config: what the fast path saves at the end. */
  let last = null as { config: Config; result: GenerateResult } | null;
  let running: Promise<void> = Promise.resolve();
  let stopping = false;
  /** Runs `cycle` after the ones before; a failure is reported and does not end the session. */
  const enqueue = (changed: string[]) => {
    running = running
      .then(() => cycle(changed))
      .catch((error: unknown) => void process.stderr.write(`zcp: internal error, waiting for the next change: ${(error as Error).stack ?? error}\n`));
  };
  const start = () =>
    watchInputs(
      { folders: includeFolders(config.include, config.root), files: settingsFiles(config), ignore: config.outDir },
      { onChange: enqueue, onError: (error) => process.stderr.write(`zcp: watching: ${error.message}\n`) },
    );
  let watcher: InputWatcher = await start();

  /**
   * Reads the configuration again after it (or the tsconfig it names) changed. A different one
   * gets a new generator and new watches; an invalid one is reported and the previous one is kept
   * until the next change. Returns whether to regenerate.
   */
  const reload = async (): Promise<boolean> => {
    const loaded = loadConfig(cwd, options.config);
    if (!loaded.config) {
      report(options, cwd, { diagnostics: loaded.diagnostics, outDir: cwd, tools: 0, hash: null, state: null, written: [], removed: [] });
      return false;
    }
    if (JSON.stringify(loaded.config) === JSON.stringify(config)) return true;
    config = loaded.config;
    generator = new Generator(config);
    await watcher.close();
    if (!stopping) watcher = await start();
    return true;
  };
  /** One regeneration. The report comes last, once the watches cover what this run read. */
  const cycle = async (changed: string[]) => {
    if (stopping) return;
    const started = performance.now();
    const settings = settingsFiles(config);
    if (changed.some((file) => settings.includes(file)) && !(await reload())) return;
    let result: GenerateResult;
    try {
      result = await generator.generate(changed);
    } catch (error) {
      // A bug must not end the session: say so and wait for the next change.
      process.stderr.write(`zcp: internal error, waiting for the next change: ${(error as Error).stack ?? error}\n`);
      return;
    }
    const summary = apply(config, options, result, compareOutput(config.outDir, result.files, known), known);
    summary.tokens = await tokenReport(options, result);
    // The fast path records the texts this run read: saved once, when watching stops.
    last = hasRunErrors(result.diagnostics) ? null : { config, result };
    await watcher.track(result.inputs);
    summary.ms = performance.now() - started;
    report(options, cwd, summary);
  };

  enqueue([]);
  await running;
  if (options.reporter === "text") process.stdout.write("zcp gen: watching for changes (Ctrl+C to stop)\n");
  await new Promise<void>((resolve) => {
    const stop = () => {
      stopping = true;
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await watcher.close();
  await running;
  // A reload in the last cycle may have started new watches.
  await watcher.close();
  if (last) await saveFastPath(last.config, last.result);
  return 0;
}

/** The files whose change means reading the configuration again: it, and its tsconfig (or the default one's place). */
function settingsFiles(config: Config): string[] {
  return [config.file, config.tsconfig ?? path.join(config.root, "tsconfig.json")];
}

function report(options: Options, cwd: string, summary: Summary): void {
  if (options.reporter === "json") {
    const { state } = summary;
    const json = {
      ok: !hasErrors(summary.diagnostics) && (state === null || isClean(state)) && summary.tokens?.budget?.ok !== false,
      tools: summary.tools,
      hash: summary.hash,
      diagnostics: summary.diagnostics.map((d) => diagnosticToJson(d, cwd)),
      ...(state ? { check: state } : { written: summary.written, removed: summary.removed }),
      cached: summary.cached ?? false,
      ...(options.tokens ? { report: summary.tokens ?? null } : {}),
    };
    process.stdout.write(`${JSON.stringify(json)}\n`);
    return;
  }
  for (const d of summary.diagnostics) process.stderr.write(`${formatDiagnostic(d, cwd)}\n`);
  if (summary.hash === null) return;
  const errors = summary.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = summary.diagnostics.length - errors;
  const counts = `${summary.tools} tool${summary.tools === 1 ? "" : "s"}, registry ${summary.hash}${errors ? `, ${errors} error(s)` : ""}${warnings ? `, ${warnings} warning(s)` : ""}`;
  const time = summary.ms === undefined ? "" : ` in ${Math.round(summary.ms)} ms`;
  if (summary.state) {
    const { stale, missing, extra } = summary.state;
    for (const [label, list] of [["stale", stale], ["missing", missing], ["extra", extra]] as const) {
      for (const file of list) process.stdout.write(`${label}: ${relativePath(cwd, path.join(summary.outDir, file))}\n`);
    }
    process.stdout.write(`zcp gen --check: ${counts}; ${isClean(summary.state) ? "up to date" : "out of date, run zcp gen"}${time}\n`);
    if (summary.tokens) process.stdout.write(formatReport(summary.tokens, options.tokens?.table ?? false));
    return;
  }
  const changes = [...summary.written.map((f) => `wrote ${f}`), ...summary.removed.map((f) => `removed ${f}`)];
  const outcome = hasRunErrors(summary.diagnostics) ? "nothing written" : changes.length ? changes.join(", ") : "up to date";
  process.stdout.write(`zcp gen: ${counts}; ${outcome}${summary.cached ? " (cached)" : ""}${time}\n`);
  if (summary.tokens) process.stdout.write(formatReport(summary.tokens, options.tokens?.table ?? false));
}

function version(): string {
  const file = new URL("../package.json", import.meta.url);
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

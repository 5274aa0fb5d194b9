/**
 * cli: `zcp gen --watch`. One generator is kept for the session (a new one when the config
 * changes), the inputs are watched (`watcher.ts`), and each batch of changes is one
 * regeneration, reported like a run of its own. The last good run is saved for the fast path
 * when watching stops.
 */
import path from "node:path";
import { loadConfig, type Config } from "../config.js";
import { hasRunErrors } from "../diagnostics.js";
import type { Generator, GenerateResult } from "../pipeline.js";
import { compareOutput, type KnownOutput } from "../write/index.js";
import { saveFastPath } from "./fast-path.js";
import { apply, printSummary, tokenReport, type Options } from "./summary.js";
import type { InputWatcher } from "./watcher.js";

export async function watch(initial: Config, options: Options, cwd: string): Promise<number> {
  const [{ Generator }, { includeFolders, watchInputs }] = await Promise.all([
    import("../pipeline.js"),
    import("./watcher.js"),
  ]);
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
      .catch(
        (error: unknown) =>
          void process.stderr.write(
            `zcp: internal error, waiting for the next change: ${(error as Error).stack ?? error}\n`,
          ),
      );
  };
  const start = () =>
    watchInputs(
      {
        folders: includeFolders(config.include, config.root),
        files: settingsFiles(config),
        ignore: config.outDir,
      },
      {
        onChange: enqueue,
        onError: (error) => process.stderr.write(`zcp: watching: ${error.message}\n`),
      },
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
      printSummary(options, cwd, {
        diagnostics: loaded.diagnostics,
        outDir: cwd,
        tools: 0,
        hash: null,
        state: null,
        written: [],
        removed: [],
      });
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
      process.stderr.write(
        `zcp: internal error, waiting for the next change: ${(error as Error).stack ?? error}\n`,
      );
      return;
    }
    const summary = apply(
      config,
      options,
      result,
      compareOutput(config.outDir, result.files, known),
      known,
    );
    summary.tokens = await tokenReport(options, result);
    // The fast path records the texts this run read: saved once, when watching stops.
    last = hasRunErrors(result.diagnostics) ? null : { config, result };
    await watcher.track(result.inputs);
    summary.ms = performance.now() - started;
    printSummary(options, cwd, summary);
  };

  enqueue([]);
  await running;
  if (options.reporter === "text")
    process.stdout.write("zcp gen: watching for changes (Ctrl+C to stop)\n");
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

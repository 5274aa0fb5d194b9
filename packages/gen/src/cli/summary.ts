/**
 * cli: what one run of `zcp gen` did, and how it is printed: as text (diagnostics on stderr, a
 * summary line on stdout, the token report after it) or as one JSON object per run.
 */
import path from "node:path";
import type { Config } from "../config.js";
import {
  diagnosticToJson,
  formatDiagnostic,
  hasErrors,
  hasRunErrors,
  relativePath,
  type Diagnostic,
} from "../diagnostics.js";
import type { GenerateResult } from "../pipeline.js";
import { isClean, writeOutput, type KnownOutput, type OutputState } from "../write/index.js";
import {
  buildReport,
  formatReport,
  loadTokenCounter,
  type ReportOptions,
  type TokenReport,
} from "./token-report.js";

type Reporter = "text" | "json";

export interface Options {
  config?: string;
  check: boolean;
  watch: boolean;
  force: boolean;
  reporter: Reporter;
  /** --report/--budget: the token report to compute after each run; null when not asked for. */
  tokens: ReportOptions | null;
}

export interface Summary {
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

/** Writes a run's output (under `--check`, only compares it), and what happened, for the summary. */
export function apply(
  config: Config,
  options: Options,
  result: GenerateResult,
  state: OutputState,
  known?: KnownOutput,
): Summary {
  const base = {
    diagnostics: result.diagnostics,
    outDir: config.outDir,
    tools: result.registry.tools.length,
    hash: result.registry.hash,
  };
  if (options.check) return { ...base, state, written: [], removed: [] };
  if (hasRunErrors(result.diagnostics)) return { ...base, state: null, written: [], removed: [] };
  const { written, removed } = writeOutput(config.outDir, result.files, state, known);
  return { ...base, state: null, written, removed };
}

/** The token report of `result` when options ask for one (undefined when not); null after a run error. */
export async function tokenReport(
  options: Options,
  result: GenerateResult,
): Promise<TokenReport | null | undefined> {
  if (!options.tokens) return undefined;
  if (hasRunErrors(result.diagnostics)) return null;
  // Loaded here: the fast path, which prints summaries too, must not load the compiler.
  const { artifactSets } = await import("../compile/providers/index.js");
  return buildReport(
    result.registry,
    artifactSets(result.registry),
    await loadTokenCounter(),
    options.tokens,
  );
}

export function printSummary(options: Options, cwd: string, summary: Summary): void {
  if (options.reporter === "json") {
    const { state } = summary;
    const json = {
      ok:
        !hasErrors(summary.diagnostics) &&
        (state === null || isClean(state)) &&
        summary.tokens?.budget?.ok !== false,
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
    for (const [label, list] of [
      ["stale", stale],
      ["missing", missing],
      ["extra", extra],
    ] as const) {
      for (const file of list)
        process.stdout.write(`${label}: ${relativePath(cwd, path.join(summary.outDir, file))}\n`);
    }
    process.stdout.write(
      `zcp gen --check: ${counts}; ${isClean(summary.state) ? "up to date" : "out of date, run zcp gen"}${time}\n`,
    );
    if (summary.tokens)
      process.stdout.write(formatReport(summary.tokens, options.tokens?.table ?? false));
    return;
  }
  const changes = [
    ...summary.written.map((f) => `wrote ${f}`),
    ...summary.removed.map((f) => `removed ${f}`),
  ];
  const outcome = hasRunErrors(summary.diagnostics)
    ? "nothing written"
    : changes.length
      ? changes.join(", ")
      : "up to date";
  process.stdout.write(
    `zcp gen: ${counts}; ${outcome}${summary.cached ? " (cached)" : ""}${time}\n`,
  );
  if (summary.tokens)
    process.stdout.write(formatReport(summary.tokens, options.tokens?.table ?? false));
}

/**
 * bench:real's report: per server and client era, each configuration's listing, results and
 * totals against the original's, the per-call check of the first aim (no result costs more than
 * the original's) and the second (totals at least 3x fewer with a token-saving feature on).
 */
import fs from "node:fs";
import path from "node:path";
import type { Era } from "./connect.ts";
import type { RunRecord } from "./drive.ts";

export interface ServerReport {
  readonly server: string;
  readonly package: string;
  /** The script's calls, by the original's tool names. */
  readonly calls: readonly string[];
  readonly runs: Readonly<Record<string, Partial<Record<Era, RunRecord>>>>;
}

/** What a result check compares: each call's own result (finds and handle reads are the feature's cost, in the totals). */
const callResults = (run: RunRecord) =>
  run.turns.filter((turn) => turn.kind === "call").map((turn) => turn.resultTokens);

const FEATURES = [
  "port+discovery",
  "port+budgets",
  "port+discovery+budgets",
  "port+code",
  "port+code+discovery",
  "port+code-only",
] as const;
const AIM_RATIO = 3;

interface ResultCheck {
  readonly config: string;
  readonly era: Era;
  /** Calls whose result cost more than the original's: the call, the original's tokens and this one's. */
  readonly over: readonly { call: string; original: number; tokens: number }[];
}

function resultChecks(report: ServerReport): ResultCheck[] {
  return Object.entries(report.runs)
    .filter(([config]) => config === "gateway" || config === "port")
    .flatMap(([config, byEra]) =>
      (Object.keys(byEra) as Era[]).map((era) => {
        const original = callResults(report.runs["original"]![era]!);
        const own = callResults(byEra[era]!);
        const over = own.flatMap((tokens, i) =>
          tokens > original[i]! ? [{ call: report.calls[i]!, original: original[i]!, tokens }] : [],
        );
        return { config, era, over };
      }),
    );
}

const ratio = (original: number, tokens: number) => Math.round((original / tokens) * 100) / 100;

function serverMarkdown(report: ServerReport): string[] {
  const lines = [`## ${report.server} (\`${report.package}\`)`, ""];
  for (const era of ["2026", "2025"] as const) {
    const original = report.runs["original"]![era]!;
    lines.push(
      `### ${era === "2026" ? "2026-07-28 client" : "2025 client"}`,
      "",
      "| configuration | era | tools listed | listing per request (first / largest) | requests | result tokens | total | total with cache | total vs original |",
      "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const [config, byEra] of Object.entries(report.runs)) {
      const run = byEra[era]!;
      const results = run.turns.reduce((sum, turn) => sum + turn.resultTokens, 0);
      lines.push(
        `| ${config} | ${run.era} | ${run.tools} | ${run.listingFirst} / ${run.listingMax} | ${run.requests} | ${results} | ${run.totals.tokens} | ${Math.round(run.totals.cached)} | ${ratio(original.totals.tokens, run.totals.tokens)}x |`,
      );
    }
    lines.push("", "| call | original | gateway | port |", "| --- | ---: | ---: | ---: |");
    const gateway = callResults(report.runs["gateway"]![era]!);
    const port = callResults(report.runs["port"]![era]!);
    callResults(original).forEach((tokens, i) =>
      lines.push(`| ${report.calls[i]} | ${tokens} | ${gateway[i]} | ${port[i]} |`),
    );
    lines.push("");
  }
  return lines;
}

const CODE_CONFIGS = ["port+code", "port+code+discovery", "port+code-only"] as const;

/** Code mode beside the original, per server and client: its programs, totals and ratios. */
function codeMarkdown(reports: readonly ServerReport[]): string[] {
  const lines = [
    "## Code mode (`zcp-serve --code`, `--code-only`)",
    "",
    "Each program is derived from the script (tools/bench-real/programs.ts); one request per program.",
    "",
    "| server | client | original: requests / total | port+code: programs / requests / total | vs original | port+code+discovery: requests / total | vs original | port+code-only: listing / total | vs original | aim (3x) |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const report of reports)
    for (const era of ["2026", "2025"] as const) {
      const original = report.runs["original"]![era]!;
      const runs = CODE_CONFIGS.map((config) => report.runs[config]![era]!);
      const [code, both, only] = runs;
      const programs = code!.turns.filter((turn) => turn.kind === "program").length;
      const ratios = runs.map((run) => ratio(original.totals.tokens, run.totals.tokens));
      const best = Math.max(...ratios);
      lines.push(
        `| ${report.server} | ${era} | ${original.requests} / ${original.totals.tokens} | ${programs} / ${code!.requests} / ${code!.totals.tokens} | ${ratios[0]}x | ${both!.requests} / ${both!.totals.tokens} | ${ratios[1]}x | ${only!.listingFirst} / ${only!.totals.tokens} | ${ratios[2]}x | ${best >= AIM_RATIO ? "met" : "missed"} (${best}x) |`,
      );
    }
  return [...lines, ""];
}

export function writeReport(dir: string, reports: readonly ServerReport[]): void {
  const aims = reports.map((report) => {
    const checks = resultChecks(report);
    const totals = FEATURES.flatMap((config) =>
      (["2026", "2025"] as const).map((era) => ({
        config,
        era,
        ratio: ratio(
          report.runs["original"]![era]!.totals.tokens,
          report.runs[config]![era]!.totals.tokens,
        ),
      })),
    );
    const best = Math.max(...totals.map((entry) => entry.ratio));
    return {
      server: report.server,
      /** The aim is the port's; the gateway's figures are reported beside it. */
      resultsNeverMore: checks.every((check) => check.config !== "port" || check.over.length === 0),
      resultChecks: checks,
      totals,
      totalsAimMet: best >= AIM_RATIO,
      bestTotalRatio: best,
    };
  });
  fs.writeFileSync(
    path.join(dir, "report.json"),
    // The texts stay out: the figures are the report (a text may hold a path of this machine).
    `${JSON.stringify({ aims, servers: reports }, (key, value: unknown) => (key === "text" ? undefined : value), 2)}\n`,
  );
  const overs = (aim: (typeof aims)[number], config: string) => {
    const missed = aim.resultChecks.filter(
      (check) => check.config === config && check.over.length > 0,
    );
    if (missed.length === 0) return "never more";
    return missed
      .map(
        (check) =>
          `${check.era} client: ${check.over.map((o) => `${o.call} ${o.tokens} vs ${o.original}`).join(", ")}`,
      )
      .join("; ");
  };
  const aimLines = aims.map(
    (aim) =>
      `- **${aim.server}**: the port's results never more than the original's: ${aim.resultsNeverMore ? "met" : `missed (${overs(aim, "port")})`}` +
      ` (the gateway's: ${overs(aim, "gateway")}); totals ${AIM_RATIO}x fewer with a feature on: ${aim.totalsAimMet ? "met" : "missed"}` +
      ` (best ${aim.bestTotalRatio}x: ${aim.totals.map((entry) => `${entry.config} ${entry.era} ${entry.ratio}x`).join(", ")}).`,
  );
  const markdown = [
    "# bench:real: real MCP servers against their zcp ports",
    "",
    "Generated by `pnpm bench:real` (tools/bench-real/run.ts); methodology in tools/bench-real/README.md.",
    "Tokens are o200k_base (gpt-tokenizer) of what the model sees: the tool definitions of each request",
    "(Chat Completions functions from the MCP listing), each call, each result's text. Totals are billed as",
    "bench:tokens bills (every request's prompt, its definitions included, plus its completion).",
    "",
    "## Aims",
    "",
    ...aimLines,
    "",
    'Why each aim is met or missed: tools/bench-real/README.md, "What the figures say".',
    "",
    ...codeMarkdown(reports),
    ...reports.flatMap(serverMarkdown),
  ];
  fs.writeFileSync(path.join(dir, "report.md"), `${markdown.join("\n")}\n`);
}

/**
 * What the benchmark needs to know about `zcp gen`: its JSON report line, how to check that a
 * run really generated every tool, and how to make the next run cold.
 */
import fs from "node:fs";
import path from "node:path";

interface ZcpDiagnostic {
  readonly severity: "error" | "warning";
  readonly code: string;
  readonly message: string;
  readonly file: string | null;
  readonly line: number;
  readonly column: number;
}

/** One line of `zcp gen --reporter json`. */
export interface ZcpReport {
  readonly ok: boolean;
  readonly tools: number;
  readonly hash: string | null;
  readonly diagnostics: ZcpDiagnostic[];
  readonly written?: string[];
  readonly removed?: string[];
  readonly cached: boolean;
}

/** Throws, listing the first diagnostics, unless `report` is a clean run with `tools` tools. */
export function assertGenerated(report: ZcpReport, tools: number, what: string): void {
  const errors = report.diagnostics.filter((d) => d.severity === "error");
  if (report.ok && report.tools === tools && errors.length === 0) return;
  const listed = errors
    .slice(0, 20)
    .map((d) => `  ${d.file ?? "zcp"}:${d.line}:${d.column} ${d.code} ${d.message}`);
  throw new Error(
    `${what}: expected ok with ${tools} tools and no errors, got ok=${report.ok}, ${report.tools} tools, ${errors.length} error(s)\n${listed.join("\n")}`,
  );
}

/** Removes the output folder and the fast-path cache, so that the next run starts cold. */
export function makeCold(project: string, outDir: string): void {
  fs.rmSync(path.join(project, outDir), { recursive: true, force: true });
  fs.rmSync(path.join(project, "node_modules", ".cache", "zcp"), { recursive: true, force: true });
}

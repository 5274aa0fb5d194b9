/** The tables of the protocol surfaces: one row per tier (and its summaries), or per case. */
import type { BenchCase } from "../plans/case.ts";
import { TIERS } from "../plans/suite.ts";
import { PROTOCOLS, type Catalog, type Protocol } from "../surfaces/spec.ts";
import { DEFAULT_FC, of, type Figures } from "./figures.ts";
import { head, int, one, row, x } from "./format.ts";
import { ZCP, type Summary } from "./summary.ts";

const RATIOS = ZCP.map((protocol) => `mcp/${protocol}`);
export const SHOWN = ["mcp", DEFAULT_FC, "zcp-compact"] as const satisfies readonly Protocol[];
const slash = (pick: (p: Protocol) => number | string) =>
  SHOWN.map((p) => {
    const value = pick(p);
    return typeof value === "number" ? one(value) : value;
  }).join(" / ");
const figureColumns = [...PROTOCOLS, ...RATIOS, ...RATIOS.map((r) => `cached ${r}`)].map(
  (title) => [title, true] as const,
);

const tierHeader = head([
  ["tier", false],
  ["cases", true],
  ...figureColumns,
  [`turns ${SHOWN.join(" / ")}`, true],
  ["verified", false],
]);
const caseHeader = head([
  ["tier", false],
  ["case", false],
  ...figureColumns,
  [`plan billed ${SHOWN.join(" / ")}`, false],
  [`turns ${SHOWN.join(" / ")}`, true],
  ["verified", false],
]);
/** A summary's row; `cases` is what the second column says, `planColumn` adds the (empty) plan column of the per-case tables. */
const summaryRow = (
  label: string,
  summary: Summary,
  cases = String(summary.cases),
  planColumn = false,
) =>
  row([
    `**${label}**`,
    cases,
    ...PROTOCOLS.map((p) => int(summary.tokens[p])),
    ...RATIOS.map((r) => x(summary.ratios[r]!)),
    ...RATIOS.map((r) => x(summary.cachedRatios[r]!)),
    ...(planColumn ? ["—"] : []),
    slash((p) => Math.round(summary.turns[p] * 10) / 10),
    `${summary.verified}/${summary.cases}`,
  ]);
export const tierTable = (f: Figures, catalog: Catalog, extra: readonly string[] = []) =>
  [
    tierHeader,
    ...[...TIERS, "overall", ...extra].map((tier) => summaryRow(tier, f.tiers[catalog][tier]!)),
  ].join("\n");

const caseRow = (f: Figures, bench: BenchCase, catalog: Catalog) => {
  const run = (p: Protocol) => of(f.runs, bench.id, p, catalog);
  const verified = f.runs
    .filter((r) => r.case === bench.id && r.catalog === catalog)
    .every((r) => r.verified);
  return row([
    bench.tier,
    bench.id,
    ...PROTOCOLS.map((p) => int(run(p).tokens)),
    ...ZCP.map((p) => x(run("mcp").tokens / run(p).tokens)),
    ...ZCP.map((p) => x(run("mcp").cached / run(p).cached)),
    slash((p) =>
      run(p).cachedPlan === run(p).plan
        ? run(p).plan
        : `${run(p).plan} (cached: ${run(p).cachedPlan})`,
    ),
    slash((p) => run(p).turns.length),
    verified ? "yes" : "NO",
  ]);
};
export const caseTable = (
  f: Figures,
  cases: readonly BenchCase[],
  catalog: Catalog,
  summary?: readonly [string, Summary],
) =>
  [
    caseHeader,
    ...cases.map((bench) => caseRow(f, bench, catalog)),
    ...(summary
      ? [summaryRow(summary[0], summary[1], `average of ${summary[1].cases}`, true)]
      : []),
  ].join("\n");

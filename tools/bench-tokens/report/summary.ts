/**
 * The runs summarized: per-case averages per protocol and the ratios of the pairs compared, per
 * tier and catalog, in the large catalog, and for the weather and handle cases.
 */
import type { CaseRun } from "../plans/case.ts";
import { TIERS, WORKFLOW_CASES, type Suite } from "../plans/suite.ts";
import {
  CATALOGS,
  CODE_PROTOCOLS,
  PROTOCOLS,
  SEARCH_PROTOCOLS,
  type AnyProtocol,
  type Catalog,
  type Protocol,
} from "../surfaces/spec.ts";

export const ZCP = PROTOCOLS.filter((protocol) => protocol !== "mcp");

type PerProtocol = Record<Protocol, number>;
/** A ratio: its label, and the protocols over and under the line. */
type Pair = readonly [label: string, over: AnyProtocol, under: AnyProtocol];
const PROTOCOL_PAIRS: readonly Pair[] = ZCP.map((p) => [`mcp/${p}`, "mcp", p]);
/** The tool-search ratios; `mcp-primitive` is mcp listing the same catalog the searches search. */
/** The code-mode ratios (`mcp-all/zcp-code`, across catalogs, is added to the primitive tiers below). */
const CODE_PAIRS: readonly Pair[] = [
  ["mcp-code/zcp-code", "mcp-code", "zcp-code"],
  ["mcp-search-execute/zcp-code", "mcp-search-execute", "zcp-code"],
  ["mcp-primitive/zcp-code", "mcp", "zcp-code"],
];
export const SEARCH_PAIRS: readonly Pair[] = [
  ["mcp-search/zcp-search", "mcp-search", "zcp-search"],
  ["mcp-find-2026/zcp-search", "mcp-find-2026", "zcp-search"],
  ["mcp-find-2026/mcp-search", "mcp-find-2026", "mcp-search"],
  ["mcp-search/zcp-search-fc", "mcp-search", "zcp-search-fc"],
  ["mcp-primitive/zcp-search", "mcp", "zcp-search"],
  ["mcp-primitive/zcp-search-fc", "mcp", "zcp-search-fc"],
];

export interface Summary {
  readonly cases: number;
  readonly verified: number;
  /** Per-case averages, per protocol that ran: prompt plus completion as sent, each part, and the cost with the prefix cache (uncached-token equivalents). */
  readonly tokens: PerProtocol & Partial<Record<Exclude<AnyProtocol, Protocol>, number>>;
  readonly prompt: PerProtocol & Partial<Record<Exclude<AnyProtocol, Protocol>, number>>;
  readonly completion: PerProtocol & Partial<Record<Exclude<AnyProtocol, Protocol>, number>>;
  /** The part of `prompt` a prefix cache serves (of the billed plan). */
  readonly cachedPrompt: PerProtocol & Partial<Record<Exclude<AnyProtocol, Protocol>, number>>;
  readonly cached: PerProtocol & Partial<Record<Exclude<AnyProtocol, Protocol>, number>>;
  readonly calls: PerProtocol & Partial<Record<Exclude<AnyProtocol, Protocol>, number>>;
  readonly turns: PerProtocol & Partial<Record<Exclude<AnyProtocol, Protocol>, number>>;
  /** Each pair's ratio (mcp over each ZCP protocol; the search pairs where searches ran), on `tokens` and on `cached`. */
  readonly ratios: Record<string, number>;
  readonly cachedRatios: Record<string, number>;
}

/** Averages runs over their cases, for each protocol among them, with the ratios of the pairs whose protocols both ran. */
function summarize(runs: readonly CaseRun[]): Summary {
  const ids = [...new Set(runs.map((run) => run.case))];
  const cases = ids.length;
  const ran = [...PROTOCOLS, ...SEARCH_PROTOCOLS, ...CODE_PROTOCOLS].filter((p) =>
    runs.some((run) => run.protocol === p),
  );
  const average = (pick: (run: CaseRun) => number) =>
    Object.fromEntries(
      ran.map((p) => [
        p,
        runs.filter((run) => run.protocol === p).reduce((sum, run) => sum + pick(run), 0) / cases,
      ]),
    ) as Summary["tokens"];
  const tokens = average((run) => run.tokens);
  const cached = average((run) => run.cached);
  const verified = ids.filter((id) =>
    runs.filter((run) => run.case === id).every((run) => run.verified),
  ).length;
  const ratio = (figures: Summary["tokens"]) =>
    Object.fromEntries(
      [...PROTOCOL_PAIRS, ...SEARCH_PAIRS, ...CODE_PAIRS]
        .filter(([, over, under]) => ran.includes(over) && ran.includes(under))
        .map(([label, over, under]) => [label, figures[over]! / figures[under]!]),
    );
  return {
    cases,
    verified,
    tokens,
    prompt: average((run) => run.prompt),
    completion: average((run) => run.completion),
    cachedPrompt: average((run) => run.cachedPrompt),
    cached,
    calls: average((run) => run.calls),
    turns: average((run) => run.turns.length),
    ratios: ratio(tokens),
    cachedRatios: ratio(cached),
  };
}

/** The runs over one catalog. */
export const inCatalog = (runs: readonly CaseRun[], catalog: Catalog) =>
  runs.filter((run) => run.catalog === catalog);
/** The B-D cases whose workflow tool is general (the others keep their case's shape). */
export const GENERAL = new Set(
  WORKFLOW_CASES.filter((bench) => bench.workflow.shape.general).map((bench) => bench.id),
);

export interface Summaries {
  readonly tiers: Record<Catalog, Record<string, Summary>>;
  readonly largeTiers: Record<string, Summary>;
  readonly weather: Summary;
  readonly handles: Summary;
}

export function summarizeSuite({ runs, largeRuns }: Suite): Summaries {
  /** Per catalog: each tier, overall, and the B-D cases whose workflow tool is general or case-shaped. */
  const tiers = {} as Record<Catalog, Record<string, Summary>>;
  for (const catalog of CATALOGS) {
    const spreadsheet = inCatalog(runs, catalog).filter((run) => TIERS.includes(run.tier));
    const workflowRuns = (general: boolean) =>
      spreadsheet.filter((run) => run.tier !== "A" && GENERAL.has(run.case) === general);
    tiers[catalog] = {
      ...Object.fromEntries(
        TIERS.map((tier) => [tier, summarize(spreadsheet.filter((run) => run.tier === tier))]),
      ),
      overall: summarize(spreadsheet),
      "B-D general": summarize(workflowRuns(true)),
      "B-D case-shaped": summarize(workflowRuns(false)),
    };
  }
  /** The tool-search rows of runs over the primitives: each tier, the handle cases, overall (A-D). */
  function searchTiers(source: readonly CaseRun[]): Record<string, Summary> {
    const primitive = source.filter((run) => run.catalog === "primitive");
    const spreadsheet = primitive.filter((run) => TIERS.includes(run.tier));
    return {
      ...Object.fromEntries(
        TIERS.map((tier) => [tier, summarize(spreadsheet.filter((run) => run.tier === tier))]),
      ),
      handles: summarize(primitive.filter((run) => run.tier === "handles")),
      overall: summarize(spreadsheet),
    };
  }
  tiers.primitive.handles = searchTiers(runs).handles!;
  const largeTiers = searchTiers(largeRuns);
  const weather = summarize(inCatalog(runs, "all").filter((run) => run.tier === "weather"));
  const handles = summarize(inCatalog(runs, "all").filter((run) => run.tier === "handles"));
  /** `mcp-all/zcp-code`: mcp listing every tool of the workbench (workflow tools too) against a program over the primitives. */
  for (const tier of [...TIERS, "overall", "handles"]) {
    const all = tier === "handles" ? handles : tiers.all[tier]!;
    const primitive = tiers.primitive[tier]!;
    primitive.ratios["mcp-all/zcp-code"] = all.tokens.mcp / primitive.tokens["zcp-code"]!;
    primitive.cachedRatios["mcp-all/zcp-code"] = all.cached.mcp / primitive.cached["zcp-code"]!;
  }
  return { tiers, largeTiers, weather, handles };
}

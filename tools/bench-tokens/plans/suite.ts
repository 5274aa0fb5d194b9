/**
 * The benchmark's suite: which case runs on which surface, in the order they run. Every case of
 * the spreadsheet tiers over both catalogs on the protocol surfaces, the weather and handle cases
 * over all tools; the tool-search surfaces over the primitives, then again in the large catalog
 * (catalog-large.ts); the code-mode surfaces over the primitives, then in the large catalog.
 */
import type { GeneratedModule } from "@zcp/runtime";
import { CODE_PROTOCOLS, SEARCH_PROTOCOLS, SURFACES, type SurfaceSpec } from "../surfaces/spec.ts";
import { runCase, type BenchCase, type CaseRun } from "./case.ts";
import { findFigures, largeCatalog, type FindFigures } from "./catalog-large.ts";
import { HANDLE_CASES } from "./handles.ts";
import { workbench as WORKBENCH } from "./registries.ts";
import { TIER_A_CASES } from "./tier-a.ts";
import { TIER_B_CASES } from "./tier-b.ts";
import { TIER_C_CASES } from "./tier-c.ts";
import { TIER_D_CASES } from "./tier-d.ts";
import { WEATHER_CASES } from "./weather.ts";
import type { WorkflowCase } from "./workflow-case.ts";

export const WORKFLOW_CASES: readonly WorkflowCase[] = [
  ...TIER_B_CASES,
  ...TIER_C_CASES,
  ...TIER_D_CASES,
];
export const SPREADSHEET: readonly BenchCase[] = [...TIER_A_CASES, ...WORKFLOW_CASES];
const CASES = [...WEATHER_CASES, ...SPREADSHEET, ...HANDLE_CASES];
export const TIERS = [...new Set(SPREADSHEET.map((bench) => bench.tier))];
/** The spreadsheet tiers run over both catalogs; the weather (no workflow group) and handle cases over all tools only. */
const surfacesOf = (bench: BenchCase) =>
  SURFACES.filter((surface) => TIERS.includes(bench.tier) || surface.catalog === "all");

/** What the suite ran: every run on the workbench and weather registries, every run in the large catalog, and the large catalog's find figures. */
export interface Suite {
  readonly runs: readonly CaseRun[];
  readonly largeRuns: readonly CaseRun[];
  readonly large: GeneratedModule;
  readonly finding: FindFigures;
}

/** Runs every case on its surfaces, one at a time (each run has the workspace to itself). */
export async function runSuite(): Promise<Suite> {
  const runs: CaseRun[] = [];
  for (const bench of CASES)
    for (const surface of surfacesOf(bench)) runs.push(await runCase(bench, surface));

  // Tool search: the spreadsheet and handle cases over the primitives (what a search stands in for
  // listing), next to mcp listing the same catalog; then all of it again in the large catalog.
  const SEARCHED = [...SPREADSHEET, ...HANDLE_CASES];
  const SEARCH_SPECS: readonly SurfaceSpec[] = SEARCH_PROTOCOLS.map((protocol) => ({
    protocol,
    catalog: "primitive",
  }));
  const MCP_PRIMITIVE: SurfaceSpec = { protocol: "mcp", catalog: "primitive" };
  for (const bench of HANDLE_CASES) runs.push(await runCase(bench, MCP_PRIMITIVE));
  for (const bench of SEARCHED)
    for (const spec of SEARCH_SPECS) runs.push(await runCase(bench, spec));
  const LARGE = largeCatalog(WORKBENCH);
  const largeRuns: CaseRun[] = [];
  for (const bench of SEARCHED)
    for (const spec of [MCP_PRIMITIVE, ...SEARCH_SPECS])
      largeRuns.push(await runCase({ ...bench, registry: LARGE }, spec));
  const finding = findFigures(LARGE);
  // Code mode: the same cases, one program each, over the primitives.
  const CODE_SPECS: readonly SurfaceSpec[] = CODE_PROTOCOLS.map((protocol) => ({
    protocol,
    catalog: "primitive",
  }));
  for (const bench of SEARCHED)
    for (const spec of CODE_SPECS) runs.push(await runCase(bench, spec));
  // In the large catalog, mcp-code's API text holds every tool; mcp-search-execute and zcp-code
  // find what they need.
  const LARGE_CODE: readonly SurfaceSpec[] = [
    { protocol: "mcp-code", catalog: "primitive" },
    { protocol: "mcp-search-execute", catalog: "primitive" },
    { protocol: "zcp-code", catalog: "primitive", discover: true },
  ];
  for (const bench of SEARCHED)
    for (const spec of LARGE_CODE)
      largeRuns.push(await runCase({ ...bench, registry: LARGE }, spec));
  return { runs, largeRuns, large: LARGE, finding };
}

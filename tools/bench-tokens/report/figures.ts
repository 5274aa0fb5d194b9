/** Everything the report is written from: the suite's runs, their summaries, the listings and the corpus measured. */
import type { measureCorpus } from "../../bench-listing/measure.ts";
import type { CaseRun } from "../plans/case.ts";
import type { Suite } from "../plans/suite.ts";
import type { Catalog, Protocol } from "../surfaces/spec.ts";
import type { Listings } from "./listings.ts";
import type { Summaries } from "./summary.ts";

export interface Figures extends Suite, Summaries, Listings {
  readonly corpus: ReturnType<typeof measureCorpus>;
}

/** The function-calling surface a user ships by default: full artifacts (lean ones are an option of tools/list). */
export const DEFAULT_FC = "zcp-fc" satisfies Protocol;

/** The run of case `id` on `protocol` over `catalog`. */
export const of = (
  runs: readonly CaseRun[],
  id: string,
  protocol: Protocol,
  catalog: Catalog = "all",
) => runs.find((run) => run.case === id && run.protocol === protocol && run.catalog === catalog)!;

/**
 * `pnpm bench:tokens`: what a model reads and writes to do the same task on each surface,
 * counted with gpt-tokenizer (o200k_base); every plan open to a surface runs for real through
 * our server, its answer and workbook must pass the case's verifier, and the surface is billed
 * for its cheapest. Three rooms: surfaces/ (what each surface sends and how it runs a turn; the
 * accounting rules in transcript.ts), plans/ (the cases, their plans and programs, the large
 * catalog, the suite of runs; the plan choice and the searches in case.ts), report/ (the
 * summaries, tables and text). Writes tools/bench-tokens/report.md and report.json.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { measureCorpus } from "../bench-listing/measure.ts";
import { runSuite } from "./plans/suite.ts";
import type { Figures } from "./report/figures.ts";
import { measureListings } from "./report/listings.ts";
import { targetTable } from "./report/protocols.ts";
import { aimTable, searchTable } from "./report/search.ts";
import { summarizeSuite } from "./report/summary.ts";
import { tierTable } from "./report/tier-tables.ts";
import { writeReports } from "./report/write.ts";
import { closeSurfaces } from "./surfaces/open.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));

const suite = await runSuite();
const summaries = summarizeSuite(suite);
const corpus = measureCorpus();
const listings = await measureListings();
const f: Figures = { ...suite, ...summaries, ...listings, corpus };
writeReports(f, HERE);
const { runs, largeRuns, largeTiers } = f;
console.log(tierTable(f, "all", ["B-D general", "B-D case-shaped"]));
console.log(`\n${tierTable(f, "primitive")}`);
console.log(`\n${targetTable(f)}`);
console.log(
  `\n${searchTable(f.tiers.primitive, runs)}\n\n${searchTable(largeTiers, largeRuns)}\n\n${aimTable(f)}`,
);
const failures = [...runs, ...largeRuns].filter((run) => !run.verified);
for (const run of failures)
  console.error(
    `NOT VERIFIED: ${run.case} on ${run.protocol} (${run.catalog}): ${[...run.errors, ...run.problems].join("; ")}`,
  );
console.log(
  `\nwrote ${path.relative(process.cwd(), path.join(HERE, "report.md"))} and report.json`,
);
await closeSurfaces();
if (failures.length > 0) process.exitCode = 1;

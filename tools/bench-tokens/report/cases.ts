/** The per-case part of the report: the workflow tools, every case's row, the weather and the handle cases. */
import { HANDLE_CASES } from "../plans/handles.ts";
import { SPREADSHEET, WORKFLOW_CASES } from "../plans/suite.ts";
import { WEATHER_CASES } from "../plans/weather.ts";
import type { Protocol } from "../surfaces/spec.ts";
import { CACHE } from "../surfaces/transcript.ts";
import { DEFAULT_FC, of, type Figures } from "./figures.ts";
import { int, list, row, x } from "./format.ts";
import { inCatalog } from "./summary.ts";
import { caseTable } from "./tier-tables.ts";

const TOTALS = HANDLE_CASES.filter((bench) => bench.id.startsWith("region_total")).map(
  (bench) => bench.id,
);

export function caseSections(f: Figures): string {
  const { runs, weather, handles, weatherListing } = f;
  const workflowRows = WORKFLOW_CASES.map((bench) =>
    row([
      `\`${bench.workflow.tool}\``,
      bench.id,
      bench.workflow.shape.general ? "general" : "**case-shaped**",
      bench.workflow.shape.note,
    ]),
  ).join("\n");
  const handlePlan = (plan: string, p: Protocol) =>
    HANDLE_CASES.filter((bench) => of(runs, bench.id, p).plan === plan).map((bench) => bench.id);
  const weatherCached = inCatalog(runs, "all").some(
    (run) => run.tier === "weather" && run.cachedPrompt > 0,
  );
  return `## Workflow tools

| tool | case | shape | why |
| --- | --- | --- | --- |
${workflowRows}

## Per case

All 40 tools (plan billed: the plan the surface was billed for; every plan open to it was run and verified):

${caseTable(f, SPREADSHEET, "all")}

The 19 primitives:

${caseTable(f, SPREADSHEET, "primitive")}

## Weather (zcp-reference.md §8.1)

Four small tools and no workflow group, so both catalogs are the same four tools; the one plan runs
on every surface. The strict definitions are ${weatherListing[DEFAULT_FC].tokens} tokens against MCP's ${weatherListing.mcp.tokens}, and the
\`{"ok":true,"value":…}\` envelope is billed again on every later turn; zcp-compact's instructions are
${weatherListing["zcp-compact"].tokens} tokens. ${weatherCached ? `Some prompts reach the cache's ${int(CACHE.minimumTokens)}-token minimum.` : `No prompt here reaches the cache's ${int(CACHE.minimumTokens)}-token minimum, so the cached figures are the raw ones.`} The reference's published 1.59x came from MCP runs that retried every weather call (its MCP
server had no city enum).

${caseTable(f, WEATHER_CASES, "all", ["weather", weather])}

## Large results: handles

The reference never returned a large result. Here three questions about an order log of 240 and
of 2,400 rows (\`handles.ts\`), over all 40 tools. Each can be answered by reading the whole sheet (a
plain MCP server answers with every row, which then stays in the transcript; the ZCP surfaces answer
with a handle, a one-line summary and the row count, and the agent asks \`zcp.handle\` for what it
needs in one more turn), or by asking the workbook's metadata for the log's size first and reading
only the rows and columns the question needs. Both plans are open to every surface, and each is
billed for its cheapest: reading the whole sheet is the cheaper plan for ${DEFAULT_FC} in
${list(handlePlan("read the sheet", DEFAULT_FC))}, for zcp-compact in ${list(handlePlan("read the sheet", "zcp-compact"))}, and for mcp in
${list(handlePlan("read the sheet", "mcp"))}. Where only a few rows matter, the metadata plan lets MCP read just those too. The totals need every row: there a handle only adds a turn
(mcp/${DEFAULT_FC} ${TOTALS.map((id) => `${x(of(runs, id, "mcp").tokens / of(runs, id, DEFAULT_FC).tokens)} for ${id}`).join(", ")}).

${caseTable(f, HANDLE_CASES, "all", ["handles", handles])}

`;
}

/** The tool-search part of the report: the search surfaces over the workbench and in the large catalog. */
import type { GeneratedModule } from "@zcp/runtime";
import type { CaseRun } from "../plans/case.ts";
import { TIERS } from "../plans/suite.ts";
import {
  CATALOG_EXCLUDES,
  SEARCH_PROTOCOLS,
  type AnyProtocol,
  type SearchProtocol,
} from "../surfaces/spec.ts";
import { CACHE } from "../surfaces/transcript.ts";
import type { Figures } from "./figures.ts";
import { head, int, list, ms, one, percent, row, x } from "./format.ts";
import { SEARCH_PAIRS, type Summary } from "./summary.ts";

const SEARCH_SHOWN = ["mcp", ...SEARCH_PROTOCOLS] as const satisfies readonly AnyProtocol[];
const searchLabel = (p: AnyProtocol) => (p === "mcp" ? "mcp-primitive" : p);
/** The ratios also shown with the cache. */
const SEARCH_CACHED = [
  "mcp-search/zcp-search",
  "mcp-find-2026/zcp-search",
  "mcp-find-2026/mcp-search",
  "mcp-search/zcp-search-fc",
  "mcp-primitive/zcp-search",
];
const SEARCH_ROWS = [...TIERS, "handles", "overall"];
/** What a search round cost a run: its searches, and the tools the first round's query missed. */
const searchesOf = (source: readonly CaseRun[], protocol: SearchProtocol) =>
  source.filter((run) => run.protocol === protocol && run.catalog === "primitive");
/** The tools some search did not find (a second query may have), and those no search of their run found. */
const missedTools = (source: readonly CaseRun[], never: boolean) => [
  ...new Set(
    searchesOf(source, "zcp-search").flatMap((run) =>
      run.searches
        .filter((search) =>
          never
            ? !run.searches.some((other) => other.for === search.for && other.found)
            : !search.found,
        )
        .map((search) => search.for),
    ),
  ),
];
const perCase = (source: readonly CaseRun[], tier: string, pick: (run: CaseRun) => number) => {
  const chosen = searchesOf(source, "zcp-search").filter((run) =>
    tier === "overall" ? TIERS.includes(run.tier) : run.tier === tier,
  );
  return chosen.reduce((sum, run) => sum + pick(run), 0) / Math.max(1, chosen.length);
};
const searchHeader = head([
  ["tier", false],
  ["cases", true],
  ...SEARCH_SHOWN.map((p) => [searchLabel(p), true] as const),
  ...SEARCH_PAIRS.map(([label]) => [label, true] as const),
  ...SEARCH_CACHED.map((label) => [`cached ${label}`, true] as const),
  [`turns ${SEARCH_SHOWN.map(searchLabel).join(" / ")}`, true],
  ["searches (misses) per case", true],
  ["verified", false],
]);
export const searchTable = (rows: Record<string, Summary>, source: readonly CaseRun[]) =>
  [
    searchHeader,
    ...SEARCH_ROWS.map((tier) => {
      const summary = rows[tier]!;
      return row([
        `**${tier}**`,
        String(summary.cases),
        ...SEARCH_SHOWN.map((p) => int(summary.tokens[p]!)),
        ...SEARCH_PAIRS.map(([label]) => x(summary.ratios[label]!)),
        ...SEARCH_CACHED.map((label) => x(summary.cachedRatios[label]!)),
        SEARCH_SHOWN.map((p) => one(Math.round(summary.turns[p]! * 10) / 10)).join(" / "),
        `${one(Math.round(perCase(source, tier, (run) => run.searches.length) * 10) / 10)} (${one(Math.round(perCase(source, tier, (run) => run.searches.filter((search) => !search.found).length) * 10) / 10)})`,
        `${summary.verified}/${summary.cases}`,
      ]);
    }),
  ].join("\n");
const SEARCH_AIM = 3;
const SCALE_AIM = 1.2;
/** zcp-search's cost in the large catalog over its cost over the workbench alone, per row. */
const scaleOf =
  ({ tiers, largeTiers }: Figures) =>
  (tier: string) =>
    largeTiers[tier]!.tokens["zcp-search"]! / tiers.primitive[tier]!.tokens["zcp-search"]!;
/** `scaleOf` for every row, as report.json gives it. */
export const searchScales = (f: Figures) =>
  Object.fromEntries(SEARCH_ROWS.map((tier) => [tier, scaleOf(f)(tier)]));
/** The tools of the large catalog a search surface searches: those outside the workflow group. */
export const largeSearchable = (large: GeneratedModule) =>
  large.registry.tools.filter(
    (tool) => !tool.groups.some((group) => CATALOG_EXCLUDES.primitive.includes(group)),
  ).length;

/** The aims of tool search, met or missed, per row. */
export function aimTable(f: Figures): string {
  const { tiers, largeTiers } = f;
  const smallSearch = tiers.primitive;
  const scale = scaleOf(f);
  const aimRows = SEARCH_ROWS.map((tier) => {
    const small = smallSearch[tier]!.ratios["mcp-search/zcp-search"]!;
    const large = largeTiers[tier]!.ratios["mcp-search/zcp-search"]!;
    return row([
      tier,
      x(small),
      small >= SEARCH_AIM ? "met" : "**missed**",
      x(large),
      large >= SEARCH_AIM ? "met" : "**missed**",
      x(scale(tier)),
      scale(tier) <= SCALE_AIM ? "met" : "**missed**",
      x(largeTiers[tier]!.ratios["mcp-primitive/zcp-search"]!),
    ]);
  });
  return [
    head([
      ["tier", false],
      ["mcp-search/zcp-search, workbench", true],
      [`≥ ${SEARCH_AIM}x`, false],
      ["mcp-search/zcp-search, large", true],
      [`≥ ${SEARCH_AIM}x`, false],
      ["zcp-search large/workbench", true],
      [`≤ ${SCALE_AIM}x`, false],
      ["mcp-primitive/zcp-search, large", true],
    ]),
    ...aimRows,
  ].join("\n");
}

export function searchSection(f: Figures): string {
  const { runs, largeRuns, tiers, largeTiers, large, finding, listings } = f;
  const smallSearch = tiers.primitive;
  const scale = scaleOf(f);
  const searchMissed = SEARCH_ROWS.filter(
    (tier) =>
      smallSearch[tier]!.ratios["mcp-search/zcp-search"]! < SEARCH_AIM ||
      largeTiers[tier]!.ratios["mcp-search/zcp-search"]! < SEARCH_AIM,
  );
  const scaleMissed = SEARCH_ROWS.filter((tier) => scale(tier) > SCALE_AIM);
  const findTool = (source: readonly CaseRun[]) =>
    source.find((run) => run.protocol === "mcp-search")!;
  const searchToolTokens = {
    "mcp-search": findTool(runs).toolTokens,
    "mcp-find-2026": searchesOf(runs, "mcp-find-2026")[0]!.toolTokens,
    "zcp-search": searchesOf(runs, "zcp-search")[0]!.toolTokens,
    "zcp-search-fc": searchesOf(runs, "zcp-search-fc")[0]!.toolTokens,
  };
  /** What one search's answer costs on a search surface, averaged over every search of its runs over the workbench. */
  const answerTokens = (protocol: SearchProtocol) => {
    const chosen = searchesOf(runs, protocol);
    return (
      chosen.reduce((sum, run) => sum + run.searchAnswerTokens, 0) /
      chosen.reduce((sum, run) => sum + run.searches.length, 0)
    );
  };
  const largeListing = largeRuns.find((run) => run.protocol === "mcp")!.toolTokens;
  /** The keys of the definitions `mcp-find-2026`'s finds answered (as zcp serves them), over every run. */
  const FIND_KEYS = (() => {
    const keys = new Set<string>();
    for (const run of searchesOf(runs, "mcp-find-2026"))
      for (const message of run.messages) {
        if (message.role !== "tool") continue;
        const value = JSON.parse(message.content) as { tools?: Record<string, unknown>[] } | null;
        for (const tool of Array.isArray(value?.tools) ? value.tools : [])
          if ("inputSchema" in tool) for (const key of Object.keys(tool)) keys.add(key);
      }
    return [...keys].map((key) => `\`${key}\``).join(", ");
  })();
  /** How the benchmark reaches the 2026-07-28 surface. */
  const ERA_2026 = {
    client:
      "read with the official v2 SDK client pinned to 2026-07-28 (no fallback to 2025), over zcp's web-standard handler (`createFetchHandler`) in process",
  };
  return `## Tool search

The anchor is tool search as Anthropic (Tool Search Tool, \`defer_loading\`) and OpenAI (\`tool_search\`)
define it: every request lists a search tool, the other definitions are deferred, and a search
returns up to 5 full definitions, which stay in the conversation for every later request. Every
search surface uses our server's \`zcp.find_tools\` (one ranking engine, BM25F over the build-time
index) over the same catalog, the 19 primitives (the catalog a search stands in for listing; the
workflow tools are a separate saving, measured above), with the same query texts and k = 5, so the
comparison is of protocols, not of rankers:

- \`mcp-search\` (the 2025 era, MCP 2025-11-25): a plain MCP server whose sessions start with the search tool alone (\`profile:
  "discover"\`, ${int(searchToolTokens["mcp-search"])} tokens of definitions per request); a search's result is billed as the found tools' Chat
  Completions functions, exactly as \`mcp\` bills a listed tool (the MCP result's titles, annotations
  and \`_meta\` are dropped, as a host would); calls are function calls; results whole, no handles.
  The session's listing grows with what it finds, a side effect MCP 2026-07-28 forbids; it is also
  what Anthropic's and OpenAI's tool search do on the host side, over any server.
- \`mcp-find-2026\` (the 2026-07-28 era): the same server where a listing may not change: its discover
  view is fixed (\`runtime.session({ surface: "mcp", fixed: true })\`) and always lists \`zcp_find_tools\`
  and \`zcp_call_tool\` (${int(searchToolTokens["mcp-find-2026"])} tokens per request); ${ERA_2026.client}; a find answers the name, description and input schema of the found tools' MCP
  definitions, and the host passes that text on as the tool's result (nothing is listed); a call of a
  found tool is a function call of \`zcp_call_tool\` with \`{ name, arguments }\`; results whole, no handles.
- \`zcp-search\` (native ZCP, the same on both MCP eras): ZCP from the discover view: the system prompt carries the CALL/RET grammar
  and the search tool's planner line (${int(searchToolTokens["zcp-search"])} tokens); \`zcp.find_tools\` answers planner lines; calls are
  \`CALL\` lines; large results are handles.
- \`zcp-search-fc\`: the same session with OpenAI strict function calling: the search tool's strict
  artifact (${int(searchToolTokens["zcp-search-fc"])} tokens) on every request, and the session initialized with \`findFormat: "openai-chat"\`,
  so that a search answers the found tools' strict artifacts.

Plans: the cases' own plans that call only primitives. Before its first step a plan searches, in one
turn, once for each registry tool it calls (known from running it on \`zcp-compact\`), with the
first sentence of that tool's description as the query (a stand-in for the step a model would
describe after reading the ask; the same text on every search surface); a tool that search did not
return is searched for once more, in a second turn, with the words of its alias. A plan may call
only what its searches returned (a call of anything else closes the plan to the surface). Each
search is a call and its turn is billed, misses included. \`mcp-primitive\` is \`mcp\` listing the
same 19 tools on every request.

Workbench alone (per-case averages):

${searchTable(smallSearch, runs)}

The large catalog: the ${int(finding.corpusTools)} real tool listings of \`fixtures/corpus\` and the workbench served as one
registry of ${int(finding.tools)} tools (\`catalog-large.ts\`; the corpus listings become registry tools through the
JSON Schema → planner path \`bench:listing\` measures, and calling one answers \`not_implemented\`).
The search surfaces search the ${int(largeSearchable(large))} tools outside the workflow group; \`mcp-primitive\` lists all of them
on every request (${int(largeListing)} tokens):

${searchTable(largeTiers, largeRuns)}

Aims: \`mcp-search/zcp-search\` at least ${SEARCH_AIM}x in every tier, and \`zcp-search\` in the large catalog at
most ${SCALE_AIM}x its cost over the workbench alone:

${aimTable(f)}

${searchMissed.length === 0 ? `\`mcp-search/zcp-search\` is at least ${SEARCH_AIM}x everywhere.` : `\`mcp-search/zcp-search\` is below ${SEARCH_AIM}x in ${searchMissed.join(", ")}. Both sides make the same searches and find the same tools, and take the same turns but where a handle adds one; what differs is what each search's answer carries: ${int(answerTokens("mcp-search"))} tokens on average as MCP functions, ${int(answerTokens("zcp-search"))} as planner lines (${x(answerTokens("mcp-search") / answerTokens("zcp-search"))}; ${int(answerTokens("zcp-search-fc"))} as strict artifacts), carried on every later request. The system prompt, the ask, the calls and the results are about the same size on both sides and weigh on the ratio the more, the fewer the searches (Tier A: one search). The plans are not lengthened to win.`} ${scaleMissed.length === 0 ? `\`zcp-search\` costs at most ${SCALE_AIM}x in the large catalog what it costs over the workbench: its first request is the same, and the searches return 5 tools whatever the catalog.` : `\`zcp-search\` costs more than ${SCALE_AIM}x in the large catalog in ${scaleMissed.join(", ")}: the first request is the same, but other tools outrank the workbench's in some searches (the second round's queries, and the results' other tools, cost more).`} \`zcp-search-fc\` costs ${x(1 / smallSearch.overall!.ratios["mcp-search/zcp-search-fc"]!)} what \`mcp-search\` costs overall: its answers are strict artifacts, a little larger than MCP's definitions (as in the protocol comparison above). With the cache, listing the primitives on every request is ${smallSearch.overall!.cachedRatios["mcp-primitive/zcp-search"]! < 1 ? "cheaper" : "no cheaper"} over the workbench alone (cached \`mcp-primitive/zcp-search\` ${x(smallSearch.overall!.cachedRatios["mcp-primitive/zcp-search"]!)}): its ${int(listings.primitive.mcp.tokens)}-token listing is a prefix the cache serves at ${percent(1 - CACHE.discount)} of the price, while a search's answers are new in every conversation; in the large catalog the listing is ${int(largeListing)} tokens and search is ${x(largeTiers.overall!.cachedRatios["mcp-primitive/zcp-search"]!)} cheaper with the cache too. Tools a first-sentence query did not return in the large catalog: ${list(missedTools(largeRuns, false))}; none found by either query: ${list(missedTools(largeRuns, true))}.

The 2026-07-28 surface beside the 2025 one: \`mcp-find-2026\` costs ${x(smallSearch.overall!.ratios["mcp-find-2026/mcp-search"]!)} what \`mcp-search\` costs overall over the workbench (${x(largeTiers.overall!.ratios["mcp-find-2026/mcp-search"]!)} in the large catalog; with the cache ${x(smallSearch.overall!.cachedRatios["mcp-find-2026/mcp-search"]!)} and ${x(largeTiers.overall!.cachedRatios["mcp-find-2026/mcp-search"]!)}), and \`mcp-find-2026/zcp-search\` is ${x(smallSearch.overall!.ratios["mcp-find-2026/zcp-search"]!)} (${x(largeTiers.overall!.ratios["mcp-find-2026/zcp-search"]!)} in the large catalog). Both MCP surfaces make the same searches, find the same tools and take the same turns; the 2026 one lists two tools instead of one (${int(searchToolTokens["mcp-find-2026"])} against ${int(searchToolTokens["mcp-search"])} tokens on every request), each of its finds answers ${int(answerTokens("mcp-find-2026"))} tokens on average against ${int(answerTokens("mcp-search"))} as functions (zcp's find answers ${FIND_KEYS} of each tool's MCP definition, what a host that lists a tool as a function sends of it; the JSON around them differs), and each call wraps its arguments in \`zcp_call_tool\`'s \`{ name, arguments }\`. In return its listing is the same bytes on every request, whatever was found (the benchmark lists again after every turn and stops if a byte changed), as MCP 2026-07-28 requires.

Finding in the large catalog (\`session.find\`, in process, this machine; recall is a sanity figure:
each query is made of the tool's own description):

| tools | index (find.ts JSON) | first find | find p50 | find p99 | queries | recall@1 | recall@5 |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| ${int(finding.tools)} | ${int(finding.indexBytes)} B (${int(finding.indexBytes / finding.tools)} B per tool) | ${ms(finding.firstFindMs)} | ${ms(finding.latency.p50)} | ${ms(finding.latency.p99)} | ${int(finding.latency.queries)} (every corpus tool's name and description) | ${percent(finding.recall.at1)} | ${percent(finding.recall.at5)} |

Recall is over the ${int(finding.recall.tools)} corpus tools, each found with the first sentence of its own description;
the corpus repeats tools (BFCL's live questions share functions such as weather lookups under
different names, with the same words), so some are outranked by their twins.

`;
}

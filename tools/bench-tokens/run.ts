/**
 * `pnpm bench:tokens`: what a model reads and writes to do the same task on each surface,
 * counted with gpt-tokenizer (o200k_base); every plan open to a surface runs for real through
 * our server, its answer and workbook must pass the case's verifier, and the surface is billed
 * for its cheapest. The accounting rules are in transcript.ts, the surfaces and catalogs in
 * surfaces.ts, the plan choice and the searches in case.ts, the cases in weather.ts,
 * tier-{a,b,c,d}.ts and handles.ts, the code-mode programs in programs.ts, the large catalog in
 * catalog-large.ts. Writes tools/bench-tokens/report.md and report.json.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { listingTable, measureCorpus } from "../bench-listing/measure.ts";
import type { GeneratedModule } from "@zcp/runtime";
import { firstSentence } from "@zcp/runtime/definition";
import { runCase, SYSTEM_PROMPT, type BenchCase, type CaseRun } from "./case.ts";
import { HANDLE_CASES } from "./handles.ts";
import { weather as weatherRegistry, workbench as WORKBENCH } from "./registries.ts";
import { findFigures, largeCatalog } from "./catalog-large.ts";
import {
  bareCompactInstructions,
  CATALOG_EXCLUDES,
  CATALOGS,
  closeSurfaces,
  compactInstructions,
  openSurface,
  CODE_PROTOCOLS,
  PROTOCOLS,
  SEARCH_PROTOCOLS,
  SURFACES,
  type AnyProtocol,
  type Catalog,
  type Protocol,
  type SearchProtocol,
  type SurfaceSpec,
} from "./surfaces.ts";
import { CACHE, tokensOf } from "./transcript.ts";
import { TIER_A_CASES } from "./tier-a.ts";
import { TIER_B_CASES } from "./tier-b.ts";
import { TIER_C_CASES } from "./tier-c.ts";
import { TIER_D_CASES } from "./tier-d.ts";
import { WEATHER_CASES } from "./weather.ts";
import type { WorkflowCase } from "./workflow-case.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The function-calling surface a user ships by default: full artifacts (lean ones are an option of tools/list). */
const DEFAULT_FC = "zcp-fc" satisfies Protocol;
const ZCP = PROTOCOLS.filter((protocol) => protocol !== "mcp");
const RATIOS = ZCP.map((protocol) => `mcp/${protocol}`);
/** The reference's published mcp/zcp ratios (zcp-reference.md §8.2). */
const REFERENCE: Record<string, number> = { A: 1.1, B: 16.01, C: 34.49, D: 9.6, overall: 3.83 };
/** What mcp/zcp-fc was to exceed in every tier. */
const PROTOCOL_TARGET = 1.5;

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
const SEARCH_PAIRS: readonly Pair[] = [
  ["mcp-search/zcp-search", "mcp-search", "zcp-search"],
  ["mcp-find-2026/zcp-search", "mcp-find-2026", "zcp-search"],
  ["mcp-find-2026/mcp-search", "mcp-find-2026", "mcp-search"],
  ["mcp-search/zcp-search-fc", "mcp-search", "zcp-search-fc"],
  ["mcp-primitive/zcp-search", "mcp", "zcp-search"],
  ["mcp-primitive/zcp-search-fc", "mcp", "zcp-search-fc"],
];

interface Summary {
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

const WORKFLOW_CASES: readonly WorkflowCase[] = [...TIER_B_CASES, ...TIER_C_CASES, ...TIER_D_CASES];
const SPREADSHEET: readonly BenchCase[] = [...TIER_A_CASES, ...WORKFLOW_CASES];
const CASES = [...WEATHER_CASES, ...SPREADSHEET, ...HANDLE_CASES];
const runs: CaseRun[] = [];
const TIERS = [...new Set(SPREADSHEET.map((bench) => bench.tier))];
/** The spreadsheet tiers run over both catalogs; the weather (no workflow group) and handle cases over all tools only. */
const surfacesOf = (bench: BenchCase) =>
  SURFACES.filter((surface) => TIERS.includes(bench.tier) || surface.catalog === "all");
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
for (const bench of SEARCHED) for (const spec of CODE_SPECS) runs.push(await runCase(bench, spec));
// In the large catalog, mcp-code's API text holds every tool; mcp-search-execute and zcp-code
// find what they need.
const LARGE_CODE: readonly SurfaceSpec[] = [
  { protocol: "mcp-code", catalog: "primitive" },
  { protocol: "mcp-search-execute", catalog: "primitive" },
  { protocol: "zcp-code", catalog: "primitive", discover: true },
];
for (const bench of SEARCHED)
  for (const spec of LARGE_CODE) largeRuns.push(await runCase({ ...bench, registry: LARGE }, spec));

const inCatalog = (catalog: Catalog) => runs.filter((run) => run.catalog === catalog);
const GENERAL = new Set(
  WORKFLOW_CASES.filter((bench) => bench.workflow.shape.general).map((bench) => bench.id),
);
/** Per catalog: each tier, overall, and the B-D cases whose workflow tool is general or case-shaped. */
const tiers = {} as Record<Catalog, Record<string, Summary>>;
for (const catalog of CATALOGS) {
  const spreadsheet = inCatalog(catalog).filter((run) => TIERS.includes(run.tier));
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
const weather = summarize(inCatalog("all").filter((run) => run.tier === "weather"));
const handles = summarize(inCatalog("all").filter((run) => run.tier === "handles"));
/** `mcp-all/zcp-code`: mcp listing every tool of the workbench (workflow tools too) against a program over the primitives. */
for (const tier of [...TIERS, "overall", "handles"]) {
  const all = tier === "handles" ? handles : tiers.all[tier]!;
  const primitive = tiers.primitive[tier]!;
  primitive.ratios["mcp-all/zcp-code"] = all.tokens.mcp / primitive.tokens["zcp-code"]!;
  primitive.cachedRatios["mcp-all/zcp-code"] = all.cached.mcp / primitive.cached["zcp-code"]!;
}
const of = (id: string, protocol: Protocol, catalog: Catalog = "all") =>
  runs.find((run) => run.case === id && run.protocol === protocol && run.catalog === catalog)!;

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const x = (n: number) => `${n.toFixed(2)}x`;
const one = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
/** A markdown table's header: each column's title, and whether it is a figure (right-aligned). */
const head = (columns: readonly (readonly [string, boolean])[]) =>
  [
    row(columns.map(([title]) => title)),
    row(columns.map(([, figure]) => (figure ? "---:" : "---"))),
  ].join("\n");
const SHOWN = ["mcp", DEFAULT_FC, "zcp-compact"] as const satisfies readonly Protocol[];
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
const tierTable = (catalog: Catalog, extra: readonly string[] = []) =>
  [
    tierHeader,
    ...[...TIERS, "overall", ...extra].map((tier) => summaryRow(tier, tiers[catalog][tier]!)),
  ].join("\n");

const caseRow = (bench: BenchCase, catalog: Catalog) => {
  const run = (p: Protocol) => of(bench.id, p, catalog);
  const verified = runs
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
const caseTable = (
  cases: readonly BenchCase[],
  catalog: Catalog,
  summary?: readonly [string, Summary],
) =>
  [
    caseHeader,
    ...cases.map((bench) => caseRow(bench, catalog)),
    ...(summary
      ? [summaryRow(summary[0], summary[1], `average of ${summary[1].cases}`, true)]
      : []),
  ].join("\n");

const splitTable = [
  head([
    ["tier", false],
    ...PROTOCOLS.flatMap((p) =>
      [`${p} prompt`, `${p} completion`, `${p} cached prompt`].map(
        (title) => [title, true] as const,
      ),
    ),
  ]),
  ...[...TIERS, "overall"].map((tier) => {
    const summary = tiers.all[tier]!;
    return row([
      tier,
      ...PROTOCOLS.flatMap((p) => [
        int(summary.prompt[p]),
        int(summary.completion[p]),
        int(summary.cachedPrompt[p]),
      ]),
    ]);
  }),
].join("\n");

const headline = tiers.all.overall!;
const targetRows = [...TIERS, "overall"].map((tier) => {
  const ratios = tiers.all[tier]!.ratios;
  const compact = ratios["mcp/zcp-compact"]!;
  const fc = ratios[`mcp/${DEFAULT_FC}`]!;
  return row([
    tier,
    x(REFERENCE[tier]!),
    x(compact),
    compact >= REFERENCE[tier]! ? "met" : "**missed**",
    x(fc),
    fc > PROTOCOL_TARGET ? "met" : "**missed**",
  ]);
});
const targetTable = [
  head([
    ["tier", false],
    ["reference mcp/zcp", true],
    ["mcp/zcp-compact", true],
    ["≥ reference", false],
    [`mcp/${DEFAULT_FC}`, true],
    [`> ${PROTOCOL_TARGET}x`, false],
  ]),
  ...targetRows,
].join("\n");

// ---------------------------------------------------------------------------------------------
// What each surface sends to tell the model its tools, and what documentation it carries.

interface Listing {
  readonly tools: number;
  readonly tokens: number;
  readonly toolDescriptions: "full" | "first sentence" | "none";
  readonly parameterDescriptions: boolean;
}

/** Whether `text` holds `needle` as written or JSON-escaped (inside a JSON string). */
const holds = (text: string, needle: string) =>
  needle !== "" && (text.includes(needle) || text.includes(JSON.stringify(needle).slice(1, -1)));

/** Opens the surface once to see what it lists and which documentation its listing carries (found by searching the listing for the registry's own text). */
async function listingOf(
  registry: GeneratedModule,
  protocol: Protocol,
  catalog: Catalog,
): Promise<Listing> {
  const surface = await openSurface({ protocol, catalog }, registry);
  try {
    const text = surface.tools.length > 0 ? JSON.stringify(surface.tools) : surface.instructions;
    const tools = registry.registry.tools.filter(
      (tool) => surface.listed.has(tool.alias) && tool.description.includes(". "),
    );
    const share = (found: (tool: (typeof tools)[number]) => boolean) =>
      tools.filter(found).length / Math.max(1, tools.length);
    const full = share((tool) => holds(text, tool.description));
    const first = share((tool) => holds(text, firstSentence(tool.description)));
    const params = registry.registry.tools
      .filter((tool) => surface.listed.has(tool.alias))
      .flatMap((tool) =>
        Object.values(
          (tool.inputSchema as { properties?: Record<string, { description?: string }> })
            .properties ?? {},
        ).map((property) => property.description ?? ""),
      )
      .filter((description) => description.length > 12);
    return {
      tools: surface.listed.size,
      tokens: surface.tools.length > 0 ? tokensOf(surface.tools) : tokensOf(surface.instructions),
      toolDescriptions: full > 0.5 ? "full" : first > 0.5 ? "first sentence" : "none",
      parameterDescriptions:
        params.filter(
          (description) => holds(text, description) || holds(text, firstSentence(description)),
        ).length >
        params.length / 2,
    };
  } finally {
    await surface.close();
  }
}

const corpus = measureCorpus();
const listings = Object.fromEntries(
  await Promise.all(
    CATALOGS.map(
      async (catalog) =>
        [
          catalog,
          Object.fromEntries(
            await Promise.all(
              PROTOCOLS.map(async (p) => [p, await listingOf(WORKBENCH, p, catalog)]),
            ),
          ),
        ] as const,
    ),
  ),
) as Record<Catalog, Record<Protocol, Listing>>;
const weatherListing = Object.fromEntries(
  await Promise.all(PROTOCOLS.map(async (p) => [p, await listingOf(weatherRegistry, p, "all")])),
) as Record<Protocol, Listing>;
const TOOL_DOCS: Record<Listing["toolDescriptions"], string> = {
  full: "the tools' full descriptions",
  "first sentence": "the first sentence of each tool's description",
  none: "no tool descriptions",
};
const documented = (listing: Listing) =>
  `${TOOL_DOCS[listing.toolDescriptions]} and ${listing.parameterDescriptions ? "the parameters' descriptions" : "no parameter descriptions"}`;

const DOCUMENTATION: Record<Protocol, string> = {
  mcp: "each tool's MCP `description` and its `inputSchema` (parameter descriptions, patterns, formats, ranges) as the server lists them",
  "zcp-fc":
    "the `openai-chat` strict artifacts `zcp gen` wrote: each tool's description and its strict parameters (every optional one required and nullable; defaults and keywords strict mode refuses moved into descriptions)",
  "zcp-fc-lean":
    "the lean `openai-chat` artifacts `tools/list` returns for `lean: true`: the first sentence of each description, types, enums and required-ness, without the patterns, formats, lengths and ranges the generated validators enforce anyway (a refusal's hint states them)",
  "zcp-compact":
    "the planner lines `tools/list` returns (format `compact`, documentation on by default): one line per tool, its signature with each parameter's description and the first sentence of the tool's description; no JSON Schema",
};
const BILLING: Record<Protocol, string> = {
  mcp: 'every request carries the listed tools as `{type:"function", function:{name, description, parameters: inputSchema}}`; a result is the text of the `CallToolResult` content (structuredContent is not sent twice); no handles, every result whole',
  "zcp-fc":
    'every request carries the listing\'s artifacts as returned; a result is the runtime\'s compact encoding (`{"ok":true,"value":…}`), a large one a handle and its summary',
  "zcp-fc-lean": "as zcp-fc",
  "zcp-compact":
    "no tool definitions: the CALL/RET grammar (three lines) and the planner lines go in the system message; calls are `CALL` lines in the assistant message, results `RET` lines in one user message per turn",
};
const CATALOG_TEXT: Record<Catalog, string> = {
  all: "every tool of the registry: for the workbench its 19 primitives and 21 workflow tools",
  primitive: `the registry without the ${CATALOG_EXCLUDES.primitive.map((group) => `\`${group}\``).join(", ")} group: an MCP server that does not expose it, or a host's tool filter (\`allowed_tools\`); a native client's \`excludeGroups\``,
};

const rules = {
  tokens:
    "gpt-tokenizer o200k_base; each Chat Completions message counts as the tokens of its JSON; a request's tool definitions as the tokens of their JSON array, on every request; the per-message framing providers add is the same constant on every surface and is left out",
  prompt:
    "a turn's prompt is the tool definitions, the system message and every message before the assistant's reply; its completion is the reply (tool calls or text); prompt and completion are reported separately and summed as `tokens`",
  cache: {
    discount: CACHE.discount,
    minimumTokens: CACHE.minimumTokens,
    prefix:
      "the longest prefix an earlier request sent: for a later turn the whole previous prompt; for the first turn the tool definitions and the system message, which every conversation of the surface opens with (a warm cache); shorter than the minimum, nothing is cached",
    cost: "uncached prompt tokens + (1 - discount) × cached prompt tokens + completion tokens; cache writes cost nothing extra",
  },
  plans:
    "written by hand, every way a competent agent could do the case without knowing its answer (with the primitives, with the case's workflow tool, reading a whole sheet or only what it needs); a plan is open to a surface when the surface lists every tool it calls; every open plan runs through our server on real .xlsx files and must pass the case's verifier; the surface is billed for the cheapest (tokens, then turns); what is billed is what runs: the billed tool_calls JSON or CALL lines are parsed back and executed; answers are built from what the calls returned",
  turns:
    "a turn is a set of parallel calls that are independent: no call needs another's result, and any order leaves the same workbook",
  systemPrompt: SYSTEM_PROMPT,
  catalogs: Object.fromEntries(
    CATALOGS.map((catalog) => [
      catalog,
      {
        description: CATALOG_TEXT[catalog],
        workbenchTools: listings[catalog].mcp.tools,
        zcpAlsoLists:
          "zcp.handle, the runtime's handle tool (for a registry with a tool that can return a handle)",
      },
    ]),
  ),
  surfaces: Object.fromEntries(
    PROTOCOLS.map((p) => [
      p,
      {
        toolsListed: Object.fromEntries(
          CATALOGS.map((catalog) => [catalog, listings[catalog][p].tools]),
        ),
        documentation: DOCUMENTATION[p],
        documentationFound: Object.fromEntries(
          CATALOGS.map((catalog) => [
            catalog,
            {
              toolDescriptions: listings[catalog][p].toolDescriptions,
              parameterDescriptions: listings[catalog][p].parameterDescriptions,
            },
          ]),
        ),
        billing: BILLING[p],
        listingTokens: Object.fromEntries(
          CATALOGS.map((catalog) => [catalog, listings[catalog][p].tokens]),
        ),
      },
    ]),
  ),
  headline: `catalog all, mcp against ${DEFAULT_FC} (what a user ships by default: full artifacts) and zcp-compact`,
  toolSearch:
    "search is blind: one engine, one catalog, k = 5, the same query text on every side; a plan may call only what its searches returned; a search is a turn and is billed as one, misses included; the searches come first, one per tool the plan calls (the first sentence of its description), then one more for each miss (the words of its alias); `mcp-search-execute` makes the same queries, in one `search` program per round that ranks the spec's operations itself (see Code mode)",
  codeMode:
    "a program is billed as completion as emitted and again as context on every later request; its output is the tool result; the same program logic runs on every code surface, written from the prompt and the API text alone, making the calls of the case's primitive plan; `mcp-search-execute` searches first under the tool-search rules",
};

// ---------------------------------------------------------------------------------------------
// The report.

const listingRow = (label: string, of: Record<Protocol, Listing>) =>
  row([label, ...PROTOCOLS.map((p) => `${int(of[p].tokens)} (${of[p].tools})`)]);
const listingTableMd = [
  head([["catalog", false], ...PROTOCOLS.map((p) => [p, true] as const)]),
  listingRow("all (40 workbench tools)", listings.all),
  listingRow("primitive (19)", listings.primitive),
  listingRow("weather (4)", weatherListing),
].join("\n");
const docRows = PROTOCOLS.map((p) => row([p, DOCUMENTATION[p], documented(listings.all[p])])).join(
  "\n",
);

const workflowRows = WORKFLOW_CASES.map((bench) =>
  row([
    `\`${bench.workflow.tool}\``,
    bench.id,
    bench.workflow.shape.general ? "general" : "**case-shaped**",
    bench.workflow.shape.note,
  ]),
).join("\n");
const billedWorkflow = (p: Protocol) =>
  inCatalog("all").filter((run) => run.protocol === p && run.plan === "workflow").length;
const billedPrimitive = (p: Protocol) =>
  inCatalog("all").filter(
    (run) =>
      run.protocol === p &&
      run.tier !== "A" &&
      TIERS.includes(run.tier) &&
      run.plan === "primitive",
  ).length;

const growth = (catalog: Catalog) =>
  listings[catalog][DEFAULT_FC].tokens / listings[catalog].mcp.tokens - 1;
const share = (p: Protocol) => listings.all[p].tokens / listings.all.mcp.tokens;
const percent = (n: number) => `${Math.round(n * 100)}%`;
const handlePlan = (plan: string, p: Protocol) =>
  HANDLE_CASES.filter((bench) => of(bench.id, p).plan === plan).map((bench) => bench.id);
const TOTALS = HANDLE_CASES.filter((bench) => bench.id.startsWith("region_total")).map(
  (bench) => bench.id,
);
const list = (items: readonly string[]) => (items.length === 0 ? "none" : items.join(", "));
const missed = [...TIERS, "overall"].filter(
  (tier) => tiers.all[tier]!.ratios["mcp/zcp-compact"]! < REFERENCE[tier]!,
);
const fcMissed = [...TIERS, "overall"].filter(
  (tier) => tiers.all[tier]!.ratios[`mcp/${DEFAULT_FC}`]! <= PROTOCOL_TARGET,
);
const range = (pick: (summary: Summary) => number) => {
  const values = TIERS.map((tier) => pick(tiers.all[tier]!));
  return `${x(Math.min(...values))}–${x(Math.max(...values))}`;
};
const bare = await bareCompactInstructions(WORKBENCH, "all");
const sameTurns = [...TIERS, "overall"].every((tier) =>
  ZCP.every((p) => tiers.all[tier]!.turns[p] === tiers.all[tier]!.turns.mcp),
);
const weatherCached = inCatalog("all").some(
  (run) => run.tier === "weather" && run.cachedPrompt > 0,
);

// ---------------------------------------------------------------------------------------------
// Tool search.

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
const searchTable = (rows: Record<string, Summary>, source: readonly CaseRun[]) =>
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
const smallSearch = tiers.primitive;
const SEARCH_AIM = 3;
const SCALE_AIM = 1.2;
const scale = (tier: string) =>
  largeTiers[tier]!.tokens["zcp-search"]! / smallSearch[tier]!.tokens["zcp-search"]!;
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
const aimTable = [
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
const largeSearchable = LARGE.registry.tools.filter(
  (tool) => !tool.groups.some((group) => CATALOG_EXCLUDES.primitive.includes(group)),
).length;
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
const ms = (n: number) => `${n.toFixed(2)} ms`;

// ---------------------------------------------------------------------------------------------
// Code mode.

const CODE_SHOWN = [
  "mcp",
  "mcp-code",
  "mcp-search-execute",
  "zcp-code",
] as const satisfies readonly AnyProtocol[];
const CODE_RATIOS = [
  "mcp-code/zcp-code",
  "mcp-search-execute/zcp-code",
  "mcp-primitive/zcp-code",
  "mcp-all/zcp-code",
];
const CODE_ROWS = [...TIERS, "handles", "overall"];
const CODE_AIMS = { "mcp-code/zcp-code": 1.5, "mcp-primitive/zcp-code": 8 } as const;
const CODE_AIM_TIERS = TIERS.filter((tier) => tier !== "A");
const allOf = (tier: string) => (tier === "handles" ? handles : tiers.all[tier]!);
const codeTable = [
  head([
    ["tier", false],
    ["cases", true],
    ["mcp-all", true],
    ["mcp-primitive", true],
    ["mcp-code", true],
    ["mcp-search-execute", true],
    ["zcp-code", true],
    ...CODE_RATIOS.map((label) => [label, true] as const),
    ...CODE_RATIOS.map((label) => [`cached ${label}`, true] as const),
    ["turns mcp-primitive / mcp-code / mcp-search-execute / zcp-code", true],
    ["verified", false],
  ]),
  ...CODE_ROWS.map((tier) => {
    const summary = tiers.primitive[tier]!;
    return row([
      `**${tier}**`,
      String(summary.cases),
      int(allOf(tier).tokens.mcp),
      ...CODE_SHOWN.map((p) => int(summary.tokens[p]!)),
      ...CODE_RATIOS.map((label) => x(summary.ratios[label]!)),
      ...CODE_RATIOS.map((label) => x(summary.cachedRatios[label]!)),
      CODE_SHOWN.map((p) => one(Math.round(summary.turns[p]! * 10) / 10)).join(" / "),
      `${summary.verified}/${summary.cases}`,
    ]);
  }),
].join("\n");
const codeAimRows = CODE_AIM_TIERS.map((tier) => {
  const ratios = tiers.primitive[tier]!.ratios;
  return row([
    tier,
    ...Object.entries(CODE_AIMS).flatMap(([label, aim]) => [
      x(ratios[label]!),
      ratios[label]! >= aim ? "met" : "**missed**",
    ]),
  ]);
});
const codeAimTable = [
  head([
    ["tier", false],
    ...Object.entries(CODE_AIMS).flatMap(([label, aim]) => [
      [label, true] as const,
      [`≥ ${aim}x`, false] as const,
    ]),
  ]),
  ...codeAimRows,
].join("\n");
const largeCodeTable = [
  head([
    ["tier", false],
    ["cases", true],
    ...CODE_SHOWN.map((p) => [`${p === "mcp" ? "mcp-primitive" : p}, large`, true] as const),
    ["mcp-code/zcp-code", true],
    ["mcp-search-execute/zcp-code", true],
    ["mcp-primitive/zcp-code", true],
    ["cached mcp-code/zcp-code", true],
    ["cached mcp-search-execute/zcp-code", true],
    ["zcp-code large/workbench", true],
    [`turns ${CODE_SHOWN.map((p) => (p === "mcp" ? "mcp-primitive" : p)).join(" / ")}`, true],
    ["verified", false],
  ]),
  ...CODE_ROWS.map((tier) => {
    const large = largeTiers[tier]!;
    return row([
      `**${tier}**`,
      String(large.cases),
      ...CODE_SHOWN.map((p) => int(large.tokens[p]!)),
      x(large.ratios["mcp-code/zcp-code"]!),
      x(large.ratios["mcp-search-execute/zcp-code"]!),
      x(large.ratios["mcp-primitive/zcp-code"]!),
      x(large.cachedRatios["mcp-code/zcp-code"]!),
      x(large.cachedRatios["mcp-search-execute/zcp-code"]!),
      x(large.tokens["zcp-code"]! / tiers.primitive[tier]!.tokens["zcp-code"]!),
      CODE_SHOWN.map((p) => one(Math.round(large.turns[p]! * 10) / 10)).join(" / "),
      `${large.verified}/${large.cases}`,
    ]);
  }),
].join("\n");
const largeCodeTool = largeRuns.find((run) => run.protocol === "mcp-code")!.toolTokens;
const largeZcpCode = largeRuns.find((run) => run.protocol === "zcp-code")!.toolTokens;
/** The tokens of the search answers of `protocol`'s spreadsheet runs, per case. */
const searchAnswers = (source: readonly CaseRun[], protocol: AnyProtocol) => {
  const chosen = source.filter((run) => run.protocol === protocol && TIERS.includes(run.tier));
  return chosen.reduce((sum, run) => sum + run.searchAnswerTokens, 0) / chosen.length;
};
/** The tokens of the `search` calls `mcp-search-execute`'s spreadsheet runs make (the programs as written), per case. */
const searchPrograms = (source: readonly CaseRun[]) => {
  const chosen = source.filter(
    (run) => run.protocol === "mcp-search-execute" && TIERS.includes(run.tier),
  );
  const searchCalls = (run: CaseRun) =>
    run.messages.filter(
      (message) =>
        message.role === "assistant" &&
        message.tool_calls?.some((call) => call.function.name === "search") === true,
    );
  return (
    chosen.reduce(
      (sum, run) => sum + searchCalls(run).reduce((total, message) => total + tokensOf(message), 0),
      0,
    ) / chosen.length
  );
};
/** `mcp-search-execute`'s search programs per case, the tools they were for, and the misses, over the spreadsheet cases. */
function seSearches(summary: Summary, source: readonly CaseRun[]): string {
  const searched = source.filter(
    (run) => run.protocol === "mcp-search-execute" && TIERS.includes(run.tier),
  );
  const per = (count: (run: CaseRun) => number) =>
    one(Math.round((searched.reduce((sum, run) => sum + count(run), 0) / summary.cases) * 10) / 10);
  return `${per((run) => run.calls - 1)} \`search\` calls per case for ${per((run) => new Set(run.searches.map((search) => search.for)).size)} tools, ${per((run) => run.searches.filter((search) => !search.found).length)} missed by the first query`;
}
const codeMissed = (label: keyof typeof CODE_AIMS) =>
  CODE_AIM_TIERS.filter((tier) => tiers.primitive[tier]!.ratios[label]! < CODE_AIMS[label]);
const codeRun = (protocol: AnyProtocol) =>
  runs.find((run) => run.protocol === protocol && run.catalog === "primitive")!;
/** The largest tool result a run's transcript carries, in tokens. */
const largestResult = (run: CaseRun) =>
  Math.max(0, ...run.messages.filter((message) => message.role === "tool").map(tokensOf));
const BIG_LOG = "region_total_2400";
const bigLog = (protocol: AnyProtocol) => of(BIG_LOG, protocol as Protocol, "primitive");

const report = `# bench:tokens: the same tasks on MCP and ZCP surfaces

Generated by \`pnpm bench:tokens\` (tools/bench-tokens/run.ts) on ${new Date().toISOString().slice(0, 10)}: the
reference's spreadsheet suite (${SPREADSHEET.length} cases in tiers A–D over \`fixtures/workbench\`), its four weather
cases, six cases with large results (handles), and a listing-only table for real-world registries.
Tokens are per-case averages, o200k_base; every plan open to a surface was run through our server
and verified (rules below).

## The protocol comparison

Every surface lists the same catalog, all 40 tools of the workbench (its 19 primitives and 21 workflow
tools; the ZCP surfaces add their handle tool \`zcp.handle\`), with the documentation its format
carries, and is billed for its cheapest correct plan. \`mcp\` is a plain MCP server, read with the
official v2 SDK client on the 2025 handshake; its figures hold for both MCP eras, since on
2026-07-28 it lists the same functions, byte for byte (find-2026.test.ts checks it); \`zcp-fc\` is
native ZCP with OpenAI strict function calling over the artifacts \`zcp gen\` writes by default;
\`zcp-fc-lean\` the same over its lean artifacts (an option: descriptions cut to their first sentence,
and no constraints the generated validators enforce anyway); \`zcp-compact\` native ZCP with planner
lines (signatures with the first sentence of each description and the parameters' descriptions) and
the \`CALL\`/\`RET\` text protocol. \`cached\` is the cost with a prefix cache at a ${percent(CACHE.discount)} discount.

${tierTable("all", ["B-D general", "B-D case-shaped"])}

Over the same tools, MCP costs ${x(headline.ratios["mcp/zcp-compact"]!)} what ZCP's text protocol costs overall (${range((summary) => summary.ratios["mcp/zcp-compact"]!)} by
tier; ${x(headline.cachedRatios["mcp/zcp-compact"]!)} with the cache). Function calling over the default artifacts costs about what MCP
costs (${x(headline.ratios[`mcp/${DEFAULT_FC}`]!)}): strict definitions are ${percent(growth("all"))} larger than MCP's, and both sides take ${sameTurns ? "the same" : "about the same"}
turns. Lean artifacts make it ${x(headline.ratios["mcp/zcp-fc-lean"]!)}; they are a \`zcp gen\` feature rather than a protocol one (an
MCP server that validates its own arguments could list lean schemas too), so the comparison of
protocols uses the full ones. \`B-D general\` and \`B-D case-shaped\` split tiers B–D by the case's
workflow tool (see "Workflow tools"): ${GENERAL.size} are general, ${WORKFLOW_CASES.length - GENERAL.size} keep their case's shape.

Without workflow tools: the same cases with the 19 primitives on every surface (an MCP server
without the workflow group or a host's tool filter; a native client's \`excludeGroups\`), a labeled
variant:

${tierTable("primitive")}

Prompt and completion, all 40 tools (per-case averages; \`cached prompt\` is the part of the prompt a
prefix cache serves):

${splitTable}

Targets set before the comparison was made fair: \`mcp/zcp-compact\` at least the reference's published
ratio, and \`mcp/${DEFAULT_FC}\` above ${PROTOCOL_TARGET}x, in every tier (all 40 tools):

${targetTable}

${missed.length === 0 ? "Every reference ratio is met." : `The reference ratio is missed in ${missed.join(", ")}.`} The reference's native side listed one tool per case, chosen
by its harness from the expected answer, and its MCP side sent 46 full schemas on every request while
its model wandered (3.9 turns in B, 8.7 in C, one case at the 14-round cap, 118,913 tokens). Here both
sides list the same 40 tools and take their cheapest correct plan (${sameTurns ? "the same number of turns in every tier" : "about the same number of turns"}), so
the ratio is close to the ratio of what the two sides send to describe the tools on every request
(the table under "Reading the figures"). ${fcMissed.length === 0 ? `\`mcp/${DEFAULT_FC}\` is above ${PROTOCOL_TARGET}x in every tier.` : `\`mcp/${DEFAULT_FC}\` is at or below ${PROTOCOL_TARGET}x in ${fcMissed.join(", ")}, for the reason above: over the same catalog the strict definitions are not smaller than MCP's, and only the handle tool, the result encoding and handles differ.`}

## Tool search

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
The search surfaces search the ${int(largeSearchable)} tools outside the workflow group; \`mcp-primitive\` lists all of them
on every request (${int(largeListing)} tokens):

${searchTable(largeTiers, largeRuns)}

Aims: \`mcp-search/zcp-search\` at least ${SEARCH_AIM}x in every tier, and \`zcp-search\` in the large catalog at
most ${SCALE_AIM}x its cost over the workbench alone:

${aimTable}

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

## Code mode

The anchors: Cloudflare's Code Mode (MCP tools as a TypeScript API, the model's code run in an
isolate, only the result returned), in both of Cloudflare's forms, and Anthropic's programmatic tool
calling. Every code surface runs programs against the 19 primitives (no workflow tools) in the same
sandbox (\`@zcp/code\`: QuickJS in a worker thread), and is billed for its calls and the answer:

- \`mcp-code\`: \`@cloudflare/codemode\` 0.5.6's own \`codeMcpServer\` over a plain MCP server: it writes the
  tools' TypeScript API from their MCP \`inputSchema\`s (full descriptions, results \`unknown\`) into
  the description of its \`code\` tool (${int(codeRun("mcp-code").toolTokens)} tokens on every request), takes an async arrow function
  calling \`codemode.<tool>\`, and answers the returned value as (pretty-printed) text. Its executor is
  our sandbox, since a Cloudflare Worker loader does not exist on Node.
- \`mcp-search-execute\`: Cloudflare's own design for large APIs, two tools, \`search\` (a program
  that filters the API's OpenAPI spec and returns only what it needs) and \`execute\` (a program that
  calls the API), ${int(codeRun("mcp-search-execute").toolTokens)} tokens on every request whatever the catalog. The design is that of Cloudflare's MCP
  server for its own API (github.com/cloudflare/mcp, \`src/tools/search.ts\` and \`src/tools/execute.ts\`;
  announced on blog.cloudflare.com in February 2026 as about 1,000 tokens for more than 2,500
  endpoints); it is built here with \`openApiMcpServer\` from \`@cloudflare/codemode\` 0.5.6,
  Cloudflare's packaging of it ("an MCP server with search + execute tools from an OpenAPI spec"):
  its tool descriptions, its sandbox code (\`codemode.spec()\` with \`$ref\`s resolved,
  \`codemode.request()\`) and its result text (pretty-printed JSON, cut at 24,000 characters), unchanged
  (\`search-execute.ts\`). Its spec is the plain MCP server's listing as an OpenAPI 3.1 document, one
  \`POST /tools/<name>\` operation per tool: the tool's description, its first sentence as the summary,
  the alias's first segment as the tag, the \`inputSchema\` as the request body (local \`$ref\`s rebased
  into the document) and the \`outputSchema\` as the 200 response; a POST is a \`tools/call\` on the
  plain server, its result unwrapped as \`codeMcpServer\` unwraps one. The agent searches first, blind
  and with the same query texts as the search surfaces (see "Tool search"): per round one \`search\`
  program lists, for every query of the round, the five operations it scores best (\`{ method, path,
  summary }\`, as the tool's own example returns them; the score is the query's words found in the
  operation's path, summary and description, each weighted by its rarity, a ranker a short program
  holds), a second round takes the words of the alias for a miss, and one more \`search\` reads the
  chosen operations' descriptions and request bodies, as the tool's second example does; then one
  \`execute\` runs the case's program, each call written \`await op("/tools/<name>")({ … })\` through a
  one-line helper over \`codemode.request\`. A tool no search returned may not be called. Its executor is
  our sandbox, with \`structuredClone\` (a Worker has it, QuickJS does not; the spec resolver uses it)
  as a JSON copy. \`@cloudflare/codemode\` builds both of its servers on the v1 SDK's \`McpServer\`, so
  the benchmark reaches them with the v1 client, on the 2025 era (the only one the v1 SDK speaks);
  the plain server they wrap is ours, on the v2 SDK.
- \`zcp-code\`: native ZCP with \`zcp.run\`: its strict artifact and, in the system prompt, the
  view's API text from the tool authors' own types (\`tools/list\` format \`typescript\`: first sentences,
  defaults, enums, typed results; ${int(codeRun("zcp-code").toolTokens)} tokens together); the program calls \`tools.<alias>\`.

The program for each case (\`programs.ts\`) is the same logic on every code surface (only the tool
names and the wrapper differ), written from the prompt and the API alone: it makes the calls the case's
primitive plan makes, in sequence where they edit one workbook, and returns the answer; for the
order logs it reads the whole sheet once and computes inside. The program is billed as completion
(the tool call's JSON) and then as context; its result is the tool message.

${codeTable}

\`mcp-all\` is \`mcp\` listing all 40 tools (its cheapest plans use the workflow tools), \`mcp-primitive\`
the 19 primitives on every request. \`mcp-search-execute\` takes ${one(Math.round(tiers.primitive.overall!.turns["mcp-search-execute"]! * 10) / 10)} turns where the other code surfaces take 2:
it lists candidates and reads the chosen operations (${seSearches(tiers.primitive.overall!, runs)}), then
executes; over 19 tools its two definitions cost less than either API text, but what the searches
answered (${int(searchAnswers(runs, "mcp-search-execute"))} tokens per case) stays in the conversation.

Aims (tiers B–D):

${codeAimTable}

${codeMissed("mcp-code/zcp-code").length === 0 ? `\`mcp-code/zcp-code\` is at least ${CODE_AIMS["mcp-code/zcp-code"]}x in B–D.` : `\`mcp-code/zcp-code\` is below ${CODE_AIMS["mcp-code/zcp-code"]}x in ${codeMissed("mcp-code/zcp-code").join(", ")}: both sides send one program and read one result, so the ratio is that of what each request carries to describe the tools (${int(codeRun("mcp-code").toolTokens)} against ${int(codeRun("zcp-code").toolTokens)} tokens) plus the result's encoding; Cloudflare's API text carries the full descriptions, ours the first sentences, as between \`mcp\` and \`zcp-compact\` above.`} ${codeMissed("mcp-primitive/zcp-code").length === 0 ? `\`mcp-primitive/zcp-code\` is at least ${CODE_AIMS["mcp-primitive/zcp-code"]}x in B–D.` : `\`mcp-primitive/zcp-code\` is below ${CODE_AIMS["mcp-primitive/zcp-code"]}x in ${codeMissed("mcp-primitive/zcp-code").join(", ")}: a program saves the turns (two requests instead of ${one(Math.round(tiers.primitive.overall!.turns.mcp * 10) / 10)} overall), but each of its two requests still carries the whole API text; the cases make 1 to 9 calls, so there are few turns to save.`} In the large catalog (${int(largeSearchable)} tools outside the workflow group), \`mcp-code\`'s code tool carries the API of every one of them (${int(largeCodeTool)} tokens on every request), \`mcp-search-execute\` sends its two tools (${int(largeRuns.find((run) => run.protocol === "mcp-search-execute")!.toolTokens)} tokens) and searches as above (${seSearches(largeTiers.overall!, largeRuns)}), while \`zcp-code\` starts from the discover view (\`zcp.find_tools\` and \`zcp.run\`, ${int(largeZcpCode)} tokens), searches as the search surfaces do (one search per tool its program calls, the session initialized with \`findFormat: "typescript"\`, so that a search answers the found tools' API text), then runs the same program. Per case, \`mcp-search-execute\`'s searches answer ${int(searchAnswers(largeRuns, "mcp-search-execute"))} tokens (five candidates per query, then the chosen operations' descriptions and JSON Schemas, as Cloudflare's result text pretty-prints them) and \`zcp-code\`'s ${int(searchAnswers(largeRuns, "zcp-code"))} (the found tools' API text); the search programs \`mcp-search-execute\`'s model writes are ${int(searchPrograms(largeRuns))} tokens per case, billed as completion and then as context, and its definitions are ${int(largeRuns.find((run) => run.protocol === "mcp-search-execute")!.toolTokens)} tokens on each of its ${one(Math.round(largeTiers.overall!.turns["mcp-search-execute"]! * 10) / 10)} requests, \`zcp-code\`'s ${int(largeZcpCode)} on each of its ${one(Math.round(largeTiers.overall!.turns["zcp-code"]! * 10) / 10)}:

${largeCodeTable}

On the largest order log (${BIG_LOG}), the biggest tool result in the transcript is ${int(largestResult(bigLog("mcp")))} tokens on \`mcp-primitive\` (its cheapest plan reads only the columns it needs), ${int(largestResult(bigLog("mcp-code")))} on \`mcp-code\` and ${int(largestResult(bigLog("zcp-code")))} on \`zcp-code\`: the 2,400 rows stay in the program.

## Rules

- **Tokens**: ${rules.tokens}.
- **Prompt, completion**: ${rules.prompt}.
- **Cache** (the \`cached\` figures): a prompt's cached part is ${rules.cache.prefix} (${int(CACHE.minimumTokens)} tokens, both providers' minimum). Cost = ${rules.cache.cost}. The discount is Anthropic's rate for cache reads and OpenAI's for its newer models (older ones give 50–75%); Anthropic's 25% surcharge on cache writes is left out, which favours the side with the longer prefix. Each surface's cached figure is that of its cheapest plan with the cache (the plan column notes where it is not the billed one).
- **Catalog**: one for every case of every tier, and the same on every surface: \`all\`, ${CATALOG_TEXT.all}, for the headline; \`primitive\`, ${CATALOG_TEXT.primitive}, as a labeled variant. The ZCP surfaces also list \`zcp.handle\`, the runtime's handle tool. No surface is given a view chosen for the task: a client cannot know the task before it lists its tools.
- **Plans**: ${rules.plans}. A tool error fails the run.
- **Turns**: ${rules.turns} (reads together; edits of different cells together; a read-back that checks edits in a later turn).
- **Prompt**: the same system and user prompt everywhere: "${SYSTEM_PROMPT}" Only \`zcp-compact\` adds instructions, because it has no function calling: the CALL/RET grammar in three lines and its planner lines.
- **Surfaces**: what each one tells the model (the last column is what a search of the listing for the registry's own description texts finds):

| surface | documentation | found in the listing (all 40 tools) |
| --- | --- | --- |
${docRows}

  Billing: ${PROTOCOLS.map((p) => `\`${p}\`: ${BILLING[p]}`).join("; ")}.
- **Workflow tools** (\`fixtures/workbench/src/workflows/\`) do a case's job on the server by calling the
  primitive tools' own functions in order. Each of the 21 was written for one case of the reference's
  suite; their labels, ranges and layout choices are parameters (nothing of a case is in their code),
  destructive edits touch only what the caller names after reading the sheet, and answers that depend
  on a check (\`valid\`) are read from the check's result. "Workflow tools" below says which are
  general and which keep their case's shape.
- **Tool search** (see "Tool search"): ${rules.toolSearch}.
- **Code mode** (see "Code mode"): ${rules.codeMode}.

## Reading the figures

What tells the model its tools, on every request (tokens, and in brackets the tools listed):

${listingTableMd}

- Over the same tools and the same plans, the ratios follow this table: both sides take ${sameTurns ? "the same" : "about the same"} turns,
  and the listing is most of every prompt (${percent((listings.all.mcp.tokens * headline.turns.mcp) / headline.prompt.mcp)} of mcp's, all 40 tools, overall).
- Strict function calling makes every optional parameter required and nullable and moves defaults
  and unsupported keywords into descriptions, so zcp-fc's definitions are ${percent(growth("all"))} larger than MCP's for all
  40 tools (${percent(growth("primitive"))} for the primitives).
- zcp-fc-lean's definitions are ${percent(share("zcp-fc-lean"))} of MCP's; zcp-compact's instructions are ${percent(share("zcp-compact"))}, and carry
  ${documented(listings.all["zcp-compact"])}. Without that documentation (\`tools/list\` with
  \`docs: false\`) they would be ${int(tokensOf(bare))} tokens, ${percent(tokensOf(bare) / listings.all.mcp.tokens)} of MCP's definitions.
- With all 40 tools, the workflow plan is billed in ${PROTOCOLS.map((p) => `${billedWorkflow(p)}`).join(", ")} of the 21 cases of B–D (${PROTOCOLS.join(", ")}), the primitive plan in ${PROTOCOLS.map((p) => `${billedPrimitive(p)}`).join(", ")}.
- The cache takes the most off the side that re-sends the most: ${SHOWN.map((p) => `${p} ${int(headline.tokens[p])} → ${int(headline.cached[p])}`).join(", ")} per case overall.
- Completions are small on every surface; zcp-compact's are the smallest (${SHOWN.map((p) => `${p} ${int(headline.completion[p])}`).join(", ")} per case overall), since a \`CALL\` line is shorter than a tool call's JSON.

## Workflow tools

| tool | case | shape | why |
| --- | --- | --- | --- |
${workflowRows}

## Per case

All 40 tools (plan billed: the plan the surface was billed for; every plan open to it was run and verified):

${caseTable(SPREADSHEET, "all")}

The 19 primitives:

${caseTable(SPREADSHEET, "primitive")}

## Weather (zcp-reference.md §8.1)

Four small tools and no workflow group, so both catalogs are the same four tools; the one plan runs
on every surface. The strict definitions are ${weatherListing[DEFAULT_FC].tokens} tokens against MCP's ${weatherListing.mcp.tokens}, and the
\`{"ok":true,"value":…}\` envelope is billed again on every later turn; zcp-compact's instructions are
${weatherListing["zcp-compact"].tokens} tokens. ${weatherCached ? `Some prompts reach the cache's ${int(CACHE.minimumTokens)}-token minimum.` : `No prompt here reaches the cache's ${int(CACHE.minimumTokens)}-token minimum, so the cached figures are the raw ones.`} The reference's published 1.59x came from MCP runs that retried every weather call (its MCP
server had no city enum).

${caseTable(WEATHER_CASES, "all", ["weather", weather])}

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
(mcp/${DEFAULT_FC} ${TOTALS.map((id) => `${x(of(id, "mcp").tokens / of(id, DEFAULT_FC).tokens)} for ${id}`).join(", ")}).

${caseTable(HANDLE_CASES, "all", ["handles", handles])}

## Listing only: real-world registries

What a model reads to learn each tool set in \`fixtures/corpus\` (the same measurement as
\`pnpm bench:listing\`, whose report explains it): MCP JSON listings against planner lines.

${listingTable(corpus.rows, corpus.total)}
`;

fs.writeFileSync(path.join(HERE, "report.md"), report);
const json = {
  generatedAt: new Date().toISOString(),
  encoding: "o200k_base",
  rules,
  tiers,
  weather,
  handles,
  workflowTools: WORKFLOW_CASES.map((bench) => ({
    tool: bench.workflow.tool,
    case: bench.id,
    ...bench.workflow.shape,
  })),
  listing: corpus,
  large: {
    find: finding,
    tiers: largeTiers,
    "zcp-search large/small": Object.fromEntries(SEARCH_ROWS.map((tier) => [tier, scale(tier)])),
  },
  cases: [...runs, ...largeRuns.map((run) => ({ ...run, catalog: `large ${run.catalog}` }))].map(
    ({ messages, turns, ...run }) => ({
      ...run,
      turns: turns.length,
      messages: messages.length,
    }),
  ),
  compactInstructions: compactInstructions("<planner lines>"),
};
fs.writeFileSync(path.join(HERE, "report.json"), `${JSON.stringify(json, null, 2)}\n`);
console.log(tierTable("all", ["B-D general", "B-D case-shaped"]));
console.log(`\n${tierTable("primitive")}`);
console.log(`\n${targetTable}`);
console.log(
  `\n${searchTable(smallSearch, runs)}\n\n${searchTable(largeTiers, largeRuns)}\n\n${aimTable}`,
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

/**
 * `pnpm bench:tokens`: what a model reads and writes to do the same task on each surface,
 * counted with gpt-tokenizer (o200k_base); every plan runs for real through our server and
 * its answer and workbook must pass the case's verifier. The accounting rules are in
 * transcript.ts, the surfaces in surfaces.ts, the cases in weather.ts, tier-{a,b,c,d}.ts and handles.ts.
 * Writes tools/bench-tokens/report.md and report.json.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { listingTable, measureCorpus } from "../bench-listing/measure.ts";
import { runCase, SYSTEM_PROMPT, type BenchCase, type CaseRun } from "./case.ts";
import { HANDLE_CASES } from "./handles.ts";
import { compactInstructions, SURFACES, type SurfaceName } from "./surfaces.ts";
import { tokensOf } from "./transcript.ts";
import { TIER_A_CASES } from "./tier-a.ts";
import { TIER_B_CASES } from "./tier-b.ts";
import { TIER_C_CASES } from "./tier-c.ts";
import { TIER_D_CASES } from "./tier-d.ts";
import { WEATHER_CASES } from "./weather.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RATIOS = [
  ["mcp-primitive", "zcp-compact"],
  ["mcp-primitive", "zcp-fc"],
  ["mcp-all", "zcp-fc"],
] as const satisfies readonly (readonly [SurfaceName, SurfaceName])[];
/** The reference's published mcp/zcp ratios (zcp-reference.md §8.2), the floor for mcp-primitive/zcp-compact. */
const REFERENCE: Record<string, number> = { A: 1.1, B: 16.01, C: 34.49, D: 9.6, overall: 3.83 };
/** The reference's native (oracle, one tool listed) tokens per case in B, C and D (§8.2). */
const REFERENCE_NATIVE = [1826.6, 2091.1, 2018.3];
/** What mcp-all/zcp-fc must exceed in every tier. */
const PROTOCOL_TARGET = 1.5;

type PerSurface = Record<SurfaceName, number>;

interface Summary {
  readonly cases: number;
  readonly verified: number;
  /** Per-case averages. */
  readonly tokens: PerSurface;
  readonly calls: PerSurface;
  readonly turns: PerSurface;
  readonly ratios: Record<string, number>;
}

const perSurface = (pick: (surface: SurfaceName) => number) => Object.fromEntries(SURFACES.map((s) => [s, pick(s)])) as PerSurface;

function summarize(runs: readonly CaseRun[]): Summary {
  const ids = [...new Set(runs.map((run) => run.case))];
  const cases = ids.length;
  const average = (pick: (run: CaseRun) => number) => perSurface((s) => runs.filter((run) => run.surface === s).reduce((sum, run) => sum + pick(run), 0) / cases);
  const tokens = average((run) => run.tokens);
  const verified = ids.filter((id) => runs.filter((run) => run.case === id).every((run) => run.verified)).length;
  return { cases, verified, tokens, calls: average((run) => run.calls), turns: average((run) => run.turns.length), ratios: Object.fromEntries(RATIOS.map(([a, b]) => [`${a}/${b}`, tokens[a] / tokens[b]])) };
}

const SPREADSHEET: readonly BenchCase[] = [...TIER_A_CASES, ...TIER_B_CASES, ...TIER_C_CASES, ...TIER_D_CASES];
const CASES = [...WEATHER_CASES, ...SPREADSHEET, ...HANDLE_CASES];
const runs: CaseRun[] = [];
for (const bench of CASES) for (const surface of SURFACES) runs.push(await runCase(bench, surface));
const TIERS = [...new Set(SPREADSHEET.map((bench) => bench.tier))];
const inTiers = (run: CaseRun) => TIERS.includes(run.tier);
const summaries: Record<string, Summary> = Object.fromEntries(TIERS.map((tier) => [tier, summarize(runs.filter((run) => run.tier === tier))]));
summaries.overall = summarize(runs.filter(inTiers));
const weather = summarize(runs.filter((run) => run.tier === "weather"));
const handles = summarize(runs.filter((run) => run.tier === "handles"));
const of = (id: string, surface: SurfaceName) => runs.find((run) => run.case === id && run.surface === surface)!;

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const x = (n: number) => `${n.toFixed(2)}x`;
const one = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const header = `| tier | case | ${SURFACES.join(" | ")} | ${RATIOS.map(([a, b]) => `${a}/${b}`).join(" | ")} | calls mcp-primitive / zcp | turns mcp-primitive / zcp | verified |`;
const rule = `| --- | --- | ${SURFACES.map(() => "---:").join(" | ")} | ${RATIOS.map(() => "---:").join(" | ")} | ---: | ---: | --- |`;
const caseRow = (bench: BenchCase) => {
  const [primitive, fc] = [of(bench.id, "mcp-primitive"), of(bench.id, "zcp-fc")];
  const verified = runs.filter((run) => run.case === bench.id).every((run) => run.verified);
  return `| ${bench.tier} | ${bench.id} | ${SURFACES.map((s) => int(of(bench.id, s).tokens)).join(" | ")} | ${RATIOS.map(([a, b]) => x(of(bench.id, a).tokens / of(bench.id, b).tokens)).join(" | ")} | ${primitive.calls} / ${fc.calls} | ${primitive.turns.length} / ${fc.turns.length} | ${verified ? "yes" : "NO"} |`;
};
const summaryRow = (label: string, summary: Summary) =>
  `| **${label}** | average of ${summary.cases} | ${SURFACES.map((s) => int(summary.tokens[s])).join(" | ")} | ${RATIOS.map(([a, b]) => x(summary.ratios[`${a}/${b}`]!)).join(" | ")} | ${one(summary.calls["mcp-primitive"])} / ${one(summary.calls["zcp-fc"])} | ${one(summary.turns["mcp-primitive"])} / ${one(summary.turns["zcp-fc"])} | ${summary.verified}/${summary.cases} |`;
const tierTable = [header, rule, ...[...TIERS, "overall"].map((tier) => summaryRow(tier, summaries[tier]!))].join("\n");
const caseTable = [header, rule, ...SPREADSHEET.map(caseRow)].join("\n");
const weatherTable = [header, rule, ...WEATHER_CASES.map(caseRow), summaryRow("weather", weather)].join("\n");
const handleTable = [header, rule, ...HANDLE_CASES.map(caseRow), summaryRow("handles", handles)].join("\n");

const targetRows = [...TIERS, "overall"].map((tier) => {
  const ratios = summaries[tier]!.ratios;
  const compact = ratios["mcp-primitive/zcp-compact"]!;
  const protocol = ratios["mcp-all/zcp-fc"]!;
  return `| ${tier} | ${x(REFERENCE[tier]!)} | ${x(compact)} | ${compact >= REFERENCE[tier]! ? "met" : "**missed**"} | ${x(protocol)} | ${protocol > PROTOCOL_TARGET ? "met" : "**missed**"} |`;
});
const targetTable = ["| tier | reference mcp/zcp | mcp-primitive/zcp-compact | ≥ reference | mcp-all/zcp-fc | > 1.5x |", "| --- | ---: | ---: | --- | ---: | --- |", ...targetRows].join("\n");

/** What tells the model its tools on one request of a surface, in a tier (the same for every case of it). */
const toolTokens = (tier: string, surface: SurfaceName) => runs.find((run) => run.tier === tier && run.surface === surface)!.toolTokens;
/** The tokens of the (first) tool result message of a case's mcp-primitive run: what the read returned. */
const rowTokens = (id: string) => tokensOf(of(id, "mcp-primitive").messages.find((message) => message.role === "tool")!);
const turnsOf = (tier: string, surface: SurfaceName) => one(Math.round(summaries[tier]!.turns[surface] * 10) / 10);
const listing = measureCorpus();

const report = `# bench:tokens: the same tasks on MCP and ZCP surfaces

Generated by \`pnpm bench:tokens\` (tools/bench-tokens/run.ts) on ${new Date().toISOString().slice(0, 10)}: the
reference's spreadsheet suite (${SPREADSHEET.length} cases in tiers A–D over \`fixtures/workbench\`), its four weather
cases, six cases with large results (handles), and a listing-only table for real-world registries.
Tokens are per-case averages.

${tierTable}

Targets: \`mcp-primitive/zcp-compact\` at least the reference's published ratio, and \`mcp-all/zcp-fc\`
above ${PROTOCOL_TARGET}x, in every tier:

${targetTable}

## Rules

- Tokens: gpt-tokenizer, o200k_base. A conversation is a list of OpenAI Chat Completions
  messages; each message counts as the tokens of its JSON, and the tool definitions a request
  carries count as the tokens of their JSON array. Same rule on every surface.
- A turn's prompt is the system message, the tool definitions and every message before the
  assistant's reply; its completion is the reply (tool calls or text). A case's total is the sum
  of prompts and completions over its turns, as providers bill. The per-message framing
  providers add is the same constant on every surface and is left out.
- Plans are written by hand, the shortest correct one on each surface (fewest turns, then fewest
  calls), and executed for real
  through our server (the SDK \`Client\` against our MCP surface over an in-memory transport; the
  native session for ZCP) on real .xlsx files; the answer and the workbook the run leaves must
  pass the case's verifier (sheets, values, formulas, tables, merges, formats), whose expected
  values are constants. A turn is a set of parallel calls that are independent: no call needs
  another's result, and any order leaves the same workbook (reads together; edits of different
  cells together; a read-back that checks edits in a later turn). A real model adds retries and
  read-backs, mostly on the MCP side, so **the MCP figures are a lower bound**.
- Same system prompt and user prompt everywhere: "${SYSTEM_PROMPT}" Only \`zcp-compact\` adds
  instructions, because it has no function calling: the CALL/RET grammar in three lines and the
  planner lines of its view.
- Surfaces. \`mcp-primitive\`: a plain MCP server of the 19 primitive tools (every result whole, so
  no handles); every request carries them as \`{type:"function", function:{name, description, parameters: inputSchema}}\`, and results
  are the text of the \`CallToolResult\` content (structuredContent is not sent twice); its plans
  use primitives only. \`mcp-all\`: the same server with the ${TIER_B_CASES.length + TIER_C_CASES.length + TIER_D_CASES.length} workflow tools listed too; its plans
  call the case's workflow tool where one exists (tiers B–D). \`zcp-fc\`: the native surface; the
  client lists a view by profile or group, the same for every case of a tier, never a subset
  picked for the case: the \`primitive\` group for Tier A (single primitive asks), the
  \`semantic-workflow\` profile (every workflow tool) for tiers B–D; every request carries that
  view's \`openai-chat\` strict artifacts; results are the runtime's compact encoding
  (\`{"ok":true,"value":…}\`). \`zcp-compact\`: the same views as planner lines in the system
  prompt, no JSON Schema; calls are \`CALL\` lines, results \`RET\` lines in one user message per turn.
- Workflow tools (\`fixtures/workbench/src/workflows/\`) do a case's whole job on the server by
  calling the primitive tools' own functions in order; their parameters carry every piece of data
  the prompt gives, nothing is hard-coded for a case.

## Reading the figures

What tells the model its tools, on every request (o200k_base tokens):

| view | mcp-primitive | mcp-all | zcp-fc | zcp-compact (instructions and planner lines) |
| --- | ---: | ---: | ---: | ---: |
| Tier A: the primitive group | ${SURFACES.map((s) => int(toolTokens("A", s))).join(" | ")} |
| tiers B–D: the semantic-workflow profile | ${SURFACES.map((s) => int(toolTokens("B", s))).join(" | ")} |

The MCP surfaces list what the server lists whatever the task (mcp-all: the 19 primitives and the
21 workflow tools). OpenAI strict mode makes every optional parameter required
and nullable and moves defaults and unsupported keywords into descriptions, so a strict artifact is
a little larger than the MCP \`inputSchema\` of the same tool: zcp-fc's saving is the view (what it
does not list) and the workflow tools (turns it does not take), not the schema.

- **A**: one primitive call and one answer on every surface, so each pays for its tool listing
  twice. mcp-primitive and zcp-fc list the same primitives, zcp-fc with the handle tool (mcp-primitive/zcp-fc ${x(summaries.A!.ratios["mcp-primitive/zcp-fc"]!)}); mcp-all pays for
  21 workflow tools it cannot use here; zcp-compact's planner lines are a fraction of the schemas.
- **B–D**: mcp-primitive takes ${turnsOf("B", "mcp-primitive")}, ${turnsOf("C", "mcp-primitive")} and ${turnsOf("D", "mcp-primitive")} turns on average (answer included), each re-sending the
  listing and every earlier result; the workflow surfaces take two (one call, one answer).
- **Why B, C and D fall short of the reference's ratios.** Both of its sides differ from ours. Its
  native side saw one tool per case, chosen by the harness from the expected answer (an oracle),
  and cost ${REFERENCE_NATIVE.map(int).join(", ")} tokens per case in B, C and D; zcp-compact here lists all 21
  workflow tools (${int(toolTokens("B", "zcp-compact"))} tokens of instructions, sent on both turns) and costs ${["B", "C", "D"].map((tier) => int(summaries[tier]!.tokens["zcp-compact"])).join(", ")}. Its
  MCP side sent 46 full schemas (about 7,000 tokens) per request and its model wandered (3.9 turns
  in B, 8.7 in C, where one case hit the 14-round cap at 118,913 tokens); mcp-primitive here sends
  the ${int(toolTokens("B", "mcp-primitive"))} tokens of 19 schemas on the shortest plan. The gap is on the MCP side: even the
  reference's oracle figures against our shortest MCP plans give only ${["B", "C", "D"].map((tier, i) => x(summaries[tier]!.tokens["mcp-primitive"] / REFERENCE_NATIVE[i]!)).join(", ")}. So the figures
  above are what the protocol saves against an MCP agent that makes no mistake: a floor for real runs.

Per case (calls and turns: mcp-primitive / zcp-fc; zcp-compact makes the same calls as zcp-fc and
mcp-all):

${caseTable}

## Weather (zcp-reference.md §8.1)

Four small tools, so the listing is a small share of each request; the primitive plan runs on every
surface (there are no workflow tools). mcp-primitive/zcp-fc is ${x(weather.ratios["mcp-primitive/zcp-fc"]!)}: nothing is left out of the view, the strict
definitions are larger (${toolTokens("weather", "zcp-fc")} tokens against MCP's ${toolTokens("weather", "mcp-primitive")}), and the \`{"ok":true,"value":…}\` envelope is billed again on every later turn;
\`zcp-compact\` is cheaper because it sends no JSON Schema at all. The reference's published 1.59x came
from MCP runs that retried every weather call (its MCP server had no city enum); with the same
schemas and the shortest plans on both sides, the honest ratio is the one below.

${weatherTable}

## Large results: handles

The reference never returned a large result. Here three questions about an order log of 240 and
of 2,400 rows (\`handles.ts\`): on every surface the agent reads the sheet, not knowing its size.
A plain MCP server answers with every row, which then stays in the transcript; the ZCP surfaces
(same primitive view as Tier A) answer with a handle, a one-line summary and the row count, and
the agent asks \`zcp.handle\` for what it needs, in one more turn: the first three rows, the last
three, or for a total every row. So a handle costs a turn and saves the rows the agent does not
need. On zcp-compact a turn is cheap and the handle wins even at 240 rows; on zcp-fc a turn
re-sends ${int(toolTokens("A", "zcp-fc"))} tokens of definitions, which 240 rows (${int(rowTokens("order_log_head_240"))} tokens as MCP returns them) do not
outweigh, and 2,400 rows (${int(rowTokens("order_log_head_2400"))}) do. When the agent needs every row (the totals), the handle
only adds a turn: zcp-fc costs more than mcp-primitive there (${x(of("region_total_240", "mcp-primitive").tokens / of("region_total_240", "zcp-fc").tokens)} and ${x(of("region_total_2400", "mcp-primitive").tokens / of("region_total_2400", "zcp-fc").tokens)}), and zcp-compact's lead
comes from its short listing alone. These rows are here to show that, not to hide it. (An MCP agent could instead ask for the workbook's metadata first and read
only the rows it needs; that plan is open to the ZCP surfaces too, and costs a turn on both.)

${handleTable}

## Listing only: real-world registries

What a model reads to learn each tool set in \`fixtures/corpus\` (the same measurement as
\`pnpm bench:listing\`, whose report explains it): MCP JSON listings against planner lines.

${listingTable(listing.rows, listing.total)}
`;

fs.writeFileSync(path.join(HERE, "report.md"), report);
const json = {
  generatedAt: new Date().toISOString(),
  encoding: "o200k_base",
  tiers: summaries,
  weather,
  handles,
  listing,
  cases: runs.map(({ messages, ...run }) => ({ ...run, messages: messages.length })),
  compactInstructions: compactInstructions("<planner lines>"),
};
fs.writeFileSync(path.join(HERE, "report.json"), `${JSON.stringify(json, null, 2)}\n`);
console.log(tierTable);
console.log(`\n${targetTable}`);
console.log(`\nwrote ${path.relative(process.cwd(), path.join(HERE, "report.md"))} and report.json`);

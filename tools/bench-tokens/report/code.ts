/** The code-mode part of the report: the code surfaces over the primitives and in the large catalog. */
import type { CaseRun } from "../plans/case.ts";
import { TIERS } from "../plans/suite.ts";
import type { AnyProtocol, Protocol } from "../surfaces/spec.ts";
import { tokensOf } from "../surfaces/transcript.ts";
import { of, type Figures } from "./figures.ts";
import { head, int, one, row, x } from "./format.ts";
import { largeSearchable } from "./search.ts";
import type { Summary } from "./summary.ts";

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
/** The largest tool result a run's transcript carries, in tokens. */
const largestResult = (run: CaseRun) =>
  Math.max(0, ...run.messages.filter((message) => message.role === "tool").map(tokensOf));
const BIG_LOG = "region_total_2400";

export function codeSection(f: Figures): string {
  const { runs, largeRuns, tiers, largeTiers, handles, large } = f;
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
  const codeMissed = (label: keyof typeof CODE_AIMS) =>
    CODE_AIM_TIERS.filter((tier) => tiers.primitive[tier]!.ratios[label]! < CODE_AIMS[label]);
  const codeRun = (protocol: AnyProtocol) =>
    runs.find((run) => run.protocol === protocol && run.catalog === "primitive")!;
  const bigLog = (protocol: AnyProtocol) => of(runs, BIG_LOG, protocol as Protocol, "primitive");
  return `## Code mode

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

${codeMissed("mcp-code/zcp-code").length === 0 ? `\`mcp-code/zcp-code\` is at least ${CODE_AIMS["mcp-code/zcp-code"]}x in B–D.` : `\`mcp-code/zcp-code\` is below ${CODE_AIMS["mcp-code/zcp-code"]}x in ${codeMissed("mcp-code/zcp-code").join(", ")}: both sides send one program and read one result, so the ratio is that of what each request carries to describe the tools (${int(codeRun("mcp-code").toolTokens)} against ${int(codeRun("zcp-code").toolTokens)} tokens) plus the result's encoding; Cloudflare's API text carries the full descriptions, ours the first sentences, as between \`mcp\` and \`zcp-compact\` above.`} ${codeMissed("mcp-primitive/zcp-code").length === 0 ? `\`mcp-primitive/zcp-code\` is at least ${CODE_AIMS["mcp-primitive/zcp-code"]}x in B–D.` : `\`mcp-primitive/zcp-code\` is below ${CODE_AIMS["mcp-primitive/zcp-code"]}x in ${codeMissed("mcp-primitive/zcp-code").join(", ")}: a program saves the turns (two requests instead of ${one(Math.round(tiers.primitive.overall!.turns.mcp * 10) / 10)} overall), but each of its two requests still carries the whole API text; the cases make 1 to 9 calls, so there are few turns to save.`} In the large catalog (${int(largeSearchable(large))} tools outside the workflow group), \`mcp-code\`'s code tool carries the API of every one of them (${int(largeCodeTool)} tokens on every request), \`mcp-search-execute\` sends its two tools (${int(largeRuns.find((run) => run.protocol === "mcp-search-execute")!.toolTokens)} tokens) and searches as above (${seSearches(largeTiers.overall!, largeRuns)}), while \`zcp-code\` starts from the discover view (\`zcp.find_tools\` and \`zcp.run\`, ${int(largeZcpCode)} tokens), searches as the search surfaces do (one search per tool its program calls, the session initialized with \`findFormat: "typescript"\`, so that a search answers the found tools' API text), then runs the same program. Per case, \`mcp-search-execute\`'s searches answer ${int(searchAnswers(largeRuns, "mcp-search-execute"))} tokens (five candidates per query, then the chosen operations' descriptions and JSON Schemas, as Cloudflare's result text pretty-prints them) and \`zcp-code\`'s ${int(searchAnswers(largeRuns, "zcp-code"))} (the found tools' API text); the search programs \`mcp-search-execute\`'s model writes are ${int(searchPrograms(largeRuns))} tokens per case, billed as completion and then as context, and its definitions are ${int(largeRuns.find((run) => run.protocol === "mcp-search-execute")!.toolTokens)} tokens on each of its ${one(Math.round(largeTiers.overall!.turns["mcp-search-execute"]! * 10) / 10)} requests, \`zcp-code\`'s ${int(largeZcpCode)} on each of its ${one(Math.round(largeTiers.overall!.turns["zcp-code"]! * 10) / 10)}:

${largeCodeTable}

On the largest order log (${BIG_LOG}), the biggest tool result in the transcript is ${int(largestResult(bigLog("mcp")))} tokens on \`mcp-primitive\` (its cheapest plan reads only the columns it needs), ${int(largestResult(bigLog("mcp-code")))} on \`mcp-code\` and ${int(largestResult(bigLog("zcp-code")))} on \`zcp-code\`: the 2,400 rows stay in the program.

`;
}

/** The rules the figures follow, as report.json states them and as the report's "Rules" section reads. */
import { SYSTEM_PROMPT } from "../plans/case.ts";
import {
  CATALOG_EXCLUDES,
  CATALOGS,
  PROTOCOLS,
  type Catalog,
  type Protocol,
} from "../surfaces/spec.ts";
import { CACHE } from "../surfaces/transcript.ts";
import { DEFAULT_FC, type Figures } from "./figures.ts";
import { int, row } from "./format.ts";
import { documented } from "./listings.ts";

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

export function rulesOf({ listings }: Figures) {
  return {
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
}

export function rulesSection(f: Figures): string {
  const { listings } = f;
  const rules = rulesOf(f);
  const docRows = PROTOCOLS.map((p) =>
    row([p, DOCUMENTATION[p], documented(listings.all[p])]),
  ).join("\n");
  return `## Rules

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

`;
}

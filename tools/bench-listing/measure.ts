/**
 * The listing-only measurement shared by `pnpm bench:listing` and `pnpm bench:tokens`: per
 * registry of fixtures/corpus, the o200k_base tokens of its MCP JSON listings (with and without
 * the tools' own descriptions) against its planner lines, and the table both reports print.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { loadCorpus, type McpTool, type Registry } from "./corpus.ts";
import { parsesBack, plannerLine } from "./listing.ts";

const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/corpus");

export interface Row {
  readonly registry: string;
  readonly source: string;
  readonly listings: number;
  readonly tools: number;
  readonly tokens: { readonly mcp: number; readonly mcpWithoutDescriptions: number; readonly planner: number };
  /** mcp / planner tokens. */
  readonly ratio: number;
  /** Planner lines the runtime's parser does not read back (names outside the grammar). */
  readonly unparsed: number;
}

const stripDescriptions = (tools: readonly McpTool[]) => tools.map(({ name, inputSchema }) => ({ name, inputSchema }));

function measure(registry: Registry): Omit<Row, "ratio"> {
  let mcp = 0;
  let bare = 0;
  let planner = 0;
  let unparsed = 0;
  for (const listing of registry.listings) {
    const lines = listing.map(plannerLine);
    unparsed += lines.filter((line) => !parsesBack(line)).length;
    mcp += countTokens(JSON.stringify(listing));
    bare += countTokens(JSON.stringify(stripDescriptions(listing)));
    planner += countTokens(lines.join("\n"));
  }
  const tools = registry.listings.reduce((sum, listing) => sum + listing.length, 0);
  return { registry: registry.name, source: registry.source, listings: registry.listings.length, tools, tokens: { mcp, mcpWithoutDescriptions: bare, planner }, unparsed };
}

const withRatio = (row: Omit<Row, "ratio">): Row => ({ ...row, ratio: row.tokens.mcp / row.tokens.planner });

export function measureCorpus(): { readonly rows: readonly Row[]; readonly total: Row } {
  const rows = loadCorpus(CORPUS).map(measure).map(withRatio);
  const sum = (pick: (row: Row) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const total = withRatio({
    registry: "all",
    source: "every listing above",
    listings: sum((r) => r.listings),
    tools: sum((r) => r.tools),
    tokens: { mcp: sum((r) => r.tokens.mcp), mcpWithoutDescriptions: sum((r) => r.tokens.mcpWithoutDescriptions), planner: sum((r) => r.tokens.planner) },
    unparsed: sum((r) => r.unparsed),
  });
  return { rows, total };
}

const int = (n: number) => n.toLocaleString("en-US");

export function listingTable(rows: readonly Row[], total: Row): string {
  return [
    "| registry | listings | tools | MCP JSON tokens | MCP JSON without tool descriptions | planner-line tokens | MCP / planner | lines not parsed back |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...[...rows, total].map((r) => {
      const name = r === total ? "**all**" : r.registry;
      return `| ${name} | ${int(r.listings)} | ${int(r.tools)} | ${int(r.tokens.mcp)} | ${int(r.tokens.mcpWithoutDescriptions)} | ${int(r.tokens.planner)} | ${r.ratio.toFixed(2)}x | ${r.unparsed} |`;
    }),
  ].join("\n");
}

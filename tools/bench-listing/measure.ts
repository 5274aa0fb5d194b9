/**
 * The listing-only measurement shared by `pnpm bench:listing` and `pnpm bench:tokens`: per
 * registry of fixtures/corpus, the o200k_base tokens of five forms of its listings, and the
 * table both reports print. The forms:
 *
 * - `mcp`: the MCP JSON (`[{name, description, inputSchema}]`), full descriptions and schemas;
 * - `lean`: the same JSON with each description (tool and parameters) cut to its first sentence
 *   and without the constraints validators enforce (what `zcp gen` writes as lean artifacts);
 * - `plannerBare`: planner lines without documentation (`docs: false`);
 * - `plannerTool`: planner lines with each tool's first sentence;
 * - `plannerDocs`: planner lines with the tool's and each parameter's first sentence (what `zcp
 *   gen` writes and the native `compact` listing sends by default).
 *
 * `lean` and `plannerDocs` carry the same documentation, so their ratio is what the grammar saves.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { loadCorpus, type Registry } from "./corpus.ts";
import { leanTool, parsesBack, plannerLine } from "./listing.ts";

const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/corpus");

interface Tokens {
  readonly mcp: number;
  readonly lean: number;
  readonly plannerBare: number;
  readonly plannerTool: number;
  readonly plannerDocs: number;
}

export interface Row {
  readonly registry: string;
  readonly source: string;
  readonly listings: number;
  readonly tools: number;
  readonly tokens: Tokens;
  /** mcp tokens over each other form's. */
  readonly ratios: {
    readonly lean: number;
    readonly plannerBare: number;
    readonly plannerTool: number;
    readonly plannerDocs: number;
  };
  /** lean JSON tokens over planner lines with the same documentation (`plannerDocs`). */
  readonly leanOverPlanner: number;
  /** Documented planner lines the runtime's parser does not read back (names outside the grammar). */
  readonly unparsed: number;
}

type Measured = Omit<Row, "ratios" | "leanOverPlanner">;

function measure(registry: Registry): Measured {
  const tokens = { mcp: 0, lean: 0, plannerBare: 0, plannerTool: 0, plannerDocs: 0 };
  let unparsed = 0;
  for (const listing of registry.listings) {
    const documented = listing.map((tool) => plannerLine(tool, "all"));
    unparsed += documented.filter((line) => !parsesBack(line)).length;
    tokens.mcp += countTokens(JSON.stringify(listing));
    tokens.lean += countTokens(JSON.stringify(listing.map(leanTool)));
    tokens.plannerBare += countTokens(listing.map((tool) => plannerLine(tool, "none")).join("\n"));
    tokens.plannerTool += countTokens(listing.map((tool) => plannerLine(tool, "tool")).join("\n"));
    tokens.plannerDocs += countTokens(documented.join("\n"));
  }
  const tools = registry.listings.reduce((sum, listing) => sum + listing.length, 0);
  return {
    registry: registry.name,
    source: registry.source,
    listings: registry.listings.length,
    tools,
    tokens,
    unparsed,
  };
}

const withRatios = (row: Measured): Row => {
  const { mcp, lean, plannerBare, plannerTool, plannerDocs } = row.tokens;
  return {
    ...row,
    ratios: {
      lean: mcp / lean,
      plannerBare: mcp / plannerBare,
      plannerTool: mcp / plannerTool,
      plannerDocs: mcp / plannerDocs,
    },
    leanOverPlanner: lean / plannerDocs,
  };
};

export function measureCorpus(): { readonly rows: readonly Row[]; readonly total: Row } {
  const rows = loadCorpus(CORPUS).map(measure).map(withRatios);
  const sum = (pick: (row: Row) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const keys = ["mcp", "lean", "plannerBare", "plannerTool", "plannerDocs"] as const;
  const total = withRatios({
    registry: "all",
    source: "every listing above",
    listings: sum((r) => r.listings),
    tools: sum((r) => r.tools),
    tokens: Object.fromEntries(
      keys.map((key) => [key, sum((r) => r.tokens[key])]),
    ) as unknown as Tokens,
    unparsed: sum((r) => r.unparsed),
  });
  return { rows, total };
}

const int = (n: number) => n.toLocaleString("en-US");
const x = (n: number) => `${n.toFixed(2)}x`;

/** The table of `rows` and `total`; `only` keeps the rows of those registries (the total always). */
export function listingTable(rows: readonly Row[], total: Row, only?: readonly string[]): string {
  const shown = only ? rows.filter((row) => only.includes(row.registry)) : rows;
  return [
    "| registry | listings | tools | MCP JSON | lean JSON | planner, bare | planner + tool sentence | planner + tool and parameter sentences | MCP / lean | MCP / bare | MCP / + tool | MCP / + tool and parameters | lean / planner, same docs | lines not parsed back |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...[...shown, total].map((r) => {
      const name = r === total ? "**all**" : r.registry;
      const t = r.tokens;
      return `| ${name} | ${int(r.listings)} | ${int(r.tools)} | ${int(t.mcp)} | ${int(t.lean)} | ${int(t.plannerBare)} | ${int(t.plannerTool)} | ${int(t.plannerDocs)} | ${x(r.ratios.lean)} | ${x(r.ratios.plannerBare)} | ${x(r.ratios.plannerTool)} | ${x(r.ratios.plannerDocs)} | ${x(r.leanOverPlanner)} | ${r.unparsed} |`;
    }),
  ].join("\n");
}

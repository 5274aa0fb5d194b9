/**
 * The large catalog of `pnpm bench:tokens`: the 1,064 real tool listings of `fixtures/corpus`
 * and the workbench, served as one registry (`composeGenerated`, which also builds the one tool
 * index over both). Each corpus listing becomes a registry tool through the same JSON Schema →
 * planner path `pnpm bench:listing` measures (`plannerLine` in tools/bench-listing/listing.ts),
 * in the group `corpus`, aliased `<source>.<name>` (a second tool of the same name in one source
 * gets `_2`, `_3`...). Calling one answers the error `not_implemented` ("… is not implemented in
 * this benchmark"): only the workbench tools are real.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  composeGenerated,
  createRuntime,
  ToolError,
  type GeneratedModule,
  type JsonValue,
  type ToolDefinition,
} from "@zcp/runtime";
import { shortDescription } from "@zcp/gen";
import {
  combineToolHashes,
  deriveId,
  firstSentence,
  providerName,
  REGISTRY_FORMAT_VERSION,
  toolHash,
} from "@zcp/runtime/definition";
import { loadCorpus, type McpTool } from "../../bench-listing/corpus.ts";
import { plannerLine } from "../../bench-listing/listing.ts";

const CORPUS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/corpus",
);
/** The group every corpus tool is in. */
const CORPUS_GROUP = "corpus";

/** The alias prefix of each corpus registry (its listings share it). */
const SOURCE: Record<string, string> = {
  "github-mcp-server": "github",
  "LiveMCPBench servers": "livemcp",
  "BFCL live-simple": "bfcl_live",
};
const sourceOf = (registry: string) =>
  SOURCE[registry] ?? `bfcl_${registry.replace(/^BFCL /, "").replace(/[^A-Za-z0-9_]/g, "_")}`;

function definition(tool: McpTool, alias: string, file: string): ToolDefinition {
  const named = { ...tool, name: alias };
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { default?: unknown }>;
  const defaults = Object.fromEntries(
    Object.entries(properties)
      .filter(([, property]) => property?.default !== undefined)
      .map(([name, property]) => [name, property.default as JsonValue]),
  );
  const base = {
    id: deriveId(alias),
    alias,
    name: providerName(alias),
    title: null,
    // The first paragraph, or its first sentence when longer, as zcp gen writes it.
    descriptionShort: shortDescription(tool.description),
    description: tool.description,
    inputSchema: tool.inputSchema as ToolDefinition["inputSchema"],
    outputSchema: null,
    outputMode: "scalar",
    handleKind: "generic",
    handleParams: {},
    defaults,
    flags: [],
    groups: [CORPUS_GROUP],
    stages: [],
    scopes: [],
    deprecated: null,
    planner: plannerLine(named, "all"),
    plannerBare: plannerLine(named, "none"),
    call: { kind: "object", context: null },
    dates: [],
  } satisfies Omit<ToolDefinition, "hash" | "source">;
  return { ...base, hash: toolHash(base), source: { file, export: tool.name } };
}

/** Every corpus listing as a tool definition, sorted by alias, with unique aliases and provider names. */
function corpusTools(): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  const taken = new Set<string>();
  for (const registry of loadCorpus(CORPUS)) {
    const source = sourceOf(registry.name);
    for (const listing of registry.listings)
      for (const tool of listing) {
        const base = `${source}.${tool.name}`;
        let alias = base;
        for (let n = 2; taken.has(alias) || taken.has(providerName(alias)); n++)
          alias = `${base}_${n}`;
        taken.add(alias).add(providerName(alias));
        tools.push(definition(tool, alias, `fixtures/corpus (${registry.source})`));
      }
  }
  return tools.sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));
}

/** The corpus as a generated module: its validators take any object, its calls answer `not_implemented`. */
function corpusModule(): GeneratedModule {
  const tools = corpusTools();
  const notImplemented = (alias: string) => () => {
    throw new ToolError(
      "not_implemented",
      `${alias} is a listing from fixtures/corpus and is not implemented in this benchmark`,
    );
  };
  return {
    registry: {
      version: REGISTRY_FORMAT_VERSION,
      generator: "bench-tokens",
      hash: combineToolHashes(tools),
      tools,
      names: Object.fromEntries(tools.map((tool) => [tool.name, tool.alias])),
    },
    validators: Object.fromEntries(
      tools.map((tool) => [tool.id, (input: unknown) => ({ ok: true as const, value: input })]),
    ),
    dispatch: Object.fromEntries(tools.map((tool) => [tool.id, notImplemented(tool.alias)])),
  };
}

/** The corpus and `workbench` as one registry. */
export function largeCatalog(workbench: GeneratedModule): GeneratedModule {
  return composeGenerated([
    { module: corpusModule(), source: "fixtures/corpus" },
    { module: workbench, source: "fixtures/workbench" },
  ]);
}

export interface FindFigures {
  readonly tools: number;
  readonly corpusTools: number;
  /** The index as `zcp gen` would emit it (`find.ts`'s JSON), in bytes. */
  readonly indexBytes: number;
  /** The first `find` of a new runtime, which builds the ranking tables from the index (ms). */
  readonly firstFindMs: number;
  /** `session.find` over every corpus tool's name and every corpus tool's description as queries (ms). */
  readonly latency: { readonly queries: number; readonly p50: number; readonly p99: number };
  /** For each corpus tool, whether a query of its description's first sentence ranks it first, or in the top 5. */
  readonly recall: { readonly tools: number; readonly at1: number; readonly at5: number };
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** The index size, `find` latency and recall over the large catalog (a sanity figure: each query is made of the tool's own text). */
export function findFigures(large: GeneratedModule): FindFigures {
  const corpus = large.registry.tools.filter((tool) => tool.groups.includes(CORPUS_GROUP));
  const session = createRuntime(large).session();
  let started = performance.now();
  session.find("warm up");
  const firstFindMs = performance.now() - started;
  const times: number[] = [];
  for (const query of corpus.flatMap((tool) => [tool.source.export, tool.description])) {
    started = performance.now();
    session.find(query);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const ranks = corpus.map((tool) =>
    session
      .find(firstSentence(tool.description), { limit: 5 })
      .findIndex((found) => found.tool === tool),
  );
  return {
    tools: large.registry.tools.length,
    corpusTools: corpus.length,
    indexBytes: Buffer.byteLength(JSON.stringify(large.find)),
    firstFindMs,
    latency: { queries: times.length, p50: quantile(times, 0.5), p99: quantile(times, 0.99) },
    recall: {
      tools: corpus.length,
      at1: ranks.filter((rank) => rank === 0).length / corpus.length,
      at5: ranks.filter((rank) => rank >= 0).length / corpus.length,
    },
  };
}

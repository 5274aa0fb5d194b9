/**
 * `pnpm bench:gateway`: what a gateway (`zcp gen` with `fromMcp`) costs and saves, against real
 * upstream MCP servers (server-memory, server-everything, server-filesystem over a temporary
 * folder; devDependencies of packages/server, run as `node <package>/dist/index.js` over stdio).
 *
 * 1. Tokens per request. For each upstream, `node packages/gen/dist/bin/zcp.js gen` writes its
 *    gateway into a temporary folder from a `fromMcp` configuration, and the generated
 *    `zcp.gen/index.js` is loaded. Counted with o200k_base (gpt-tokenizer): the upstream's own
 *    `tools/list` as a host sends it (Chat Completions functions built from each tool's name,
 *    description and `inputSchema`), the gateway's MCP listing of its default view
 *    (`createRuntime` + `createMcpServer` over the v2 SDK `Client` and `InMemoryTransport`, the same
 *    function form), the gateway's planner lines (the native `tools/list`, format `compact`, its
 *    default), and the discover view (MCP listing with `profile: "discover"`: the search tool
 *    alone). The same comparison for the fixtures/corpus listings (tools/bench-listing's measure).
 *    The discover view on both MCP eras: 2025-11-25 (the search tool alone, growing with finds)
 *    and 2026-07-28 (`zcp_find_tools` and `zcp_call_tool`, fixed).
 * 2. Conversations (conversations.ts): one ask per upstream, billed under bench:tokens' rules on
 *    the gateway's MCP surfaces of both eras (listing, 2025 search, 2026 find + call).
 * 3. Latency the gateway adds per call: `memory.search_nodes` called BENCH_CALLS times (default
 *    300) directly through a v2 SDK `Client` to the upstream, against the same call through the
 *    generated module's runtime (`session.call`, which validates and forwards to its own
 *    upstream child), in alternating blocks in the same run.
 *
 * Writes tools/bench-gateway/report.md and report.json.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { McpTool as Tool } from "../bench-tokens/surfaces/mcp-listing.ts";
import { createRuntime, type GeneratedModule, type Runtime } from "@zcp/runtime";
import { createNativeSession } from "@zcp/server";
import { closeUpstreams } from "@zcp/server/gateway";
import { measureCorpus } from "../bench-listing/measure.ts";
import { listAllTools, mcpFunction } from "../bench-tokens/surfaces/mcp-listing.ts";
import { connectLegacy, connectModern } from "../bench-tokens/surfaces/mcp.ts";
import { closeSurfaces } from "../bench-tokens/surfaces/open.ts";
import type { CaseRun } from "../bench-tokens/plans/case.ts";
import { converse, GATEWAY_SURFACES, type GatewayAsk } from "./conversations.ts";
import { tokensOf } from "../bench-tokens/surfaces/transcript.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** How the benchmark reaches the 2026-07-28 surface (bench-tokens/surfaces/mcp.ts, `mcp-find-2026`). */
const ERA_2026_CLIENT =
  "read with the official v2 SDK client pinned to 2026-07-28 (no fallback to 2025), over zcp's web-standard handler (`createFetchHandler`) in process";
const REPO = path.resolve(HERE, "../..");
const ZCP = path.join(REPO, "packages/gen/dist/bin/zcp.js");
const CALLS = Number(process.env["BENCH_CALLS"] ?? 300);
const BLOCK = 30;
const WARMUP = 50;
if (!Number.isInteger(CALLS) || CALLS < BLOCK || CALLS % BLOCK !== 0)
  throw new Error(`BENCH_CALLS must be a positive multiple of ${BLOCK}, got ${CALLS}`);

const fromServer = createRequire(path.join(REPO, "packages/server/package.json"));
const entry = (pkg: string) =>
  path.join(path.dirname(fromServer.resolve(`${pkg}/package.json`)), "dist/index.js");

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-bench-gateway-"));
const MEMORY_FILE = path.join(TMP, "memory.jsonl");
const FILES = path.join(TMP, "files");
fs.mkdirSync(FILES);
fs.writeFileSync(path.join(FILES, "notes.txt"), "a file for the filesystem server to list\n");
/** What the memory server's `${ZCP_BENCH_MEMORY_FILE}` template expands to, at gen and run time. */
process.env["ZCP_BENCH_MEMORY_FILE"] = MEMORY_FILE;

interface Upstream {
  readonly name: string;
  readonly package: string;
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
}

const UPSTREAMS: readonly Upstream[] = [
  {
    name: "memory",
    package: "@modelcontextprotocol/server-memory",
    args: [entry("@modelcontextprotocol/server-memory")],
    env: { MEMORY_FILE_PATH: "${ZCP_BENCH_MEMORY_FILE}" },
  },
  {
    name: "everything",
    package: "@modelcontextprotocol/server-everything",
    args: [entry("@modelcontextprotocol/server-everything")],
  },
  {
    name: "filesystem",
    package: "@modelcontextprotocol/server-filesystem",
    args: [entry("@modelcontextprotocol/server-filesystem"), FILES],
  },
];

/** `zcp gen` of the upstream's gateway into a folder of its own; returns the loaded module. */
async function generate(upstream: Upstream): Promise<GeneratedModule> {
  const dir = path.join(TMP, upstream.name);
  fs.mkdirSync(path.join(dir, "node_modules/@zcp"), { recursive: true });
  for (const pkg of ["runtime", "server"])
    fs.symlinkSync(path.join(REPO, "packages", pkg), path.join(dir, "node_modules/@zcp", pkg));
  const server = {
    command: process.execPath,
    args: upstream.args,
    ...(upstream.env ? { env: upstream.env } : {}),
  };
  fs.writeFileSync(
    path.join(dir, "zcp.config.json"),
    `${JSON.stringify({ fromMcp: { server, name: upstream.name } }, null, 2)}\n`,
  );
  const run = spawnSync(process.execPath, [ZCP, "gen"], { cwd: dir, encoding: "utf8" });
  if (run.status !== 0)
    throw new Error(`zcp gen for ${upstream.name} failed (${run.status}): ${run.stderr}`);
  const module = (await import(pathToFileURL(path.join(dir, "zcp.gen/index.js")).href)) as {
    generated: GeneratedModule;
  };
  return module.generated;
}

/** A v2 SDK client over stdio to the upstream itself (its `${NAME}` templates expanded; the 2025 handshake, the client's default). */
async function directClient(upstream: Upstream): Promise<Client> {
  const env = Object.fromEntries(
    Object.entries(upstream.env ?? {}).map(([key, value]) => [
      key,
      value.replace(/\$\{(\w+)\}/g, (_, name: string) => process.env[name] ?? ""),
    ]),
  );
  const client = new Client({ name: "bench-gateway", version: "0.1.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [...upstream.args],
      env,
      stderr: "ignore",
    }),
  );
  return client;
}

/**
 * The runtime's MCP listing on an era, as bench:tokens reads it (bench-tokens/surfaces/mcp.ts):
 * 2025-11-25 through the v2 SDK client in memory, 2026-07-28 through the v2 client pinned to it.
 */
async function mcpListing(runtime: Runtime, era: "2025" | "2026" = "2025"): Promise<Tool[]> {
  const { client, close } = await (era === "2025" ? connectLegacy : connectModern)(runtime);
  const tools = await listAllTools(client);
  await close();
  return tools;
}

/** The native `tools/list` (format `compact`, its default): the planner text and its count. */
async function plannerListing(runtime: Runtime): Promise<{ text: string; count: number }> {
  const native = createNativeSession(runtime);
  const response = (await native.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/list",
    params: { format: "compact" },
  })) as { result?: { format: string; tools: string; count: number } };
  await native.close();
  if (response.result?.format !== "compact")
    throw new Error(`native tools/list: ${JSON.stringify(response)}`);
  return { text: response.result.tools, count: response.result.count };
}

interface Form {
  readonly tools: number;
  readonly tokens: number;
}

interface UpstreamRow {
  readonly upstream: string;
  readonly package: string;
  readonly upstreamMcp: Form;
  /** `registryTokens`: the same listing without the runtime's built-in tools (`zcp_…`). */
  readonly gatewayMcp: Form & {
    readonly names: readonly string[];
    readonly registryTokens: number;
    /** The 2026-07-28 listing of the same view: its tokens, and whether its tools are the same bytes. */
    readonly modernTokens: number;
    readonly sameOnBothEras: boolean;
  };
  /** `handleLine`: the text has `zcp.handle`'s line. */
  readonly planner: Form & { readonly handleLine: boolean };
  readonly discover: Form & { readonly names: readonly string[] };
}

/** One ask per upstream, whose answer is known: the graph seeded below, a sum, the bench's folder. */
const ASKS: readonly GatewayAsk[] = [
  {
    upstream: "memory",
    tool: "search_nodes",
    args: { query: "Ada" },
    prompt: 'Which entities of the knowledge graph mention "Ada"? Answer as {"names": [...]}.',
    answer: (value) => ({
      names: ((value as { entities: { name: string }[] }).entities ?? []).map(
        (entity) => entity.name,
      ),
    }),
    right: (answer) => JSON.stringify(answer.names) === '["Ada"]',
  },
  {
    upstream: "everything",
    tool: "get-sum",
    args: { a: 2, b: 3 },
    prompt: 'What is 2 + 3? Answer as {"sum": ...}.',
    answer: (value) => ({ sum: Number(/(-?\d+(?:\.\d+)?)\D*$/.exec(JSON.stringify(value))?.[1]) }),
    right: (answer) => answer.sum === 5,
  },
  {
    upstream: "filesystem",
    tool: "list_directory",
    args: { path: FILES },
    prompt: `Which files are in ${FILES}? Answer as {"files": [...]}.`,
    answer: (value) => ({
      files: [...JSON.stringify(value).matchAll(/\[FILE\] ([^"\\]+)/g)].map((m) => m[1]!),
    }),
    right: (answer) => JSON.stringify(answer.files) === '["notes.txt"]',
  },
];

const rows: UpstreamRow[] = [];
const modules = new Map<string, GeneratedModule>();
let findTool: Tool | undefined;
for (const upstream of UPSTREAMS) {
  process.stdout.write(`${upstream.name}: zcp gen, listings\n`);
  const generated = await generate(upstream);
  modules.set(upstream.name, generated);
  const client = await directClient(upstream);
  const own = await listAllTools(client);
  await client.close();
  const gateway = await mcpListing(createRuntime(generated));
  const gatewayModern = await mcpListing(createRuntime(generated), "2026");
  const planner = await plannerListing(createRuntime(generated));
  const discover = await mcpListing(
    createRuntime(generated, { exposure: { defaults: { mcp: { profile: "discover" } } } }),
  );
  findTool ??= discover[0];
  rows.push({
    upstream: upstream.name,
    package: upstream.package,
    upstreamMcp: { tools: own.length, tokens: tokensOf(own.map(mcpFunction)) },
    gatewayMcp: {
      tools: gateway.length,
      tokens: tokensOf(gateway.map(mcpFunction)),
      names: gateway.map((tool) => tool.name),
      registryTokens: tokensOf(
        gateway.filter((tool) => !tool.name.startsWith("zcp_")).map(mcpFunction),
      ),
      modernTokens: tokensOf(gatewayModern.map(mcpFunction)),
      sameOnBothEras: JSON.stringify(gatewayModern) === JSON.stringify(gateway),
    },
    planner: {
      tools: planner.count,
      tokens: tokensOf(planner.text),
      handleLine: planner.text.includes(" zcp.handle("),
    },
    discover: {
      tools: discover.length,
      tokens: tokensOf(discover.map(mcpFunction)),
      names: discover.map((tool) => tool.name),
    },
  });
}

// The corpus: tools/bench-listing's forms (MCP JSON `[{name, description, inputSchema}]` and
// planner lines with tool and parameter sentences, per listing), against the discover view's
// search tool in the same JSON form, once per listing.
const corpus = measureCorpus().total;
const find = findTool!;
const findJson = tokensOf([
  { name: find.name, description: find.description, inputSchema: find.inputSchema },
]);
const corpusRow = {
  listings: corpus.listings,
  tools: corpus.tools,
  mcpJson: corpus.tokens.mcp,
  planner: corpus.tokens.plannerDocs,
  discover: findJson * corpus.listings,
  discoverPerListing: findJson,
};

// Latency: the memory upstream directly against the gateway, alternating blocks.
process.stdout.write(`memory: latency, ${CALLS} calls each way\n`);
const memory = UPSTREAMS[0]!;
const direct = await directClient(memory);
await direct.callTool({
  name: "create_entities",
  arguments: {
    entities: [
      { name: "Ada", entityType: "person", observations: ["wrote the first program"] },
      { name: "Grace", entityType: "person", observations: ["wrote the first compiler"] },
      { name: "Alan", entityType: "person", observations: ["defined computability"] },
    ],
  },
});

// Conversations: one ask per upstream on the gateway's MCP surfaces of both eras (the memory
// graph is seeded now).
process.stdout.write("conversations: one ask per upstream on each MCP surface\n");
const conversations: CaseRun[] = [];
for (const ask of ASKS) conversations.push(...(await converse(modules.get(ask.upstream)!, ask)));
await closeSurfaces();
for (const run of conversations)
  if (!run.verified)
    throw new Error(
      `${run.case} on ${run.protocol}: ${[...run.errors, ...run.problems].join("; ") || "not verified"}`,
    );

const session = createRuntime(modules.get("memory")!).session();
const ARGS = { query: "Ada" };
const viaDirect = async () => {
  const result = await direct.callTool({ name: "search_nodes", arguments: ARGS });
  if (result.isError) throw new Error(`direct search_nodes: ${JSON.stringify(result)}`);
};
const viaGateway = async () => {
  const result = await session.call("memory.search_nodes", ARGS);
  if (!result.ok) throw new Error(`gateway search_nodes: ${JSON.stringify(result)}`);
};
const sameAnswer = JSON.stringify(
  (await direct.callTool({ name: "search_nodes", arguments: ARGS })).structuredContent,
);
const gatewayAnswer = await session.call("memory.search_nodes", ARGS);
if (
  !gatewayAnswer.ok ||
  !("value" in gatewayAnswer) ||
  JSON.stringify(gatewayAnswer.value) !== sameAnswer
)
  throw new Error(`the gateway's answer differs: ${JSON.stringify(gatewayAnswer)}`);
for (let i = 0; i < WARMUP; i++) {
  await viaDirect();
  await viaGateway();
}
const samples = { direct: [] as number[], gateway: [] as number[] };
const block = async (fn: () => Promise<void>, into: number[]) => {
  for (let i = 0; i < BLOCK; i++) {
    const start = performance.now();
    await fn();
    into.push(performance.now() - start);
  }
};
for (let b = 0; b < CALLS / BLOCK; b++) {
  if (b % 2 === 0) {
    await block(viaDirect, samples.direct);
    await block(viaGateway, samples.gateway);
  } else {
    await block(viaGateway, samples.gateway);
    await block(viaDirect, samples.direct);
  }
}
await direct.close();
await closeUpstreams();

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
};
const stats = (values: readonly number[]) => ({
  p50Ms: percentile(values, 0.5),
  p99Ms: percentile(values, 0.99),
  meanMs: values.reduce((sum, v) => sum + v, 0) / values.length,
});
const latency = {
  tool: "search_nodes",
  args: ARGS,
  calls: CALLS,
  block: BLOCK,
  warmup: WARMUP,
  direct: stats(samples.direct),
  gateway: stats(samples.gateway),
};
const added = {
  p50Ms: latency.gateway.p50Ms - latency.direct.p50Ms,
  p99Ms: latency.gateway.p99Ms - latency.direct.p99Ms,
  meanMs: latency.gateway.meanMs - latency.direct.meanMs,
};

fs.rmSync(TMP, { recursive: true, force: true });

// The report.
const int = (n: number) => Math.round(n).toLocaleString("en-US");
const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
const ms = (n: number) => n.toFixed(3);
/** The 2026-07-28 fixed discover listing's tokens for an upstream (its conversation's definitions). */
const fixedDiscover = (upstream: string) =>
  conversations.find(
    (run) => run.protocol === "mcp-find-2026" && run.case.startsWith(`${upstream}_`),
  )!.toolTokens;
/** Which upstreams' default view lists the same tools, byte for byte, on both eras. */
const sameViews = () => {
  const same = rows.filter((r) => r.gatewayMcp.sameOnBothEras).map((r) => r.upstream);
  return same.length === rows.length
    ? "its tools are the same bytes on 2025-11-25 and 2026-07-28 for every upstream"
    : `its tools are the same bytes on both eras for ${same.join(", ") || "no upstream"} (the table gives the 2026-07-28 figure where not)`;
};
const tokenTable = [
  "| upstream | upstream tools/list (functions) | gateway MCP, default view | gateway planner lines | discover view, 2025-11-25 | discover view, 2026-07-28 | upstream / planner | upstream / discover 2025 | upstream / discover 2026 |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map(
    (r) =>
      `| ${r.upstream} | ${int(r.upstreamMcp.tokens)} (${r.upstreamMcp.tools} tools) | ${int(r.gatewayMcp.tokens)} (${r.gatewayMcp.tools})${r.gatewayMcp.sameOnBothEras ? "" : `; 2026-07-28: ${int(r.gatewayMcp.modernTokens)}`} | ${int(r.planner.tokens)} (${r.planner.tools}) | ${int(r.discover.tokens)} (${r.discover.tools}) | ${int(fixedDiscover(r.upstream))} (2) | ${x(r.upstreamMcp.tokens, r.planner.tokens)} | ${x(r.upstreamMcp.tokens, r.discover.tokens)} | ${x(r.upstreamMcp.tokens, fixedDiscover(r.upstream))} |`,
  ),
].join("\n");
const corpusTable = [
  "| corpus | listings | tools | MCP JSON | planner lines | discover (search tool per listing) | MCP / planner | MCP / discover |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  `| fixtures/corpus, all | ${int(corpusRow.listings)} | ${int(corpusRow.tools)} | ${int(corpusRow.mcpJson)} | ${int(corpusRow.planner)} | ${int(corpusRow.discover)} (${corpusRow.discoverPerListing} each) | ${x(corpusRow.mcpJson, corpusRow.planner)} | ${x(corpusRow.mcpJson, corpusRow.discover)} |`,
].join("\n");
/** A conversation's run on a surface. */
const ran = (ask: GatewayAsk, protocol: string) =>
  conversations.find(
    (run) => run.case === `${ask.upstream}_${ask.tool}` && run.protocol === protocol,
  )!;
const eraLabel = (protocol: string) =>
  `${protocol} (${GATEWAY_SURFACES.find((surface) => surface.protocol === protocol)!.era})`;
/** In how many conversations `a` costs fewer tokens than `b`. */
const cheaperThan = (a: string, b: string) =>
  ASKS.filter((ask) => ran(ask, a).tokens < ran(ask, b).tokens).length;
/** The range of `a`'s tokens over `b`'s across the conversations. */
const spread = (a: string, b: string) => {
  const ratios = ASKS.map((ask) => ran(ask, a).tokens / ran(ask, b).tokens);
  return `${Math.min(...ratios).toFixed(2)}x–${Math.max(...ratios).toFixed(2)}x`;
};
const conversationTable = [
  `| upstream | ask | ${GATEWAY_SURFACES.map((surface) => eraLabel(surface.protocol)).join(" | ")} | mcp-find-2026 / mcp-search | cached mcp-find-2026 / mcp-search | definitions per request | turns | verified |`,
  `| --- | --- | ${GATEWAY_SURFACES.map(() => "---:").join(" | ")} | ---: | ---: | ---: | ---: | --- |`,
  ...ASKS.map((ask) => {
    const runs = GATEWAY_SURFACES.map((surface) => ran(ask, surface.protocol));
    const [, legacy, modern] = runs as [CaseRun, CaseRun, CaseRun];
    return `| ${ask.upstream} | \`${ask.tool}\` | ${runs.map((run) => int(run.tokens)).join(" | ")} | ${x(modern.tokens, legacy.tokens)} | ${x(modern.cached, legacy.cached)} | ${runs.map((run) => int(run.toolTokens)).join(" / ")} | ${runs.map((run) => run.turns.length).join(" / ")} | ${runs.every((run) => run.verified) ? "yes" : "NO"} |`;
  }),
].join("\n");
const latencyTable = [
  "| path | p50 ms | p99 ms | mean ms |",
  "| --- | ---: | ---: | ---: |",
  `| direct: SDK Client → upstream | ${ms(latency.direct.p50Ms)} | ${ms(latency.direct.p99Ms)} | ${ms(latency.direct.meanMs)} |`,
  `| gateway: session.call → upstream | ${ms(latency.gateway.p50Ms)} | ${ms(latency.gateway.p99Ms)} | ${ms(latency.gateway.meanMs)} |`,
  `| added by the gateway | ${ms(added.p50Ms)} | ${ms(added.p99Ms)} | ${ms(added.meanMs)} |`,
].join("\n");
const extra = rows
  .map(
    (r) =>
      `- ${r.upstream}: the default view lists ${r.gatewayMcp.tools} tools against the upstream's ${r.upstreamMcp.tools}${r.gatewayMcp.tools > r.upstreamMcp.tools ? ` (with ${r.gatewayMcp.names.filter((name) => name.startsWith("zcp_")).join(", ")}; ${int(r.gatewayMcp.registryTokens)} tokens without it)` : ""}; its ${r.planner.tools} planner lines${r.planner.handleLine ? " include zcp.handle's" : ""}; discover lists ${r.discover.names.join(", ")}.`,
  )
  .join("\n");

const report = `# bench:gateway: a zcp gateway in front of real MCP servers

Generated by \`pnpm bench:gateway\` (tools/bench-gateway/run.ts) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}.

Upstreams: \`@modelcontextprotocol/server-memory\`, \`server-everything\` and \`server-filesystem\`
(over a temporary folder), the devDependencies of packages/server, run as
\`node <package>/dist/index.js\` over stdio. Each gateway is written by
\`node packages/gen/dist/bin/zcp.js gen\` from a \`fromMcp\` configuration into a temporary folder,
and its \`zcp.gen/index.js\` is loaded in process.

## Tokens per request

o200k_base (gpt-tokenizer) of what each request carries to list the tools:

- **upstream tools/list (functions)**: the upstream's own listing, read with the v2 SDK \`Client\` (the upstreams speak the 2025 protocol),
  as Chat Completions functions \`{type: "function", function: {name, description, parameters:
  inputSchema}}\`.
- **gateway MCP, default view**: the gateway's MCP listing (\`createRuntime\` with no options,
  \`createMcpServer\`, the v2 SDK \`Client\` over its \`InMemoryTransport\`), in the same function form;
  read on 2026-07-28 too, ${sameViews()}.
- **gateway planner lines**: the native \`tools/list\` in its default \`compact\` format (planner
  lines with the tool's and each parameter's first sentence).
- **discover view, 2025-11-25**: the MCP listing with \`profile: "discover"\` on the 2025 era, in the
  function form: the search tool alone (the session's listing then grows with what it finds).
- **discover view, 2026-07-28**: the same view on the 2026-07-28 era, where a listing may not
  change as a side effect: \`zcp_find_tools\` and \`zcp_call_tool\`, always (${ERA_2026_CLIENT}).

Tool counts in parentheses.

${tokenTable}

${extra}

The corpus (fixtures/corpus, every listing, as tools/bench-listing measures it): MCP JSON is
\`JSON.stringify\` of \`[{name, description, inputSchema}]\` per listing, planner lines carry the
tool's and each parameter's first sentence, and discover is the search tool
(\`${find.name}\`) in the same \`[{name, description, inputSchema}]\` form once per listing.

${corpusTable}

## Both MCP eras: one ask per upstream

Billed under bench:tokens' rules (its \`runCase\`, surfaces and transcript accounting,
tools/bench-tokens/report.md "Rules"): the same system prompt, the ask, the call, the answer,
o200k_base, each request carrying its definitions; the answer is checked. One ask per upstream,
whose answer is known: \`search_nodes\` on the memory graph seeded for the latency test below,
\`get-sum\` of 2 and 3, \`list_directory\` of the bench's folder. \`mcp\` lists the gateway's default
view and calls the tool; \`mcp-search\` (2025-11-25) starts from the discover view, searches blind
(the first sentence of the tool's description as the query, k = 5) and is billed for the found tools
as functions, which its listing then holds; \`mcp-find-2026\` (2026-07-28) lists \`zcp_find_tools\` and
\`zcp_call_tool\`, makes the same search, reads the found tools' MCP definitions as the find's result
text, and calls the tool through \`zcp_call_tool\` with \`{ name, arguments }\`; its listing is checked
to stay the same bytes after every turn. Tokens per conversation:

${conversationTable}

\`mcp\` is the gateway served as a plain MCP server, as on bench:tokens: every result whole, so no
handle tool. On these small servers and one call, listing every tool costs less than searching in
${cheaperThan("mcp", "mcp-search")} of ${ASKS.length} conversations against \`mcp-search\` and in ${cheaperThan("mcp", "mcp-find-2026")} against \`mcp-find-2026\`. \`mcp-find-2026\` costs
${spread("mcp-find-2026", "mcp-search")} what \`mcp-search\` costs: the same search finds the same tools, but the 2026
find answers each found tool's name, description and input schema as text in a JSON
wrapping, where the 2025 host lists the found tools as functions; each call wraps its arguments
in \`zcp_call_tool\`'s, and its listing holds two tools instead of one.

## Latency the gateway adds per call

\`search_nodes\` with \`${JSON.stringify(ARGS)}\` on the memory upstream (a graph of three
entities in a temporary file, which the server reads at each call), ${CALLS} sequential calls
each way after ${WARMUP} warm-up calls each: **direct** is a v2 SDK \`Client\` over stdio to one
memory server child (\`client.callTool\`); **gateway** is \`session.call("memory.search_nodes")\`
on a runtime of the generated module, which validates the arguments and forwards through
\`@zcp/server/gateway\` (its own SDK \`Client\` over stdio to its own memory server child). The two
run in alternating blocks of ${BLOCK} calls (the first of each pair of blocks alternates), each
call timed with \`performance.now()\`. Both answer the same value (checked before timing). The
p99 of ${CALLS} calls is the ${Math.ceil(0.99 * CALLS)}th of the sorted times, so a few slow calls
move it from run to run.

${latencyTable}
`;

fs.writeFileSync(path.join(HERE, "report.md"), report);
fs.writeFileSync(
  path.join(HERE, "report.json"),
  `${JSON.stringify(
    {
      generatedAt: new Date().toISOString(),
      node: process.version,
      encoding: "o200k_base",
      upstreams: rows,
      corpus: corpusRow,
      conversations: conversations.map((run) => ({
        case: run.case,
        protocol: run.protocol,
        era: GATEWAY_SURFACES.find((surface) => surface.protocol === run.protocol)!.era,
        tokens: run.tokens,
        cached: run.cached,
        toolTokens: run.toolTokens,
        turns: run.turns.length,
        verified: run.verified,
      })),
      latency: { ...latency, added },
    },
    null,
    2,
  )}\n`,
);
process.stdout.write(`${tokenTable}\n\n${corpusTable}\n\n${latencyTable}\n`);
process.stdout.write(
  `\nwrote ${path.relative(process.cwd(), path.join(HERE, "report.md"))} and report.json\n`,
);
process.exit(0);

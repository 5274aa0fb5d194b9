/**
 * One conversation per upstream for `pnpm bench:gateway`, billed under bench:tokens' rules (its
 * `runCase`, surfaces and transcript accounting) on the gateway's MCP surfaces of both eras:
 *
 * - `mcp`: the gateway's default view, every tool listed (the same listing on both eras);
 * - `mcp-search` (2025-11-25): the discover view, the search tool alone, growing with finds;
 * - `mcp-find-2026` (2026-07-28): the fixed discover view, `zcp_find_tools` and `zcp_call_tool`.
 *
 * Each asks for one upstream call whose answer is known (the memory graph the bench seeds, a sum,
 * the bench's temporary folder); the search surfaces find the tool blind first, with the first
 * sentence of its description, as bench:tokens' searches do.
 */
import type { GeneratedModule, JsonValue } from "@zcp/runtime";
import { runCase, type BenchCase, type CaseRun } from "../bench-tokens/plans/case.ts";
import type { AnyProtocol } from "../bench-tokens/surfaces/spec.ts";

/** The surfaces each conversation runs on, with the era each holds for. */
export const GATEWAY_SURFACES = [
  { protocol: "mcp", era: "either era" },
  { protocol: "mcp-search", era: "2025-11-25" },
  { protocol: "mcp-find-2026", era: "2026-07-28" },
] as const satisfies readonly { protocol: AnyProtocol; era: string }[];

/** What a conversation asks of one upstream: one call and what its answer must hold. */
export interface GatewayAsk {
  /** The upstream, as `zcp gen` named its tools' alias prefix. */
  readonly upstream: string;
  /** The upstream's tool name (as its own `tools/list` names it). */
  readonly tool: string;
  readonly args: { readonly [name: string]: JsonValue };
  readonly prompt: string;
  /** The answer, read from the call's value. */
  readonly answer: (value: JsonValue) => { readonly [key: string]: JsonValue };
  /** Whether the answer is right. */
  readonly right: (answer: { readonly [key: string]: unknown }) => boolean;
}

/** The alias `zcp gen` gave the upstream's tool, or an error naming the gateway's tools. */
function aliasOf(generated: GeneratedModule, ask: GatewayAsk): string {
  const wanted = `${ask.upstream}.${ask.tool}`;
  const tool = generated.registry.tools.find((candidate) => candidate.alias === wanted);
  if (tool === undefined)
    throw new Error(
      `${ask.upstream}: no tool ${wanted} in the gateway (it has ${generated.registry.tools.map((candidate) => candidate.alias).join(", ")})`,
    );
  return tool.alias;
}

/** The ask as a bench:tokens case over the gateway's registry: one plan, one call. */
function gatewayCase(generated: GeneratedModule, ask: GatewayAsk): BenchCase {
  const alias = aliasOf(generated, ask);
  return {
    id: `${ask.upstream}_${ask.tool}`,
    tier: "gateway",
    registry: generated,
    prompt: ask.prompt,
    plans: [
      {
        name: "one call",
        turns: [() => [{ alias, args: ask.args }]],
        answer: (results) => ask.answer(results[0]![0]!),
      },
    ],
    verify: (answer) => ask.right(answer),
  };
}

/** The ask's conversation on every gateway surface. */
export async function converse(generated: GeneratedModule, ask: GatewayAsk): Promise<CaseRun[]> {
  const bench = gatewayCase(generated, ask);
  const runs: CaseRun[] = [];
  for (const { protocol } of GATEWAY_SURFACES)
    runs.push(await runCase(bench, { protocol, catalog: "all" }));
  return runs;
}

/**
 * `find`: the tools a session's surface could ever expose (its exposure policy, in any stage),
 * ranked for a query by the runtime's index. The policy bounds it: a tool the policy excludes is
 * never found, even by its exact alias. Its limits and the formats `zcp.find_tools` lists what
 * it found in are here too, below the built-in, the session and its stored state that use them.
 */
import type { ArtifactProvider } from "../artifacts/index.js";
import type { ToolDefinition } from "../registry.js";
import { applySelection } from "../view.js";
import type { FindSearch } from "./search.js";

/** Most tools one search returns. */
export const FIND_LIMIT_MAX = 20;
/** Tools one search returns unless told. */
export const FIND_LIMIT_DEFAULT = 5;

/**
 * How `zcp.find_tools` lists the tools it found: `"planner"`, their documented planner lines
 * (`ToolDefinition.planner`); `"typescript"`, one string, their API text (`renderDeclarations`,
 * for a client that writes `zcp.run` programs); a provider, that provider's full artifact
 * entries for them (those `View.artifacts(provider)` gives).
 */
export type FindFormat = "planner" | "typescript" | ArtifactProvider;

/** What `find` needs of the runtime: part of `SessionHost` (host.ts). */
export interface FindHost {
  /** The tool named by alias, id or provider name (the built-in tools included). */
  tool(name: string): ToolDefinition | undefined;
  /** The registry tools a surface exposes before stages and client filters. */
  exposedFor(surface: string): ToolDefinition[];
  /** The ranking over the registry's index (built or parsed on first use). */
  readonly search: FindSearch;
}

export interface FindOptions {
  /** At most this many tools (default 5, at most 20). */
  readonly limit?: number;
  /** Only tools in any of these groups. */
  readonly groups?: readonly string[];
  /** Only tools available in any of these stages (tools without stages are in every one). */
  readonly stages?: readonly string[];
}

/** A tool `find` ranked, with its BM25 score (higher is better). */
export interface FoundTool {
  readonly tool: ToolDefinition;
  readonly score: number;
}

/**
 * The tools of `surface` that match `query` best, best first. An empty or stop-word-only query
 * finds nothing. A `RangeError` for a limit that is not an integer from 1 to 20.
 */
export function findTools(
  host: FindHost,
  surface: string,
  query: string,
  options: FindOptions = {},
): FoundTool[] {
  const limit = options.limit ?? FIND_LIMIT_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > FIND_LIMIT_MAX)
    throw new RangeError(
      `find: limit must be an integer from 1 to ${FIND_LIMIT_MAX}, got ${limit}`,
    );
  const candidates = applySelection(host.exposedFor(surface), {
    ...(options.groups ? { groups: options.groups } : {}),
    ...(options.stages ? { stages: options.stages } : {}),
  });
  const allowed = new Set(candidates.map((tool) => tool.id));
  const alias = (id: string) => host.tool(id)!.alias;
  return host.search
    .rank(query, limit, (id) => allowed.has(id), alias)
    .map(({ id, score }) => ({ tool: host.tool(id)!, score }));
}

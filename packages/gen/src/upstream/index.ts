/**
 * upstream: the stage that stands in for scan, extract and model in a `fromMcp` project: read
 * an upstream MCP server's listing (`list.ts`) and model it as tool definitions (`model.ts`).
 * The rest of the pipeline (validators, provider diagnostics, index, types, registry,
 * manifest) is the same as for TypeScript tools; the dispatch is the gateway's
 * (`emit/gateway.ts`).
 */
import type { ToolDefinition } from "@zcp/runtime/definition";
import type { Describe } from "../config.js";
import type { Diagnostic } from "../diagnostics.js";
import type { Site } from "../model/index.js";
import { listingHash } from "./hash.js";
import { listUpstream, type ListOptions } from "./list.js";
import { modelUpstream } from "./model.js";
import type { FromMcp } from "./options.js";

export { listUpstream, type ListOptions } from "./list.js";
export type { FromMcp } from "./options.js";

export interface UpstreamTools {
  readonly definitions: readonly ToolDefinition[];
  readonly sites: ReadonlyMap<ToolDefinition, Site>;
  readonly diagnostics: Diagnostic[];
  /** What the gateway dispatch and the manifest need; null when the listing could not be read. */
  readonly gateway: Gateway | null;
}

export interface Gateway {
  readonly server: FromMcp["server"];
  /** The alias prefix, which also names the upstream in the run time's messages. */
  readonly name: string;
  readonly listingHash: string;
}

/**
 * Lists the upstream of `options` and models its tools; diagnostics point at `configFile`.
 * `describe` is the configuration's: how much of each description planner lines and provider
 * entries carry.
 */
export async function upstreamTools(
  options: FromMcp,
  configFile: string,
  list: ListOptions = {},
  describe: Describe = "first",
): Promise<UpstreamTools> {
  const listed = await listUpstream(options.server, list);
  if (!listed.listing)
    return { definitions: [], sites: new Map(), diagnostics: listed.diagnostics, gateway: null };
  const model = modelUpstream(listed.listing, options, configFile, describe);
  return {
    definitions: model.definitions,
    sites: model.sites,
    diagnostics: model.diagnostics,
    gateway: {
      server: options.server,
      name: model.name,
      listingHash: listingHash(listed.listing),
    },
  };
}

/**
 * upstream: the listing hash the manifest records (`upstream.listingHash`): SHA-256 over the
 * canonical JSON of the listed tools, sorted by name, so that the order of the pages or of the
 * keys does not count, and any change of a name, description, schema or annotation does. The
 * entries that are not valid MCP tools count as listed, sorted by their canonical JSON: an
 * upstream that fixes one has changed. Without any, the hash is what it was before they were
 * read apart, so that no manifest drifts by an upgrade of zcp.
 */
import { createHash } from "node:crypto";
import { canonicalJson, type JsonValue } from "@zcp/runtime/definition";
import type { Listing } from "./list.js";

export function listingHash(listing: Listing): string {
  const tools = [...listing.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const malformed = (listing.malformed ?? []).map((tool) => canonicalJson(tool.entry)).sort();
  const text = canonicalJson({
    serverName: listing.serverName,
    tools,
    ...(malformed.length > 0 ? { malformed } : {}),
  } as unknown as JsonValue);
  return createHash("sha256").update(text).digest("hex");
}

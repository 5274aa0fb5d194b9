/**
 * upstream: the listing hash the manifest records (`upstream.listingHash`): SHA-256 over the
 * canonical JSON of the listed tools, sorted by name, so that the order of the pages or of the
 * keys does not count, and any change of a name, description, schema or annotation does.
 */
import { createHash } from "node:crypto";
import { canonicalJson, type JsonValue } from "@zcp/runtime/codegen";
import type { Listing } from "./list.js";

export function listingHash(listing: Listing): string {
  const tools = [...listing.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const text = canonicalJson({ serverName: listing.serverName, tools } as unknown as JsonValue);
  return createHash("sha256").update(text).digest("hex");
}

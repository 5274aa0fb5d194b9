/**
 * emit: `registry.json`, the manifest: the registry as JSON, plus `files`, every other file the
 * run generated, so that the next run (`write/`) can remove what it no longer generates. Loads
 * nothing else: `write/` reads the previous manifest through this module, not the entry.
 */
import type { Registry } from "@zcp/runtime/codegen";
import { jsonArray, type JsonPart } from "./json.js";

export const MANIFEST = "registry.json";

interface Manifest extends Registry {
  /** Every file the run generated, this manifest excluded, sorted. */
  readonly files: readonly string[];
}

/** `JSON.stringify(manifest, null, 2)`, with the tool definitions' texts from `part`. */
export function manifestText(registry: Registry, files: readonly string[], part: JsonPart): string {
  const manifest: Manifest = { ...registry, files: [...files].sort() };
  const fields = Object.entries(manifest).map(([key, value]) => {
    const text =
      key === "tools"
        ? jsonArray(value as object[], part, 1)
        : JSON.stringify(value, null, 2).replaceAll("\n", "\n  ");
    return `  ${JSON.stringify(key)}: ${text}`;
  });
  return `{\n${fields.join(",\n")}\n}\n`;
}

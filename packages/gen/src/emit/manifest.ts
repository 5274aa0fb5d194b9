/**
 * emit: `registry.json`, the manifest: the registry's format, generator and hash, each tool's
 * hash by alias (`index`, sorted by alias), and `files`, every other file the run generated, so
 * that the next run (`write/`) can remove what it no longer generates. With `"jsonFiles": true`
 * it holds `tools` too, the full definitions (one compact JSON line per tool), for consumers
 * that do not run TypeScript. A gateway's manifest records `upstream: { listingHash }`, the hash
 * of the upstream listing it was generated from, for `--check` to detect drift. Loads nothing else: `write/` reads the previous manifest through
 * this module, not the entry.
 */
import type { Registry } from "@zcp/runtime/definition";

export const MANIFEST = "registry.json";

/** The manifest's text: `JSON.stringify(manifest, null, 2)`, but each definition on one line. */
export function manifestText(
  registry: Registry,
  files: readonly string[],
  withTools: boolean,
  upstream: { readonly listingHash: string } | null = null,
): string {
  const aliases = registry.tools.map((tool) => [tool.alias, tool.hash] as const);
  aliases.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const fields: [string, string][] = [
    ["version", JSON.stringify(registry.version)],
    ["generator", JSON.stringify(registry.generator)],
    ["hash", JSON.stringify(registry.hash)],
    ["index", pretty(Object.fromEntries(aliases))],
  ];
  // A gateway's: the hash of the upstream's listing it was generated from (drift, `--check`).
  if (upstream) fields.push(["upstream", pretty(upstream)]);
  if (withTools) {
    const lines = registry.tools.map((tool) => `    ${JSON.stringify(tool)}`);
    fields.push(["tools", lines.length === 0 ? "[]" : `[\n${lines.join(",\n")}\n  ]`]);
  }
  fields.push(["files", pretty([...files].sort())]);
  return `{\n${fields.map(([key, text]) => `  ${JSON.stringify(key)}: ${text}`).join(",\n")}\n}\n`;
}

/** A value as it appears one level deep in a pretty-printed document. */
function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2).replaceAll("\n", "\n  ");
}

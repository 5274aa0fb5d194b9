/**
 * compose: the stage that joins the tools of published packages (`"registries"` in the
 * configuration) to the project's own, at build time. Packages are read, never executed
 * (`read.ts`, `resolve.ts`, `packages.ts`); collisions between origins are errors that leave
 * every colliding tool out (`collisions.ts`). What the generated module needs to reach each
 * package's validators and dispatchers is `ComposedPackage`.
 */
import type { ToolDefinition } from "@zcp/runtime/definition";
import type { Config } from "../config.js";
import type { Diagnostic } from "../diagnostics.js";
import { findCollisions } from "./collisions.js";
import { loadPackages } from "./packages.js";

/** A package whose tools the generated module serves through the package's own module. */
export interface ComposedPackage {
  readonly name: string;
  /** Its registry hash when composed: the generated module checks it again when it loads. */
  readonly hash: string;
  /** Composed tool id → the tool's id in the package's module. */
  readonly ids: ReadonlyMap<string, string>;
}

export interface Composition {
  /** The project's tools and the packages' kept, sorted by alias. */
  readonly tools: ToolDefinition[];
  /** The packages with at least one tool kept, in configuration order. */
  readonly packages: ComposedPackage[];
  readonly diagnostics: Diagnostic[];
  /** The package files read, with the hashes of their texts. */
  readonly inputs: ReadonlyMap<string, string | null>;
}

/**
 * `local` (the project's own tools) with the tools of `config.registries`. `version` is this
 * generator's (`ZCP1605` compares it with each package's).
 */
export function composeRegistries(
  config: Config,
  local: readonly ToolDefinition[],
  version: string,
): Composition {
  if (config.registries.length === 0)
    return { tools: [...local], packages: [], diagnostics: [], inputs: new Map() };
  const loaded = loadPackages(config, version);
  const all = [...local, ...loaded.packages.flatMap((pkg) => pkg.tools.map((t) => t.tool))];
  const { diagnostics, colliding } = findCollisions(all, config);
  const packages: ComposedPackage[] = [];
  for (const pkg of loaded.packages) {
    const kept = pkg.tools.filter((t) => !colliding.has(t.tool));
    if (kept.length > 0)
      packages.push({
        name: pkg.name,
        hash: pkg.hash,
        ids: new Map(kept.map((t) => [t.tool.id, t.id])),
      });
  }
  const tools = all
    .filter((tool) => !colliding.has(tool))
    .sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));
  return {
    tools,
    packages,
    diagnostics: [...loaded.diagnostics, ...diagnostics],
    inputs: loaded.inputs,
  };
}

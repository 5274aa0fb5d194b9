/**
 * compose: tools of different origins (this project, each package) that would share an alias,
 * an id or a provider name. Every collision is reported, naming every side, and every colliding
 * tool is left out: none wins silently.
 */
import type { ToolDefinition } from "@zcp/runtime/definition";
import type { Config } from "../config.js";
import { diagnostic, type Code, type Diagnostic } from "../diagnostics.js";
import { entrySite } from "./site.js";

const KEYS: readonly { key: "alias" | "id" | "name"; code: Code; what: string }[] = [
  { key: "alias", code: "ZCP1402", what: "tool alias" },
  { key: "id", code: "ZCP1401", what: "tool id" },
  { key: "name", code: "ZCP1403", what: "provider tool name" },
];

/** Where a tool comes from, in a collision message: `<package> (<file>#<export>)` or `this project (…)`. */
function origin(tool: ToolDefinition): string {
  return `${tool.source.package ?? "this project"} (${tool.source.file}#${tool.source.export})`;
}

/**
 * The collisions among `tools` (the project's own, already unique among themselves, and the
 * packages'), one diagnostic each at the configuration entry of a package involved, and the
 * tools involved in any.
 */
export function findCollisions(
  tools: readonly ToolDefinition[],
  config: Config,
): { diagnostics: Diagnostic[]; colliding: Set<ToolDefinition> } {
  const diagnostics: Diagnostic[] = [];
  const colliding = new Set<ToolDefinition>();
  for (const { key, code, what } of KEYS) {
    const groups = new Map<string, ToolDefinition[]>();
    for (const tool of tools) groups.set(tool[key], [...(groups.get(tool[key]) ?? []), tool]);
    for (const [value, group] of groups) {
      // Equal aliases give equal ids and names as a rule: one ZCP1402 says it all.
      if (group.length < 2 || (key !== "alias" && new Set(group.map((t) => t.alias)).size < 2))
        continue;
      for (const tool of group) colliding.add(tool);
      const sides = group.map(origin);
      const listed =
        sides.length === 2
          ? `both ${sides[0]} and ${sides[1]}`
          : `${sides.slice(0, -1).join(", ")} and ${sides.at(-1)}`;
      const hint =
        key === "name" ? ` (aliases ${group.map((t) => `"${t.alias}"`).join(", ")})` : "";
      const pkg = group.find((tool) => tool.source.package !== undefined)!.source.package!;
      diagnostics.push(
        diagnostic(
          "error",
          code,
          `registries: ${what} "${value}"${hint} is in ${listed}: give one of them a "prefix", or leave one out with "excludeAliases"`,
          entrySite(config, pkg),
        ),
      );
    }
  }
  return { diagnostics, colliding };
}

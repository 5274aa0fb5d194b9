/**
 * diff: `zcp diff OLD NEW`, the changes between two registry manifests and which of them break
 * callers. Tools are matched by alias; a tool whose alias changed but whose id did not is
 * renamed, otherwise it is removed and another added. Pure: registries in, changes out.
 */
import type { Registry, ToolDefinition } from "@zcp/runtime/definition";
import { TOOL_RULES, type Change } from "./rules.js";

export type { Change } from "./rules.js";

/** Every change from `old` to `now`, by tool alias, each tool's in rule order. */
export function diffRegistries(old: Registry, now: Registry): Change[] {
  const before = new Map(old.tools.map((t) => [t.alias, t]));
  const after = new Map(now.tools.map((t) => [t.alias, t]));
  const changes: Change[] = [];
  const renamedTo = new Map<string, ToolDefinition>();
  for (const tool of old.tools) {
    if (after.has(tool.alias)) continue;
    const target = now.tools.find((t) => t.id === tool.id && !before.has(t.alias));
    if (target) renamedTo.set(tool.alias, target);
  }
  const renamed = new Set([...renamedTo.values()].map((t) => t.alias));
  for (const tool of old.tools) {
    if (after.has(tool.alias) || renamedTo.has(tool.alias)) continue;
    changes.push({
      tool: tool.alias,
      rule: "tool-removed",
      breaking: true,
      detail: "tool removed",
      path: "",
    });
  }
  for (const tool of now.tools) {
    const previous = before.get(tool.alias);
    if (previous) {
      changes.push(...TOOL_RULES.flatMap((rule) => rule(previous, tool)));
    } else if (!renamed.has(tool.alias)) {
      changes.push({
        tool: tool.alias,
        rule: "tool-added",
        breaking: false,
        detail: "tool added",
        path: "",
      });
    }
  }
  for (const [alias, tool] of renamedTo) {
    changes.push({
      tool: tool.alias,
      rule: "tool-renamed",
      breaking: true,
      detail: `renamed from "${alias}" (id ${tool.id})`,
      path: "alias",
    });
    changes.push(...TOOL_RULES.flatMap((rule) => rule(before.get(alias)!, tool)));
  }
  return changes.sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}

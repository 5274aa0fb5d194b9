/**
 * model: the names a tool gets besides its alias: its id (`deriveId`), its provider-safe name
 * (`providerName`), and the name part of the identifiers generated code declares for it
 * (`toolNames`: `validate_weather_get_current`, `tool_weather_get_current`...), so that a reader
 * (or a stack trace) can tell which tool a line belongs to. Names depend on the tools only,
 * never on line numbers or hashes, and are resolved deterministically when two would be equal.
 */
import type { ToolDefinition } from "@zcp/runtime/definition";

// Shared with `composeGenerated`, which derives them again for prefixed tools.
export { deriveId, providerName } from "@zcp/runtime/definition";

/**
 * The name part of a tool's generated identifiers, derived from its alias alone: `.` and `-`
 * become `_` (an alias starts with a letter or `_`, and every use adds a prefix, so it is always
 * a valid identifier). Two aliases that differ only there (`a-b`, `a_b`) share it: see
 * `toolNames`.
 */
export function toolBaseName(tool: ToolDefinition): string {
  return tool.alias.replace(/[^A-Za-z0-9_]/g, "_");
}

/**
 * Every tool's name part, unique among `tools`: its base name, except where tools share one.
 * Then the tool whose alias has no `-` keeps it (there is at most one: two aliases equal up to
 * `.` and `_` are a ZCP1403 collision and left out), and the others, in alias order, take
 * `<base>_2`, `<base>_3`... (skipping names in use).
 */
export function toolNames(tools: readonly ToolDefinition[]): Map<ToolDefinition, string> {
  const groups = new Map<string, ToolDefinition[]>();
  for (const tool of tools) {
    const base = toolBaseName(tool);
    const group = groups.get(base);
    if (group) group.push(tool);
    else groups.set(base, [tool]);
  }
  const names = new Map<ToolDefinition, string>();
  const used = new Set(groups.keys());
  for (const [base, group] of groups) {
    const [first, ...rest] = group.length === 1 ? group : [...group].sort(byDashThenAlias);
    names.set(first!, base);
    let n = 2;
    for (const tool of rest) {
      while (used.has(`${base}_${n}`)) n++;
      used.add(`${base}_${n}`);
      names.set(tool, `${base}_${n}`);
    }
  }
  return names;
}

function byDashThenAlias(a: ToolDefinition, b: ToolDefinition): number {
  const dash = Number(a.alias.includes("-")) - Number(b.alias.includes("-"));
  return dash || (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0);
}

/**
 * A tool renamed under a prefix, with what derives from its alias derived again: the rule both
 * `composeGenerated` (several modules served as one) and `zcp gen` (a prefixed tool package)
 * apply, so that a tool has the same names whichever of them composed it.
 */
import { deriveId, providerName } from "./names.js";
import { toolHash } from "./hash.js";
import { GeneratedModuleError } from "./module-error.js";
import type { ToolDefinition } from "./registry.js";

const PREFIX = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*\.?$/;

/** `prefix` ending in one `.`; throws `GeneratedModuleError`, naming `source`, unless it is a dotted name. */
export function normalPrefix(prefix: string, source: string): string {
  if (!PREFIX.test(prefix))
    throw new GeneratedModuleError(
      `${source}: prefix "${prefix}" is not a dotted name (letters, digits, _ and -, e.g. "billing")`,
    );
  return prefix.endsWith(".") ? prefix : `${prefix}.`;
}

/**
 * `tool` renamed to `<prefix>.<alias>` (a trailing `.` in `prefix` is not doubled), with what
 * derives from the alias derived again: id, provider name, planner lines and hash, as
 * `composeGenerated` renames a prefixed module's tools (and `zcp gen` a prefixed package's).
 * Throws `GeneratedModuleError`, naming `source`, for a prefix that is not a dotted name or a
 * planner line `zcp gen` did not write.
 */
export function prefixTool(tool: ToolDefinition, prefix: string, source: string): ToolDefinition {
  return prefixed(tool, normalPrefix(prefix, source), source);
}

/** `tool` renamed under `prefix` (as `normalPrefix` returns it). */
export function prefixed(tool: ToolDefinition, prefix: string, source: string): ToolDefinition {
  const alias = prefix + tool.alias;
  const id = deriveId(alias);
  const name = providerName(alias);
  const head = `TOOL @${tool.id} ${tool.alias}(`;
  const line = (text: string): string => {
    if (!text.startsWith(head))
      throw new GeneratedModuleError(
        `${source}: the planner line of ${tool.alias} does not start with "${head}": run zcp gen with a matching @zcp/gen`,
      );
    return `TOOL @${id} ${alias}(${text.slice(head.length)}`;
  };
  const { hash: _hash, source: location, ...rest } = tool;
  const hashed = {
    ...rest,
    id,
    alias,
    name,
    planner: line(tool.planner),
    plannerBare: line(tool.plannerBare),
  };
  return { ...hashed, source: location, hash: toolHash(hashed) };
}

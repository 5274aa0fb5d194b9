/**
 * What `zcp-serve` puts together before serving: the runtime options of a surface (its exposure
 * default: a profile, and the tools whose scopes are granted; whether views list the find tool).
 */
import type { RuntimeOptions, Selection, ToolDefinition } from "@zcp/runtime";

export interface ServeRuntimeOptions {
  /** The surface the sessions are served on (default `mcp`). */
  readonly surface?: string;
  /** The exposure default profile of that surface, e.g. `semantic-workflow`. */
  readonly profile?: string;
  /** Only the tools in any of these groups. */
  readonly groups?: readonly string[];
  /** None of the tools in any of these groups. */
  readonly excludeGroups?: readonly string[];
  /**
   * Whether every view lists `zcp.find_tools` (sets `exposure.find`, which applies to every
   * surface; default: `base`'s).
   */
  readonly find?: boolean;
  /**
   * The scopes granted to whoever calls. When given, a tool is exposed only when every one of its
   * `scopes` is granted (tools without scopes always are); the others are not listed, and calling
   * them answers the tool error `forbidden:<alias>`. Default: no scope check.
   */
  readonly scopes?: readonly string[];
}

/** Whether every scope the tool needs is granted. */
export function scopesGranted(tool: ToolDefinition, granted: readonly string[]): boolean {
  return tool.scopes.every((scope) => granted.includes(scope));
}

/**
 * `RuntimeOptions` whose exposure default for the surface applies the profile and the scopes
 * (merged into `base`, whose other surfaces are kept), and whose `exposure.find` is `find`, when given.
 */
export function serveRuntimeOptions(
  tools: readonly ToolDefinition[],
  options: ServeRuntimeOptions,
  base: RuntimeOptions = {},
): RuntimeOptions {
  const surface = options.surface ?? "mcp";
  const defaults = base.exposure?.defaults ?? {};
  const selection: Selection = {
    ...(defaults[surface] ?? defaults["*"] ?? {}),
    ...(options.profile !== undefined ? { profile: options.profile } : {}),
    ...(options.groups !== undefined ? { groups: options.groups } : {}),
    ...(options.excludeGroups !== undefined ? { excludeGroups: options.excludeGroups } : {}),
  };
  const granted = options.scopes;
  const scoped: Selection =
    granted === undefined
      ? selection
      : {
          ...selection,
          aliases: tools
            .filter(
              (tool) =>
                scopesGranted(tool, granted) &&
                (selection.aliases === undefined ||
                  selection.aliases.includes(tool.alias) ||
                  selection.aliases.includes(tool.id)),
            )
            .map((tool) => tool.alias),
        };
  return {
    ...base,
    exposure: {
      ...base.exposure,
      ...(options.find !== undefined ? { find: options.find } : {}),
      defaults: { ...defaults, [surface]: scoped },
    },
  };
}

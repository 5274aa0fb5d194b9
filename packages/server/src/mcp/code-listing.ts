/**
 * Code mode's MCP listings. An MCP host shows the model MCP names (`weather_get_current`), while a
 * program calls a tool by its alias (`tools.weather.get_current`):
 *
 * - `--code` (`codeListing`): every tool listed as usual, and `zcp_run`'s description names how a
 *   program calls each listed tool whose MCP name is not its program name.
 * - Code mode only (`McpServerOptions.codeOnly`, `zcp-serve --code-only`, `codeOnlyListing`):
 *   `tools/list` answers `zcp_run` alone, its description carrying the view's API text
 *   (`View.declarations()`, the TypeScript a program calls the tools through), and a direct
 *   `tools/call` of any other tool of the view is refused (`directCallRefusal`): the tools are
 *   called from programs, where every rule of a direct call still applies to each call. A plain
 *   MCP host then sends one tool's entry per request instead of the whole catalog.
 *
 * Each listing is made once per view: the same view always answers the same bytes.
 */
import type { Tool } from "@modelcontextprotocol/server";
import { codeTool, failure, type CallError, type View } from "@zcp/runtime";
import { member } from "@zcp/runtime/codegen";

/** `zcp_run`'s description when it is the only tool listed; the API text follows it. */
const DESCRIPTION =
  "Run a short JavaScript program against this session's tools and return its result. The tools are callable only from a program, as `await tools.<name>(args)` with the names declared below; only the program's return value and its console output come back.";

/** The listings made so far, by view (the API text is cached by the view too). */
const onlyListings = new WeakMap<View, readonly Tool[]>();
const codeListings = new WeakMap<View, readonly Tool[]>();

/** How a program calls the tool of `alias`: `tools.a.b`, a segment that is not an identifier as `["seg"]`. */
const programName = (alias: string) => `tools${alias.split(".").map(member).join("")}`;

/**
 * The `--code` listing of `view`: its MCP entries, `zcp_run`'s description followed by the
 * program name of each listed tool whose MCP name differs (`math_average is
 * tools.math.average`), which the host does not show; the entries as they are when every name
 * is its program name, or without `zcp.run`.
 */
export function codeListing(view: View): readonly Tool[] {
  let listing = codeListings.get(view);
  if (listing !== undefined) return listing;
  const entries = view.artifacts("mcp") as Tool[];
  if (view.find(codeTool.definition.alias) === undefined) return entries;
  const renamed = entries.flatMap((entry) => {
    const tool = view.find(entry.name);
    if (tool === undefined || tool.alias === codeTool.definition.alias) return [];
    const call = programName(tool.alias);
    return call === programName(entry.name) ? [] : [`${entry.name} is ${call}`];
  });
  const run = codeTool.artifacts.mcp as Tool;
  listing =
    renamed.length === 0
      ? entries
      : entries.map((entry) =>
          entry.name === run.name
            ? { ...entry, description: `${run.description} In a program: ${renamed.join(", ")}.` }
            : entry,
        );
  codeListings.set(view, listing);
  return listing;
}

/**
 * The code-only listing of `view`: `zcp_run`'s MCP entry with the API text appended to its
 * description; empty when the view has no `zcp.run` (the runtime has no `CodeRunner`). The same
 * view always answers the same bytes.
 */
export function codeOnlyListing(view: View): readonly Tool[] {
  let listing = onlyListings.get(view);
  if (listing !== undefined) return listing;
  const entry = codeTool.artifacts.mcp as Tool;
  listing =
    view.find(codeTool.definition.alias) === undefined
      ? []
      : [{ ...entry, description: `${DESCRIPTION}\n\n${view.declarations()}` }];
  onlyListings.set(view, listing);
  return listing;
}

/**
 * The refusal of a direct call of `name` in a code-only view: `forbidden:<alias>` with how a
 * program calls it, for a tool of the view other than `zcp.run`; undefined for `zcp.run` and for
 * a name the view does not have (the call then answers as any call of such a name does).
 */
export function directCallRefusal(view: View, name: string): CallError | undefined {
  const tool = view.find(name);
  if (tool === undefined || tool.alias === codeTool.definition.alias) return undefined;
  return failure(
    `forbidden:${tool.alias}`,
    `this server runs its tools from programs only: call zcp_run with a program that does \`await ${programName(tool.alias)}(args)\``,
  );
}

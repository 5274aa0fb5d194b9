/**
 * Code mode only (`McpServerOptions.codeOnly`, `zcp-serve --code-only`): `tools/list` answers
 * `zcp_run` alone, its description carrying the view's API text (`View.declarations()`, the
 * TypeScript a program calls the tools through), and a direct `tools/call` of any other tool of
 * the view is refused: the tools are called from programs, where every rule of a direct call
 * still applies to each call. A plain MCP host then sends one tool's entry per request instead
 * of the whole catalog, and the model reads the names a program writes (`tools.weather.get_current`)
 * rather than MCP names it would have to map back to aliases.
 */
import type { Tool } from "@modelcontextprotocol/server";
import { codeTool, failure, type CallError, type View } from "@zcp/runtime";
import { member } from "@zcp/runtime/codegen";

/** `zcp_run`'s description when it is the only tool listed; the API text follows it. */
const DESCRIPTION =
  "Run a short JavaScript program against this session's tools and return its result. The tools are callable only from a program, as `await tools.<name>(args)` with the names declared below; only the program's return value and its console output come back.";

/** The listing of a code-only view, made once per view (the API text is cached by the view too). */
const listings = new WeakMap<View, readonly Tool[]>();

/**
 * The code-only listing of `view`: `zcp_run`'s MCP entry with the API text appended to its
 * description; empty when the view has no `zcp.run` (the runtime has no `CodeRunner`). The same
 * view always answers the same bytes.
 */
export function codeOnlyListing(view: View): readonly Tool[] {
  let listing = listings.get(view);
  if (listing !== undefined) return listing;
  const entry = codeTool.artifacts.mcp as Tool;
  listing =
    view.find(codeTool.definition.alias) === undefined
      ? []
      : [{ ...entry, description: `${DESCRIPTION}\n\n${view.declarations()}` }];
  listings.set(view, listing);
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
  const call = `tools${tool.alias.split(".").map(member).join("")}(args)`;
  return failure(
    `forbidden:${tool.alias}`,
    `this server runs its tools from programs only: call zcp_run with a program that does \`await ${call}\``,
  );
}

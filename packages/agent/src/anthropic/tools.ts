/**
 * A session's view as the `tools` of a Messages request: the view's `anthropic` artifact
 * entries (with their `input_examples`), optionally `strict` within Anthropic's limits, and for
 * large tool sets deferred behind a tool search: Anthropic's server-side bm25 / regex search
 * tool, or `find_tools`, a client tool this package answers from `session.find`.
 */
import { checkStrictLimits, findTool, type AnthropicTool, type Session } from "@zcp/runtime";
import type { Tool, ToolUnion } from "@anthropic-ai/sdk/resources/messages";

/**
 * How a large tool set is searched: every tool of the view is sent with `defer_loading: true`
 * (the model sees none of them until a search returns it). `bm25` / `regex`: Anthropic's server
 * tool `tool_search_tool_bm25_20251119` / `tool_search_tool_regex_20251119` searches them;
 * `client`: the model calls `find_tools`, answered from `session.find` with `tool_reference`
 * blocks.
 */
export type ToolSearch = "bm25" | "regex" | "client";

export interface MessagesToolsOptions {
  readonly search?: ToolSearch;
  /**
   * Sets `strict: true` on the entries when they are within Anthropic's strict limits
   * (`checkStrictLimits`); when not, the entries go without it and `onWarning` says which limit
   * was exceeded (the validators check every argument either way). Default false.
   */
  readonly strict?: boolean;
  /** The lean entries (first-sentence descriptions, no constraints the validators check). */
  readonly lean?: boolean;
  /** Told when the strict fallback is taken. */
  readonly onWarning?: (message: string) => void;
}

/** The client-side search tool's name (`search: "client"`). */
export const FIND_TOOLS = "find_tools";

const SEARCH_TOOLS = {
  bm25: { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
  regex: { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" },
} as const;

/** `find_tools`: the runtime's `zcp.find_tools` entry (its description and schema) renamed. */
const findToolsEntry: AnthropicTool = { ...findTool.artifacts.anthropic, name: FIND_TOOLS };

/** The `tools` of a Messages request for the session's current view, in view order. */
export function messagesTools(session: Session, options: MessagesToolsOptions = {}): ToolUnion[] {
  const lean = options.lean === true;
  const view = session.exposed.artifacts("anthropic", { lean });
  const entries = options.search === "client" ? [findToolsEntry, ...view] : view;
  const strict = options.strict === true && withinStrictLimits(entries, options.onWarning);
  const tools = entries.map((entry) =>
    toTool(entry, {
      ...(strict ? { strict: true } : {}),
      ...(options.search !== undefined && entry !== findToolsEntry ? { defer_loading: true } : {}),
    }),
  );
  if (options.search === "bm25" || options.search === "regex")
    return [{ ...SEARCH_TOOLS[options.search] }, ...tools];
  return tools;
}

/** Whether `entries` may all be strict; when not, `onWarning` hears which limits they exceed. */
function withinStrictLimits(
  entries: readonly AnthropicTool[],
  onWarning: ((message: string) => void) | undefined,
): boolean {
  const check = checkStrictLimits(entries, "anthropic");
  if (check.ok) return true;
  const over = check.limits
    .filter((limit) => !limit.ok)
    .map((limit) => `${limit.name}: ${limit.actual} of at most ${limit.limit}`);
  onWarning?.(
    `anthropic: the tools exceed the strict tool use limits (${over.join("; ")}); ` +
      "sent without strict, the validators still check every argument",
  );
  return false;
}

/** An artifact entry as the SDK's `Tool` (the entry's JSON is the wire shape already). */
function toTool(entry: AnthropicTool, extra: Pick<Tool, "strict" | "defer_loading">): Tool {
  return { ...(entry as unknown as Tool), ...extra };
}

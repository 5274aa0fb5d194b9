/**
 * A Messages response's tool use, run through a session: its `tool_use` blocks as tool calls,
 * their outcomes as the one user message of `tool_result` blocks that answers them (in the
 * blocks' order, `is_error` on errors), the client-side `find_tools` search answered with
 * `tool_reference` blocks from `session.find`, and the response's usage in the core's terms.
 */
import { encodeResult, failure, type CallResult, type Session } from "@zcp/runtime";
import type {
  Message,
  MessageParam,
  ToolResultBlockParam,
  ToolUseBlock,
  Usage as MessageUsage,
} from "@anthropic-ai/sdk/resources/messages";
import { runToolCalls, type RunOptions, type ToolCall, type ToolOutcome } from "../calls.js";
import type { Usage } from "../usage.js";
import { FIND_TOOLS, type ToolSearch } from "./tools.js";

export interface ToolUseOptions extends RunOptions {
  /** `"client"`: `find_tools` blocks are searches this package answers (see `messagesTools`). */
  readonly search?: ToolSearch;
}

/** What running a response's tool use gave. */
export interface ToolUseResult {
  /** The session calls' outcomes, in the blocks' order (`find_tools` searches are not calls). */
  readonly outcomes: ToolOutcome[];
  /** The user message answering every `tool_use` block; null when the response had none. */
  readonly message: MessageParam | null;
}

/** The session's tool calls among `message`'s `tool_use` blocks, in order. */
export function toolCalls(
  message: Message,
  options: { readonly search?: ToolSearch } = {},
): ToolCall[] {
  return toolUses(message)
    .filter((block) => !isSearch(block, options.search))
    .map((block) => ({ id: block.id, name: block.name, arguments: block.input }));
}

/**
 * Runs `message`'s `tool_use` blocks: the session's calls in parallel (`runToolCalls`), the
 * client-side searches from `session.find`; the answer is one user message of `tool_result`
 * blocks in the blocks' order.
 */
export async function runToolUses(
  session: Session,
  message: Message,
  options: ToolUseOptions = {},
): Promise<ToolUseResult> {
  const outcomes = await runToolCalls(session, toolCalls(message, options), options);
  return { outcomes, message: toolResults(session, message, outcomes, options.search) };
}

/**
 * The user message answering `message`'s `tool_use` blocks: the outcome of each call (by id),
 * a client-side search's found tools; null when there are no blocks.
 */
export function toolResults(
  session: Session,
  message: Message,
  outcomes: readonly ToolOutcome[],
  search?: ToolSearch,
): MessageParam | null {
  const byId = new Map(outcomes.map((outcome) => [outcome.call.id, outcome]));
  const content = toolUses(message).map((block): ToolResultBlockParam => {
    const outcome = byId.get(block.id);
    if (outcome) return resultBlock(block.id, outcome.text, outcome.isError);
    if (isSearch(block, search)) return searchResult(session, block);
    return resultBlock(block.id, encodeResult(failure("cancelled", "the call was not run")), true);
  });
  return content.length === 0 ? null : { role: "user", content };
}

/** A response's usage: every input token (cache writes and reads included), the cached ones. */
export function usageOf(usage: MessageUsage): Usage {
  const created = usage.cache_creation_input_tokens ?? 0;
  const read = usage.cache_read_input_tokens ?? 0;
  return {
    inputTokens: usage.input_tokens + created + read,
    outputTokens: usage.output_tokens,
    cachedInputTokens: read,
  };
}

function toolUses(message: Message): ToolUseBlock[] {
  return message.content.filter((block): block is ToolUseBlock => block.type === "tool_use");
}

function isSearch(block: ToolUseBlock, search: ToolSearch | undefined): boolean {
  return search === "client" && block.name === FIND_TOOLS;
}

function resultBlock(id: string, text: string, isError: boolean): ToolResultBlockParam {
  return {
    type: "tool_result",
    tool_use_id: id,
    content: text,
    ...(isError ? { is_error: true } : {}),
  };
}

/**
 * `find_tools`: the tools of the current view (and stage) that `session.find` ranks best for
 * the query, as `tool_reference` blocks the API expands into their deferred definitions (a
 * discover view first exposes them: the next request lists them). No match: a text saying so.
 */
function searchResult(session: Session, block: ToolUseBlock): ToolResultBlockParam {
  const args = searchArguments(block.input);
  if ("ok" in args) return resultBlock(block.id, encodeResult(args), true);
  const stages = session.stage === null ? {} : { stages: [session.stage] };
  const found = session
    .find(args.query, { ...stages, ...(args.limit === undefined ? {} : { limit: args.limit }) })
    .map(({ tool }) => tool);
  session.expose(found);
  const names = found.filter((tool) => session.exposed.find(tool.id)).map((tool) => tool.name);
  if (names.length === 0)
    return resultBlock(block.id, encodeResult({ ok: true, value: { tools: [] } }), false);
  return {
    type: "tool_result",
    tool_use_id: block.id,
    content: names.map((name) => ({ type: "tool_reference", tool_name: name })),
  };
}

/** `find_tools` arguments: a query of 1 to 200 characters, a limit from 1 to 20 if any. */
function searchArguments(input: unknown): { query: string; limit?: number } | CallResult {
  const args = (typeof input === "object" && input !== null ? input : {}) as {
    query?: unknown;
    limit?: unknown;
  };
  if (typeof args.query !== "string" || args.query.trim() === "" || args.query.length > 200)
    return failure("invalid:$.query", "expected a string of 1 to 200 characters");
  if (
    args.limit !== undefined &&
    args.limit !== null &&
    !(Number.isInteger(args.limit) && (args.limit as number) >= 1 && (args.limit as number) <= 20)
  )
    return failure("invalid:$.limit", "expected an integer from 1 to 20");
  return typeof args.limit === "number"
    ? { query: args.query, limit: args.limit }
    : { query: args.query };
}

/**
 * A session's tools as OpenAI request fields: the Responses and Chat Completions `tools` (from
 * the view's `openai-responses` / `openai-chat` artifacts), checked against the strict-mode
 * limits (`checkStrictLimits`) with the documented fallback; deferred tools in namespaces behind
 * a `tool_search` tool; and the `allowed_tools` choice that narrows a stable list to the
 * current view.
 */
import type {
  FunctionTool,
  NamespaceTool,
  Tool,
  ToolChoiceAllowed,
  ToolSearchTool,
} from "openai/resources/responses/responses";
import type {
  ChatCompletionAllowedToolChoice,
  ChatCompletionFunctionTool,
} from "openai/resources/chat/completions/completions";
import {
  checkStrictLimits,
  type ArtifactEntries,
  type Session,
  type StrictLimitProvider,
  type View,
} from "@zcp/runtime";
import { AgentError } from "../loop.js";

export interface ToolsOptions {
  /**
   * List the tools of every stage of the session's surface (`session.everyStage`), so that the
   * `tools` of a request stay byte-identical across `setStage`; pass `toolChoice(session)` as
   * `tool_choice` to allow only the current view's tools.
   */
  readonly allStages?: boolean;
  /** The lean entries (first-sentence descriptions; the validators check the rest). */
  readonly lean?: boolean;
  /** Told when a documented fallback is taken (strict limits exceeded: non-strict entries). */
  readonly onWarning?: (message: string) => void;
}

export interface ResponsesToolsOptions extends ToolsOptions {
  /**
   * A large tool set: every tool deferred (`defer_loading: true`, in a namespace per group, a
   * tool's first group; ungrouped tools top level) behind a `tool_search` tool, which OpenAI
   * runs (`"hosted"`) or the agent answers from `session.find` (`"client"`).
   */
  readonly search?: "hosted" | "client";
  /** Namespace descriptions by group (default: `Tools of group <group>: <aliases>.`). */
  readonly namespaces?: { readonly [group: string]: string };
}

/** The parameters of the client-run `tool_search` tool. */
const CLIENT_SEARCH_PARAMETERS = {
  type: "object",
  properties: {
    query: { type: "string", description: "What the tools should do, in a few words." },
  },
  required: ["query"],
  additionalProperties: false,
} as const;

/** The session's tools as Responses API `tools`. */
export function responsesTools(session: Session, options: ResponsesToolsOptions = {}): Tool[] {
  const listing = view(session, options);
  const entries: FunctionTool[] = strictChecked(
    listing.artifacts("openai-responses", { lean: options.lean === true }),
    "openai-responses",
    options.onWarning,
    (entry) => ({ ...entry, strict: false }),
  );
  if (options.search === undefined) return entries;
  const search: ToolSearchTool =
    options.search === "hosted"
      ? { type: "tool_search" }
      : {
          type: "tool_search",
          execution: "client",
          description: "Find the tools for a task; the tools found become callable.",
          parameters: CLIENT_SEARCH_PARAMETERS,
        };
  return [search, ...deferred(listing, entries, options.namespaces ?? {})];
}

/** The session's tools as Chat Completions `tools`; over 128 functions an `AgentError` `provider`. */
export function chatTools(
  session: Session,
  options: ToolsOptions = {},
): ChatCompletionFunctionTool[] {
  const entries = view(session, options).artifacts("openai-chat", { lean: options.lean === true });
  return strictChecked(entries, "openai-chat", options.onWarning, (entry) => ({
    ...entry,
    function: { ...entry.function, strict: false },
  }));
}

/** `tool_choice` for a Responses request listing `allStages`: only the current view's tools. */
export function toolChoice(session: Session): ToolChoiceAllowed {
  const tools = session.exposed.artifacts("openai-responses").map(({ name }) => ({
    type: "function",
    name,
  }));
  return { type: "allowed_tools", mode: "auto", tools };
}

/** `tool_choice` for a Chat Completions request listing `allStages`: only the current view's tools. */
export function chatToolChoice(session: Session): ChatCompletionAllowedToolChoice {
  const tools = session.exposed.artifacts("openai-chat").map(({ function: { name } }) => ({
    type: "function",
    function: { name },
  }));
  return { type: "allowed_tools", allowed_tools: { mode: "auto", tools } };
}

function view(session: Session, options: ToolsOptions): View {
  return options.allStages === true ? session.everyStage : session.exposed;
}

/**
 * `entries` as they are when they fit the provider's strict limits; else `relax`ed (sent
 * non-strict, schemas unchanged: the validators still check every argument) with a warning. Chat
 * Completions over its function limit cannot be sent at all: an `AgentError` `provider`.
 */
function strictChecked<P extends Exclude<StrictLimitProvider, "anthropic">>(
  entries: ArtifactEntries[P][],
  provider: P,
  onWarning: ((message: string) => void) | undefined,
  relax: (entry: ArtifactEntries[P]) => ArtifactEntries[P],
): ArtifactEntries[P][] {
  const over = checkStrictLimits(entries, provider).limits.filter((limit) => !limit.ok);
  if (over.length === 0) return entries;
  const functions = over.find((limit) => limit.name === "functions");
  if (functions)
    throw new AgentError(
      "provider",
      `Chat Completions takes at most ${figure(functions.limit)} functions and the view has ` +
        `${figure(functions.actual)}: narrow it with a profile, groups or the discover profile`,
    );
  const exceeded = over.map(
    (limit) => `${limit.name} ${figure(limit.actual)} > ${figure(limit.limit)}`,
  );
  onWarning?.(
    `${provider}: the tools exceed OpenAI's strict-mode limits (${exceeded.join(", ")}); ` +
      "they are sent with strict: false (the validators still check every argument)",
  );
  return entries.map(relax);
}

function figure(n: number): string {
  return n.toLocaleString("en-US");
}

/**
 * `entries` deferred for tool search: each in the namespace of its tool's first group (in the
 * order the groups first appear), an ungrouped one top level.
 */
function deferred(
  listing: View,
  entries: readonly FunctionTool[],
  descriptions: { readonly [group: string]: string },
): Tool[] {
  const out: Tool[] = [];
  const spaces = new Map<string, { space: NamespaceTool; aliases: string[] }>();
  for (const entry of entries) {
    const tool = listing.find(entry.name)!;
    const fn = { ...entry, defer_loading: true };
    const group = tool.groups[0];
    if (group === undefined) {
      out.push(fn);
      continue;
    }
    let found = spaces.get(group);
    if (!found) {
      found = {
        space: { type: "namespace", name: group, description: "", tools: [] },
        aliases: [],
      };
      spaces.set(group, found);
      out.push(found.space);
    }
    found.space.tools.push(fn);
    found.aliases.push(tool.alias);
  }
  for (const [group, { space, aliases }] of spaces)
    space.description = descriptions[group] ?? `Tools of group ${group}: ${aliases.join(", ")}.`;
  return out;
}

/**
 * The agent loop over the OpenAI Responses API: each turn sends the session's tools (recomputed,
 * so a stage change shows) with either the new items and `previous_response_id` or the whole
 * input, runs the response's function calls through the session, answers client-side tool
 * searches from `session.find`, and keeps the whole conversation as input items.
 */
import type OpenAI from "openai";
import type {
  FunctionTool,
  Response,
  ResponseCreateParamsBase,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
  ResponseToolSearchOutputItemParam,
  Tool,
} from "openai/resources/responses/responses";
import type { Session } from "@zcp/runtime";
import type { ToolCall, ToolOutcome } from "../calls.js";
import {
  runLoop,
  type Conversation,
  type LoopOptions,
  type LoopResult,
  type Reply,
  warnOnce,
} from "../loop.js";
import { NO_USAGE, type Usage } from "../usage.js";
import { collectResponse } from "./stream.js";
import { responsesTools, toolChoice, type ResponsesToolsOptions } from "./tools.js";

/** The request fields the agent sets itself; every other field may be given in `request`. */
type OwnFields =
  "model" | "input" | "instructions" | "tools" | "tool_choice" | "previous_response_id" | "stream";

export interface ResponsesAgentOptions
  extends LoopOptions, Omit<ResponsesToolsOptions, "onWarning"> {
  readonly client: OpenAI;
  readonly model: string;
  /** The user's message, or input items (e.g. a conversation returned by an earlier run). */
  readonly input: string | readonly ResponseInputItem[];
  readonly instructions?: string;
  /**
   * `"previous_response_id"` (default): each request after the first sends only the new items
   * and the last response's id (OpenAI keeps the conversation; needs `store`, on by default).
   * `"full"`: every request resends the whole input (for `store: false`, or any server that keeps
   * nothing).
   */
  readonly state?: "previous_response_id" | "full";
  /** Stream each response (assembled before its calls run). Default false. */
  readonly stream?: boolean;
  /** Further request fields, sent with every request (temperature, reasoning, store, ...). */
  readonly request?: Omit<ResponseCreateParamsBase, OwnFields>;
}

export interface ResponsesAgentResult extends LoopResult {
  /** The id of the last response (null when none came back). */
  readonly lastResponseId: string | null;
  /** The whole conversation as input items: the input, each response's output, the tool outputs. */
  readonly input: ResponseInputItem[];
}

/** Runs the agent loop over the Responses API. */
export async function runAgent(options: ResponsesAgentOptions): Promise<ResponsesAgentResult> {
  const conversation = new ResponsesConversation(options);
  const result = await runLoop(conversation, options);
  return { ...result, lastResponseId: conversation.lastId, input: conversation.history };
}

class ResponsesConversation implements Conversation {
  /** Every item so far. */
  readonly history: ResponseInputItem[];
  /** The items not sent yet (with `previous_response_id`, all a request carries). */
  private unsent: ResponseInputItem[];
  lastId: string | null = null;
  /** The answers to the last response's client-side tool searches, sent with its calls' outputs. */
  private searched: ResponseToolSearchOutputItemParam[] = [];
  private readonly warn: (message: string) => void;

  constructor(private readonly options: ResponsesAgentOptions) {
    const input = options.input;
    this.history = typeof input === "string" ? [{ role: "user", content: input }] : [...input];
    this.unsent = [...this.history];
    this.warn = warnOnce(options.hooks);
  }

  async send(signal: AbortSignal | undefined): Promise<Reply> {
    const { client, session, allStages, stream } = this.options;
    const tools = responsesTools(session, { ...this.options, onWarning: this.warn });
    const chained = this.options.state !== "full" && this.lastId !== null;
    const params: ResponseCreateParamsNonStreaming = {
      ...this.options.request,
      model: this.options.model,
      input: chained ? this.unsent : this.history,
      tools,
      ...(this.options.instructions === undefined
        ? {}
        : { instructions: this.options.instructions }),
      ...(chained ? { previous_response_id: this.lastId } : {}),
      ...(allStages ? { tool_choice: toolChoice(session) } : {}),
    };
    const response: Response =
      stream === true
        ? await collectResponse(
            await client.responses.create({ ...params, stream: true }, { signal }),
          )
        : await client.responses.create(params, { signal });
    // The response is whole: only now does the state change.
    this.lastId = response.id;
    // Output items go back as input items (how OpenAI continues a conversation); the SDK types
    // a few kinds' roles more narrowly as input.
    this.history.push(...(response.output as ResponseInputItem[]));
    this.unsent = [];
    this.searched = response.output.flatMap((item) =>
      item.type === "tool_search_call" && item.execution === "client"
        ? [searchOutput(session, tools, item.call_id, item.arguments)]
        : [],
    );
    const calls: ToolCall[] = response.output.flatMap((item) =>
      item.type === "function_call"
        ? [{ id: item.call_id, name: item.name, arguments: item.arguments }]
        : [],
    );
    return {
      text: textOf(response),
      calls,
      usage: usageOf(response),
      more: this.searched.length > 0,
    };
  }

  answer(outcomes: readonly ToolOutcome[]): void {
    const items: ResponseInputItem[] = [
      ...this.searched,
      ...outcomes.map((outcome): ResponseInputItem => ({
        type: "function_call_output",
        call_id: outcome.call.id,
        output: outcome.text,
      })),
    ];
    this.history.push(...items);
    this.unsent.push(...items);
  }
}

/**
 * The answer to a client-side tool search: the session's tools `find` ranks best for the query
 * (in the current view, whatever `allStages` lists), best first, loaded as the request listed
 * them but not deferred.
 */
function searchOutput(
  session: Session,
  tools: readonly Tool[],
  callId: string | null,
  args: unknown,
): ResponseToolSearchOutputItemParam {
  const query =
    typeof args === "object" && args !== null ? (args as { query?: unknown }).query : undefined;
  const stages = session.stage === null ? {} : { stages: [session.stage] };
  const found = typeof query === "string" ? session.find(query, stages) : [];
  const entries = new Map(functionsOf(tools).map((entry) => [entry.name, entry]));
  const loaded = found.flatMap(({ tool }): FunctionTool[] => {
    const entry = session.exposed.find(tool.id) && entries.get(tool.name);
    if (!entry) return [];
    const { defer_loading: _deferred, ...loadedEntry } = entry;
    return [loadedEntry];
  });
  return {
    type: "tool_search_output",
    call_id: callId,
    execution: "client",
    status: "completed",
    tools: loaded,
  };
}

/** The function tools of a listing, those inside namespaces included. */
function functionsOf(tools: readonly Tool[]): FunctionTool[] {
  return tools.flatMap((tool) =>
    tool.type === "function"
      ? [tool]
      : tool.type === "namespace"
        ? (tool.tools as FunctionTool[])
        : [],
  );
}

function textOf(response: Response): string {
  return response.output
    .flatMap((item) => (item.type === "message" ? item.content : []))
    .map((part) => (part.type === "output_text" ? part.text : ""))
    .join("");
}

function usageOf({ usage }: Response): Usage {
  if (!usage) return NO_USAGE;
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cachedInputTokens: usage.input_tokens_details?.cached_tokens ?? 0,
  };
}

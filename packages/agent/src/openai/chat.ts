/**
 * The agent loop over the OpenAI Chat Completions API: each turn sends the whole conversation
 * (Chat Completions keeps nothing) with the session's tools, adds the assistant's message, runs
 * its tool calls through the session and adds one `tool` message per call.
 */
import type OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionCreateParamsBase,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions/completions";
import type { CompletionUsage } from "openai/resources/completions";
import type { ToolOutcome } from "../calls.js";
import {
  runLoop,
  type Conversation,
  type LoopOptions,
  type LoopResult,
  type Reply,
  warnOnce,
} from "../loop.js";
import { NO_USAGE, type Usage } from "../usage.js";
import { collectCompletion, type AssembledCompletion } from "./stream.js";
import { chatToolChoice, chatTools, type ToolsOptions } from "./tools.js";

/** The request fields the agent sets itself; every other field may be given in `request`. */
type OwnFields = "model" | "messages" | "tools" | "tool_choice" | "stream" | "stream_options";

export interface ChatAgentOptions extends LoopOptions, Omit<ToolsOptions, "onWarning"> {
  readonly client: OpenAI;
  readonly model: string;
  /** The user's message, or messages (e.g. a conversation returned by an earlier run). */
  readonly input: string | readonly ChatCompletionMessageParam[];
  /** A system message put first. */
  readonly instructions?: string;
  /** Stream each completion (with `stream_options.include_usage`), assembled before its calls run. */
  readonly stream?: boolean;
  /** Further request fields, sent with every request (temperature, seed, ...). */
  readonly request?: Omit<ChatCompletionCreateParamsBase, OwnFields>;
}

export interface ChatAgentResult extends LoopResult {
  /** The whole conversation: the input, each assistant message, the tool messages. */
  readonly messages: ChatCompletionMessageParam[];
}

/** Runs the agent loop over Chat Completions. */
export async function runChatAgent(options: ChatAgentOptions): Promise<ChatAgentResult> {
  const conversation = new ChatConversation(options);
  const result = await runLoop(conversation, options);
  return { ...result, messages: conversation.messages };
}

class ChatConversation implements Conversation {
  readonly messages: ChatCompletionMessageParam[];
  private readonly warn: (message: string) => void;

  constructor(private readonly options: ChatAgentOptions) {
    this.warn = warnOnce(options.hooks);
    const { input, instructions } = options;
    const system: ChatCompletionMessageParam[] =
      instructions === undefined ? [] : [{ role: "system", content: instructions }];
    this.messages = [
      ...system,
      ...(typeof input === "string" ? [{ role: "user" as const, content: input }] : input),
    ];
  }

  async send(signal: AbortSignal | undefined): Promise<Reply> {
    const { client, session, allStages } = this.options;
    const params: ChatCompletionCreateParamsNonStreaming = {
      ...this.options.request,
      model: this.options.model,
      messages: this.messages,
      tools: chatTools(session, { ...this.options, onWarning: this.warn }),
      ...(allStages ? { tool_choice: chatToolChoice(session) } : {}),
    };
    const completion: AssembledCompletion =
      this.options.stream === true
        ? await collectCompletion(
            await client.chat.completions.create(
              { ...params, stream: true, stream_options: { include_usage: true } },
              { signal },
            ),
          )
        : await client.chat.completions.create(params, { signal }).then(messageOf);
    const { content, toolCalls } = completion;
    this.messages.push({
      role: "assistant",
      content: content === "" && toolCalls.length > 0 ? null : content,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    });
    const calls = toolCalls.map(({ id, function: { name, arguments: args } }) => ({
      id,
      name,
      arguments: args,
    }));
    return { text: content, calls, usage: usageOf(completion.usage) };
  }

  answer(outcomes: readonly ToolOutcome[]): void {
    for (const { call, text } of outcomes)
      this.messages.push({ role: "tool", tool_call_id: call.id, content: text });
  }
}

/** A non-streamed completion as a stream assembles to (its first choice). */
function messageOf(completion: ChatCompletion): AssembledCompletion {
  const message = completion.choices[0]?.message;
  const toolCalls = (message?.tool_calls ?? []).filter(
    (call): call is ChatCompletionMessageFunctionToolCall => call.type === "function",
  );
  return { content: message?.content ?? "", toolCalls, usage: completion.usage };
}

function usageOf(usage: CompletionUsage | undefined): Usage {
  if (!usage) return NO_USAGE;
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
  };
}

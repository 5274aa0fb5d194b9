/**
 * `runAgent` for the Anthropic Messages API: the core loop (`runLoop`) over a conversation
 * whose state is the full list of messages, resent every turn with the session's current tools;
 * each response read whole (`stream: true`: assembled from its events) before any tool runs.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type {
  Message,
  MessageCreateParamsBase,
  MessageCreateParamsNonStreaming,
  MessageParam,
  Model,
  TextBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import {
  AgentError,
  runLoop,
  type Conversation,
  type LoopOptions,
  type LoopResult,
  warnOnce,
} from "../loop.js";
import { toolCalls, toolResults, usageOf } from "./messages.js";
import { assembleMessage } from "./stream.js";
import { messagesTools, type ToolSearch } from "./tools.js";

/** The request fields `runAgent` sets itself. */
type OwnFields = "model" | "messages" | "max_tokens" | "tools" | "system" | "stream";

export interface RunAgentOptions extends LoopOptions {
  /** The official SDK's client (`new Anthropic(...)`), or anything with its `messages.create`. */
  readonly client: Pick<Anthropic, "messages">;
  readonly model: Model;
  /** The user's prompt, or the conversation so far (it is copied, never changed). */
  readonly input: string | readonly MessageParam[];
  readonly system?: string | TextBlockParam[];
  /** `max_tokens` of each request. Default 4096. */
  readonly maxTokens?: number;
  /** Stream each response (`stream: true`) and assemble it from its events. Default false. */
  readonly stream?: boolean;
  /** Defer the tools behind a tool search (see `messagesTools`). */
  readonly search?: ToolSearch;
  /** `strict: true` on the tools when within Anthropic's limits, else a warning (see `messagesTools`). */
  readonly strict?: boolean;
  /** The lean tool entries. */
  readonly lean?: boolean;
  /** Any other request fields (`temperature`, `tool_choice`, `thinking`, `metadata`…), sent as given. */
  readonly request?: Omit<MessageCreateParamsBase, OwnFields>;
}

export interface AgentResult extends LoopResult {
  /** The whole conversation: the input, then every response and tool result message. */
  readonly messages: MessageParam[];
}

const DEFAULT_MAX_TOKENS = 4096;

/** Runs the model on `input` with the session's tools until it answers (see `runLoop`). */
export async function runAgent(options: RunAgentOptions): Promise<AgentResult> {
  const messages: MessageParam[] =
    typeof options.input === "string"
      ? [{ role: "user", content: options.input }]
      : [...options.input];
  const result = await runLoop(conversation(options, messages), options);
  return { ...result, messages };
}

function conversation(options: RunAgentOptions, messages: MessageParam[]): Conversation {
  const { client, session, search, hooks } = options;
  const onWarning = warnOnce(hooks);
  let last: Message | undefined;
  return {
    async send(signal) {
      const params: MessageCreateParamsNonStreaming = {
        ...options.request,
        model: options.model,
        max_tokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
        messages,
        tools: messagesTools(session, {
          ...(search === undefined ? {} : { search }),
          strict: options.strict === true,
          lean: options.lean === true,
          onWarning,
        }),
        ...(options.system === undefined ? {} : { system: options.system }),
      };
      const requestOptions = signal ? { signal } : {};
      const response =
        options.stream === true
          ? await streamed(client, params, requestOptions)
          : await client.messages.create(params, requestOptions);
      messages.push({ role: "assistant", content: response.content });
      last = response;
      const calls = toolCalls(response, search === undefined ? {} : { search });
      const uses = response.content.filter((block) => block.type === "tool_use").length;
      return {
        text: response.content.map((block) => (block.type === "text" ? block.text : "")).join(""),
        calls,
        usage: usageOf(response.usage),
        // A client-side search to answer, or a server tool's turn paused: send again.
        more: uses > calls.length || response.stop_reason === "pause_turn",
      };
    },
    answer(outcomes) {
      const reply = toolResults(session, last!, outcomes, search);
      if (reply) messages.push(reply);
    },
  };
}

/**
 * The response of a streamed request, assembled; a stream that fails or ends before
 * `message_stop` (other than by an API `error` event) is `stream_interrupted`.
 */
async function streamed(
  client: Pick<Anthropic, "messages">,
  params: MessageCreateParamsNonStreaming,
  requestOptions: { signal?: AbortSignal },
): Promise<Message> {
  const events = await client.messages.create({ ...params, stream: true }, requestOptions);
  let message: Message | null;
  try {
    message = await assembleMessage(events);
  } catch (error) {
    if (isApiError(error)) throw error;
    throw interrupted(error);
  }
  if (message === null) throw interrupted(undefined);
  return message;
}

function interrupted(cause: unknown): AgentError {
  return new AgentError(
    "stream_interrupted",
    "the response stream ended before its message_stop event",
    cause === undefined ? undefined : { cause },
  );
}

/** The SDK's `APIError` (an `error` event of the stream), told apart without importing the SDK. */
function isApiError(error: unknown): boolean {
  return error instanceof Error && "error" in error && "headers" in error;
}

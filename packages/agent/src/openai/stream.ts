/**
 * Assembling streamed OpenAI responses into the shape a non-streamed request returns: the
 * Responses API's output items from their events (argument and text deltas appended), the Chat
 * Completions message from its chunks (tool calls by index). A stream that ends, or fails,
 * before its final event is an `AgentError` `stream_interrupted`; the loop retries it once.
 */
import type {
  Response,
  ResponseOutputItem,
  ResponseStreamEvent,
} from "openai/resources/responses/responses";
import type {
  ChatCompletionChunk,
  ChatCompletionMessageFunctionToolCall,
} from "openai/resources/chat/completions/completions";
import type { CompletionUsage } from "openai/resources/completions";
import { AgentError } from "../loop.js";

/** The response a Responses stream describes: its final event's, with the output assembled. */
export async function collectResponse(
  events: AsyncIterable<ResponseStreamEvent>,
): Promise<Response> {
  const items: ResponseOutputItem[] = [];
  let final: Response | undefined;
  await drain(events, "response.completed", (event) => {
    switch (event.type) {
      case "response.output_item.added":
      case "response.output_item.done":
        items[event.output_index] = structuredClone(event.item);
        break;
      case "response.function_call_arguments.delta": {
        const item = items[event.output_index];
        if (item?.type === "function_call") item.arguments += event.delta;
        break;
      }
      case "response.output_text.delta": {
        const item = items[event.output_index];
        if (item?.type !== "message") break;
        const part = (item.content[event.content_index] ??= {
          type: "output_text",
          text: "",
          annotations: [],
        });
        if (part.type === "output_text") part.text += event.delta;
        break;
      }
      case "response.completed":
      case "response.incomplete":
        final = event.response;
        break;
      case "response.failed":
        throw new AgentError(
          "provider",
          `the response failed: ${event.response.error?.message ?? "no reason given"}`,
        );
      case "error":
        throw new AgentError("provider", `the stream reported an error: ${event.message}`);
    }
  });
  if (!final) throw interrupted("response.completed");
  return { ...final, output: items.filter((item) => item !== undefined) };
}

/** What a Chat Completions stream assembles to: the assistant's message and the usage. */
export interface AssembledCompletion {
  readonly content: string;
  readonly toolCalls: ChatCompletionMessageFunctionToolCall[];
  readonly usage: CompletionUsage | undefined;
}

/**
 * The message a Chat Completions stream (with `include_usage`) describes: complete once a choice
 * finished and the stream ended; the usage from its last chunk.
 */
export async function collectCompletion(
  chunks: AsyncIterable<ChatCompletionChunk>,
): Promise<AssembledCompletion> {
  let content = "";
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = [];
  let usage: CompletionUsage | undefined;
  let finished = false;
  await drain(chunks, "a choice finished", (chunk) => {
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) return;
    content += choice.delta.content ?? "";
    for (const delta of choice.delta.tool_calls ?? []) {
      const call = (toolCalls[delta.index] ??= {
        id: "",
        type: "function",
        function: { name: "", arguments: "" },
      });
      if (delta.id) call.id = delta.id;
      call.function.name += delta.function?.name ?? "";
      call.function.arguments += delta.function?.arguments ?? "";
    }
    if (choice.finish_reason !== null) finished = true;
  });
  if (!finished) throw interrupted("a choice finished");
  return { content, toolCalls: toolCalls.filter((call) => call !== undefined), usage };
}

/**
 * Feeds every event to `take`; an error while reading (the connection dropped) is an
 * interruption before `final`, an `AgentError` from `take` passes through.
 */
async function drain<T>(
  events: AsyncIterable<T>,
  final: string,
  take: (event: T) => void,
): Promise<void> {
  try {
    for await (const event of events) take(event);
  } catch (error) {
    if (error instanceof AgentError) throw error;
    throw interrupted(final, error);
  }
}

/** The interruption of a stream that ended (or failed, `cause`) before `final` came. */
function interrupted(final: string, cause?: unknown): AgentError {
  return new AgentError("stream_interrupted", `the stream ended before ${final}`, { cause });
}

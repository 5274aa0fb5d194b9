/**
 * Wire builders for the fake OpenAI provider (server.ts): Responses API responses and their
 * event streams, Chat Completions completions and their chunk streams, typed with the SDK's
 * own types so that a scripted reply is one the real API could send.
 *
 *     fake.script("/v1/responses", { json: response([functionCall("c1", "math_subtract", '{"a":3,"b":1}')]) });
 *     fake.script("/v1/responses", { sse: responseEvents(response([message("2")])) });
 */
import type {
  Response,
  ResponseFunctionToolCall,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseStreamEvent,
  ResponseToolSearchCall,
  ResponseToolSearchOutputItem,
  Tool,
} from "openai/resources/responses/responses";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessageFunctionToolCall,
} from "openai/resources/chat/completions/completions";
import type { SseEvent } from "./server.js";

/** Token counts of a scripted reply. */
export interface Tokens {
  readonly input: number;
  readonly output: number;
  readonly cached?: number;
}

/** A stream event before its sequence number is given (distributed over the union). */
type Unnumbered<E = ResponseStreamEvent> = E extends unknown ? Omit<E, "sequence_number"> : never;

const TOKENS: Tokens = { input: 10, output: 5 };

export function message(text: string, id = "msg_1"): ResponseOutputMessage {
  return {
    type: "message",
    id,
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}

export function functionCall(callId: string, name: string, args: string): ResponseFunctionToolCall {
  return {
    type: "function_call",
    id: `fc_${callId}`,
    call_id: callId,
    name,
    arguments: args,
    status: "completed",
  };
}

export function toolSearchCall(
  callId: string,
  args: unknown,
  execution: "server" | "client",
): ResponseToolSearchCall {
  return {
    type: "tool_search_call",
    id: `ts_${callId}`,
    call_id: callId,
    arguments: args,
    execution,
    status: "completed",
  };
}

export function toolSearchOutput(callId: string, tools: Tool[]): ResponseToolSearchOutputItem {
  return {
    type: "tool_search_output",
    id: `tso_${callId}`,
    call_id: callId,
    execution: "server",
    status: "completed",
    tools,
  };
}

export function response(output: ResponseOutputItem[], id = "resp_1", tokens = TOKENS): Response {
  return {
    id,
    object: "response",
    created_at: 0,
    model: "gpt-test",
    status: "completed",
    output,
    output_text: "",
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: null,
    parallel_tool_calls: true,
    temperature: null,
    tool_choice: "auto",
    tools: [],
    top_p: null,
    usage: {
      input_tokens: tokens.input,
      output_tokens: tokens.output,
      total_tokens: tokens.input + tokens.output,
      input_tokens_details: { cached_tokens: tokens.cached ?? 0, cache_write_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

/**
 * The events a Responses stream sends for `final`: created, then per item its `added` event
 * (arguments and text empty), the deltas (two pieces each) and, unless `itemsDone` is false,
 * its `done` event; then `response.completed`.
 */
export function responseEvents(final: Response, { itemsDone = true } = {}): SseEvent[] {
  const events: ResponseStreamEvent[] = [];
  let sequence_number = 0;
  const push = (event: Unnumbered) =>
    events.push({ ...event, sequence_number: sequence_number++ } as ResponseStreamEvent);
  push({ type: "response.created", response: { ...final, status: "in_progress", output: [] } });
  final.output.forEach((item, output_index) => {
    if (item.type === "function_call") {
      push({ type: "response.output_item.added", output_index, item: { ...item, arguments: "" } });
      for (const delta of halves(item.arguments))
        push({
          type: "response.function_call_arguments.delta",
          output_index,
          item_id: item.id!,
          delta,
        });
    } else if (item.type === "message") {
      push({ type: "response.output_item.added", output_index, item: { ...item, content: [] } });
      for (const delta of halves(
        item.content.map((part) => ("text" in part ? part.text : "")).join(""),
      ))
        push({
          type: "response.output_text.delta",
          output_index,
          item_id: item.id,
          content_index: 0,
          delta,
          logprobs: [],
        });
    } else push({ type: "response.output_item.added", output_index, item });
    if (itemsDone) push({ type: "response.output_item.done", output_index, item });
  });
  push({ type: "response.completed", response: final });
  return events.map((event) => ({ event: event.type, data: event }));
}

export function chatCall(
  id: string,
  name: string,
  args: string,
): ChatCompletionMessageFunctionToolCall {
  return { id, type: "function", function: { name, arguments: args } };
}

export function completion(
  content: string | null,
  toolCalls: ChatCompletionMessageFunctionToolCall[] = [],
  tokens = TOKENS,
): ChatCompletion {
  return {
    id: "chatcmpl_1",
    object: "chat.completion",
    created: 0,
    model: "gpt-test",
    choices: [
      {
        index: 0,
        finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
        logprobs: null,
        message: {
          role: "assistant",
          content,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
      },
    ],
    usage: {
      prompt_tokens: tokens.input,
      completion_tokens: tokens.output,
      total_tokens: tokens.input + tokens.output,
      prompt_tokens_details: { cached_tokens: tokens.cached ?? 0 },
    },
  };
}

/**
 * The chunks a Chat Completions stream with `include_usage` sends for `final`: the content in
 * two pieces, each tool call's id and name then its arguments in two pieces, the finishing
 * chunk, the usage chunk (no choices) and `[DONE]`.
 */
export function completionChunks(final: ChatCompletion): SseEvent[] {
  const choice = final.choices[0]!;
  const chunk = (
    delta: ChatCompletionChunk.Choice.Delta,
    finish_reason: ChatCompletionChunk.Choice["finish_reason"] = null,
  ): ChatCompletionChunk => ({
    id: final.id,
    object: "chat.completion.chunk",
    created: 0,
    model: final.model,
    choices: [{ index: 0, delta, finish_reason }],
  });
  const chunks: ChatCompletionChunk[] = [chunk({ role: "assistant", content: "" })];
  for (const content of halves(choice.message.content ?? "")) chunks.push(chunk({ content }));
  (choice.message.tool_calls ?? []).forEach((call, index) => {
    if (call.type !== "function") return;
    chunks.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: "function",
            function: { name: call.function.name, arguments: "" },
          },
        ],
      }),
    );
    for (const piece of halves(call.function.arguments))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, choice.finish_reason));
  chunks.push({ ...chunk({}), choices: [], usage: final.usage ?? null });
  return [...chunks.map((data) => ({ data })), { data: "[DONE]" }];
}

/** `text` in two pieces (none when empty). */
function halves(text: string): string[] {
  if (text === "") return [];
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)].filter((piece) => piece !== "");
}

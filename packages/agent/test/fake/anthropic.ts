/**
 * The Anthropic Messages wire format for the fake provider (server.ts): a `Message` as the API
 * answers `POST /v1/messages`, and the same message as the server-sent events of a streamed
 * request (`message_start`, `ping`, each block's start, deltas and stop, `message_delta`,
 * `message_stop`), text in `text_delta` pieces and tool inputs in `input_json_delta` pieces.
 */
import type {
  ContentBlock,
  Message,
  RawMessageStreamEvent,
  StopReason,
  ToolSearchToolResultBlock,
  ToolUseBlock,
  ServerToolUseBlock,
  TextBlock,
  Usage,
} from "@anthropic-ai/sdk/resources/messages";
import type { FakeReply, SseEvent } from "./server.js";

export const MESSAGES = "/v1/messages";

/** The model of every scripted response. */
export const MODEL = "claude-sonnet-5-5";

export const text = (value: string): TextBlock => ({ type: "text", text: value, citations: null });

export const toolUse = (id: string, name: string, input: unknown): ToolUseBlock => ({
  type: "tool_use",
  id,
  name,
  input,
  caller: { type: "direct" },
});

export const serverToolUse = (
  id: string,
  name: ServerToolUseBlock["name"],
  input: unknown,
): ServerToolUseBlock => ({ type: "server_tool_use", id, name, input, caller: { type: "direct" } });

/** The result of a server-side tool search: references to the deferred tools it found. */
export const toolSearchResult = (
  toolUseId: string,
  names: readonly string[],
): ToolSearchToolResultBlock => ({
  type: "tool_search_tool_result",
  tool_use_id: toolUseId,
  content: {
    type: "tool_search_tool_search_result",
    tool_references: names.map((name) => ({ type: "tool_reference", tool_name: name })),
  },
});

export interface Tokens {
  readonly input?: number;
  readonly output?: number;
  readonly cacheCreation?: number;
  readonly cacheRead?: number;
}

const usage = (tokens: Tokens): Usage => ({
  input_tokens: tokens.input ?? 10,
  output_tokens: tokens.output ?? 5,
  cache_creation_input_tokens: tokens.cacheCreation ?? 0,
  cache_read_input_tokens: tokens.cacheRead ?? 0,
  cache_creation: {
    ephemeral_1h_input_tokens: 0,
    ephemeral_5m_input_tokens: tokens.cacheCreation ?? 0,
  },
  inference_geo: null,
  output_tokens_details: null,
  server_tool_use: null,
  service_tier: "standard",
  speed: null,
});

let serial = 0;

/**
 * A complete response of `content`; the stop reason is `tool_use` when a `tool_use` block is in
 * it, else `end_turn`, unless given.
 */
export function message(
  content: readonly ContentBlock[],
  options: { tokens?: Tokens; stop?: StopReason } = {},
): Message {
  const stop =
    options.stop ?? (content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn");
  return {
    id: `msg_${String(++serial).padStart(4, "0")}`,
    type: "message",
    role: "assistant",
    model: MODEL,
    content: [...content],
    stop_reason: stop,
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: usage(options.tokens ?? {}),
  };
}

/** `message` as a JSON reply. */
export const json = (response: Message): FakeReply => ({ json: response });

/** Splits `value` into pieces of at most `size` characters (at least one piece). */
function pieces(value: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < value.length; at += size) out.push(value.slice(at, at + size));
  return out.length === 0 ? [""] : out;
}

/** `response` as the events of a streamed request, as the API sends them. */
export function events(response: Message): RawMessageStreamEvent[] {
  const started: Message = {
    ...response,
    content: [],
    stop_reason: null,
    usage: { ...response.usage, output_tokens: 1 },
  };
  const out: RawMessageStreamEvent[] = [{ type: "message_start", message: started }];
  response.content.forEach((block, index) => {
    if (block.type === "text") {
      out.push({ type: "content_block_start", index, content_block: { ...block, text: "" } });
      for (const part of pieces(block.text, 8))
        out.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: part } });
    } else if (block.type === "tool_use" || block.type === "server_tool_use") {
      out.push({ type: "content_block_start", index, content_block: { ...block, input: {} } });
      const input = JSON.stringify(block.input);
      for (const part of pieces(input, 7))
        out.push({
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: part },
        });
    } else {
      out.push({ type: "content_block_start", index, content_block: block });
    }
    out.push({ type: "content_block_stop", index });
  });
  const { input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens } =
    response.usage;
  out.push({
    type: "message_delta",
    delta: {
      stop_reason: response.stop_reason,
      stop_sequence: null,
      stop_details: null,
      container: null,
    },
    usage: {
      input_tokens,
      output_tokens,
      cache_creation_input_tokens,
      cache_read_input_tokens,
      output_tokens_details: null,
      server_tool_use: null,
    },
  });
  out.push({ type: "message_stop" });
  return out;
}

/** `response` as an SSE reply (a `ping` after `message_start`, as the API sends); `cutAfter` events cut it off. */
export function sse(response: Message, cutAfter?: number): FakeReply {
  const list: SseEvent[] = events(response).map((event) => ({ event: event.type, data: event }));
  list.splice(1, 0, { event: "ping", data: { type: "ping" } });
  return cutAfter === undefined ? { sse: list } : { sse: list, cutAfter };
}

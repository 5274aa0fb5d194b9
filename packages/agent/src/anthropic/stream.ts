/**
 * Streaming assembly: folds the raw event stream of a Messages request (`stream: true`) into
 * the `Message` the same request would have answered without streaming: text and thinking
 * deltas appended, each `tool_use` / `server_tool_use` input assembled from its
 * `input_json_delta` parts, the stop reason and the usage of `message_delta` merged over those
 * of `message_start`.
 */
import type {
  ContentBlock,
  Message,
  MessageDeltaUsage,
  RawMessageStreamEvent,
  Usage,
} from "@anthropic-ai/sdk/resources/messages";

/**
 * The message `events` make up, or null when they end before `message_stop` (the stream was cut
 * off: the message may lack blocks or inputs, and must not be acted on).
 */
export async function assembleMessage(
  events: AsyncIterable<RawMessageStreamEvent>,
): Promise<Message | null> {
  let message: Message | null = null;
  /** The JSON text of each tool input block so far, by block index. */
  const inputs = new Map<number, string>();
  for await (const event of events) {
    if (event.type === "message_start") {
      message = { ...event.message, content: [...event.message.content] };
      continue;
    }
    if (message === null) continue;
    switch (event.type) {
      case "content_block_start":
        message.content[event.index] = { ...event.content_block };
        if (usesInput(event.content_block)) inputs.set(event.index, "");
        break;
      case "content_block_delta":
        applyDelta(message.content[event.index], event.delta, inputs, event.index);
        break;
      case "content_block_stop": {
        const block = message.content[event.index];
        const json = inputs.get(event.index);
        if (block && usesInput(block) && json !== undefined) block.input = parseInput(json);
        break;
      }
      case "message_delta":
        message.stop_reason = event.delta.stop_reason;
        message.stop_sequence = event.delta.stop_sequence;
        message.stop_details = event.delta.stop_details;
        if (event.delta.container) message.container = event.delta.container;
        message.usage = { ...message.usage, ...known(event.usage) };
        break;
      case "message_stop":
        return message;
    }
  }
  return null;
}

/** The counts a `message_delta` knows (cumulative; null: unchanged since `message_start`). */
function known(usage: MessageDeltaUsage): Partial<Usage> {
  return Object.fromEntries(
    Object.entries(usage).filter(([, value]) => value !== null),
  ) as Partial<Usage>;
}

type InputBlock = Extract<ContentBlock, { type: "tool_use" | "server_tool_use" }>;

function usesInput(block: ContentBlock): block is InputBlock {
  return block.type === "tool_use" || block.type === "server_tool_use";
}

/**
 * A complete input's JSON text parsed; empty text is `{}` (a tool without parameters streams no
 * delta). Text that is not JSON is kept as the text: running it answers the model that its
 * arguments are not JSON.
 */
function parseInput(json: string): unknown {
  if (json === "") return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

function applyDelta(
  block: ContentBlock | undefined,
  delta: Extract<RawMessageStreamEvent, { type: "content_block_delta" }>["delta"],
  inputs: Map<number, string>,
  index: number,
): void {
  if (block === undefined) return;
  if (delta.type === "text_delta" && block.type === "text") block.text += delta.text;
  else if (delta.type === "input_json_delta" && inputs.has(index))
    inputs.set(index, inputs.get(index)! + delta.partial_json);
  else if (delta.type === "citations_delta" && block.type === "text")
    block.citations = [...(block.citations ?? []), delta.citation];
  else if (delta.type === "thinking_delta" && block.type === "thinking")
    block.thinking += delta.thinking;
  else if (delta.type === "signature_delta" && block.type === "thinking")
    block.signature = delta.signature;
}

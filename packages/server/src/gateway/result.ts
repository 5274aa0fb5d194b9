/**
 * An upstream's `tools/call` result as the value our tool returns, so that output modes and
 * handles apply to it: `structuredContent` when present; else, when every content block is text,
 * the text (the blocks joined by a newline; JSON in it is not parsed: a text result is text);
 * no content at all: null; else the content array as listed. `isError: true` throws the tool
 * error `upstream_error` with the text.
 */
import { clip, ToolError } from "@zcp/runtime";

/** What `Client.callTool` resolves to (a `CallToolResult`, or a legacy `{ toolResult }`). */
export interface UpstreamResult {
  readonly content?: readonly unknown[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly toolResult?: unknown;
}

/** The hint of an `upstream_error` is cut to this many characters (a ToolError's hint is cut further). */
const ERROR_TEXT_MAX = 300;

interface TextBlock {
  readonly type: "text";
  readonly text: string;
}

const isText = (block: unknown): block is TextBlock =>
  typeof block === "object" &&
  block !== null &&
  (block as { type?: unknown }).type === "text" &&
  typeof (block as { text?: unknown }).text === "string";

/** The value of a successful result; throws ToolError("upstream_error") for one with `isError`. */
export function resultValue(result: UpstreamResult, upstream: string, tool: string): unknown {
  if ("toolResult" in result && !("content" in result)) return result.toolResult;
  const content = result.content ?? [];
  if (result.isError === true) {
    const text = content.every(isText)
      ? content.map((block) => block.text).join("\n")
      : JSON.stringify(content);
    throw new ToolError(
      "upstream_error",
      clip(text.trim() === "" ? `${upstream} answered an error for ${tool}` : text, ERROR_TEXT_MAX),
    );
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (content.length === 0) return null;
  if (content.every(isText)) return content.map((block) => block.text).join("\n");
  return content;
}

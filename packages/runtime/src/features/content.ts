/**
 * What an author's `@prompt` or `@resource` function returned, checked and shaped as MCP sends
 * it. The author's value is not trusted to match its declared type (an `any` slips through
 * tsc): a value of another shape is refused with what was wrong, never sent as it is.
 */
import type { EmbeddedContents, PromptContent, PromptMessage } from "../definition/features.js";
import { ContentError, readBlock } from "../results/content.js";

/** The checked messages, or why the value is not a prompt's return. */
export type Shaped<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly why: string };

/** Messages at most in one prompt (a bound on what an author's bug can send). */
const MAX_MESSAGES = 1_000;

/** A prompt's return: a string is one user message's text; else an array of messages. */
export function promptMessages(value: unknown): Shaped<PromptMessage[]> {
  if (typeof value === "string")
    return { ok: true, value: [{ role: "user", content: { type: "text", text: value } }] };
  if (!Array.isArray(value)) return { ok: false, why: "not a string or an array of messages" };
  if (value.length > MAX_MESSAGES) return { ok: false, why: `more than ${MAX_MESSAGES} messages` };
  const messages: PromptMessage[] = [];
  for (const [at, item] of value.entries()) {
    const role = field(item, "role");
    if (role !== "user" && role !== "assistant")
      return { ok: false, why: `message ${at}: role is not "user" or "assistant"` };
    const content = promptContent(field(item, "content"), `message ${at}`);
    if (typeof content === "string") return { ok: false, why: content };
    messages.push({ role, content });
  }
  return { ok: true, value: messages };
}

/**
 * One content block of a message, checked and copied as a tool's content is (`readBlock`); a
 * string says what is wrong. A resource link is a tool's block, not a prompt message's.
 */
function promptContent(value: unknown, at: string): PromptContent | string {
  try {
    const block = readBlock(value, at, null);
    return block.type === "resource_link"
      ? `${at}: content type is not text, image, audio or resource`
      : block;
  } catch (error) {
    if (error instanceof ContentError) return error.message;
    throw error;
  }
}

/**
 * A resource's contents from what its function returned: a string is its text, a `Uint8Array`
 * its bytes (base64), any other JSON value its JSON text.
 */
export function resourceContents(
  value: unknown,
  uri: string,
  mimeType: string,
): Shaped<EmbeddedContents> {
  if (typeof value === "string") return { ok: true, value: { uri, mimeType, text: value } };
  if (value instanceof Uint8Array)
    return { ok: true, value: { uri, mimeType, blob: Buffer.from(value).toString("base64") } };
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return { ok: false, why: `not JSON: ${(error as Error).message}` };
  }
  return text === undefined
    ? { ok: false, why: "not a string, a Uint8Array or a JSON value" }
    : { ok: true, value: { uri, mimeType, text } };
}

/** `value[key]` of an object's own property, else undefined. */
function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && Object.hasOwn(value, key)
    ? (value as { readonly [key: string]: unknown })[key]
    : undefined;
}

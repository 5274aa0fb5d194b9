/**
 * Token accounting for `pnpm bench:tokens`, one rule for every surface: a conversation is a list
 * of OpenAI Chat Completions messages, each counted as the o200k_base tokens of its JSON; the tool
 * definitions a request carries are counted as their JSON too. A turn's prompt is the system
 * message, the tool definitions and every message before the assistant's reply; its completion
 * is that reply (text or tool calls). A case's total is the sum over its turns, as providers bill.
 * Providers add a few tokens of framing per message; that constant is the same on every surface
 * and is left out.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

export type Message =
  | { readonly role: "system" | "user"; readonly content: string }
  | { readonly role: "assistant"; readonly content: string | null; readonly tool_calls?: readonly ToolCallMessage[] }
  | { readonly role: "tool"; readonly tool_call_id: string; readonly content: string };

export interface ToolCallMessage {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface TurnTokens {
  readonly prompt: number;
  readonly completion: number;
}

export const tokensOf = (value: unknown): number => countTokens(typeof value === "string" ? value : JSON.stringify(value));

/** Bills a conversation: `messages[0]` is the system message; every assistant message ends a turn. */
export function bill(tools: readonly unknown[], messages: readonly Message[]): TurnTokens[] {
  const toolTokens = tools.length === 0 ? 0 : tokensOf(tools);
  const turns: TurnTokens[] = [];
  let context = toolTokens;
  for (const message of messages) {
    const tokens = tokensOf(message);
    if (message.role === "assistant") turns.push({ prompt: context, completion: tokens });
    context += tokens;
  }
  return turns;
}

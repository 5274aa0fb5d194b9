/**
 * Token accounting for `pnpm bench:tokens`, one rule for every surface: a conversation is a list
 * of OpenAI Chat Completions messages, each counted as the o200k_base tokens of its JSON; the tool
 * definitions a request carries are counted as their JSON too, on every request. A turn's prompt
 * is the tool definitions, the system message and every message before the assistant's reply;
 * its completion is that reply (text or tool calls). Providers add a few tokens of framing per
 * message; that constant is the same on every surface and is left out.
 *
 * Prompt caching (`CACHE`): the part of a prompt that an earlier request already sent as its
 * prefix is served from the cache and billed at a discount, if it is long enough to be cached.
 * For a turn after the first that is the whole previous prompt (the reply and the results
 * after it are new); for the first turn it is the tool definitions and the system message,
 * which every conversation on the same surface and catalog opens with (a warm cache).
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

export type Message =
  | { readonly role: "system" | "user"; readonly content: string }
  | {
      readonly role: "assistant";
      readonly content: string | null;
      readonly tool_calls?: readonly ToolCallMessage[];
    }
  | { readonly role: "tool"; readonly tool_call_id: string; readonly content: string };

export interface ToolCallMessage {
  readonly id: string;
  readonly type: "function";
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface TurnTokens {
  readonly prompt: number;
  readonly completion: number;
  /** The part of `prompt` an earlier request sent as its prefix (0 when shorter than the cache's minimum). */
  readonly cached: number;
}

/**
 * The cache the `cached` figures assume: a cached prompt token costs 10% of an uncached one
 * (Anthropic's cache reads, OpenAI's rate for its newer models; older OpenAI models give 50-75%
 * off), writes cost nothing extra (OpenAI; Anthropic charges 25% more for a write, which is left
 * out), and a prefix shorter than 1,024 tokens is not cached (both providers' minimum).
 */
export const CACHE = { discount: 0.9, minimumTokens: 1024 } as const;

export const tokensOf = (value: unknown): number =>
  countTokens(typeof value === "string" ? value : JSON.stringify(value));

const listingTokens = new WeakMap<readonly unknown[], number>();
/** The tokens of a tool list, counted once per list (a surface sends the same list on every request). */
export function toolListTokens(tools: readonly unknown[]): number {
  if (tools.length === 0) return 0;
  if (!listingTokens.has(tools)) listingTokens.set(tools, tokensOf(tools));
  return listingTokens.get(tools)!;
}

/** Bills a conversation: `messages[0]` is the system message; every assistant message ends a turn. */
export function bill(tools: readonly unknown[], messages: readonly Message[]): TurnTokens[] {
  const toolTokens = toolListTokens(tools);
  const turns: TurnTokens[] = [];
  const cacheable = (prefix: number) => (prefix >= CACHE.minimumTokens ? prefix : 0);
  let context = toolTokens;
  // What every conversation of the surface opens with: the tool definitions and the system message.
  let prefix = toolTokens + (messages[0] ? tokensOf(messages[0]) : 0);
  for (const message of messages) {
    const tokens = tokensOf(message);
    if (message.role === "assistant") {
      turns.push({ prompt: context, completion: tokens, cached: cacheable(prefix) });
      prefix = context;
    }
    context += tokens;
  }
  return turns;
}

/** A run's totals: prompt and completion as sent, and what they cost with the cache, in uncached-token equivalents. */
export function totals(turns: readonly TurnTokens[]): {
  readonly prompt: number;
  readonly completion: number;
  readonly cachedPrompt: number;
  readonly tokens: number;
  readonly cached: number;
} {
  const sum = (pick: (turn: TurnTokens) => number) =>
    turns.reduce((total, turn) => total + pick(turn), 0);
  const prompt = sum((turn) => turn.prompt);
  const completion = sum((turn) => turn.completion);
  const cachedPrompt = sum((turn) => turn.cached);
  return {
    prompt,
    completion,
    cachedPrompt,
    tokens: prompt + completion,
    cached: prompt - CACHE.discount * cachedPrompt + completion,
  };
}

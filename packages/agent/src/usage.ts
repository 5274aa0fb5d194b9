/**
 * Token usage: what one model response cost, and sums of it over a run. Its own module because
 * both the loop (sums per run) and the tool-call hooks (`onTurn`) speak of it.
 */

/** Tokens of one response, or summed over a run. */
export interface Usage {
  /** Every input token, the cached ones included. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The input tokens read from the provider's prompt cache. */
  readonly cachedInputTokens: number;
}

export const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
  };
}

/**
 * The provider-neutral agent loop: ask the model, run the tool calls of its reply through the
 * session, give it their outcomes, until it answers without calls or `maxTurns` replies came.
 * A provider adapter supplies a `Conversation` (how to send one request and record outcomes in
 * its own state); the loop owns the turns, usage, hooks, abort and the one retry of a stream
 * that was cut off.
 */
import type { Session } from "@zcp/runtime";
import { runToolCalls, type AgentHooks, type ToolCall, type ToolOutcome } from "./calls.js";
import { addUsage, NO_USAGE, type Usage } from "./usage.js";

/** Why a run failed: `aborted` (the signal), `stream_interrupted` (twice), `provider` (a request the provider cannot take). */
export type AgentErrorCode = "aborted" | "stream_interrupted" | "provider";

export class AgentError extends Error {
  override name = "AgentError";
  constructor(
    readonly code: AgentErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** One complete model response, as the loop needs it. */
export interface Reply {
  /** The text the model wrote in it ("" when none). */
  readonly text: string;
  /** The tool calls for the session to run, in the response's order. */
  readonly calls: readonly ToolCall[];
  readonly usage: Usage;
  /**
   * True when the response asked for something the adapter answers itself (a client-side tool
   * search): the loop takes another turn even without calls.
   */
  readonly more?: boolean;
}

/** What a provider adapter gives the loop: its request state and how to advance it. */
export interface Conversation {
  /**
   * Sends the next request and returns the complete response; the state changes only once a
   * response came back whole. Throws `AgentError` code `stream_interrupted` when a stream ended
   * before its final event (the loop retries the turn once).
   */
  send(signal: AbortSignal | undefined): Promise<Reply>;
  /** Records the outcomes of the last reply's calls (in its order) for the next request. */
  answer(outcomes: readonly ToolOutcome[]): void;
}

/** The options every provider's `runAgent` takes. */
export interface LoopOptions {
  readonly session: Session;
  /** At most this many model responses; reached, the run resolves with `stop: "max_turns"`. Default 10. */
  readonly maxTurns?: number;
  /** Aborts the request in flight and the tool calls running; the run rejects with `aborted`. */
  readonly signal?: AbortSignal;
  readonly hooks?: AgentHooks;
}

export interface LoopResult {
  /** The text of the last response: the answer, or at `max_turns` what the model said last. */
  readonly text: string;
  /** How many model responses the run took. */
  readonly turns: number;
  /** Summed over the responses. */
  readonly usage: Usage;
  readonly stop: "answer" | "max_turns";
  /** Every tool call's outcome, in order. */
  readonly outcomes: readonly ToolOutcome[];
}

/** `hooks.onWarning` told each distinct message once: a run warns once, not every turn. */
export function warnOnce(hooks: AgentHooks | undefined): (message: string) => void {
  const told = new Set<string>();
  return (message) => {
    if (told.has(message)) return;
    told.add(message);
    hooks?.onWarning?.(message);
  };
}

const DEFAULT_MAX_TURNS = 10;

/** Runs `conversation` to an answer or `maxTurns`. */
export async function runLoop(
  conversation: Conversation,
  options: LoopOptions,
): Promise<LoopResult> {
  const { session, signal, hooks } = options;
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  if (!Number.isInteger(maxTurns) || maxTurns < 1)
    throw new RangeError(`maxTurns must be a positive integer, got ${maxTurns}`);
  const outcomes: ToolOutcome[] = [];
  let usage = NO_USAGE;
  for (let index = 0; ; index++) {
    const reply = await sendTurn(conversation, signal);
    usage = addUsage(usage, reply.usage);
    hooks?.onTurn?.({ index, usage: reply.usage, calls: reply.calls.length });
    const turns = index + 1;
    if (reply.calls.length === 0 && reply.more !== true)
      return { text: reply.text, turns, usage, stop: "answer", outcomes };
    const answered = await runToolCalls(session, reply.calls, { signal, hooks });
    throwIfAborted(signal);
    outcomes.push(...answered);
    conversation.answer(answered);
    if (turns === maxTurns) return { text: reply.text, turns, usage, stop: "max_turns", outcomes };
  }
}

/** One turn: sent again once when its stream was cut off; an abort becomes `aborted`. */
async function sendTurn(
  conversation: Conversation,
  signal: AbortSignal | undefined,
): Promise<Reply> {
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(signal);
    try {
      return await conversation.send(signal);
    } catch (error) {
      throwIfAborted(signal);
      if (!(error instanceof AgentError && error.code === "stream_interrupted") || attempt === 2)
        throw error;
    }
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new AgentError("aborted", "the run was aborted", { cause: signal.reason });
}

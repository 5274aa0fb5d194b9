/**
 * Running a model's tool calls through a session: each call parsed, approved and run by the
 * session (its exposure, stage, validation and limits), all at once, and answered with the text
 * the model reads back (feedback.ts). A call's failure is an outcome, never a throw.
 */
import { failure, type CallResult, type Session, type ToolDefinition } from "@zcp/runtime";
import { feedback, notJson, notObject } from "./feedback.js";
import type { Usage } from "./usage.js";

export interface ToolCall {
  /** The provider's call id (OpenAI call_id, Anthropic tool_use id). */
  readonly id: string;
  /** The name the model used (a provider name, e.g. `weather_get_current`). */
  readonly name: string;
  /** As the provider gave them: JSON text (a string is always parsed) or a parsed value. */
  readonly arguments: string | unknown;
}

export interface ToolOutcome {
  readonly call: ToolCall;
  /** The tool called, when the name is one of the session's view. */
  readonly tool: ToolDefinition | undefined;
  readonly result: CallResult;
  /** What the model reads back: compact JSON (see feedback.ts), a handle as its summary. */
  readonly text: string;
  readonly isError: boolean;
}

export interface AgentHooks {
  /**
   * Before a call runs (its tool in the view, its arguments an object): false, or a string (the
   * reason), refuses it; the model reads `denied:<alias>`.
   */
  approve?(call: ToolCall, tool: ToolDefinition): boolean | string | Promise<boolean | string>;
  /** Each call as it arrives, before anything is checked. */
  onToolCall?(call: ToolCall, tool: ToolDefinition | undefined): void;
  onToolResult?(outcome: ToolOutcome): void;
  /** After each model response, with that turn's usage and how many tool calls it made. */
  onTurn?(turn: { readonly index: number; readonly usage: Usage; readonly calls: number }): void;
  /** A documented fallback was taken (e.g. strict limits exceeded → non-strict entries). */
  onWarning?(message: string): void;
}

export interface RunOptions {
  /** Passed to every call: aborting it cancels the calls still running. */
  readonly signal?: AbortSignal;
  readonly hooks?: AgentHooks;
}

/**
 * Runs `calls` in parallel through `session`; the outcomes are in the calls' order. Never throws
 * for a call's failure (a hook's own exception propagates).
 */
export function runToolCalls(
  session: Session,
  calls: readonly ToolCall[],
  options: RunOptions = {},
): Promise<ToolOutcome[]> {
  return Promise.all(calls.map((call) => runToolCall(session, call, options)));
}

async function runToolCall(
  session: Session,
  call: ToolCall,
  { signal, hooks }: RunOptions,
): Promise<ToolOutcome> {
  const tool = session.exposed.find(call.name);
  hooks?.onToolCall?.(call, tool);
  const { result, args } = await outcomeOf(session, call, tool, signal, hooks);
  const outcome: ToolOutcome = {
    call,
    tool,
    result,
    text: feedback(result, tool?.alias, args),
    isError: !result.ok,
  };
  hooks?.onToolResult?.(outcome);
  return outcome;
}

/** The call's result and the parsed arguments a refusal's `received` is read from. */
async function outcomeOf(
  session: Session,
  call: ToolCall,
  tool: ToolDefinition | undefined,
  signal: AbortSignal | undefined,
  hooks: AgentHooks | undefined,
): Promise<{ result: CallResult; args: unknown }> {
  // Not in the view: the session answers unknown or forbidden (it checks the name first).
  if (!tool) return { result: await callSafely(session, call.name, {}, signal), args: undefined };
  let args = call.arguments;
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch (error) {
      return { result: notJson(error), args: undefined };
    }
  }
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return { result: notObject(args), args: undefined };
  const approved = hooks?.approve ? await hooks.approve(call, tool) : true;
  if (approved !== true) {
    const reason = typeof approved === "string" ? approved : "the call was not approved";
    return { result: failure(`denied:${tool.alias}`, reason), args };
  }
  return { result: await callSafely(session, tool.alias, args, signal), args };
}

/**
 * `session.call`; its rare rejection (a dispatch table that throws outside the tool) is logged
 * and answered `exec:error`, as the runtime answers a tool that threw.
 */
async function callSafely(
  session: Session,
  name: string,
  args: unknown,
  signal: AbortSignal | undefined,
): Promise<CallResult> {
  try {
    return await session.call(name, args, signal ? { signal } : {});
  } catch (error) {
    console.error(`zcp: ${name} failed in session ${session.id}:`, error);
    return failure("exec:error", "the tool failed; the details are in the application's log");
  }
}

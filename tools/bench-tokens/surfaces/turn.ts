/**
 * What every surface is (`Surface`): what it sends the model, what it lists, and a turn: the
 * assistant message the plan's calls make (what is billed), parsed back and executed (what
 * runs), and the messages that carry the results. The messages of function calling and of the
 * text protocol's CALL lines are built and read back here for every surface that uses them.
 */
import { parseCalls, type JsonValue, type Runtime } from "@zcp/runtime";
import type { Call, SurfaceSpec } from "./spec.ts";
import type { Message, ToolCallMessage } from "./transcript.ts";

interface TurnOutcome {
  /** The assistant message that makes the calls: what is billed, and what was parsed and executed. */
  readonly assistant: Message;
  /** The messages that carry the results back, in call order. */
  readonly results: readonly Message[];
  /** Each call's value as the model reads it (null for an error; for a handle, its id, summary and meta), for the plan's next turn. */
  readonly values: readonly JsonValue[];
  /** Calls that failed, with the error text the model would read. */
  readonly errors: readonly string[];
}

export interface Surface extends SurfaceSpec {
  /** What this surface adds to the shared system prompt (empty when it needs nothing). */
  readonly instructions: string;
  /** The tool definitions every request carries. */
  readonly tools: readonly unknown[];
  /** The aliases of the tools the listing shows (on a search surface: the search tool and what the searches found so far). */
  readonly listed: ReadonlySet<string>;
  /** How the agent makes one round of searches for `queries` (default: one `zcp.find_tools` call each). */
  readonly searchCalls?: (queries: readonly string[]) => Call[];
  /** After the searches, the calls that read what the found tools take, where the searches answered less. */
  readonly detailCalls?: (aliases: readonly string[]) => Call[];
  turn(calls: readonly Call[]): Promise<TurnOutcome>;
  close(): Promise<void>;
}

/** A plan called a tool its surface does not list: the plan is not open to that surface. */
export class NotListed extends Error {
  override name = "NotListed";
}

/** A call as parsed back from the billed assistant message: the tool's name as written, and its arguments. */
interface Executed {
  readonly name: string;
  readonly args: { [name: string]: JsonValue };
}

export const callId = (n: number) => `call_${n}`;

export function checkListed(calls: readonly Call[], listed: ReadonlySet<string>): void {
  for (const call of calls)
    if (!listed.has(call.alias)) throw new NotListed(`${call.alias} is not listed`);
}

/** The function-calling message of `calls`, with the provider-safe names the listing uses. */
export function fcAssistant(calls: readonly Call[], runtime: Runtime, first: number): Message {
  const toolCalls: ToolCallMessage[] = calls.map((call, i) => ({
    id: callId(first + i),
    type: "function",
    function: { name: runtime.tool(call.alias)!.name, arguments: JSON.stringify(call.args) },
  }));
  return { role: "assistant", content: null, tool_calls: toolCalls };
}

/** The calls a function-calling message makes, read back from its JSON. */
export const fcExecuted = (assistant: Message): Executed[] =>
  (assistant.role === "assistant" ? (assistant.tool_calls ?? []) : []).map((call) => ({
    name: call.function.name,
    args: JSON.parse(call.function.arguments) as Executed["args"],
  }));

/** The calls a text message makes, read back with the runtime's CALL-line parser. */
export function compactExecuted(text: string): Executed[] {
  const parsed = parseCalls(text);
  if (parsed.errors.length > 0)
    throw new Error(
      `the billed CALL lines do not parse: ${parsed.errors.map((error) => error.message).join("; ")}`,
    );
  return parsed.calls.map((call) => ({ name: call.alias ?? call.id!, args: call.args }));
}

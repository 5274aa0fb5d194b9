/**
 * The four surfaces of `pnpm bench:tokens`, each rendering exactly what a model receives and
 * executing every call for real through our server, in process:
 *
 * - `mcp-primitive`: the official SDK `Client` talking to our MCP surface over an in-memory
 *   transport, served as a plain MCP server would be (every result whole, so no handles and no
 *   handle tool); the request carries every listed tool as a Chat Completions function built from
 *   its MCP `inputSchema`; a result is the text of the `CallToolResult` content, as hosts pass it on.
 * - `mcp-all`: the same server with the workflow group listed too (a separate runtime surface).
 * - `zcp-fc`: the native surface; tools are the `openai-chat` strict artifacts of the view the
 *   client lists (the session's stage, narrowed by a profile or groups); a result is the compact
 *   encoding of the runtime's result, a handle and its summary for a large one.
 * - `zcp-compact`: the native surface with no tool definitions at all: the planner lines of the
 *   same view go in the system prompt, the model writes `CALL` lines and reads `RET` lines.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createRuntime, encodeResult, formatCall, formatReturn, type CallResult, type GeneratedModule, type JsonValue, type Runtime } from "@zcp/runtime";
import { createMcpServer, createNativeSession, type NativeSession } from "@zcp/server";
import type { Message, ToolCallMessage } from "./transcript.ts";

export const SURFACES = ["mcp-primitive", "mcp-all", "zcp-fc", "zcp-compact"] as const;
export type SurfaceName = (typeof SURFACES)[number];

export interface Call {
  readonly alias: string;
  readonly args: { readonly [name: string]: JsonValue };
}

export interface TurnOutcome {
  /** The assistant message that makes the calls. */
  readonly assistant: Message;
  /** The messages that carry the results back, in call order. */
  readonly results: readonly Message[];
  /** Each call's value (null for an error; for a handle, its id, summary and meta), for the plan's next turn and the verifier. */
  readonly values: readonly JsonValue[];
  /** Calls that failed, with the error text the model would read. */
  readonly errors: readonly string[];
}

export interface Surface {
  readonly name: SurfaceName;
  /** What this surface adds to the shared system prompt (empty when it needs nothing). */
  readonly instructions: string;
  /** The tool definitions every request carries. */
  readonly tools: readonly unknown[];
  turn(calls: readonly Call[]): Promise<TurnOutcome>;
  close(): Promise<void>;
}

/** What a native client asks tools/list for: a profile, or groups. */
export interface ListSelection {
  readonly profile?: string;
  readonly groups?: readonly string[];
}

export interface SurfaceOptions {
  /** The stage the session starts in (the ZCP surfaces list the view of that stage). */
  readonly stage?: string;
  /** The ZCP surfaces' tools/list selection (MCP hosts list everything the server lists). */
  readonly select?: ListSelection;
}

const callId = (n: number) => `call_${n}`;

/** The provider-safe name a function-calling model uses for a tool alias of the plan (the handle tool included). */
function providerNames(runtime: Runtime): (alias: string) => string {
  return (alias) => {
    const tool = runtime.tool(alias);
    if (tool === undefined) throw new Error(`the plan calls ${alias}, which the registry does not have`);
    return tool.name;
  };
}

function fcAssistant(calls: readonly Call[], nameOf: (alias: string) => string, first: number): Message {
  const toolCalls: ToolCallMessage[] = calls.map((call, i) => ({
    id: callId(first + i),
    type: "function",
    function: { name: nameOf(call.alias), arguments: JSON.stringify(call.args) },
  }));
  return { role: "assistant", content: null, tool_calls: toolCalls };
}

async function mcpSurface(name: "mcp-primitive" | "mcp-all", generated: GeneratedModule, options: SurfaceOptions): Promise<Surface> {
  // A plain MCP server: every result whole (no handles, so no handle tool); mcp-primitive without the workflow group.
  const exposure = { defaults: { mcp: name === "mcp-primitive" ? { excludeGroups: ["workflow"] } : {} } };
  const runtime = createRuntime(generated, { exposure, inlineMaxBytes: Number.POSITIVE_INFINITY });
  const server = createMcpServer(runtime, options.stage !== undefined ? { stage: options.stage } : {});
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.server.connect(serverSide);
  const client = new Client({ name: "bench-tokens", version: "0.1.0" });
  await client.connect(clientSide);
  const listed = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor !== undefined ? { cursor } : {});
    listed.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const nameOf = providerNames(runtime);
  let next = 1;
  return {
    name,
    instructions: "",
    tools: listed.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description ?? "", parameters: tool.inputSchema } })),
    async turn(calls) {
      const first = next;
      next += calls.length;
      const answers = await Promise.all(calls.map((call) => client.callTool({ name: nameOf(call.alias), arguments: call.args })));
      const results: Message[] = [];
      const values: JsonValue[] = [];
      const errors: string[] = [];
      answers.forEach((answer, i) => {
        const content = answer.content as { type: string; text?: string }[];
        const text = content.filter((block) => block.type === "text").map((block) => block.text ?? "").join("\n");
        results.push({ role: "tool", tool_call_id: callId(first + i), content: text });
        if (answer.isError === true) {
          errors.push(text);
          values.push(null);
        } else values.push((answer.structuredContent as JsonValue | undefined) ?? (JSON.parse(text) as JsonValue));
      });
      return { assistant: fcAssistant(calls, nameOf, first), results, values, errors };
    },
    close: () => server.close(),
  };
}

async function rpc<T>(native: NativeSession, method: string, params: Record<string, unknown>): Promise<T> {
  const response = (await native.handle({ jsonrpc: "2.0", id: 1, method, params })) as { result?: unknown; error?: { message: string } };
  if (response.error) throw new Error(`${method}: ${response.error.message}`);
  return response.result as T;
}

async function zcpSurface(name: "zcp-fc" | "zcp-compact", generated: GeneratedModule, options: SurfaceOptions): Promise<Surface> {
  const runtime = createRuntime(generated);
  const native = createNativeSession(runtime, options.stage !== undefined ? { stage: options.stage } : {});
  await rpc<unknown>(native, "initialize", {});
  const compact = name === "zcp-compact";
  const listing = await rpc<{ tools: string | unknown[] }>(native, "tools/list", { ...options.select, format: compact ? "compact" : "openai-chat" });
  const nameOf = providerNames(runtime);
  let next = 1;
  return {
    name,
    instructions: compact ? compactInstructions(listing.tools as string) : "",
    tools: compact ? [] : (listing.tools as unknown[]),
    async turn(calls) {
      const first = next;
      next += calls.length;
      const answers = await Promise.all(calls.map((call) => rpc<CallResult>(native, "tools/call", { name: call.alias, arguments: call.args })));
      // A handle result's value is what the model reads of it: the id, the summary and the meta.
      const values = answers.map((answer): JsonValue => (!answer.ok ? null : "value" in answer ? answer.value : { handle: answer.handle, summary: answer.summary, meta: { ...answer.meta } }));
      const errors = answers.filter((answer) => !answer.ok).map((answer) => encodeResult(answer));
      if (!compact) {
        const results: Message[] = answers.map((answer, i) => ({ role: "tool", tool_call_id: callId(first + i), content: encodeResult(answer) }));
        return { assistant: fcAssistant(calls, nameOf, first), results, values, errors };
      }
      const assistant: Message = { role: "assistant", content: calls.map((call) => formatCall(null, call.alias, call.args)).join("\n") };
      const returns = answers.map((answer, i) => formatReturn(`c${i + 1}`, answer)).join("\n");
      return { assistant, results: [{ role: "user", content: returns }], values, errors };
    },
    close: () => native.close(),
  };
}

/** The instructions zcp-compact needs, since it has no function calling: the grammar and the tools. */
export function compactInstructions(plannerLines: string): string {
  return [
    "Call tools by writing one line per call: CALL <alias> name=value ... (values are JSON; bare words need no quotes).",
    "Calls in one message run in parallel. Results come back as RET c<n> <json> (or ERR c<n> <code> hint=...), c1 for your first call.",
    "Tools:",
    plannerLines,
  ].join("\n");
}

export async function openSurface(name: SurfaceName, generated: GeneratedModule, options: SurfaceOptions = {}): Promise<Surface> {
  return name === "mcp-primitive" || name === "mcp-all" ? mcpSurface(name, generated, options) : zcpSurface(name, generated, options);
}

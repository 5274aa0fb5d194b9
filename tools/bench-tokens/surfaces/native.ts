/**
 * The native ZCP surfaces, through zcp's native session in process. `zcp-fc`: the request
 * carries the `openai-chat` strict artifacts that `tools/list` returns for the catalog; a result
 * is the compact encoding of the runtime's result (a handle and its summary for a large one).
 * `zcp-fc-lean`: the same, asking `tools/list` for lean artifacts (`lean: true`: the first
 * sentence of each description, no constraints the generated validators enforce anyway), which
 * the runtime derives from the registry as it does the full ones. `zcp-compact`: no tool
 * definitions at all: the planner lines `tools/list` returns (format `compact`, with their
 * documentation) go in the system prompt, the model writes `CALL` lines, which are parsed with
 * the runtime's `parseCalls`, and reads `RET` lines. `zcp-search` and `zcp-search-fc`: the
 * same from the discover view, whose listing grows with what `zcp.find_tools` finds.
 */
import {
  createRuntime,
  encodeResult,
  formatCall,
  formatReturn,
  type CallResult,
  type GeneratedModule,
  type JsonValue,
} from "@zcp/runtime";
import { createNativeSession, type NativeSession } from "@zcp/server";
import type { McpProtocol } from "./mcp.ts";
import {
  CATALOG_EXCLUDES,
  isSearch,
  type AnyProtocol,
  type Catalog,
  type CodeProtocol,
} from "./spec.ts";
import type { Message } from "./transcript.ts";
import {
  callId,
  checkListed,
  compactExecuted,
  fcAssistant,
  fcExecuted,
  type Surface,
} from "./turn.ts";

export async function rpc<T>(
  native: NativeSession,
  method: string,
  params: Record<string, unknown>,
): Promise<T> {
  const response = (await native.handle({ jsonrpc: "2.0", id: 1, method, params })) as {
    result?: unknown;
    error?: { message: string };
  };
  if (response.error) throw new Error(`${method}: ${response.error.message}`);
  return response.result as T;
}

export async function zcpSurface(
  protocol: Exclude<AnyProtocol, McpProtocol | CodeProtocol>,
  generated: GeneratedModule,
  catalog: Catalog,
): Promise<Surface> {
  const lean = protocol === "zcp-fc-lean";
  const compact = protocol === "zcp-compact" || protocol === "zcp-search";
  const search = isSearch(protocol);
  const excludeGroups = [...CATALOG_EXCLUDES[catalog]];
  // A search surface's catalog is its policy (what a search can ever find), as on mcp-search.
  const runtime = createRuntime(
    generated,
    search ? { exposure: { defaults: { native: { profile: "discover", excludeGroups } } } } : {},
  );
  const native = createNativeSession(runtime);
  await rpc<unknown>(native, "initialize", search && !compact ? { findFormat: "openai-chat" } : {});
  const select = !search && excludeGroups.length > 0 ? { excludeGroups } : {};
  const listing = await rpc<{ tools: string | unknown[] }>(native, "tools/list", {
    ...select,
    format: compact ? "compact" : "openai-chat",
    ...(lean ? { lean: true } : {}),
  });
  // The same view as JSON, for the aliases it lists (the client's knowledge, not sent to the model).
  const aliases = async () =>
    (
      await rpc<{ tools: { alias: string }[] }>(native, "tools/list", { ...select, format: "json" })
    ).tools.map((tool) => tool.alias);
  const listed = new Set(await aliases());
  let next = 1;
  return {
    protocol,
    catalog,
    instructions: compact ? compactInstructions(listing.tools as string) : "",
    tools: compact ? [] : (listing.tools as unknown[]),
    listed,
    async turn(calls) {
      checkListed(calls, listed);
      const first = next;
      next += calls.length;
      const assistant: Message = compact
        ? {
            role: "assistant",
            content: calls.map((call) => formatCall(null, call.alias, call.args)).join("\n"),
          }
        : fcAssistant(calls, runtime, first);
      const executed = compact ? compactExecuted(assistant.content!) : fcExecuted(assistant);
      const answers = await Promise.all(
        executed.map((call) =>
          rpc<CallResult>(native, "tools/call", { name: call.name, arguments: call.args }),
        ),
      );
      // A handle result's value is what the model reads of it: the id, the summary and the meta.
      const values = answers.map((answer): JsonValue =>
        !answer.ok
          ? null
          : "handle" in answer
            ? { handle: answer.handle, summary: answer.summary, meta: { ...answer.meta } }
            : "content" in answer
              ? answer.content
              : answer.value,
      );
      const errors = answers.filter((answer) => !answer.ok).map((answer) => encodeResult(answer));
      const results: Message[] = compact
        ? [
            {
              role: "user",
              content: answers.map((answer, i) => formatReturn(`c${i + 1}`, answer)).join("\n"),
            },
          ]
        : answers.map((answer, i) => ({
            role: "tool",
            tool_call_id: callId(first + i),
            content: encodeResult(answer),
          }));
      if (search) for (const alias of await aliases()) listed.add(alias);
      return { assistant, results, values, errors };
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

/** zcp-compact's instructions with planner lines without documentation (`docs: false`): not a surface, a size to compare. */
export async function bareCompactInstructions(
  generated: GeneratedModule,
  catalog: Catalog,
): Promise<string> {
  const native = createNativeSession(createRuntime(generated));
  await rpc<unknown>(native, "initialize", {});
  const select =
    CATALOG_EXCLUDES[catalog].length > 0 ? { excludeGroups: [...CATALOG_EXCLUDES[catalog]] } : {};
  const listing = await rpc<{ tools: string }>(native, "tools/list", {
    ...select,
    format: "compact",
    docs: false,
  });
  await native.close();
  return compactInstructions(listing.tools);
}

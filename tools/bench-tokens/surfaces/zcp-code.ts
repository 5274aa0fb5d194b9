/**
 * `zcp-code`: native ZCP with the runtime's `zcp.run` over our sandbox: every request carries
 * `zcp.run`'s strict artifact (OpenAI function calling) and, in the system prompt, the view's
 * API text (`tools/list` format `typescript`: the tool author's types, first sentences,
 * defaults); the program's calls are the session's own, their large values stay in the program;
 * a result is the runtime's compact encoding of `zcp.run`'s `{ value }`.
 */
import {
  createRuntime,
  encodeResult,
  type CallResult,
  type GeneratedModule,
  type JsonValue,
} from "@zcp/runtime";
import { createNativeSession } from "@zcp/server";
import { rpc } from "./native.ts";
import { PROGRAM_FORMS } from "./program-forms.ts";
import { programs } from "./sandbox.ts";
import { CATALOG_EXCLUDES, FIND_ALIAS, type Catalog } from "./spec.ts";
import type { Message } from "./transcript.ts";
import { callId, checkListed, fcAssistant, fcExecuted, type Surface } from "./turn.ts";

export async function zcpCodeSurface(
  generated: GeneratedModule,
  catalog: Catalog,
  discover: boolean,
): Promise<Surface> {
  const excludeGroups = [...CATALOG_EXCLUDES[catalog]];
  const runtime = createRuntime(generated, {
    exposure: {
      defaults: { native: { excludeGroups, ...(discover ? { profile: "discover" } : {}) } },
    },
    code: programs(),
  });
  const native = createNativeSession(runtime);
  await rpc<unknown>(native, "initialize", discover ? { findFormat: "typescript" } : {});
  const functions = await rpc<{ tools: { function: { name: string } }[] }>(native, "tools/list", {
    format: "openai-chat",
  });
  const run = runtime.tool(PROGRAM_FORMS["zcp-code"].tool)!;
  // The API text up front, or (discover) only the search and run tools, the text found on demand.
  const sent = discover ? [run, runtime.tool(FIND_ALIAS)!] : [run];
  const api = discover
    ? ""
    : (await rpc<{ tools: string }>(native, "tools/list", { format: "typescript" })).tools;
  // What the session lets a program call (the client's knowledge, not sent): in a discover view,
  // the tools found so far.
  const aliases = async () =>
    (await rpc<{ tools: { alias: string }[] }>(native, "tools/list", { format: "json" })).tools.map(
      (tool) => tool.alias,
    );
  const listed = new Set(await aliases());
  let next = 1;
  return {
    protocol: "zcp-code",
    catalog,
    instructions: discover ? "" : `Programs for ${run.name} call these tools:\n${api}`,
    tools: functions.tools.filter((entry) =>
      sent.some((tool) => tool.name === entry.function.name),
    ),
    listed,
    async turn(calls) {
      checkListed(calls, listed);
      const first = next;
      next += calls.length;
      const assistant = fcAssistant(calls, runtime, first);
      const answers = await Promise.all(
        fcExecuted(assistant).map((call) =>
          rpc<CallResult>(native, "tools/call", { name: call.name, arguments: call.args }),
        ),
      );
      const outcome = {
        assistant,
        results: answers.map((answer, i): Message => ({
          role: "tool",
          tool_call_id: callId(first + i),
          content: encodeResult(answer),
        })),
        // A program's value is what it returned; a search's, what it found.
        values: answers.map((answer, i) =>
          !answer.ok || !("value" in answer)
            ? null
            : calls[i]!.alias === run.alias
              ? (answer.value as { value: JsonValue }).value
              : answer.value,
        ),
        errors: answers.filter((answer) => !answer.ok).map((answer) => encodeResult(answer)),
      };
      if (discover) for (const alias of await aliases()) listed.add(alias);
      return outcome;
    },
    close: () => native.close(),
  };
}

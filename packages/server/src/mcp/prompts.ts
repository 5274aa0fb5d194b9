/**
 * The generated prompts over MCP (the runtime's `Features`): `prompts/list`, `prompts/get` and
 * `completion/complete` (of prompt arguments and template variables). Errors are JSON-RPC
 * errors: an unknown prompt or argument -32602, arguments its generated validator refuses
 * -32602 with the validator's error (`missing:$.arg1 (expected string)`), an author's function
 * that threw -32603 without its details (they go to the runtime's `onFeatureError`).
 *
 * A prompt asks its client as a tool does (input.ts): on a 2025 session with requests on the
 * `prompts/get` stream; on 2026-07-28 by answering `input_required`, its `requestState` bound to
 * `prompt:<name>` (no tool name has a colon, so a tool's state is never a prompt's, nor the
 * reverse), the arguments and the caller. A question the client did not declare it answers is
 * -32021 (MissingRequiredClientCapability) in both eras: a prompt has no error value to answer.
 */
import {
  MissingRequiredClientCapabilityError,
  ProtocolErrorCode as ErrorCode,
  type CompleteResult,
  type GetPromptResult,
  type InputRequiredResult,
  type ListPromptsResult,
  type Prompt,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { clip, promptContext, ToolError, type Features } from "@zcp/runtime";
import { featureValue, ProtocolError } from "./errors.js";
import { sessionInput, type InputRounds } from "./input.js";
import { readCursor, writeCursor } from "./paging.js";

/** How a 2026-07-28 server's prompts ask their client (a 2025 session's ask on their stream). */
export interface PromptRounds {
  readonly rounds: InputRounds;
  /** The caller the states are bound to (the fixed session's owner). */
  readonly owner: string;
}

/** Registers `prompts/list`, `prompts/get` and `completion/complete` when there is something to serve. */
export function servePrompts(
  server: Server,
  features: Features,
  pageSize: number,
  modern?: PromptRounds,
): void {
  if (features.prompts.length > 0) {
    const listed: Prompt[] = features.prompts.map((prompt) => ({
      name: prompt.name,
      ...(prompt.title !== null ? { title: prompt.title } : {}),
      description: prompt.description,
      arguments: prompt.arguments.map((arg) => ({
        name: arg.name,
        ...(arg.description !== null ? { description: arg.description } : {}),
        required: arg.required,
      })),
    }));
    server.setRequestHandler("prompts/list", (request) => {
      const at = readCursor(request.params?.cursor, "p", listed.length);
      const result: ListPromptsResult = { prompts: listed.slice(at, at + pageSize) };
      if (at + pageSize < listed.length) result.nextCursor = writeCursor("p", at + pageSize);
      return result;
    });
    server.setRequestHandler(
      "prompts/get",
      async (request, extra): Promise<GetPromptResult | InputRequiredResult> => {
        const { name, arguments: args = {} } = request.params;
        return getPrompt(server, features, extra, name, args, modern);
      },
    );
  }
  if (features.prompts.length > 0 || features.templates.length > 0)
    server.setRequestHandler("completion/complete", async (request): Promise<CompleteResult> => {
      const { ref, argument, context } = request.params;
      const completion = featureValue(
        await features.complete(
          ref.type === "ref/prompt"
            ? { type: "prompt", name: ref.name }
            : { type: "template", uriTemplate: ref.uri },
          argument.name,
          argument.value,
          context?.arguments ?? {},
        ),
      );
      return { completion: { ...completion, values: [...completion.values] } };
    });
}

/** One `prompts/get`: the prompt's messages, its questions (2026-07-28), or why neither. */
async function getPrompt(
  server: Server,
  features: Features,
  extra: ServerContext,
  name: string,
  args: { readonly [name: string]: string },
  modern: PromptRounds | undefined,
): Promise<GetPromptResult | InputRequiredResult> {
  const known = features.prompts.find((p) => p.name === name);
  const key = `prompt:${name}`;
  // A 2026-07-28 request carries its envelope; a 2025 session's questions go to its client.
  const round =
    extra.mcpReq.envelope !== undefined && known
      ? modern?.rounds.open(extra, key, args, modern.owner)
      : undefined;
  const input = extra.mcpReq.envelope !== undefined ? round : sessionInput(server, extra);
  let missing: string | undefined;
  const outcome = await features.getPrompt(name, args, {
    context: promptContext(input, extra.mcpReq.signal),
    // Waiting for an answer and a capability the client lacks are answered here, not logged.
    expected: (error) => {
      const code = error instanceof ToolError ? error.code : undefined;
      missing ??= /^unsupported:(\w+)$/.exec(code ?? "")?.[1];
      return code === "input_required" || code?.startsWith("unsupported:") === true;
    },
  });
  if (missing !== undefined)
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { [missing]: {} } },
      `${clip(name)} needs the client's ${missing} capability`,
    );
  // Whatever the prompt answered (it may catch the refusal), its open questions come first.
  if (round?.asking && modern) {
    const next = await modern.rounds.inputRequired(round, extra, key, args, modern.owner);
    if ("asked" in next) return next.asked;
    throw new ProtocolError(ErrorCode.InvalidParams, `${next.refused.error}: ${next.refused.hint}`);
  }
  const messages = featureValue(outcome);
  return { description: known!.description, messages: [...messages] };
}

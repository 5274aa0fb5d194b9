/**
 * The generated prompts over MCP (the runtime's `Features`): `prompts/list`, `prompts/get` and
 * `completion/complete` (of prompt arguments and template variables). Errors are JSON-RPC
 * errors: an unknown prompt or argument -32602, arguments its generated validator refuses
 * -32602 with the validator's error (`missing:$.arg1 (expected string)`), an author's function
 * that threw -32603 without its details (they go to the runtime's `onFeatureError`).
 */
import type {
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  Prompt,
  Server,
} from "@modelcontextprotocol/server";
import type { Features } from "@zcp/runtime";
import { featureValue } from "./errors.js";
import { readCursor, writeCursor } from "./paging.js";

/** Registers `prompts/list`, `prompts/get` and `completion/complete` when there is something to serve. */
export function servePrompts(server: Server, features: Features, pageSize: number): void {
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
    server.setRequestHandler("prompts/get", async (request): Promise<GetPromptResult> => {
      const { name, arguments: args } = request.params;
      const messages = featureValue(await features.getPrompt(name, args ?? {}));
      const prompt = features.prompts.find((p) => p.name === name)!;
      return { description: prompt.description, messages: [...messages] };
    });
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

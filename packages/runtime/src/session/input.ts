/**
 * A call's questions to its client (`ToolContext.elicit`, `sample`, `roots`): each is written as
 * the MCP request it is, sent through the surface's `CallInput` (a 2025 session sends it to the
 * client and waits; the 2026-07-28 era answers it from the retried request, or makes the call
 * answer `input_required`), and its answer checked here before the tool sees it, whatever the
 * surface: a client's answer is hostile input. Without a `CallInput` (the native surface, a
 * program), or when the client did not declare the capability, each refuses with a `ToolError`
 * `unsupported:<kind>`, which the model reads like any tool error.
 */
import type {
  AskOptions,
  ClientOffers,
  ElicitField,
  ElicitResult,
  ElicitSchema,
  Root,
  SampleRequest,
  SampleResult,
} from "../codegen/input.js";
import type { PromptContext, ToolContext } from "../codegen/context.js";
import { ToolError } from "./tool-error.js";

/** A request to the client, as MCP writes it. */
export type InputRequest =
  | {
      readonly method: "elicitation/create";
      readonly params: {
        readonly message: string;
        readonly requestedSchema: { readonly type: "object" } & ElicitSchema;
      };
    }
  | { readonly method: "sampling/createMessage"; readonly params: SampleRequest }
  | { readonly method: "roots/list"; readonly params: { readonly [key: string]: never } };

/** How a surface puts a call's questions to its client (`CallOptions.input`). */
export interface CallInput {
  /** What the client declared it answers; a question it does not is refused before `ask`. */
  readonly offers: ClientOffers;
  /**
   * Puts `request` to the client under `key` (unique within the call) and resolves with its
   * answer, or rejects (a `ToolError` reaches the model as it is). `check` gives an answer as MCP
   * writes it with only what the question asked (fields a form does not have dropped), or
   * undefined when it does not fit: a surface that keeps answers keeps that. `signal` aborts
   * when the call ends (time limit, cancellation, session closed).
   */
  ask(
    key: string,
    request: InputRequest,
    check: (answer: unknown) => unknown,
    signal: AbortSignal,
  ): Promise<unknown>;
}

/** Questions one call may ask at most: a tool that loops on `elicit` ends instead. */
const MAX_ASKS_PER_CALL = 16;
/** A request's JSON at most (a form, a conversation to sample), in characters. */
const MAX_REQUEST_CHARS = 65_536;
const KEY = /^[A-Za-z0-9_.-]{1,64}$/;

/** Nobody to ask: every question refuses. */
const NO_CLIENT: ClientOffers = Object.freeze({
  elicitation: false,
  sampling: false,
  roots: false,
});

type AskMethods = Pick<ToolContext, "clientOffers" | "elicit" | "sample" | "roots">;

/** `ToolContext`'s questions for one call, put through `input` (none: each refuses). */
export function askMethods(input: CallInput | undefined, signal: AbortSignal): AskMethods {
  const offers = input?.offers ?? NO_CLIENT;
  const counts = { elicit: 0, sample: 0, roots: 0 };
  const keys = new Set<string>();
  const ask = async <T>(
    kind: keyof typeof counts,
    capability: keyof ClientOffers,
    options: AskOptions | undefined,
    request: InputRequest,
    check: (answer: unknown) => T | undefined,
  ): Promise<T> => {
    if (!input || !offers[capability])
      throw new ToolError(
        `unsupported:${capability}`,
        `the client does not offer ${capability}; the tool cannot ask it`,
      );
    const key = options?.key ?? `${kind}-${++counts[kind]}`;
    if (!KEY.test(key))
      throw new TypeError(`ToolContext.${kind}: a key is 1 to 64 of A-Z a-z 0-9 _ . -`);
    if (keys.has(key)) throw new TypeError(`ToolContext.${kind}: the key ${key} was asked already`);
    if (keys.size >= MAX_ASKS_PER_CALL)
      throw new ToolError(
        "too_many:asks",
        `a call asks its client ${MAX_ASKS_PER_CALL} times at most`,
      );
    if (JSON.stringify(request).length > MAX_REQUEST_CHARS)
      throw new TypeError(
        `ToolContext.${kind}: the request is over ${MAX_REQUEST_CHARS} characters`,
      );
    keys.add(key);
    const checked = check(await input.ask(key, request, check, signal));
    if (checked === undefined)
      throw new ToolError(
        "invalid:answer",
        `the client's answer to ${key} does not fit the request`,
      );
    return checked;
  };
  return {
    clientOffers: offers,
    elicit: (message, schema, options) =>
      ask(
        "elicit",
        "elicitation",
        options,
        {
          method: "elicitation/create",
          params: { message, requestedSchema: { type: "object", ...schema } },
        },
        (answer) => elicitAnswer(answer, schema),
      ),
    sample: (request, options) =>
      ask(
        "sample",
        "sampling",
        options,
        { method: "sampling/createMessage", params: request },
        sampleAnswer,
      ),
    roots: async (options) =>
      (await ask("roots", "roots", options, { method: "roots/list", params: {} }, rootsAnswer))
        .roots,
  };
}

/**
 * The `PromptContext` of one `prompts/get`, put through `input` (none: each question refuses
 * with the `ToolError` `unsupported:<capability>`); `signal` aborts when the request ends.
 */
export function promptContext(input: CallInput | undefined, signal: AbortSignal): PromptContext {
  return { signal, ...askMethods(input, signal) } as PromptContext;
}

function isRecord(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An elicitation answer whose content fits `schema` (required fields there, each of its type). */
function elicitAnswer<S extends ElicitSchema>(
  answer: unknown,
  schema: S,
): ElicitResult<S> | undefined {
  if (!isRecord(answer)) return undefined;
  const { action, content } = answer;
  if (action === "decline" || action === "cancel") return { action };
  if (action !== "accept" || (content !== undefined && !isRecord(content))) return undefined;
  const given = content ?? {};
  const out: { [name: string]: unknown } = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    if (!Object.hasOwn(given, name)) {
      if (schema.required?.includes(name)) return undefined;
      continue;
    }
    const value = given[name];
    if (!fieldFits(field, value)) return undefined;
    out[name] = value;
  }
  // Fields the form does not have are left out: the tool reads only what it asked.
  return { action, content: out as ElicitResult<S> extends { content: infer C } ? C : never };
}

function fieldFits(field: ElicitField, value: unknown): boolean {
  switch (field.type) {
    case "string": {
      if (typeof value !== "string") return false;
      const choices = field.enum ?? field.oneOf?.map((option) => option.const);
      return choices === undefined || choices.includes(value);
    }
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array": {
      if (!Array.isArray(value)) return false;
      const items = field.items;
      const choices = "enum" in items ? items.enum : items.anyOf.map((option) => option.const);
      return value.every((item) => typeof item === "string" && choices.includes(item));
    }
  }
}

/** A sampling answer: the assistant's message (text as text; other content as it came) and its model. */
function sampleAnswer(answer: unknown): SampleResult | undefined {
  if (!isRecord(answer)) return undefined;
  const { role, content, model, stopReason } = answer;
  if (role !== "assistant" || typeof model !== "string" || !isRecord(content)) return undefined;
  if (typeof content.type !== "string") return undefined;
  if (content.type === "text" && typeof content.text !== "string") return undefined;
  if (stopReason !== undefined && typeof stopReason !== "string") return undefined;
  return {
    role,
    content:
      content.type === "text"
        ? { type: "text", text: content.text as string }
        : (content as SampleResult["content"]),
    model,
    ...(stopReason !== undefined ? { stopReason } : {}),
  };
}

/** A roots answer: its roots, each a URI and maybe a name. */
function rootsAnswer(answer: unknown): { readonly roots: readonly Root[] } | undefined {
  if (!isRecord(answer) || !Array.isArray(answer.roots)) return undefined;
  const roots: Root[] = [];
  for (const root of answer.roots as unknown[]) {
    if (!isRecord(root) || typeof root.uri !== "string") return undefined;
    if (root.name !== undefined && typeof root.name !== "string") return undefined;
    roots.push(root.name === undefined ? { uri: root.uri } : { uri: root.uri, name: root.name });
  }
  return { roots };
}

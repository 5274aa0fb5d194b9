/**
 * A runtime's prompts, resources and resource templates: the generated features table
 * (`features.ts` of the module), served by name and URI. The surfaces (MCP's `prompts/*`,
 * `resources/*`, `completion/complete`) ask here and shape the answers for their wire; an
 * answer that is not the value is an error value (`FeatureOutcome`), never a throw, and what an
 * author's function threw reaches `onError`, never the client.
 *
 * `resourceUpdated(uri)` is how the embedding application says a resource changed: the
 * surfaces' subscriptions listen with `onUpdated`.
 */
import type { PromptContext } from "../codegen/context.js";
import type {
  Completer,
  FeatureArguments,
  GeneratedFeatures,
  GeneratedPrompt,
  GeneratedResource,
  GeneratedTemplate,
} from "../codegen/features.js";
import type {
  EmbeddedContents,
  FeatureArgument,
  PromptDefinition,
  PromptMessage,
  ResourceDefinition,
  ResourceTemplateDefinition,
} from "../definition/features.js";
import { UriTemplate } from "../definition/uri-template.js";
import { promptMessages, resourceContents, type Shaped } from "./content.js";

/**
 * An answer, or why there is none: `not_found` (no such prompt, resource or argument),
 * `invalid` (the arguments fail the generated validator: `message` is its error and hint),
 * `failed` (the author's function threw, or returned what is not its kind's value).
 */
export type FeatureOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly error: "not_found" | "invalid" | "failed";
      readonly message: string;
    };

/** What `complete` is asked about: a prompt by name, or a template by its URI template. */
export type CompletionRef =
  | { readonly type: "prompt"; readonly name: string }
  | { readonly type: "template"; readonly uriTemplate: string };

/** MCP's completion answer: at most `MAX_COMPLETIONS` values, with the total found. */
export interface Completion {
  readonly values: readonly string[];
  readonly total: number;
  readonly hasMore: boolean;
}

/** Values one completion answers at most (MCP's bound). */
export const MAX_COMPLETIONS = 100;

/** How long an author's function may take unless the runtime's `timeoutMs` says (as a tool call's). */
const DEFAULT_TIMEOUT_MS = 30_000;

/** Where what an author's prompt, resource or completion function threw goes. */
export type FeatureErrorSink = (error: unknown, what: string) => void;

/** How one `getPrompt` asks its client (the surface builds it: `promptContext`). */
export interface PromptAsking {
  /** What the prompt's function gets as its `PromptContext`. */
  readonly context: PromptContext;
  /**
   * True for a throw the surface expects and answers itself (a question that waits for the
   * client's answer, a capability the client lacks): not reported to `onFeatureError`.
   */
  readonly expected?: (error: unknown) => boolean;
}

export class Features {
  readonly prompts: readonly PromptDefinition[];
  readonly resources: readonly ResourceDefinition[];
  readonly templates: readonly ResourceTemplateDefinition[];
  readonly #prompts: ReadonlyMap<string, GeneratedPrompt>;
  readonly #resources: ReadonlyMap<string, GeneratedResource>;
  readonly #templates: ReadonlyMap<
    string,
    { readonly entry: GeneratedTemplate; readonly uri: UriTemplate }
  >;
  readonly #listeners = new Set<(uri: string) => void>();

  constructor(
    generated: GeneratedFeatures | undefined,
    private readonly onError: FeatureErrorSink = (error, what) =>
      console.error(`zcp: ${what} threw`, error),
    private readonly timeoutMs = DEFAULT_TIMEOUT_MS,
    /** The context of a prompt asked without one: every question refuses. */
    private readonly noClient: PromptContext,
  ) {
    const { prompts = [], resources = [], templates = [] } = generated ?? {};
    this.prompts = prompts.map((prompt) => prompt.definition);
    this.resources = resources.map((resource) => resource.definition);
    this.templates = templates.map((template) => template.definition);
    this.#prompts = new Map(prompts.map((prompt) => [prompt.definition.name, prompt]));
    this.#resources = new Map(resources.map((resource) => [resource.definition.uri, resource]));
    this.#templates = new Map(
      templates.map((entry) => [
        entry.definition.uriTemplate,
        { entry, uri: new UriTemplate(entry.definition.uriTemplate) },
      ]),
    );
  }

  /**
   * The messages of prompt `name` for `args` (checked by its generated validator); `asking`
   * says how it asks the client (without it, nobody answers).
   */
  async getPrompt(
    name: string,
    args: unknown = {},
    asking?: PromptAsking,
  ): Promise<FeatureOutcome<PromptMessage[]>> {
    const prompt = this.#prompts.get(name);
    if (!prompt) return { ok: false, error: "not_found", message: `Unknown prompt: ${name}` };
    const checked = prompt.validate(args);
    if (!checked.ok)
      return { ok: false, error: "invalid", message: `${checked.error} (${checked.hint})` };
    return this.#run(
      `prompt ${name}`,
      () => prompt.get(checked.value as FeatureArguments, asking?.context ?? this.noClient),
      promptMessages,
      asking?.expected,
    );
  }

  /** The contents of the resource at `uri`: a static one's, else the first template's that matches. */
  async read(uri: string): Promise<FeatureOutcome<EmbeddedContents>> {
    const resource = this.#resources.get(uri);
    if (resource) {
      const { mimeType } = resource.definition;
      return this.#run(
        `resource ${uri}`,
        () => resource.read(),
        (value) => resourceContents(value, uri, mimeType),
      );
    }
    for (const { entry, uri: template } of this.#templates.values()) {
      const variables = template.match(uri);
      if (variables === undefined) continue;
      const checked = entry.validate(variables);
      if (!checked.ok)
        return { ok: false, error: "invalid", message: `${checked.error} (${checked.hint})` };
      const { mimeType, uriTemplate } = entry.definition;
      return this.#run(
        `resource template ${uriTemplate}`,
        () => entry.read(checked.value as FeatureArguments),
        (value) => resourceContents(value, uri, mimeType),
      );
    }
    return { ok: false, error: "not_found", message: `Resource not found: ${uri}` };
  }

  /** Whether `uri` names a resource: a static one, or one a template matches. */
  has(uri: string): boolean {
    if (this.#resources.has(uri)) return true;
    for (const { uri: template } of this.#templates.values())
      if (template.match(uri) !== undefined) return true;
    return false;
  }

  /**
   * Values for `argument` of a prompt or template that start with `value`: the values of its
   * type when it is a union of literals, else its author's completion function's (which sees
   * the other arguments given so far), at most `MAX_COMPLETIONS`. An argument that completes
   * to nothing answers no values.
   */
  async complete(
    ref: CompletionRef,
    argument: string,
    value: string,
    context: FeatureArguments = {},
  ): Promise<FeatureOutcome<Completion>> {
    const target =
      ref.type === "prompt"
        ? this.#prompts.get(ref.name)
        : this.#templates.get(ref.uriTemplate)?.entry;
    if (!target) {
      const what =
        ref.type === "prompt" ? `prompt: ${ref.name}` : `resource template: ${ref.uriTemplate}`;
      return { ok: false, error: "not_found", message: `Unknown ${what}` };
    }
    const args: readonly FeatureArgument[] =
      "arguments" in target.definition ? target.definition.arguments : target.definition.variables;
    const declared = args.find((arg) => arg.name === argument);
    if (!declared)
      return { ok: false, error: "not_found", message: `Unknown argument: ${argument}` };
    if (declared.values !== null)
      return { ok: true, value: bounded(declared.values.filter((text) => text.startsWith(value))) };
    const completer: Completer | undefined = Object.hasOwn(target.complete, argument)
      ? target.complete[argument]
      : undefined;
    if (!completer) return { ok: true, value: bounded([]) };
    return this.#run(
      `completion of ${argument}`,
      () => completer(value, context),
      (found) =>
        Array.isArray(found) && found.every((item) => typeof item === "string")
          ? { ok: true, value: bounded(found as string[]) }
          : { ok: false, why: "not an array of strings" },
    );
  }

  /** Tells every subscriber that the resource at `uri` changed. */
  resourceUpdated(uri: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(uri);
      } catch (error) {
        this.onError(error, "a resource subscriber");
      }
    }
  }

  /** Calls `listener` with each URI `resourceUpdated` is given; the function returned stops it. */
  onUpdated(listener: (uri: string) => void): () => void {
    const own = (uri: string) => listener(uri);
    this.#listeners.add(own);
    return () => this.#listeners.delete(own);
  }

  /** Runs an author's function and shapes its value; what it throws goes to `onError`. */
  async #run<T>(
    what: string,
    call: () => unknown,
    shape: (value: unknown) => Shaped<T>,
    expected: (error: unknown) => boolean = () => false,
  ): Promise<FeatureOutcome<T>> {
    let value: unknown;
    let timer: NodeJS.Timeout | undefined;
    // An author's function that never settles must not hold its request forever: after the
    // time limit the answer is "failed" (what it does after that is not waited for).
    const late = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), this.timeoutMs);
    });
    try {
      value = await Promise.race([Promise.resolve().then(call), late]);
    } catch (error) {
      if (!expected(error)) this.onError(error, what);
      return {
        ok: false,
        error: "failed",
        message: `The ${what} failed (details in the server's log)`,
      };
    } finally {
      clearTimeout(timer);
    }
    if (value === TIMED_OUT) {
      this.onError(new Error(`${what} did not answer within ${this.timeoutMs} ms`), what);
      return { ok: false, error: "failed", message: `The ${what} did not answer in time` };
    }
    const shaped = shape(value);
    if (shaped.ok) return shaped;
    this.onError(new TypeError(`${what} returned ${shaped.why}`), what);
    return { ok: false, error: "failed", message: `The ${what} returned ${shaped.why}` };
  }
}

/** What the race of an author's function against its time limit gives when the limit wins. */
const TIMED_OUT = Symbol("timed out");

function bounded(values: readonly string[]): Completion {
  return {
    values: values.slice(0, MAX_COMPLETIONS),
    total: values.length,
    hasMore: values.length > MAX_COMPLETIONS,
  };
}

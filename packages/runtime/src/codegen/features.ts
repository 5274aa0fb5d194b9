/**
 * The contract of a generated `features.ts` (written by `zcp gen` when the sources declare
 * `@prompt` or `@resource` functions): for each prompt and resource, its definition, the
 * generated validator of its arguments (prompts and templates), the function that calls the
 * author's, statically imported, and the author's completion functions by argument.
 */
import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
} from "../definition/features.js";
import type { PromptContext } from "./context.js";
import type { Validator } from "./validate.js";

/** A prompt's arguments or a template's variables, as validated: strings by name. */
export type FeatureArguments = { readonly [name: string]: string | undefined };

/** An author's completion function: the value typed so far and the other arguments known. */
export type Completer = (value: string, args: FeatureArguments) => unknown;

export interface GeneratedPrompt {
  readonly definition: PromptDefinition;
  readonly validate: Validator;
  /** Calls the author's function; `context` reaches it when its last parameter is a `PromptContext`. */
  readonly get: (args: FeatureArguments, context: PromptContext) => unknown;
  readonly complete: { readonly [argument: string]: Completer };
}

export interface GeneratedResource {
  readonly definition: ResourceDefinition;
  readonly read: () => unknown;
}

export interface GeneratedTemplate {
  readonly definition: ResourceTemplateDefinition;
  readonly validate: Validator;
  readonly read: (args: FeatureArguments) => unknown;
  readonly complete: { readonly [variable: string]: Completer };
}

/** What a generated `features.ts` exports as `features`. */
export interface GeneratedFeatures {
  readonly prompts: readonly GeneratedPrompt[];
  readonly resources: readonly GeneratedResource[];
  readonly templates: readonly GeneratedTemplate[];
}

/** An entry whose function takes its own arguments' type (`PromptArgs[name]` of the file). */
type Typed<E, K extends keyof E> = Omit<E, K> & {
  readonly [key in K]: (args: never, context: PromptContext) => unknown;
};

/**
 * The features table of a generated module, as the runtime calls it. Each generated function
 * takes its own prompt's or template's arguments (so tsc checks each against the author's
 * parameter); the runtime calls it only with arguments its generated validator passed, the one
 * place where that is trusted (as `dispatchTable` does for tools).
 */
export function featureTable(table: {
  readonly prompts: readonly Typed<GeneratedPrompt, "get">[];
  readonly resources: readonly GeneratedResource[];
  readonly templates: readonly Typed<GeneratedTemplate, "read">[];
}): GeneratedFeatures {
  return table as GeneratedFeatures;
}

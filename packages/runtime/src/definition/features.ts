/**
 * The definitions of an MCP server's other features, as `zcp gen` writes them from annotated
 * functions (`features.ts` of the generated module): prompts (`@prompt`), static resources
 * (`@resource <uri>`) and resource templates (`@resource <uri template>`), and the content an
 * author's prompt returns. Plain data, like the registry: what a listing hands out is read from
 * here, nothing is derived at run time but the template's matcher (`uri-template.ts`).
 */
import type { SourceLocation } from "./registry.js";

/** A prompt's argument or a template's variable: always a string on the wire. */
export interface FeatureArgument {
  readonly name: string;
  /** From the parameter's `@param` text; null without one. */
  readonly description: string | null;
  readonly required: boolean;
  /**
   * The values the parameter's type allows when it is a union of string literals (or a string
   * enum): they are what it completes to, and the validator accepts nothing else. null: any string.
   */
  readonly values: readonly string[] | null;
  /** Whether an author's function completes it (`@complete <param> <function>`). */
  readonly completer: boolean;
}

/** A prompt, as `prompts/list` lists it. */
export interface PromptDefinition {
  /** The prompt's name: the `@prompt` tag's text, else the function's name in snake_case. */
  readonly name: string;
  readonly title: string | null;
  readonly description: string;
  readonly arguments: readonly FeatureArgument[];
  readonly source: SourceLocation;
}

/** A static resource (`@resource <uri>` on a function without parameters). */
export interface ResourceDefinition {
  readonly uri: string;
  /** The function's name in snake_case, or `@name`. */
  readonly name: string;
  readonly title: string | null;
  readonly description: string;
  /** `@mimeType`, else from the return type: `text/plain` (string), `application/octet-stream` (Uint8Array), `application/json`. */
  readonly mimeType: string;
  readonly source: SourceLocation;
}

/** A resource template: `@resource` with RFC 6570 level-1 variables, each a parameter. */
export interface ResourceTemplateDefinition {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title: string | null;
  readonly description: string;
  readonly mimeType: string;
  /** The variables, in the order the template names them. */
  readonly variables: readonly FeatureArgument[];
  readonly source: SourceLocation;
}

/** What a resource's contents are made of: inline text, or binary data (base64 on the wire). */
export type EmbeddedContents =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string };

/** One block of a prompt message (MCP's text, image, audio and embedded resource content). */
export type PromptContent =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly data: string; readonly mimeType: string }
  | { readonly type: "audio"; readonly data: string; readonly mimeType: string }
  | { readonly type: "resource"; readonly resource: EmbeddedContents };

/** One message of a prompt. */
export interface PromptMessage {
  readonly role: "user" | "assistant";
  readonly content: PromptContent;
}

/** What a `@prompt` function returns (or resolves to): one user message's text, or the messages. */
export type PromptReturn = string | readonly PromptMessage[];

/**
 * What a tool may ask the client through its `ToolContext` (MCP elicitation, sampling and
 * roots), as types: the requests mirror MCP's params, the answers its results, so that what a
 * tool writes is what goes on the wire. The runtime checks every answer against these shapes
 * (session/input.ts) before the tool sees it: a client's answer is hostile input.
 */

/** A string field of a form; `enum` (with legacy `enumNames`) or `oneOf` makes it a single choice. */
export interface ElicitStringField {
  readonly type: "string";
  readonly title?: string;
  readonly description?: string;
  readonly default?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly format?: "email" | "uri" | "date" | "date-time";
  readonly enum?: readonly string[];
  /** Display names of `enum`'s values (deprecated in MCP in favour of `oneOf`). */
  readonly enumNames?: readonly string[];
  readonly oneOf?: readonly { readonly const: string; readonly title: string }[];
}

export interface ElicitNumberField {
  readonly type: "number" | "integer";
  readonly title?: string;
  readonly description?: string;
  readonly default?: number;
  readonly minimum?: number;
  readonly maximum?: number;
}

export interface ElicitBooleanField {
  readonly type: "boolean";
  readonly title?: string;
  readonly description?: string;
  readonly default?: boolean;
}

/** A multiple choice: its items an `enum`, or `anyOf` with titles. */
export interface ElicitChoicesField {
  readonly type: "array";
  readonly title?: string;
  readonly description?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly items:
    | { readonly type: "string"; readonly enum: readonly string[] }
    | { readonly anyOf: readonly { readonly const: string; readonly title: string }[] };
  readonly default?: readonly string[];
}

/** One field of an elicitation form: MCP allows primitives and choices, nothing nested. */
export type ElicitField =
  ElicitStringField | ElicitNumberField | ElicitBooleanField | ElicitChoicesField;

/** An elicitation form: a flat object of fields (MCP's `requestedSchema` without its `type`). */
export interface ElicitSchema {
  readonly properties: { readonly [name: string]: ElicitField };
  readonly required?: readonly string[];
}

/** The value type of a field. */
export type ElicitValue<F extends ElicitField> = F extends ElicitStringField
  ? string
  : F extends ElicitNumberField
    ? number
    : F extends ElicitBooleanField
      ? boolean
      : string[];

/** What an accepted form holds: each field's value, when the user gave one. */
export type ElicitContent<S extends ElicitSchema> = {
  [K in keyof S["properties"]]?: ElicitValue<S["properties"][K]>;
};

/** The user's answer: accepted with content that fits the form, declined, or dismissed. */
export type ElicitResult<S extends ElicitSchema = ElicitSchema> =
  | { readonly action: "accept"; readonly content: ElicitContent<S> }
  | { readonly action: "decline" }
  | { readonly action: "cancel" };

/** A message of a sampling conversation (text only: what a tool can put together in code). */
export interface SampleMessage {
  readonly role: "user" | "assistant";
  readonly content: { readonly type: "text"; readonly text: string };
}

/** A request for a completion by the client's model (MCP's `sampling/createMessage` params). */
export interface SampleRequest {
  readonly messages: readonly SampleMessage[];
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly modelPreferences?: {
    readonly hints?: readonly { readonly name?: string }[];
    readonly costPriority?: number;
    readonly speedPriority?: number;
    readonly intelligencePriority?: number;
  };
}

/** The client model's answer. Non-text content (an image, audio) comes as it is. */
export interface SampleResult {
  readonly role: "assistant";
  readonly content:
    | { readonly type: "text"; readonly text: string }
    | { readonly type: string; readonly [field: string]: unknown };
  readonly model: string;
  readonly stopReason?: string;
}

/** A root the client offers: a `file://` URI and its name. */
export interface Root {
  readonly uri: string;
  readonly name?: string;
}

/** Which requests the client of a call declared it answers. */
export interface ClientOffers {
  readonly elicitation: boolean;
  readonly sampling: boolean;
  readonly roots: boolean;
}

/**
 * The key of a request in a multi-round-trip answer (`inputRequests`): the key a client
 * answers under. Default: the kind and its number within the call (`elicit-1`, `sample-2`), the
 * same in every run as long as the tool asks in the same order.
 */
export interface AskOptions {
  readonly key?: string;
}

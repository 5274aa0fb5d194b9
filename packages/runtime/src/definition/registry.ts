/**
 * The registry format: the contract between `zcp gen`, which writes it, and the runtime and
 * surfaces, which read it. Everything here is plain data: a generated `registry.ts` holds one
 * `Registry` value (each definition parsed from its compact JSON text), and with `"jsonFiles":
 * true` in the configuration `registry.json` holds the definitions as JSON too.
 */

/** A JSON Schema (draft 2020-12) document or sub-schema, as emitted by `zcp gen`. */
export type JsonSchema = { readonly [keyword: string]: JsonValue };

export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * What a tool whose return type is one of the runtime's content types answers, as MCP content
 * blocks: one block of a kind (`text`, `image`, `audio`, `resource` for an embedded resource,
 * `resource_link`), or `content`, an array of blocks of any kinds (`Content[]`).
 */
export type ContentKind = "text" | "image" | "audio" | "resource" | "resource_link" | "content";

/** How a tool's result reaches the model: inline, as a handle, or inline only when small. */
export type OutputMode = "scalar" | "handle" | "auto";

/**
 * The MCP annotation hint each behaviour flag states: `readonly` sets it true, `!readonly` false.
 * A false is worth stating where MCP's default is true: a tool that is not read-only is taken as
 * destructive and as reaching an open world unless it says otherwise.
 */
export const HINT_FLAGS = {
  readonly: "readOnlyHint",
  destructive: "destructiveHint",
  idempotent: "idempotentHint",
  openworld: "openWorldHint",
} as const;

type HintFlag = keyof typeof HINT_FLAGS;

/** Behaviour hints from `@flags` (each hint true, or false with `!`); `approval` makes the runtime ask before calling. */
export type ToolFlag = HintFlag | `!${HintFlag}` | "approval";

/** Every flag `@flags` takes, in the order messages list them. */
export const TOOL_FLAGS: readonly ToolFlag[] = [
  ...(Object.keys(HINT_FLAGS) as HintFlag[]).flatMap((flag) => [flag, `!${flag}` as const]),
  "approval",
];

/**
 * How the generated dispatch table calls the tool function.
 * - `positional`: `fn(args[params[0]], args[params[1]], ...)`, the context inserted at `context`.
 * - `object`: `fn(args)` with the whole argument object (a single object or destructured
 *   parameter), the context inserted at `context`.
 * `context` is the 0-based position of the runtime context parameter, or null when the tool
 * does not take one. `config` (absent otherwise): the context types its configuration
 * (`ToolContext<Config>`), which the runtime validated against the generated module's
 * `config` validator, so the dispatcher passes the context as the tool declares it.
 */
export type CallSignature =
  | {
      readonly kind: "positional";
      readonly params: readonly string[];
      readonly context: number | null;
      readonly config?: true;
    }
  | { readonly kind: "object"; readonly context: number | null; readonly config?: true };

/**
 * Where a tool is declared: its file, relative to the config folder (posix), and the name it is
 * exported under. No line number: moving a tool within its file changes no generated output.
 */
export interface SourceLocation {
  readonly file: string;
  readonly export: string;
  /** The package the tool was composed from (`"registries"` in the config); absent for the project's own tools. */
  readonly package?: string;
  /**
   * The error classes the tool declares with `@throws {Class}` (the dispatcher checks them with
   * `instanceof`, in this order), each with the code its message is answered with; absent when
   * it declares none.
   */
  readonly errors?: readonly DeclaredError[];
}

/** An error class a tool declares: the file that exports it (as `file` is), its name, its code. */
interface DeclaredError {
  readonly file: string;
  readonly export: string;
  readonly code: string;
}

export interface ToolDefinition {
  /** Short id used in planner lines (`@id`); derived from the alias, stable across builds. */
  readonly id: string;
  /** Dotted public name, e.g. `weather.get_current`. */
  readonly alias: string;
  /** Provider-safe name (`^[A-Za-z0-9_-]{1,64}$`), unique in the registry. */
  readonly name: string;
  readonly title: string | null;
  /** First paragraph of the description, or its first sentence when the paragraph is longer than 300 characters. */
  readonly descriptionShort: string;
  readonly description: string;
  /** Object schema of the arguments; the context parameter never appears here. */
  readonly inputSchema: JsonSchema;
  /** Schema of the unwrapped return type; null for `void` and for content. */
  readonly outputSchema: JsonSchema | null;
  /**
   * The tool returns content blocks of this kind rather than a JSON value (its output mode is
   * `scalar`: content is never a handle). Absent for a JSON value, so that such a definition
   * is the same (and hashes the same) as before the field existed.
   */
  readonly content?: ContentKind;
  readonly outputMode: OutputMode;
  /** Kind of handle a `handle`/`auto` result is stored as. */
  readonly handleKind: string;
  /** Parameters typed `Handle<K>`: argument name → expected handle kind. */
  readonly handleParams: { readonly [param: string]: string };
  /** Default values of optional parameters, merged under the caller's arguments. */
  readonly defaults: { readonly [param: string]: JsonValue };
  readonly flags: readonly ToolFlag[];
  readonly groups: readonly string[];
  readonly stages: readonly string[];
  readonly scopes: readonly string[];
  /** The deprecation note (`""` when `@deprecated` has no text), or null. */
  readonly deprecated: string | null;
  /**
   * The planner line with documentation: `TOOL @id alias(param:type "Doc.", ...) -> mode -- "Doc."`
   * (each parameter's and the tool's first sentence, as JSON strings; grammar in docs/text-formats.md).
   */
  readonly planner: string;
  /** The same line without documentation: the bare signature `TOOL @id alias(param:type, ...) -> mode`. */
  readonly plannerBare: string;
  readonly call: CallSignature;
  /**
   * Dotted paths of arguments the function takes as `Date`s: ISO strings on the wire, revived
   * before the call. `[]` stands for every array item, `*` for every map value.
   */
  readonly dates: readonly string[];
  /**
   * Example arguments from the tool's `@example` tags (1 to 5, each valid against `inputSchema`;
   * Anthropic's `input_examples`); absent when the tool has none, so that a definition without
   * examples is the same (and hashes the same) as before the field existed.
   */
  readonly examples?: readonly { readonly [param: string]: JsonValue }[];
  /**
   * The tool's own limit on an `auto` result's size in estimated tokens (`@maxResultTokens`, a
   * whole number from 1): the call's budget is at most this. Absent when the tool sets none, so
   * that such a definition hashes as before the field existed.
   */
  readonly maxResultTokens?: number;
  readonly source: SourceLocation;
  /** 12 hex characters of SHA-256 over the canonical JSON of this definition without `hash` and `source`. */
  readonly hash: string;
}

/** The value a generated `registry.ts` exports. */
export interface Registry {
  /** Version of this format. */
  readonly version: typeof REGISTRY_FORMAT_VERSION;
  /** The version of @zcp/gen that wrote the registry (part of no hash). */
  readonly generator: string;
  /** Registry hash: `combineToolHashes` over every tool. */
  readonly hash: string;
  /** Tools sorted by alias. */
  readonly tools: readonly ToolDefinition[];
  /** Provider tool name → alias: how a provider's tool call finds its tool. */
  readonly names: { readonly [name: string]: string };
}

/**
 * 3: `generator`; provider artifacts are derived by the runtime, not stored (the generated
 * module is `{ registry, validators, dispatch }`). 2: `plannerBare` beside `planner`.
 */
export const REGISTRY_FORMAT_VERSION = 3;

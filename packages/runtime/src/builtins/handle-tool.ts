/**
 * `zcp.handle`: the built-in tool through which a model expands a handle with a normal tool
 * call, on any surface. A view lists it whenever one of its tools produces or takes handles.
 * Its schema and provider entries are written out here, as `zcp gen` would compile them: the
 * runtime compiles nothing.
 */
import { HANDLE_ID_PATTERN } from "../definition/brands.js";
import type { ArtifactEntries, ArtifactProvider } from "../definition/artifacts/index.js";
import { builtinEntries, objectSchema, type BuiltinProperties } from "./builtin.js";
import { namedArguments, tooDeepFailure } from "../session/call.js";
import { Pending, type CallOptions } from "../session/call-types.js";
import { tooDeepAt } from "../session/depth.js";
import type { HandleStore } from "../handles/store.js";
import { toolHash } from "../definition/hash.js";
import type { BuiltinCaller } from "../session/host.js";
import { DEFAULT_MAX_ARGUMENT_DEPTH } from "../session/limits.js";
import type { JsonSchema, JsonValue, ToolDefinition } from "../definition/registry.js";
import { failure, type CallResult } from "../results/result.js";
import type { BuiltinTool } from "../definition/view.js";

const OPS = ["count", "read", "view", "grep", "summary", "release"] as const;
type Op = (typeof OPS)[number];

const DESCRIPTION =
  "Read a handle (#T1) that another tool returned: count it, read one item or fields, view rows (of a text: lines or characters), grep a text, get its summary, or release it.";

const properties = {
  op: {
    type: "string",
    description:
      "count | read (one item, or all) | view (rows, text lines or characters) | grep (a text's lines with text) | summary | release",
    enum: [...OPS],
  },
  handle: { type: "string", description: 'Handle id, e.g. "#T1".', pattern: HANDLE_ID_PATTERN },
  item: { type: "integer", description: "read: 0-based index of one item of a list.", minimum: 0 },
  fields: {
    type: "array",
    description: "read: only these fields of the item.",
    items: { type: "string" },
  },
  columns: { type: "array", description: "view: only these columns.", items: { type: "string" } },
  offset: {
    type: "integer",
    description: "view: first row or line, 0-based (default 0).",
    minimum: 0,
  },
  limit: {
    type: "integer",
    description:
      "view: rows (default 10, at most 100) or lines (100, at most 1000); grep: matches (20, at most 100).",
    minimum: 1,
    maximum: 1000,
  },
  start: {
    type: "integer",
    description: "view text by characters from this one, 0-based.",
    minimum: 0,
  },
  length: {
    type: "integer",
    description: "view text: characters (default 4000, at most 20000).",
    minimum: 1,
    maximum: 20000,
  },
  text: { type: "string", description: "grep: text to find (case-sensitive)." },
} as const;

type Properties = BuiltinProperties;

/** Lean entries leave out the pattern and the bounds: the tool checks them and its hints say them. */
const leanProperties: Properties = Object.fromEntries(
  Object.entries(properties).map(([name, schema]) => [
    name,
    Object.fromEntries(
      Object.entries(schema).filter(([key]) => !["pattern", "minimum", "maximum"].includes(key)),
    ),
  ]),
);

const REQUIRED = ["op", "handle"];
const inputSchema = objectSchema(properties, REQUIRED);

/** OpenAI strict: every property required, the optional ones nullable. */
const strictParameters = (props: Properties) =>
  ({
    type: "object",
    properties: Object.fromEntries(
      Object.entries(props).map(([name, schema]) => {
        if (name === "op" || name === "handle") return [name, schema];
        if (schema.type === "array") return [name, { anyOf: [schema, { type: "null" }] }];
        return [name, { ...schema, type: [schema.type, "null"] }];
      }),
    ),
    required: Object.keys(props),
    additionalProperties: false,
  }) as unknown as JsonSchema;

/** Anthropic strict and Gemini have no numeric bounds or patterns: said in the descriptions. */
function described(upper: boolean): JsonSchema {
  const type = (t: string) => (upper ? t.toUpperCase() : t);
  const convert = (schema: { [key: string]: unknown }): { [key: string]: unknown } => {
    const out: { [key: string]: unknown } = {
      type: type(schema.type as string),
      description: schema.description,
    };
    if (schema.enum) out.enum = schema.enum;
    if (schema.items) out.items = convert(schema.items as { [key: string]: unknown });
    return out;
  };
  const props = Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [
      name,
      convert(schema as { [key: string]: unknown }),
    ]),
  );
  return objectSchema(props, REQUIRED, upper ? "OBJECT" : "object");
}

const base = {
  id: "zh",
  alias: "zcp.handle",
  name: "zcp_handle",
  title: "Read a handle",
  descriptionShort: DESCRIPTION,
  description: DESCRIPTION,
  inputSchema,
  outputSchema: null,
  outputMode: "scalar",
  handleKind: "generic",
  handleParams: {},
  defaults: {},
  flags: [],
  groups: [],
  stages: [],
  scopes: [],
  deprecated: null,
  planner:
    'TOOL @zh zcp.handle(op:count|read|view|grep|summary|release "count | read (one item, or all) | view (rows, text lines or characters) | grep (a text\'s lines with text) | summary | release", handle:h "Handle id, e.g. \\"#T1\\".", item:int? "read: 0-based index of one item of a list.", fields:str[]? "read: only these fields of the item.", columns:str[]? "view: only these columns.", offset:int? "view: first row or line, 0-based (default 0).", limit:int? "view: rows (default 10, at most 100) or lines (100, at most 1000); grep: matches (20, at most 100).", start:int? "view text by characters from this one, 0-based.", length:int? "view text: characters (default 4000, at most 20000).", text:str? "grep: text to find (case-sensitive).") -> scalar -- "Read a handle (#T1) that another tool returned: count it, read one item or fields, view rows (of a text: lines or characters), grep a text, get its summary, or release it."',
  plannerBare:
    "TOOL @zh zcp.handle(op:count|read|view|grep|summary|release, handle:h, item:int?, fields:str[]?, columns:str[]?, offset:int?, limit:int?, start:int?, length:int?, text:str?) -> scalar",
  call: { kind: "object", context: null },
  dates: [],
  source: { file: "@zcp/runtime", export: "handleTool" },
} satisfies Omit<ToolDefinition, "hash">;

/** The definition whose description is `description` (the first sentence, and so the planner lines, stay). */
function handleDefinition(description: string): ToolDefinition {
  const { source: _source, ...hashed } = { ...base, description };
  return { ...base, description, hash: toolHash(hashed) };
}

/** The entries of every provider; Anthropic and Gemini describe the bounds instead in either case. */
function entries(
  definition: ToolDefinition,
  props: Properties,
): { [P in ArtifactProvider]: ArtifactEntries[P] } {
  return builtinEntries(
    definition,
    definition.description,
    {
      openai: strictParameters(props),
      anthropic: described(false),
      gemini: described(true),
      mcp: objectSchema(props, REQUIRED),
    },
    // Not read-only: `release` frees a handle.
    { idempotentHint: false },
  );
}

function handleForm(definition: ToolDefinition): BuiltinTool {
  return {
    definition,
    artifacts: entries(definition, properties),
    // The lean entries keep the retention sentence too: the model reads it nowhere else.
    leanArtifacts: entries(definition, leanProperties),
  };
}

/** The built-in `zcp.handle` of a handle store that states no retention. */
export const handleTool: BuiltinTool = handleForm(handleDefinition(DESCRIPTION));

/**
 * `zcp.handle` as a runtime lists it: with `retention` (`HandleStore.retention`, how long a
 * handle lives) after its description, where the model reads it once for every handle; without
 * one, `handleTool`.
 */
export function handleToolFor(retention: string | undefined): BuiltinTool {
  return retention === undefined
    ? handleTool
    : handleForm(handleDefinition(`${DESCRIPTION} ${retention}`));
}

/** A `zcp.handle` call of `session`: its arguments' depth checked, then `runHandleTool`. */
export function runHandleCall(
  session: BuiltinCaller,
  input: unknown,
  options: CallOptions,
): CallResult | Pending {
  const named = namedArguments(input);
  if (!("args" in named)) return named;
  const maxDepth = session.host.options.maxArgumentDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH;
  const tooDeep = tooDeepAt(named.args, maxDepth);
  if (tooDeep !== null) return tooDeepFailure(tooDeep, maxDepth);
  const answer = runHandleTool(
    session.host.handles,
    session.caller.id,
    named.args,
    options.reserve,
  );
  return new Pending(answer, answer);
}

/**
 * Runs `zcp.handle` for a session. `null` stands for an absent optional argument (OpenAI strict
 * sends it). `reserve` is passed to the store's `read` and `view` (`CallOptions.reserve`).
 */
async function runHandleTool(
  store: HandleStore,
  sessionId: string,
  args: { readonly [name: string]: unknown },
  reserve?: (bytes: number) => void | Promise<void>,
): Promise<CallResult> {
  for (const key of Object.keys(args)) {
    if (!(key in properties))
      return failure(
        `invalid:$.${key}`,
        `unknown property; expected: ${Object.keys(properties).join(", ")}`,
      );
  }
  const op = args.op;
  if (op === undefined) return failure("missing:$.op", `expected one of: ${OPS.join(", ")}`);
  if (typeof op !== "string" || !OPS.includes(op as Op))
    return failure("invalid:$.op", `expected one of: ${OPS.join(", ")}`);
  const id = args.handle;
  if (id === undefined) return failure("missing:$.handle", 'expected a handle id such as "#T1"');
  if (typeof id !== "string")
    return failure("invalid:$.handle", 'expected a handle id such as "#T1"');
  const int = (name: string): number | undefined | null => {
    const value = args[name];
    if (value === undefined || value === null) return undefined;
    return typeof value === "number" && Number.isInteger(value) ? value : null;
  };
  const strings = (name: string): string[] | undefined | null => {
    const value = args[name];
    if (value === undefined || value === null) return undefined;
    return Array.isArray(value) && value.every((item) => typeof item === "string")
      ? (value as string[])
      : null;
  };
  for (const name of ["item", "offset", "limit", "start", "length"])
    if (int(name) === null) return failure(`invalid:$.${name}`, "expected an integer");
  for (const name of ["fields", "columns"])
    if (strings(name) === null) return failure(`invalid:$.${name}`, "expected a list of names");
  const text = args.text ?? undefined;
  if (text !== undefined && typeof text !== "string")
    return failure("invalid:$.text", "expected a string");
  /** The integer arguments among `names` that were given. */
  const ints = (...names: string[]) =>
    Object.fromEntries(
      names.flatMap((name) => {
        const value = int(name);
        return value === undefined || value === null ? [] : [[name, value]];
      }),
    );
  const outcome = await (async () => {
    switch (op as Op) {
      case "count":
        return store.count(sessionId, id);
      case "read": {
        const fields = strings("fields");
        return store.read(
          sessionId,
          id,
          { ...ints("item"), ...(fields ? { fields } : {}) },
          reserve,
        );
      }
      case "view": {
        const columns = strings("columns");
        const range = ints("offset", "limit", "start", "length");
        return store.view(sessionId, id, { ...(columns ? { columns } : {}), ...range }, reserve);
      }
      case "grep":
        return store.grep(
          sessionId,
          id,
          { ...ints("limit"), ...(text !== undefined ? { text } : {}) },
          reserve,
        );
      case "summary":
        return store.summary(sessionId, id);
      case "release":
        return store.release(sessionId, id);
    }
  })();
  if (outcome.ok === false)
    return outcome.error === "invalid:handle" ? failure("invalid:$.handle", outcome.hint) : outcome;
  if (op === "release") return { ok: true, value: { released: id } };
  const { ok: _ok, ...value } = outcome;
  return { ok: true, value: JSON.parse(JSON.stringify(value)) as JsonValue };
}

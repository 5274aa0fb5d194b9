/**
 * `zcp.find_tools`: the built-in tool through which a model finds the tools it needs, on any
 * surface. A view lists it when its exposure is `profile: "discover"` (first, so that the found
 * tools after it are only ever appended) or when the policy sets `find: true`. Its schema and
 * provider entries are written out here, as for `zcp.handle`: the runtime compiles nothing.
 *
 * Two forms, one id: a growing session's, whose finds add the tools to the session's view, and a
 * fixed session's (`fixedFindTool`), whose finds change nothing: the model calls what it found
 * through `zcp.call_tool`, and the listing stays byte-stable.
 */
import type { ArtifactEntries, ArtifactProvider } from "../definition/artifacts/index.js";
import { builtinDefinition, builtinEntries, objectSchema, withoutBounds } from "./builtin.js";
import { FIND_LIMIT_DEFAULT, FIND_LIMIT_MAX } from "../definition/find/find.js";
import type { BuiltinCaller } from "../session/host.js";
import type { JsonValue, ToolDefinition } from "../definition/registry.js";
import { failure, type CallError, type CallResult } from "../results/result.js";
import { View, type BuiltinTool } from "../definition/view.js";

const QUERY_MAX = 200;

const DESCRIPTION =
  "Find the tools for a task by keywords: returns the best matches and makes them callable in this session.";
/** The fixed form's: `name` is how the surface names `zcp.call_tool` (alias in planner lines, provider name in entries). */
const fixedDescription = (name: string) =>
  `Find the tools for a task by keywords: returns the best matches with their parameters; call one through ${name}.`;

const properties = {
  query: {
    type: "string",
    description: 'Keywords of the task, e.g. "forecast weather city".',
    minLength: 1,
    maxLength: QUERY_MAX,
  },
  limit: {
    type: "integer",
    description: `Most tools to return (default ${FIND_LIMIT_DEFAULT}, at most ${FIND_LIMIT_MAX}).`,
    minimum: 1,
    maximum: FIND_LIMIT_MAX,
  },
} as const;

/** Lean entries and the providers without bounds leave them out: the tool checks them itself. */
const unbounded = withoutBounds(properties);

const REQUIRED = ["query"];
const inputSchema = objectSchema(properties, REQUIRED);

const findDefinition = (description: string) =>
  builtinDefinition(
    { id: "zf", alias: "zcp.find_tools", inputSchema, description },
    {
      name: "zcp_find_tools",
      title: "Find tools",
      descriptionShort: description,
      export: "findTool",
    },
  );

/** The entries of every provider; `bounded`: with the length and range keywords. */
function entries(
  definition: ToolDefinition,
  description: string,
  bounded: boolean,
): { [P in ArtifactProvider]: ArtifactEntries[P] } {
  const props = bounded ? properties : unbounded;
  const strict = objectSchema(
    { query: props.query!, limit: { ...props.limit, type: ["integer", "null"] } },
    ["query", "limit"],
  );
  const upper = Object.fromEntries(
    Object.entries(unbounded).map(([name, schema]) => [
      name,
      { ...schema, type: String(schema.type).toUpperCase() },
    ]),
  );
  return builtinEntries(
    definition,
    description,
    {
      openai: strict,
      anthropic: objectSchema(unbounded, REQUIRED),
      gemini: objectSchema(upper, REQUIRED, "OBJECT"),
      mcp: objectSchema(props, REQUIRED),
    },
    // Not read-only: a search adds the tools it found to the session's view.
    { readOnlyHint: false, idempotentHint: true },
  );
}

/** A form of the tool: its definition, and its entries with `description`. */
function findForm(definition: ToolDefinition, description: string): BuiltinTool {
  return {
    definition,
    artifacts: entries(definition, description, true),
    leanArtifacts: entries(definition, description, false),
  };
}

export const findTool: BuiltinTool = findForm(findDefinition(DESCRIPTION), DESCRIPTION);

/** The form a fixed discover view lists: its finds add nothing; `zcp.call_tool` calls what they found. */
export const fixedFindTool: BuiltinTool = findForm(
  findDefinition(fixedDescription("zcp.call_tool")),
  fixedDescription("zcp_call_tool"),
);

/** A `zcp.find_tools` call's arguments, checked; `null` stands for an absent `limit` (OpenAI strict). */
function findToolArguments(args: {
  readonly [name: string]: unknown;
}): { readonly query: string; readonly limit: number } | CallError {
  for (const key of Object.keys(args)) {
    if (!(key in properties))
      return failure(`invalid:$.${key}`, "unknown property; expected: query, limit");
  }
  const { query, limit = null } = args;
  if (query === undefined) return failure("missing:$.query", "expected the task's keywords");
  if (typeof query !== "string" || query.length < 1 || query.length > QUERY_MAX)
    return failure("invalid:$.query", `expected a string of 1 to ${QUERY_MAX} characters`);
  if (limit === null) return { query, limit: FIND_LIMIT_DEFAULT };
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > FIND_LIMIT_MAX)
    return failure("invalid:$.limit", `expected an integer from 1 to ${FIND_LIMIT_MAX}`);
  return { query, limit };
}

/**
 * Runs `zcp.find_tools`: finds tools in the session's stage and lists them in the session's
 * `findFormat` (planner lines, a provider's entries, or for `"typescript"` one string: their
 * API text; none when nothing was found). A growing session exposes them and also lists the
 * built-ins its view gained with them, and how many tools were `added`; a fixed session's view
 * does not change: the answer is the found tools only.
 */
export function runFindTool(session: BuiltinCaller, args: unknown): CallResult {
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return failure("invalid:$", "arguments must be an object of named parameters");
  const checked = findToolArguments(args as { [name: string]: unknown });
  if ("ok" in checked) return checked;
  const stage = session.caller.stage;
  const stages = stage === null ? {} : { stages: [stage] };
  const tools = session
    .find(checked.query, { limit: checked.limit, ...stages })
    .map((found) => found.tool);
  const registry = session.host.generated.registry;
  if (session.fixed)
    return { ok: true, value: { tools: listing(new View(tools, registry, []), session) } };
  const before = session.exposed;
  const added = session.expose(tools);
  // A built-in the view gained with them (`zcp.handle`, once a found tool makes handles) is
  // listed after them: the client has not seen it, and could not call it otherwise.
  const gained = session.exposed.builtins.filter((builtin) => !before.find(builtin.definition.id));
  return {
    ok: true,
    value: { tools: listing(new View(tools, registry, gained), session), added },
  };
}

/** The view's tools in the session's find format. */
function listing(found: View, session: BuiltinCaller): JsonValue[] {
  const format = session.findFormat;
  if (format === "planner") return found.tools.map((tool) => tool.planner);
  // `typescript`: one whole text (its named types declared once), none when nothing was found.
  if (format === "typescript") return found.tools.length === 0 ? [] : [found.declarations()];
  const entries = found.artifacts(format) as unknown as JsonValue[];
  return session.fixed && format === "mcp" ? entries.map(callable) : entries;
}

/**
 * What a model calls a found tool with, of its MCP entry: its name, description and input
 * schema, what a host sends a model of a listed tool. A fixed session's find answer is the
 * model's only copy of the definitions (it reads the answer, not a listing), so what only a host
 * reads (annotations, output schema, `_meta`, title) is left out.
 */
function callable(entry: JsonValue): JsonValue {
  const { name, description, inputSchema } = entry as { readonly [key: string]: JsonValue };
  return {
    name: name!,
    ...(description !== undefined ? { description } : {}),
    inputSchema: inputSchema!,
  };
}

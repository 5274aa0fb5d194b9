/**
 * `zcp.find_tools`: the built-in tool through which a model finds the tools it needs, on any
 * surface. A view lists it when its exposure is `profile: "discover"` (first, so that the found
 * tools after it are only ever appended) or when the policy sets `find: true`. Its schema and
 * provider entries are written out here, as for `zcp.handle`: the runtime compiles nothing.
 * Running it is the session's (`Session.call`): it needs the session's view.
 */
import type { ArtifactEntries, ArtifactProvider } from "./artifacts/index.js";
import { builtinDefinition, builtinEntries, objectSchema, withoutBounds } from "./builtin.js";
import { failure, type CallError } from "./result.js";
import type { BuiltinTool } from "./view.js";

/** Most tools one search returns. */
export const FIND_LIMIT_MAX = 20;
/** Tools one search returns unless told. */
export const FIND_LIMIT_DEFAULT = 5;
const QUERY_MAX = 200;

const DESCRIPTION =
  "Find the tools for a task by keywords: returns the best matches and makes them callable in this session.";

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

const definition = builtinDefinition(
  {
    id: "zf",
    alias: "zcp.find_tools",
    inputSchema,
    description: DESCRIPTION,
  },
  {
    name: "zcp_find_tools",
    title: "Find tools",
    descriptionShort: DESCRIPTION,
    export: "findTool",
  },
);

/** The entries of every provider; `bounded`: with the length and range keywords. */
function entries(bounded: boolean): { [P in ArtifactProvider]: ArtifactEntries[P] } {
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
    DESCRIPTION,
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

export const findTool: BuiltinTool = {
  definition,
  artifacts: entries(true),
  leanArtifacts: entries(false),
};

/** A `zcp.find_tools` call's arguments, checked; `null` stands for an absent `limit` (OpenAI strict). */
export function findToolArguments(args: {
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

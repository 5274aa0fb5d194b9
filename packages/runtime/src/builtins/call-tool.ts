/**
 * `zcp.call_tool`: on a fixed session (the stateless form), the built-in through which a model
 * calls a tool `zcp.find_tools` found. A fixed discover view lists it after the find tool and
 * never anything else found, so the listing stays byte-stable whatever the model finds. A call
 * names a tool the session could find (the surface's selection in the session's stage) and runs
 * it as a direct call would run (its validator, approval, handles, time limit, concurrency, and
 * the same errors); a built-in is called directly, never through it, and so is a tool that
 * declares `x-mcp-header` (only a direct call carries its headers; the view lists it).
 */
import type { ArtifactEntries, ArtifactProvider } from "../definition/artifacts/index.js";
import { builtinDefinition, builtinEntries, objectSchema, withoutBounds } from "./builtin.js";
import { forbiddenTool, unknownTool } from "../session/call.js";
import { Pending, type CallOptions } from "../session/call-types.js";
import { clip } from "../results/clip.js";
import type { BuiltinCaller } from "../session/host.js";
import { failure, type CallResult } from "../results/result.js";
import type { BuiltinTool } from "../definition/view.js";

/** Most characters of a tool's name (MCP names are at most 128). */
const NAME_MAX = 256;

/** `find`: how the surface names `zcp.find_tools` (alias in planner lines, provider name in entries). */
const description = (find: string) =>
  `Call a tool that ${find} found: its name, and arguments as its parameters describe them.`;

const properties = {
  name: {
    type: "string",
    description: "The tool's name, as the find gave it.",
    minLength: 1,
    maxLength: NAME_MAX,
  },
  // Any named values (planner `{*:any}`): the tool's own validator checks them.
  arguments: { type: "object", description: "The tool's arguments.", additionalProperties: {} },
} as const;

/** Lean entries and the providers without bounds leave them out: the tool checks them itself. */
const unbounded = withoutBounds(properties);
const REQUIRED = ["name", "arguments"];

const definition = builtinDefinition(
  {
    id: "zc",
    alias: "zcp.call_tool",
    inputSchema: objectSchema(properties, REQUIRED),
    description: description("zcp.find_tools"),
  },
  {
    name: "zcp_call_tool",
    title: "Call a found tool",
    descriptionShort: description("zcp.find_tools"),
    export: "callTool",
  },
);

/**
 * The entries of every provider; `bounded`: with the length keywords. `arguments` is an
 * open-ended object, which OpenAI's strict mode cannot express: sent non-strict, as a registry
 * tool's would be.
 */
function entries(bounded: boolean): { [P in ArtifactProvider]: ArtifactEntries[P] } {
  const schema = objectSchema(bounded ? properties : unbounded, REQUIRED);
  // Gemini's schemas have no `additionalProperties`: an OBJECT without properties takes any.
  const upper = {
    name: { ...unbounded.name, type: "STRING" },
    arguments: { type: "OBJECT", description: properties.arguments.description },
  };
  return builtinEntries(
    definition,
    description("zcp_find_tools"),
    {
      openai: schema,
      anthropic: objectSchema(unbounded, REQUIRED),
      gemini: objectSchema(upper, REQUIRED, "OBJECT"),
      mcp: schema,
    },
    // Not read-only: it runs whatever tool it is given.
    { readOnlyHint: false },
    false,
  );
}

/** The built-in `zcp.call_tool`, listed by fixed discover views. */
export const callTool: BuiltinTool = {
  definition,
  artifacts: entries(true),
  leanArtifacts: entries(false),
};

/**
 * Runs `zcp.call_tool`: the named tool (alias, id or provider name) with `arguments` (absent or
 * null: none), through the session's own call path. A name no tool has answers `unknown:<name>`,
 * a tool the session could not find `forbidden:<alias>`, as a direct call of them would; a
 * built-in `forbidden:<alias>` too, and a tool that declares `x-mcp-header` (`session.invoke`).
 */
export function runCallTool(
  session: BuiltinCaller,
  args: unknown,
  options: CallOptions,
): CallResult | Pending {
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return failure("invalid:$", "arguments must be an object of named parameters");
  for (const key of Object.keys(args)) {
    if (!(key in properties))
      return failure(`invalid:$.${clip(key)}`, "unknown property; expected: name, arguments");
  }
  const { name, arguments: input = null } = args as { name?: unknown; arguments?: unknown };
  if (name === undefined)
    return failure("missing:$.name", "expected the name of a tool that zcp.find_tools found");
  if (typeof name !== "string" || name.length < 1 || name.length > NAME_MAX)
    return failure("invalid:$.name", `expected a tool's name of 1 to ${NAME_MAX} characters`);
  const tool = session.host.tool(name);
  if (!tool) return unknownTool(name);
  if (session.host.builtin(tool.id))
    return failure(
      `forbidden:${tool.alias}`,
      "a built-in tool is called directly, not through zcp.call_tool",
    );
  if (!session.findable(tool)) return forbiddenTool(tool);
  const answer = session.invoke(tool, input ?? {}, options);
  return new Pending(answer, answer);
}

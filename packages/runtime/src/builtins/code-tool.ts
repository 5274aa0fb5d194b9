/**
 * `zcp.run`: the built-in tool through which a model runs a short program against the session's
 * tools (code mode). The runtime has no sandbox: `RuntimeOptions.code` supplies one (a
 * `CodeRunner`, such as `@zcp/code`'s), and a view lists `zcp.run` only then. Its schema and
 * provider entries are written out here, as for `zcp.find_tools`: the runtime compiles nothing.
 * A program's calls are the session's own (`runCodeTool`).
 */
import { builtinDefinition, builtinEntries, objectSchema, withoutBounds } from "./builtin.js";
import { Pending, type CallOptions } from "../session/call-types.js";
import type { ProgramHost } from "../session/code-runner.js";
import type { BuiltinCaller, Caller } from "../session/host.js";
import type { ToolDefinition } from "../definition/registry.js";
import { clip } from "../results/clip.js";
import { failure, type CallError, type CallResult } from "../results/result.js";
import type { BuiltinTool } from "../definition/view.js";

/** Most characters of a program. */
export const CODE_MAX = 20_000;

const DESCRIPTION =
  "Run a short JavaScript program against this session's tools and return its result. Call a tool as `await tools.<alias>(args)` (alias `a.b` is `tools.a.b`); only the program's return value and its console output come back.";
const FIRST_SENTENCE =
  "Run a short JavaScript program against this session's tools and return its result.";

const properties = {
  code: {
    type: "string",
    description:
      "The body of an async function: top-level await works, and its return value is the result.",
    minLength: 1,
    maxLength: CODE_MAX,
  },
} as const;

/** Lean entries and the providers without bounds leave them out: the tool checks them itself. */
const unbounded = withoutBounds(properties);
const REQUIRED = ["code"];

const definition = builtinDefinition(
  {
    id: "zr",
    alias: "zcp.run",
    inputSchema: objectSchema(properties, REQUIRED),
    description: DESCRIPTION,
  },
  {
    name: "zcp_run",
    title: "Run a program",
    descriptionShort: FIRST_SENTENCE,
    export: "codeTool",
  },
);

/** The entries of every provider; `bounded`: with the length keywords. */
function entries(bounded: boolean, description: string) {
  const schema = objectSchema(bounded ? properties : unbounded, REQUIRED);
  const upper = { code: { ...unbounded.code, type: "STRING" } };
  return builtinEntries(
    definition,
    description,
    {
      openai: schema,
      anthropic: objectSchema(unbounded, REQUIRED),
      gemini: objectSchema(upper, REQUIRED, "OBJECT"),
      mcp: schema,
    },
    // Not read-only: a program may call any tool of the session.
    { readOnlyHint: false },
  );
}

/** The built-in `zcp.run`: its definition and provider entries (listed when `RuntimeOptions.code` is set). */
export const codeTool: BuiltinTool = {
  definition,
  artifacts: entries(true, DESCRIPTION),
  // The lean entries keep both sentences: the second says how a program calls the tools.
  leanArtifacts: entries(false, DESCRIPTION),
};

/** A `zcp.run` call's arguments, checked: the program's text, or the failure to answer. */
function codeToolArguments(args: unknown): string | CallError {
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return failure("invalid:$", "arguments must be an object of named parameters");
  for (const key of Object.keys(args)) {
    if (key !== "code")
      return failure(`invalid:$.${clip(key)}`, "unknown property; expected: code");
  }
  const { code } = args as { code?: unknown };
  if (code === undefined) return failure("missing:$.code", "expected the program's text");
  if (typeof code !== "string" || code.length < 1 || code.length > CODE_MAX)
    return failure("invalid:$.code", `expected a string of 1 to ${CODE_MAX} characters`);
  return code;
}

/** What a session gives `programHost`: its own `call`, its view, and the runtime's names. */
interface ProgramSession {
  readonly id: string;
  call(
    name: string,
    args: unknown,
    options: { signal?: AbortSignal; inline?: boolean },
  ): Promise<CallResult>;
  /** The aliases of the session's exposed view, in view order. */
  readonly aliases: readonly string[];
  /** The tool a name resolves to in the runtime (alias, id or provider name). */
  resolve(name: string): ToolDefinition | undefined;
}

const NESTED = Object.freeze(
  failure(`forbidden:${definition.alias}`, "a program cannot start another program"),
);

/**
 * The `ProgramHost` of one `zcp.run` call: the session's own `call` for its built-ins (so
 * exposure, approval, scopes and validation apply as to a direct call, and a tool that declares
 * `x-mcp-header` is refused) with `auto` results inline, refusing `zcp.run` itself by any of its
 * names.
 */
function programHost(session: ProgramSession, signal: AbortSignal): ProgramHost {
  return {
    sessionId: session.id,
    signal,
    get aliases() {
      return session.aliases.filter((alias) => alias !== definition.alias);
    },
    call(alias, args, options = {}) {
      if (session.resolve(alias) === definition) return Promise.resolve(NESTED);
      const given = options.signal;
      const callSignal = given && given !== signal ? AbortSignal.any([given, signal]) : signal;
      return session.call(alias, args, { signal: callSignal, inline: true });
    },
  };
}

/**
 * A `zcp.run` call of `session`: the program runs in the runtime's `CodeRunner` with the
 * session's own `call` (so every rule of a direct call applies to each of its calls, and a tool
 * that declares `x-mcp-header` is refused). What the runner throws is reported and answers
 * `exec:error`.
 */
export function runCodeTool(
  session: BuiltinCaller,
  args: unknown,
  options: CallOptions,
): CallResult | Pending {
  const code = codeToolArguments(args);
  if (typeof code !== "string") return code;
  // A view lists `zcp.run` only when the runtime has a runner.
  const runner = session.host.options.code!;
  const signal = options.signal
    ? AbortSignal.any([options.signal, session.closing])
    : session.closing;
  const host = programHost(
    {
      id: session.caller.id,
      call: (name, callArgs, callOptions) => session.call(name, callArgs, callOptions),
      get aliases() {
        return session.exposed.tools.map((tool) => tool.alias);
      },
      resolve: (name) => session.host.tool(name),
    },
    signal,
  );
  const answer = Promise.resolve()
    .then(() => runner(code, host))
    .catch((error: unknown) => {
      (session.host.options.onToolError ?? reportRunnerError)(error, definition, session.caller);
      return failure(
        "exec:error",
        "the program runner failed; the details are in the server's log",
      );
    });
  return new Pending(answer, answer);
}

function reportRunnerError(error: unknown, tool: ToolDefinition, session: Caller): void {
  console.error(`zcp: ${tool.alias} failed in session ${session.id}:`, error);
}

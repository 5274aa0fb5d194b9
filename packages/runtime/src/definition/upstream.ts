/**
 * The description of an upstream MCP server that a gateway forwards to, shared by `zcp gen`
 * (which lists it and writes it into the generated dispatch) and `@zcp/server/gateway` (which
 * connects to it at run time): the same object in the configuration, in generated code and at
 * run time, and the `${NAME}` expansion both do when connecting. No I/O.
 */

/**
 * An upstream MCP server: a command started as a child over stdio, or a Streamable HTTP URL.
 * `${NAME}` in `args`, `env` values, `url` and `headers` values stands for the environment
 * variable `NAME`, replaced when connecting (generated code keeps the templates, never secrets).
 */
export type UpstreamServer = StdioUpstream | HttpUpstream;

/** An upstream started as a child process, spoken to over its stdin and stdout. */
export interface StdioUpstream {
  readonly command: string;
  readonly args?: readonly string[];
  /** Merged over the SDK's default environment (HOME, PATH, ...): the gateway's own is not passed on. */
  readonly env?: { readonly [name: string]: string };
  readonly cwd?: string;
}

/** An upstream served over Streamable HTTP. */
export interface HttpUpstream {
  readonly url: string;
  readonly headers?: { readonly [name: string]: string };
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** A `${NAME}` whose variable is not set: never an empty string (a missing token must not become an anonymous request). */
export class MissingVariableError extends Error {
  override name = "MissingVariableError";
  constructor(readonly variable: string) {
    super(`the environment variable ${variable} is not set`);
  }
}

/** `text` with every `${NAME}` replaced by `env.NAME`; throws MissingVariableError for the first one not set. */
export function expandText(
  text: string,
  env: { readonly [name: string]: string | undefined },
): string {
  return text.replace(VARIABLE, (_, variable: string) => {
    const value = env[variable];
    if (value === undefined) throw new MissingVariableError(variable);
    return value;
  });
}

const expandValues = (
  record: { readonly [name: string]: string } | undefined,
  env: { readonly [name: string]: string | undefined },
) =>
  record === undefined
    ? undefined
    : Object.fromEntries(
        Object.entries(record).map(([key, value]) => [key, expandText(value, env)]),
      );

/** The server with `${NAME}` expanded in `args`, `env` values, `url` and `headers` values (the command and cwd kept); throws MissingVariableError. */
export function expandServer(
  server: UpstreamServer,
  env: { readonly [name: string]: string | undefined },
): UpstreamServer {
  if ("url" in server) {
    const headers = expandValues(server.headers, env);
    return { url: expandText(server.url, env), ...(headers ? { headers } : {}) };
  }
  const vars = expandValues(server.env, env);
  return {
    command: server.command,
    ...(server.args ? { args: server.args.map((arg) => expandText(arg, env)) } : {}),
    ...(vars ? { env: vars } : {}),
    ...(server.cwd !== undefined ? { cwd: server.cwd } : {}),
  };
}

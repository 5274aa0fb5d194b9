/**
 * `${NAME}` in an upstream's description: replaced with the environment's value when connecting.
 * A variable that is not set is an error naming it (never an empty string: a missing token must
 * not become an anonymous request).
 */
import type { UpstreamServer } from "./types.js";

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

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

/** The server with `${NAME}` expanded in `args`, `env` values, `url` and `headers` values. */
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

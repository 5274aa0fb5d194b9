/**
 * The gateway's contract with `zcp gen --from-mcp`: how an upstream MCP server is described (the
 * same object in the config, in the generated dispatch and at run time), and what the generated
 * dispatch calls.
 */
import type { ToolContext } from "@zcp/runtime";

/**
 * An upstream MCP server: a command started as a child over stdio, or a Streamable HTTP URL.
 * `${NAME}` in `args`, `env` values, `url` and `headers` values stands for `process.env.NAME`,
 * replaced when connecting (the generated code keeps the templates, never the secrets).
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

export interface UpstreamOptions {
  /** How errors and logs name the upstream (default: its command's file name, or its URL's host). */
  readonly name?: string;
}

export interface Upstream {
  /** Calls the upstream tool `tool` with `args`; resolves to its value, rejects with a ToolError. */
  call(
    tool: string,
    args: { readonly [key: string]: unknown },
    context: ToolContext,
  ): Promise<unknown>;
  /** Ends the connection (a stdio upstream's child is stopped); a later call opens a new one. */
  close(): Promise<void>;
  /** The name errors and logs use. */
  readonly name: string;
  /** The process id of a stdio upstream's child while connected, else null (for tests and logs). */
  readonly pid: number | null;
}

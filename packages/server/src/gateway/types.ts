/**
 * The gateway's contract with `zcp gen --from-mcp`: how an upstream MCP server is described (the
 * same object in the config, in the generated dispatch and at run time: the runtime's
 * `UpstreamServer`), and what the generated dispatch calls.
 */
import type { ToolContext } from "@zcp/runtime";

export type { HttpUpstream, StdioUpstream, UpstreamServer } from "@zcp/runtime/definition";

export interface UpstreamOptions {
  /** How errors and logs name the upstream (default: its command's file name, or its URL's host). */
  readonly name?: string;
  /**
   * The most bytes one answer may take (default 10 MiB, as the SDK's stdio client):
   * a stdio line, an HTTP JSON body, an SSE event. A larger answer fails its call with
   * `upstream_too_large`; it is never held whole (a line is skipped to its newline).
   */
  readonly maxAnswerBytes?: number;
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

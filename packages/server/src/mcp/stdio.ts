/**
 * MCP over stdio: one MCP session (one runtime session) per process, newline-delimited JSON-RPC
 * on stdin/stdout. Nothing but protocol messages is written to stdout; logs go to stderr.
 */
import process from "node:process";
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Runtime } from "@zcp/runtime";
import { createMcpServer, type McpServerOptions, type ZcpMcpServer } from "./server.js";

export interface StdioOptions extends McpServerOptions {
  /** Default `process.stdin`. */
  readonly stdin?: Readable;
  /** Default `process.stdout`. Nothing else may write to it. */
  readonly stdout?: Writable;
}

/**
 * Serves `runtime` on stdin/stdout until stdin ends (then the session closes and its handles
 * are dropped). A line that is not JSON gets a -32700 error, one that is not a JSON-RPC message
 * a -32600 error (both with `id: null`), and the server goes on reading.
 */
export async function serveStdio(
  runtime: Runtime,
  options: StdioOptions = {},
): Promise<ZcpMcpServer> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const mcp = createMcpServer(runtime, options);
  const transport = new StdioServerTransport(stdin, stdout);
  // Set before connect: the server chains its own handler after this one.
  transport.onerror = (error) => {
    const code =
      error instanceof SyntaxError
        ? ErrorCode.ParseError
        : isSchemaError(error)
          ? ErrorCode.InvalidRequest
          : undefined;
    if (code === undefined) return;
    const message =
      code === ErrorCode.ParseError
        ? "Parse error: the line is not JSON"
        : "Invalid Request: not a JSON-RPC 2.0 message";
    transport
      .send({ jsonrpc: "2.0", id: null, error: { code, message } } as unknown as JSONRPCMessage)
      .catch(() => undefined);
  };
  await mcp.server.connect(transport);
  stdin.once("end", () => void mcp.close());
  return mcp;
}

/** What the SDK's message schema (zod) throws for a well-formed JSON line that is no message. */
function isSchemaError(error: unknown): boolean {
  return error instanceof Error && error.name === "ZodError";
}

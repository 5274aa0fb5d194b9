/**
 * MCP over stdio: one MCP session (one runtime session) per process, newline-delimited JSON-RPC
 * on stdin/stdout. Nothing but protocol messages is written to stdout; logs go to stderr.
 *
 * The transport is ours, not the SDK's `StdioServerTransport`: that one buffers up to 10 MiB of
 * a line and, past it, drops the buffer mid-line and stops answering. Ours reads through the
 * bounded line reader the native stdio server uses, so a long line costs at most `maxLineBytes`
 * of memory and one error answer, and the next line is served.
 */
import process from "node:process";
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import type { Runtime } from "@zcp/runtime";
import { DEFAULT_MAX_LINE_BYTES, readJsonLines } from "../stdio/lines.js";
import { createMcpServer, type McpServerOptions, type ZcpMcpServer } from "./server.js";

export interface StdioOptions extends McpServerOptions {
  /** Default `process.stdin`. */
  readonly stdin?: Readable;
  /** Default `process.stdout`. Nothing else may write to it. */
  readonly stdout?: Writable;
  /** Longest line in bytes (default 1 MiB); a longer one is discarded and answered with -32600. */
  readonly maxLineBytes?: number;
}

/**
 * Serves `runtime` on stdin/stdout until stdin ends (then the session closes and its handles
 * are dropped). A line that is not JSON gets a -32700 error; one that is JSON but no JSON-RPC
 * message, or is longer than `maxLineBytes`, a -32600 error (with the line's id when it has a
 * usable one, else `id: null`; a malformed notification gets no answer); the server goes on
 * reading.
 */
export async function serveStdio(
  runtime: Runtime,
  options: StdioOptions = {},
): Promise<ZcpMcpServer> {
  const mcp = createMcpServer(runtime, options);
  await mcp.server.connect(
    new LineTransport(
      options.stdin ?? process.stdin,
      options.stdout ?? process.stdout,
      options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    ),
  );
  return mcp;
}

/** The SDK `Transport` over newline-delimited stdin/stdout; it closes when stdin ends. */
class LineTransport implements Transport {
  onmessage?: Transport["onmessage"];
  onerror?: Transport["onerror"];
  onclose?: Transport["onclose"];
  #stop: (() => void) | undefined;
  #closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxLineBytes: number,
  ) {}

  async start(): Promise<void> {
    if (this.#stop) throw new Error("zcp: the stdio transport is started already");
    this.stdin.on("error", this.#onError);
    this.#stop = readJsonLines(this.stdin, {
      maxLineBytes: this.maxLineBytes,
      onValue: (value) => this.#onValue(value),
      onRefused: (answer) => void this.#write(answer),
      onEnd: () => void this.close(),
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop?.();
    this.stdin.off("error", this.#onError);
    // Stop reading unless someone else reads stdin too.
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.onclose?.();
  }

  readonly #onError = (error: Error): void => this.onerror?.(error);

  #onValue(value: unknown): void {
    if (Array.isArray(value) && value.length === 0) {
      void this.#write(refusal(ErrorCode.InvalidRequest, "Invalid Request: empty batch"));
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    const { id, notification } = shape(value);
    // A notification is never answered, not even when it is malformed.
    if (notification) return;
    void this.#write(
      refusal(ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message", id),
    );
  }

  /** Writes one message as a line; resolves once the stream took it (after `drain` if it must). */
  #write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }
}

/** An error answer to a line; `id: null` when it carries no usable id. */
function refusal(code: number, message: string, id: string | number | null = null): unknown {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/** What can be told of a line that is no valid message: its id, and whether it is a notification. */
function shape(value: unknown): {
  readonly id: string | number | null;
  readonly notification: boolean;
} {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { id: null, notification: false };
  const record = value as { readonly [key: string]: unknown };
  const id = record["id"];
  return {
    id: typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null,
    notification:
      record["jsonrpc"] === "2.0" && typeof record["method"] === "string" && !("id" in record),
  };
}

/**
 * The native ZCP surface over stdio: one native session (one runtime session) per process,
 * newline-delimited JSON-RPC on stdin/stdout. Nothing but responses is written to stdout.
 * Requests run concurrently; responses go out as they finish (match them by id).
 */
import process from "node:process";
import type { Readable, Writable } from "node:stream";
import type { Runtime } from "@zcp/runtime";
import { DEFAULT_MAX_MESSAGE_BYTES, INVALID_REQUEST, PARSE_ERROR, rpcError } from "./protocol.js";
import { createNativeSession, type NativeSession, type NativeSessionOptions } from "./session.js";

export interface NativeStdioOptions extends NativeSessionOptions {
  /** Default `process.stdin`. */
  readonly stdin?: Readable;
  /** Default `process.stdout`. Nothing else may write to it. */
  readonly stdout?: Writable;
  /** Longest line in bytes (default 1 MiB); a longer one is discarded and answered with -32600. */
  readonly maxLineBytes?: number;
}

export interface NativeStdioServer {
  readonly native: NativeSession;
  /** Resolves once stdin has ended, every pending request was answered and the session closed. */
  readonly done: Promise<void>;
}

const NEWLINE = 0x0a;

/**
 * Serves `runtime` on stdin/stdout until stdin ends; then the pending requests are answered and
 * the session closes (its handles are dropped). A line that is not JSON gets -32700 with id
 * null, a line over `maxLineBytes` -32600; the server goes on reading either way.
 */
export function serveNativeStdio(
  runtime: Runtime,
  options: NativeStdioOptions = {},
): NativeStdioServer {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const native = createNativeSession(runtime, options);
  const pending = new Set<Promise<void>>();

  const send = (response: unknown): void => {
    if (response === undefined) return;
    stdout.write(`${JSON.stringify(response)}\n`);
  };

  const onLine = (bytes: Buffer): void => {
    const text = bytes.toString("utf8").trim();
    if (text === "") return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      send(rpcError(null, PARSE_ERROR, "Parse error: the line is not JSON"));
      return;
    }
    const task = native.handle(message).then(send, () => undefined);
    pending.add(task);
    void task.finally(() => pending.delete(task));
  };

  let parts: Buffer[] = [];
  let size = 0;
  let discarding = false;
  const onData = (chunk: Buffer | string): void => {
    const data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    while (start <= data.length) {
      const newline = data.indexOf(NEWLINE, start);
      const piece = data.subarray(start, newline === -1 ? data.length : newline);
      if (!discarding) {
        if (size + piece.length > maxLine) {
          // Too long: drop what was kept and skip to the next newline.
          discarding = true;
          parts = [];
          size = 0;
        } else if (piece.length > 0) {
          parts.push(piece);
          size += piece.length;
        }
      }
      if (newline === -1) break;
      if (discarding) {
        discarding = false;
        send(
          rpcError(
            null,
            INVALID_REQUEST,
            `Invalid Request: the line is longer than ${maxLine} bytes`,
          ),
        );
      } else {
        const line = Buffer.concat(parts);
        parts = [];
        size = 0;
        onLine(line);
      }
      start = newline + 1;
    }
  };

  const done = new Promise<void>((resolve) => {
    const finish = async (): Promise<void> => {
      stdin.off("data", onData);
      if (discarding)
        send(
          rpcError(
            null,
            INVALID_REQUEST,
            `Invalid Request: the line is longer than ${maxLine} bytes`,
          ),
        );
      else if (size > 0) onLine(Buffer.concat(parts));
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await native.close();
      resolve();
    };
    stdin.on("data", onData);
    stdin.once("end", () => void finish());
  });
  return { native, done };
}

/**
 * The native ZCP surface over stdio: one native session (one runtime session) per process,
 * newline-delimited JSON-RPC on stdin/stdout. Nothing but responses is written to stdout.
 * Requests run concurrently; responses go out as they finish (match them by id).
 */
import process from "node:process";
import type { Readable, Writable } from "node:stream";
import type { Runtime } from "@zcp/runtime";
import { DEFAULT_MAX_LINE_BYTES, readJsonLines } from "../stdio/lines.js";
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
  /** Resolves once every request read so far has been answered. */
  idle(): Promise<void>;
}

/**
 * Serves `runtime` on stdin/stdout until stdin ends; then the pending requests are answered and
 * the session closes (its handles are dropped). A line that is not JSON gets -32700 with id
 * null, a line over `maxLineBytes` -32600; the server goes on reading either way.
 * `notifications/cancelled` on a later line cancels a running `tools/call`.
 */
export function serveNativeStdio(
  runtime: Runtime,
  options: NativeStdioOptions = {},
): NativeStdioServer {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const native = createNativeSession(runtime, options);
  const pending = new Set<Promise<void>>();

  const send = (response: unknown): void => {
    if (response === undefined) return;
    stdout.write(`${JSON.stringify(response)}\n`);
  };

  const onValue = (message: unknown): void => {
    const task = native.handle(message).then(send, () => undefined);
    pending.add(task);
    void task.finally(() => pending.delete(task));
  };

  const idle = async (): Promise<void> => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };
  const done = new Promise<void>((resolve) => {
    const finish = async (): Promise<void> => {
      await idle();
      await native.close();
      resolve();
    };
    readJsonLines(stdin, {
      maxLineBytes,
      onValue,
      onRefused: send,
      onEnd: () => void finish(),
    });
  });
  return { native, done, idle };
}

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

const NEWLINE = Buffer.from("\n");

export interface NativeStdioOptions extends NativeSessionOptions {
  /** Default `process.stdin`. */
  readonly stdin?: Readable;
  /** Default `process.stdout`. Nothing else may write to it. */
  readonly stdout?: Writable;
  /**
   * Longest line in bytes (default 1 MiB); a longer one is discarded and answered with -32600
   * (with its id when the line starts with one).
   */
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
 * null, a line over `maxLineBytes` -32600 (with the id the line starts with, else null); the
 * server goes on reading either way.
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

  /** Writes a line: a refusal of the line reader's, or an answer's JSON in parts; `written` runs once stdout has taken it. */
  const send = (response: unknown, written?: () => void): void => {
    if (response === undefined) {
      written?.();
      return;
    }
    if (!Array.isArray(response)) {
      stdout.write(`${JSON.stringify(response)}\n`, written && (() => written()));
      return;
    }
    // Written as they are (no copy into one buffer), one after another on the stream.
    for (const part of response as readonly Buffer[]) stdout.write(part);
    stdout.write(NEWLINE, written && (() => written()));
  };

  const onValue = (message: unknown): void => {
    // The line's answers hold the session's response budget until stdout has taken them: a
    // client that does not read its answers gets refusals, not an ever larger write buffer.
    const budget = native.budget.request();
    const task = native.handleJson(message, { budget }).then(
      (response) => send(response, () => budget.end()),
      () => budget.end(),
    );
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

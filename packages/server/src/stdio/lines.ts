/**
 * Newline-delimited input with a bound: the stdio servers (MCP and native) read their messages
 * through this reader. A line longer than `maxLineBytes` is never held in memory: what was
 * kept of it is dropped, the rest is skipped up to the next newline, and `onTooLong` is called
 * once for it; reading goes on with the next line. `readJsonLines` is what both servers read
 * with: the JSON value of each non-blank line, and the answers to the lines that are refused.
 */
import type { Readable } from "node:stream";

export interface LineReaderOptions {
  /** Longest line in bytes, without its newline. */
  readonly maxLineBytes: number;
  /** A complete line, decoded as UTF-8, without its newline (nor a `\r` before it). */
  readonly onLine: (line: string) => void;
  /** A line over `maxLineBytes` was skipped. */
  readonly onTooLong: () => void;
  /** The input ended; a last line without a newline was passed on first. */
  readonly onEnd: () => void;
}

/** A line's bound unless the server is told otherwise: 1 MiB, as an HTTP body's. */
export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;

/** What both stdio servers answer to a skipped line (there is no id to answer to). */
function lineTooLong(maxLineBytes: number): unknown {
  return {
    jsonrpc: "2.0",
    id: null,
    error: {
      code: -32600,
      message: `Invalid Request: the line is longer than ${maxLineBytes} bytes`,
    },
  };
}

export interface JsonLineReaderOptions {
  /** Longest line in bytes, without its newline. */
  readonly maxLineBytes: number;
  /** The JSON value of a non-blank line. */
  readonly onValue: (value: unknown) => void;
  /** The answer to a refused line: over `maxLineBytes` (-32600) or not JSON (-32700), `id: null`. */
  readonly onRefused: (answer: unknown) => void;
  /** The input ended. */
  readonly onEnd: () => void;
}

/** Reads `input` as newline-delimited JSON until it ends or the returned `stop` is called. */
export function readJsonLines(input: Readable, options: JsonLineReaderOptions): () => void {
  const { maxLineBytes, onValue, onRefused, onEnd } = options;
  return readLines(input, {
    maxLineBytes,
    onLine: (line) => {
      const text = line.trim();
      if (text === "") return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        onRefused({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32700, message: "Parse error: the line is not JSON" },
        });
        return;
      }
      onValue(value);
    },
    onTooLong: () => onRefused(lineTooLong(maxLineBytes)),
    onEnd,
  });
}

/** Reads `input` line by line until it ends or the returned `stop` is called. */
export function readLines(input: Readable, options: LineReaderOptions): () => void {
  const { maxLineBytes, onLine, onTooLong, onEnd } = options;
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;

  const emit = (): void => {
    if (skipping) {
      skipping = false;
      onTooLong();
      return;
    }
    const line = Buffer.concat(parts, size).toString("utf8");
    parts = [];
    size = 0;
    onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  };

  const onData = (chunk: Buffer | string): void => {
    const data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    while (start <= data.length) {
      const newline = data.indexOf(NEWLINE, start);
      const piece = data.subarray(start, newline === -1 ? data.length : newline);
      if (!skipping && size + piece.length > maxLineBytes) {
        skipping = true;
        parts = [];
        size = 0;
      } else if (!skipping && piece.length > 0) {
        parts.push(piece);
        size += piece.length;
      }
      if (newline === -1) break;
      emit();
      start = newline + 1;
    }
  };

  const onClose = (): void => {
    stop();
    if (skipping || size > 0) emit();
    onEnd();
  };

  const stop = (): void => {
    input.off("data", onData);
    input.off("end", onClose);
  };

  input.on("data", onData);
  input.once("end", onClose);
  return stop;
}

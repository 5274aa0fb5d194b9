/**
 * Newline-delimited input with a bound: the stdio servers (MCP and native) read their messages
 * through this reader. A line longer than `maxLineBytes` is never held in memory: what was
 * kept of it is dropped, the rest is skipped up to the next newline, and `onTooLong` is called
 * once for it with the line's first bytes (its head, at most HEAD_BYTES); reading goes on with
 * the next line. `readJsonLines` is what both servers read with: the JSON value of each
 * non-blank line, and the answers to the lines that are refused (a skipped request's with its id
 * when its head tells it, head-id.ts).
 */
import type { Readable } from "node:stream";
import { HEAD_BYTES, idOfHead } from "./head-id.js";

export interface LineReaderOptions {
  /** Longest line in bytes, without its newline. */
  readonly maxLineBytes: number;
  /** A complete line, decoded as UTF-8, without its newline (nor a `\r` before it). */
  readonly onLine: (line: string) => void;
  /**
   * A line over `maxLineBytes` was skipped; `head` is its first HEAD_BYTES bytes, `tail` its last
   * HEAD_BYTES bytes (where peers that write the id last put it), decoded.
   */
  readonly onTooLong: (head: string, tail: string) => void;
  /** A line just went past `maxLineBytes` and is skipped from here on: its head, at once. */
  readonly onSkipping?: (head: string) => void;
  /** The input ended; a last line without a newline was passed on first. */
  readonly onEnd: () => void;
}

/** A line's bound unless the server is told otherwise: 1 MiB, as an HTTP body's. */
export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * What both stdio servers answer to a skipped line: with the id its head gives (so that the
 * client can match it), else `id: null`.
 */
function lineTooLong(maxLineBytes: number, head: string): unknown {
  return {
    jsonrpc: "2.0",
    id: idOfHead(head) ?? null,
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
  /**
   * The answer to a refused line: not JSON (-32700, `id: null`), or over `maxLineBytes` (-32600,
   * with the id the line starts with when it can be read, else `id: null`).
   */
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
    onTooLong: (head) => onRefused(lineTooLong(maxLineBytes, head)),
    onEnd,
  });
}

/** Reads `input` line by line until it ends or the returned `stop` is called. */
export function readLines(input: Readable, options: LineReaderOptions): () => void {
  const { maxLineBytes, onLine, onTooLong, onSkipping, onEnd } = options;
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  /** The start of the line being skipped: its first HEAD_BYTES bytes, as they come. */
  let head: Buffer[] = [];
  let headSize = 0;
  const keepHead = (piece: Buffer): void => {
    if (headSize >= HEAD_BYTES) return;
    const taken = piece.subarray(0, HEAD_BYTES - headSize);
    head.push(taken);
    headSize += taken.length;
  };
  const headText = (): string => Buffer.concat(head, headSize).toString("utf8");
  /** The last HEAD_BYTES bytes skipped so far. */
  let tail = Buffer.alloc(0);
  const keepTail = (piece: Buffer): void => {
    tail = Buffer.from(Buffer.concat([tail, piece.subarray(-HEAD_BYTES)]).subarray(-HEAD_BYTES));
  };

  const emit = (): void => {
    if (skipping) {
      skipping = false;
      const skipped = tail.toString("utf8");
      const start = headText();
      tail = Buffer.alloc(0);
      head = [];
      headSize = 0;
      onTooLong(start, skipped);
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
        for (const part of [...parts, piece]) {
          keepHead(part);
          keepTail(part);
        }
        parts = [];
        size = 0;
        onSkipping?.(headText());
      } else if (skipping) {
        keepHead(piece);
        keepTail(piece);
      } else if (piece.length > 0) {
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

/**
 * The bounds of one message, the same on both surfaces (MCP and native) and both transports:
 * a request's body or line, and the messages one batch may carry. Code mode's programs pass
 * tool arguments within the same byte bound (cli/code.ts).
 */

/** The largest request body (HTTP) or message, in bytes. */
export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Messages in one batch at most. Every message of a batch is dispatched at once, so without a
 * bound a 1 MiB batch of tiny requests would hold the server's thread for seconds.
 */
export const DEFAULT_MAX_BATCH = 50;

/** `value` when it is a positive integer; else a `RangeError` naming the option (a configuration bug). */
export function positiveLimit(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}

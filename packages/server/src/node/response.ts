/**
 * `Response` → `ServerResponse`, for the web-standard handlers: a small body that is complete at
 * once goes out in one write with its length (a response `json()` made, from its text, without
 * reading its stream); any other (a large one, or an SSE stream that goes on) chunk by chunk with
 * backpressure, cancelled when the client goes away (which tells its source, e.g. the SDK
 * transport, that the stream is gone). A large body is read on only as the client takes what was
 * written: its end is read, and its source learns it was sent (http/body.ts `whenEnded`; the
 * response budget is held until then, budget.ts), only once the socket has taken every chunk.
 * Written at once instead, a client that does not read would leave it all buffered here.
 */
import type http from "node:http";
import { completeBody } from "../http/body.js";

/**
 * The bytes of a complete body written at once, without backpressure: about what a socket's
 * buffers hold. Larger bodies go out with backpressure.
 */
const AT_ONCE_BYTES = 64 * 1024;

/**
 * Writes the response. A body complete within one turn of the event loop and no larger than
 * `AT_ONCE_BYTES` goes out in one write with its length; any other gets its headers sent at once,
 * then every chunk as the client takes the ones before. When the client goes away, the body is
 * cancelled, which tells its source.
 */
export async function writeResponse(response: Response, res: http.ServerResponse): Promise<void> {
  const body = response.body;
  if (res.destroyed) {
    await body?.cancel().catch(() => undefined);
    return;
  }
  const bytes = completeBody(response);
  if (!body || bytes) {
    res.writeHead(response.status, outgoingHeaders(response.headers)).end(bytes);
    return;
  }
  const reader = body.getReader();
  const start = await readAtOnce(reader);
  if (res.destroyed) {
    // The client went away while the body was read.
    await reader.cancel().catch(() => undefined);
    return;
  }
  const headers = outgoingHeaders(response.headers);
  if (start.done) {
    if (
      headers["content-length"] === undefined &&
      response.status !== 204 &&
      response.status !== 304
    )
      headers["content-length"] = start.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    // Corked, the chunks go out together, as they are, not copied into one.
    res.writeHead(response.status, headers);
    res.cork();
    for (const chunk of start.chunks) res.write(chunk);
    res.end();
    return;
  }
  res.writeHead(response.status, headers);
  if (start.chunks.length === 0) res.flushHeaders();
  await pump(reader, start, res);
}

/** What `readAtOnce` read of a body. */
interface Start {
  readonly chunks: readonly Uint8Array[];
  /** The body ended within them. */
  readonly done: boolean;
  /** The read in progress when the turn ended (a read cannot be taken back), if any. */
  readonly pending?: ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>;
}

/**
 * The chunks a body has within one turn of the event loop, up to `AT_ONCE_BYTES`: past them, no
 * further read is asked for, so a large body's end is read only as `pump` writes it out.
 */
async function readAtOnce(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Start> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let pending = reader.read();
  let immediate: NodeJS.Immediate | undefined;
  const soon = new Promise<undefined>((resolve) => (immediate = setImmediate(resolve, undefined)));
  try {
    for (;;) {
      const next = await Promise.race([pending, soon]);
      if (next === undefined) return { chunks, done: false, pending };
      if (next.done) return { chunks, done: true };
      chunks.push(next.value);
      size += next.value.byteLength;
      if (size > AT_ONCE_BYTES) return { chunks, done: false };
      pending = reader.read();
    }
  } finally {
    clearImmediate(immediate);
  }
}

/**
 * Writes the rest of a body, chunk by chunk, with backpressure (the next chunk is read once the
 * socket took the one before); cancels it when the client goes away.
 */
async function pump(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  start: Start,
  res: http.ServerResponse,
): Promise<void> {
  let gone = false;
  let wake: (() => void) | undefined;
  const onClose = () => {
    gone = true;
    wake?.();
    reader.cancel().catch(() => undefined);
  };
  const write = async (chunk: Uint8Array): Promise<void> => {
    if (gone || res.write(chunk)) return;
    await new Promise<void>((resolve) => {
      wake = resolve;
      res.once("drain", resolve);
    });
    res.off("drain", wake!);
    wake = undefined;
  };
  res.once("close", onClose);
  try {
    for (const chunk of start.chunks) await write(chunk);
    for (
      let next = await (start.pending ?? reader.read());
      !next.done && !gone;
      next = await reader.read()
    )
      await write(next.value);
    if (!gone) res.end();
  } catch (error) {
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    res.off("close", onClose);
  }
}

function outgoingHeaders(headers: Headers): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of headers) if (name !== "set-cookie") out[name] = value;
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

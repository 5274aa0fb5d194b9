/**
 * `Response` → `ServerResponse`, for the web-standard handlers: a body that is complete at once
 * goes out in one write with its length (a response `json()` made, from its text, without reading
 * its stream), a streamed one (SSE) chunk by chunk with backpressure, cancelled when the client
 * goes away (which tells its source, e.g. the SDK transport, that the stream is gone).
 */
import type http from "node:http";
import { completeBody } from "./body.js";

/**
 * Writes the response. What its body holds at once goes out in one write with its length; a body
 * that goes on (an SSE stream) gets its headers sent at once, then every chunk as it comes. When
 * the client goes away, the body is cancelled, which tells its source.
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
  const chunks: Uint8Array[] = [];
  let pending = reader.read();
  let immediate: NodeJS.Immediate | undefined;
  const soon = new Promise<undefined>((resolve) => (immediate = setImmediate(resolve, undefined)));
  let done = false;
  try {
    for (;;) {
      const next = await Promise.race([pending, soon]);
      if (next === undefined) break;
      if (next.done) {
        done = true;
        break;
      }
      chunks.push(next.value);
      pending = reader.read();
    }
  } finally {
    clearImmediate(immediate);
  }
  if (res.destroyed) {
    // The client went away while the body was read.
    await reader.cancel().catch(() => undefined);
    return;
  }
  const headers = outgoingHeaders(response.headers);
  if (done) {
    if (
      headers["content-length"] === undefined &&
      response.status !== 204 &&
      response.status !== 304
    )
      headers["content-length"] = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    // Corked, the chunks go out together, as they are: a body of many MiB is not copied into one.
    res.writeHead(response.status, headers);
    res.cork();
    for (const chunk of chunks) res.write(chunk);
    res.end();
    return;
  }
  res.writeHead(response.status, headers);
  for (const chunk of chunks) res.write(chunk);
  if (chunks.length === 0) res.flushHeaders();
  await pump(reader, pending, res);
}

/** Writes the rest of a streamed body, chunk by chunk, with backpressure; cancels it when the client goes away. */
async function pump(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  pending: ReturnType<typeof reader.read>,
  res: http.ServerResponse,
): Promise<void> {
  let gone = false;
  let wake: (() => void) | undefined;
  const onClose = () => {
    gone = true;
    wake?.();
    reader.cancel().catch(() => undefined);
  };
  res.once("close", onClose);
  try {
    for (let next = await pending; !next.done && !gone; next = await reader.read()) {
      if (res.write(next.value)) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        res.once("drain", resolve);
      });
      res.off("drain", wake!);
      wake = undefined;
    }
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

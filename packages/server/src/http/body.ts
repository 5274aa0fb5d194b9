/**
 * What both HTTP surfaces share, on web-standard `Request`s and `Response`s: reading a bounded
 * request body, answering JSON, and learning when a (streamed) response body has ended.
 */

export type Body =
  | { readonly kind: "read"; readonly text: string }
  | { readonly kind: "too-large" }
  | { readonly kind: "aborted" };

/**
 * A server adapter's own way to read the bodies of the Requests it makes (node/request.ts:
 * Node's events, a fraction of a web stream's cost on Node 20). `readBody` uses it when the
 * request has it and it answers (undefined: read the stream).
 */
export const readDirectly = Symbol("zcp.readDirectly");

export interface DirectlyReadable {
  [readDirectly](max: number): Promise<Body> | undefined;
}

/**
 * Reads the body up to `max` bytes; stops reading at the first byte beyond (and cancels the rest,
 * which a server adapter discards so that the client still reads the answer). A declared
 * `Content-Length` over `max` is refused before anything is read.
 */
async function readBody(request: Request, max: number): Promise<Body> {
  const direct = (request as Partial<DirectlyReadable>)[readDirectly]?.(max);
  if (direct) return direct;
  const body = request.body;
  if (Number(request.headers.get("content-length")) > max) {
    body?.cancel().catch(() => undefined);
    return { kind: "too-large" };
  }
  if (!body) return { kind: "read", text: "" };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        reader.cancel().catch(() => undefined);
        return { kind: "too-large" };
      }
      chunks.push(value);
    }
  } catch {
    // The client went away before the end of its body: there is no one to answer.
    return { kind: "aborted" };
  }
  // ignoreBOM keeps a byte order mark in the text, as Node's Buffer decoding does (JSON.parse refuses it).
  return {
    kind: "read",
    text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(
      chunks.length === 1 ? chunks[0] : concat(chunks, size),
    ),
  };
}

/** An error answer, in a surface's JSON-RPC envelope. */
export type ErrorAnswer = (
  status: number,
  code: number,
  message: string,
  headers?: { readonly [name: string]: string },
) => Response;

/**
 * The body of a POST as JSON, read within `max` bytes; or the answer that refuses it: 413 over the
 * limit (with `connection: close`), 400 with -32700 when it is not JSON, 400 when it ended early.
 */
export async function readJson(
  request: Request,
  max: number,
  refuse: ErrorAnswer,
): Promise<{ readonly json: unknown } | Response> {
  const read = await readBody(request, max);
  if (read.kind === "aborted") return refuse(400, -32000, "Bad Request: the body ended early");
  if (read.kind === "too-large")
    return refuse(413, -32000, `Payload Too Large: the body must not exceed ${max} bytes`, {
      connection: "close",
    });
  try {
    return { json: JSON.parse(read.text) };
  } catch {
    return refuse(400, -32700, "Parse error: the body is not JSON");
  }
}

/** The text of the responses `json` made, for an adapter to write without reading their streams. */
const complete = new WeakMap<Response, string>();

/** A JSON answer with its length. */
export function json(
  status: number,
  body: unknown,
  headers?: { readonly [name: string]: string },
): Response {
  const text = JSON.stringify(body);
  // From the text: a Response encodes it only when its body is read (the Node adapter writes the text).
  const response = new Response(text, {
    status,
    headers: {
      "content-type": "application/json",
      "content-length": String(utf8Length(text)),
      ...headers,
    },
  });
  complete.set(response, text);
  return response;
}

/** The whole body (as text) of a response `json` made and nobody has read, or undefined. */
export function completeBody(response: Response): string | undefined {
  return response.bodyUsed ? undefined : complete.get(response);
}

/** The JSON-RPC error answer of the HTTP layer (no request id: it answers the HTTP request). */
export function jsonRpcError(code: number, message: string) {
  return { jsonrpc: "2.0", error: { code, message }, id: null };
}

/**
 * The response, with `ended` called once its body has been read to the end, failed or been
 * cancelled (the client went away); at once for a response without a body or with a whole one
 * (`json`'s). An open SSE stream counts as a request in progress until then.
 */
export function whenEnded(response: Response, ended: () => void): Response {
  const body = response.body;
  // A body `json` made is whole already: the adapter writes it at once.
  if (!body || completeBody(response) !== undefined) {
    ended();
    return response;
  }
  const reader = body.getReader();
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    ended();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (error) {
          finish();
          controller.error(error);
          return;
        }
        if (next.done) {
          finish();
          controller.close();
        } else controller.enqueue(next.value);
      },
      cancel(reason) {
        finish();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** The length of the text in UTF-8, without encoding it. */
function utf8Length(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) length += 1;
    else if (
      code >= 0xd800 &&
      code <= 0xdbff &&
      i + 1 < text.length &&
      (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ) {
      length += 2; // a surrogate pair: 4 bytes for 2 UTF-16 units
      i++;
    } else length += 2; // 3 bytes (a lone surrogate is encoded as U+FFFD, 3 bytes too)
  }
  return length;
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

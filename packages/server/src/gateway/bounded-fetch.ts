/**
 * The `fetch` a Streamable HTTP upstream's client uses, with a bound on what an answer may take,
 * so that an upstream cannot make the SDK buffer without end (it reads a JSON body whole, and an
 * SSE event whole). A JSON body past `maxAnswerBytes` is cut and the call that posted it rejects
 * with the `AnswerFault` (the SDK rejects the request with the error of the body). In an event
 * stream each event is bounded: past the limit the stream is cut; on the stream of a POST (one
 * call's answer and its notifications) an error response for the posted id is put in its place,
 * which fails that call; on the GET stream (notifications only) the SDK reconnects.
 */
import type { FetchLike } from "@modelcontextprotocol/client";
import { faultEvent, tooLarge } from "./answers.js";

const LF = 0x0a;
const CR = 0x0d;

export function boundedFetch(maxAnswerBytes: number, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (response.body === null) return response;
    const stream = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    const cut = stream
      ? eventLimit(maxAnswerBytes, init?.method === "POST" ? postedId(init.body) : undefined)
      : bodyLimit(maxAnswerBytes);
    return new Response(response.body.pipeThrough(cut), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The id of the request a POST body carries (the SDK posts one message, as JSON text). */
function postedId(body: unknown): string | number | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const id = (JSON.parse(body) as { id?: unknown } | null)?.id;
    return typeof id === "string" || typeof id === "number" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Passes a body on up to `limit` bytes; past it, errors with the fault. */
function bodyLimit(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let size = 0;
  return new TransformStream({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > limit) controller.error(tooLarge(limit));
      else controller.enqueue(chunk);
    },
  });
}

/**
 * Passes an event stream on while no event (the bytes since the last blank line) is over `limit`;
 * past it, ends the stream with the fault's error event for `id`, or errors it when there is none.
 */
function eventLimit(limit: number, id: string | number | undefined) {
  /** Bytes of the event so far. */
  let size = 0;
  /** Whether the bytes since the last LF are none or one CR: an LF now ends an event. */
  let lineEmpty = true;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let from = 0;
      /** Where the last event that ends in this chunk ends. */
      let boundary = 0;
      let over = false;
      for (let at = chunk.indexOf(LF); at !== -1 && !over; at = chunk.indexOf(LF, at + 1)) {
        const line = at - from;
        size += line + 1;
        over = size > limit;
        if ((from > 0 || lineEmpty) && (line === 0 || (line === 1 && chunk[from] === CR))) {
          boundary = at + 1;
          size = 0;
        }
        lineEmpty = true;
        from = at + 1;
      }
      if (!over && from < chunk.length) {
        size += chunk.length - from;
        over = size > limit;
        lineEmpty = (from > 0 || lineEmpty) && chunk.length - from === 1 && chunk[from] === CR;
      }
      if (!over) {
        controller.enqueue(chunk);
        return;
      }
      // The events that ended go on; the one over the limit is replaced (or the stream fails).
      if (boundary > 0) controller.enqueue(chunk.subarray(0, boundary));
      const fault = tooLarge(limit);
      if (id === undefined) return controller.error(fault);
      controller.enqueue(new TextEncoder().encode(faultEvent(id, fault)));
      controller.terminate();
    },
  });
}

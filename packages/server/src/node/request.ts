/**
 * `IncomingMessage` → `Request`, for the web-standard handlers: method, URL (on the Host header's
 * host), headers, the body (streamed, read only when the handler reads it) and a `signal` that
 * aborts when the client goes away before the answer is complete.
 *
 * On Node 20 a web stream costs tens of microseconds to make and read, so the body stream is made
 * only when something asks for it: `readBody` (http/body.ts) reads Node's events directly.
 * Everything else is the plain `Request`.
 */
import type http from "node:http";
import type { TLSSocket } from "node:tls";
import { readDirectly, type Body, type DirectlyReadable } from "../http/body.js";

/**
 * The `Request` of an `IncomingMessage`. Its body and its signal are made when first asked for;
 * until then `readBody` reads the body from Node's events ([readDirectly]).
 */
export class IncomingRequest extends Request implements DirectlyReadable {
  readonly #req: http.IncomingMessage;
  /** Whether the request has a body (not GET or HEAD). */
  readonly #hasBody: boolean;
  /** The body was read through [readDirectly]: the stream, if asked for later, is empty. */
  #taken = false;
  /** The same request with its body as a stream, once something other than readBody asked for the body. */
  #full: Request | undefined;
  #abort: AbortController | undefined;
  #gone = false;

  constructor(url: string | URL, req: http.IncomingMessage, init: RequestInit) {
    super(url, init);
    this.#req = req;
    this.#hasBody = init.method !== "GET" && init.method !== "HEAD";
  }

  [readDirectly](max: number): Promise<Body> | undefined {
    if (!this.#hasBody || this.#taken || this.#full) return undefined;
    this.#taken = true;
    return readIncoming(this.#req, max);
  }

  /** This request with its body as a stream (what `body`, `text()`, `clone()`, ... answer from). */
  withBody(): Request {
    if (!this.#full) {
      const body = this.#hasBody ? (this.#taken ? emptyStream() : bodyStream(this.#req)) : null;
      this.#full = new Request(this.url, {
        method: this.method,
        headers: this.headers,
        body,
        duplex: "half",
        signal: this.lazySignal(),
      } as RequestInit);
    }
    return this.#full;
  }

  bodyWasUsed(): boolean {
    return this.#taken || (this.#full?.bodyUsed ?? false);
  }

  lazySignal(): AbortSignal {
    if (!this.#abort) {
      this.#abort = new AbortController();
      if (this.#gone) this.#abort.abort(new Error("the client went away"));
    }
    return this.#abort.signal;
  }

  /** The client closed the connection before the answer was complete. */
  clientGone(): void {
    this.#gone = true;
    this.#abort?.abort(new Error("the client went away"));
  }
}
// `Request` declares `signal`, `body` and `bodyUsed` as properties, so their getters, and the body
// methods that answer from the stream, are defined here.
const BODY_METHODS = ["arrayBuffer", "blob", "bytes", "formData", "json", "text", "clone"].filter(
  (name) => name in Request.prototype,
);
Object.defineProperties(IncomingRequest.prototype, {
  signal: { get: getter((request) => request.lazySignal()) },
  body: { get: getter((request) => request.withBody().body) },
  bodyUsed: { get: getter((request) => request.bodyWasUsed()) },
  ...Object.fromEntries(
    BODY_METHODS.map((name) => [
      name,
      {
        value(this: IncomingRequest, ...args: unknown[]) {
          return (
            this.withBody() as unknown as { [method: string]: (...args: unknown[]) => unknown }
          )[name]!(...args);
        },
      },
    ]),
  ),
});

function getter<T>(read: (request: IncomingRequest) => T): (this: IncomingRequest) => T {
  return function (this: IncomingRequest) {
    return read(this);
  };
}

/** The request as a `Request`; see IncomingRequest. */
export function toRequest(req: http.IncomingMessage): IncomingRequest {
  const init: RequestInit = { method: req.method ?? "GET", headers: requestHeaders(req.headers) };
  const scheme = (req.socket as TLSSocket).encrypted ? "https" : "http";
  const target = req.url ?? "/";
  const host = req.headers.host;
  // The common case, parsed once (by Request): a path on a plain host[:port].
  if (
    host !== undefined &&
    AUTHORITY.test(host) &&
    target.startsWith("/") &&
    !target.startsWith("//")
  ) {
    try {
      return new IncomingRequest(`${scheme}://${host}${target}`, req, init);
    } catch {
      // A port out of range, ...: as below.
    }
  }
  // The URL's host is informative only (the guards read the Host header): a value a URL cannot
  // have leaves it on localhost. The path is the request target's, as `new URL(target, base)` reads it.
  const url = new URL(target, `${scheme}://localhost`);
  if (host !== undefined) url.host = host;
  return new IncomingRequest(url, req, init);
}

/** A Host header that is a name or an IPv4/IPv6 address, with an optional port. */
const AUTHORITY = /^(?:[\w.-]+|\[[\da-f:.]+\])(?::\d{1,5})?$/i;

/** The headers as Node parsed them (repeated ones joined, or the first kept); only `set-cookie` can be a list. */
function requestHeaders(
  headers: http.IncomingHttpHeaders,
): { [name: string]: string } | [string, string][] {
  if (headers["set-cookie"] === undefined) return headers as { [name: string]: string };
  const list: [string, string][] = [];
  for (const name in headers) {
    const value = headers[name];
    if (typeof value === "string") list.push([name, value]);
    else if (value !== undefined) for (const item of value) list.push([name, item]);
  }
  return list;
}

/**
 * The body as a web stream, read from the request as it is pulled. Cancelling it discards the
 * rest of the body, so that the client, still sending, reads the answer.
 */
function bodyStream(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  let detach: (() => void) | undefined;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!detach) {
          const onData = (chunk: Buffer) => {
            controller.enqueue(chunk);
            // A chunk is queued beyond the reads waiting: wait for the next pull.
            if ((controller.desiredSize ?? 0) < 0) req.pause();
          };
          const onEnd = () => {
            detach!();
            controller.close();
          };
          const onGone = () => {
            detach!();
            controller.error(new Error("the client went away before the end of its body"));
          };
          req.on("data", onData).once("end", onEnd).once("error", onGone).once("close", onGone);
          detach = () =>
            void req
              .off("data", onData)
              .off("end", onEnd)
              .off("error", onGone)
              .off("close", onGone);
        }
        req.resume();
      },
      cancel() {
        detach?.();
        detach = () => undefined;
        req.resume();
      },
    },
    { highWaterMark: 0 },
  );
}

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}

/**
 * Reads the body up to `max` bytes with Node's events; stops at the first byte beyond and
 * discards the rest, so that the client reads the answer. A declared length over `max` is
 * refused before anything is read.
 */
function readIncoming(req: http.IncomingMessage, max: number): Promise<Body> {
  if (Number(req.headers["content-length"]) > max) {
    req.resume();
    return Promise.resolve({ kind: "too-large" });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (body: Body) => {
      req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      done({ kind: "too-large" });
      req.resume();
    };
    // Buffer's decoding keeps a byte order mark (JSON.parse refuses it), as readBody's does.
    const onEnd = () => done({ kind: "read", text: Buffer.concat(chunks).toString("utf8") });
    // The client went away before the end of its body: there is no one to answer.
    const onGone = () => done({ kind: "aborted" });
    req.on("data", onData).once("end", onEnd).once("error", onGone).once("close", onGone);
  });
}

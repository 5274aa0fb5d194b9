/**
 * A loopback fake provider (node:http on 127.0.0.1, a free port) that the official SDK clients
 * are pointed at with `baseURL`: each route answers from its own queue of scripted replies, in
 * order, and every request is recorded for assertions.
 *
 *     const fake = await startFake();
 *     fake.script("/v1/responses", { json: response }, { sse: events, cutAfter: 2 });
 *     const client = new OpenAI({ baseURL: `${fake.url}/v1`, apiKey: "test", maxRetries: 0 });
 *     ...
 *     fake.bodies("/v1/responses"); // the JSON bodies sent there, in order
 *     fake.reset(); // between tests: no queued replies, no recorded requests
 *     await fake.close();
 *
 * A reply is JSON (`json`, with `status`, default 200) or a server-sent event stream (`sse`: each
 * event's `data` written as is when a string, e.g. `[DONE]`, else as JSON; `event` the optional
 * event name). `cutAfter: n` destroys the socket after the first n events, as a dropped
 * connection would. `delayMs` waits before answering. A request with nothing left to answer gets
 * a 404 whose error message names the route (404: the SDKs do not retry it).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface SseEvent {
  readonly event?: string;
  readonly data: unknown;
}

export type FakeReply =
  | { readonly json: unknown; readonly status?: number; readonly delayMs?: number }
  | { readonly sse: readonly SseEvent[]; readonly cutAfter?: number; readonly delayMs?: number };

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (null when the body was empty). */
  readonly body: unknown;
}

export interface FakeServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  /** Every request, in arrival order. */
  readonly requests: readonly FakeRequest[];
  /** Appends replies to the queue of `path` (e.g. `/v1/responses`). */
  script(path: string, ...replies: readonly FakeReply[]): void;
  /** The bodies of the requests to `path`, in order. */
  bodies(path: string): unknown[];
  /** How many replies are still queued on `path`. */
  pending(path: string): number;
  /** Forgets every queued reply and recorded request (between tests). */
  reset(): void;
  close(): Promise<void>;
}

export async function startFake(): Promise<FakeServer> {
  const queues = new Map<string, FakeReply[]>();
  const requests: FakeRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      const text = Buffer.concat(chunks).toString("utf8");
      const body: unknown = text === "" ? null : JSON.parse(text);
      requests.push({ method: req.method ?? "", path, headers: req.headers, body });
      const reply = queues.get(path)?.shift();
      if (!reply) {
        const error = { type: "not_found", message: `no reply scripted for ${path}` };
        return sendJson(res, 404, { type: "error", error });
      }
      setTimeout(() => answer(res, reply), reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(path, ...replies) {
      queues.set(path, [...(queues.get(path) ?? []), ...replies]);
    },
    bodies: (path) => requests.filter((request) => request.path === path).map((r) => r.body),
    pending: (path) => queues.get(path)?.length ?? 0,
    reset() {
      queues.clear();
      requests.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

function answer(res: http.ServerResponse, reply: FakeReply): void {
  if (res.destroyed) return;
  if ("json" in reply) return sendJson(res, reply.status ?? 200, reply.json);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const events = reply.sse.slice(0, reply.cutAfter ?? reply.sse.length);
  const text = events.map(formatEvent).join("");
  if (reply.cutAfter === undefined) return void res.end(text);
  // Cut off: what was written reaches the client, then the connection drops without an end.
  res.write(text, () => res.destroy());
}

function formatEvent({ event, data }: SseEvent): string {
  const name = event === undefined ? "" : `event: ${event}\n`;
  return `${name}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/**
 * The SDK's web-standard Streamable HTTP transport, with what it lacks for cancellation: it ends
 * a POST's SSE stream only once every request of that POST has a response, and the SDK never
 * sends one for a request the client cancelled (MCP: the receiver sends no response). Such a
 * stream would stay open until the session closed, holding its connection and keeping the
 * session from idling out. Here, a POST's stream ends once each of its requests is answered *or
 * cancelled* (`notifications/cancelled`, in another POST of the session).
 *
 * It also counts each POST's answers against the session's response budget (budget.ts): the SDK
 * transport writes every answer of a POST to its stream through `send`, which it reaches here
 * first, so an answer past the budget goes out as the `Response too large` error instead; the
 * handlers of the POST's requests find its budget by request id (`requestBudget`) to reserve
 * what they know ahead. The POST's bytes go back to the session once its body has been read.
 */
import {
  WebStandardStreamableHTTPServerTransport,
  type JSONRPCMessage,
  type RequestId,
  type WebStandardStreamableHTTPServerTransportOptions,
} from "@modelcontextprotocol/server";
import {
  SessionBudget,
  type BudgetedTransport,
  type RequestBudget,
  type ResponseLimits,
} from "../budget.js";
import { whenEnded } from "../http/body.js";

/** The requests of one POST: those still waiting for their answer, and those cancelled. */
interface Stream {
  readonly waiting: Set<RequestId>;
  readonly cancelled: RequestId[];
  /** What the POST's answers may take. */
  readonly budget: RequestBudget;
}

export class McpTransport
  extends WebStandardStreamableHTTPServerTransport
  implements BudgetedTransport
{
  /** Each request id of an open POST stream → that stream (the same object for every id of it). */
  readonly #streams = new Map<RequestId, Stream>();
  readonly #budget: SessionBudget;

  constructor(options: WebStandardStreamableHTTPServerTransportOptions, limits: ResponseLimits) {
    super(options);
    this.#budget = new SessionBudget(limits);
  }

  /** The budget of the POST request `id` came in, while it is being answered. */
  requestBudget(id: unknown): RequestBudget | undefined {
    return this.#streams.get(id as RequestId)?.budget;
  }

  /**
   * Answers one POST whose body is `messages` (already checked to be JSON-RPC messages): the
   * transport's response; then the cancellations it carried end their requests' streams.
   */
  async post(
    request: Request,
    body: unknown,
    messages: readonly JSONRPCMessage[],
  ): Promise<Response> {
    const ids = messages.flatMap((message) =>
      "method" in message && "id" in message ? [message.id] : [],
    );
    const budget = this.#budget.request();
    const stream: Stream = { waiting: new Set(ids), cancelled: [], budget };
    for (const id of ids) this.#streams.set(id, stream);
    let response: Response | undefined;
    try {
      response = await this.handleRequest(request, { parsedBody: body });
      return whenEnded(response, () => budget.end());
    } catch (error) {
      budget.end();
      throw error;
    } finally {
      // Refused (4xx) or answered at once: there is no stream of these requests to end.
      if (response?.headers.get("content-type") !== "text/event-stream")
        for (const id of ids) if (this.#streams.get(id) === stream) this.#streams.delete(id);
      for (const message of messages) {
        // The SDK has aborted the request's handler (its tool's signal) by now.
        const cancelled = cancelledRequest(message);
        if (cancelled !== undefined) this.#settle(cancelled, true);
      }
    }
  }

  override async send(
    message: JSONRPCMessage,
    options?: { relatedRequestId?: RequestId },
  ): Promise<void> {
    const id = "result" in message || "error" in message ? message.id : undefined;
    const budget = id === undefined ? undefined : this.#streams.get(id)?.budget;
    try {
      const counted = budget ? ((await budget.count(id, message)) as JSONRPCMessage) : message;
      await super.send(counted, options);
    } finally {
      if (id !== undefined) this.#settle(id, false);
    }
  }

  /** The request is answered (or cancelled); its stream ends once none of its requests waits. */
  #settle(id: RequestId, cancelled: boolean): void {
    const stream = this.#streams.get(id);
    if (!stream?.waiting.delete(id)) return;
    this.#streams.delete(id);
    if (cancelled) stream.cancelled.push(id);
    if (stream.waiting.size > 0 || stream.cancelled.length === 0) return;
    // The transport would wait for the cancelled requests' responses forever: end the stream.
    this.closeSSEStream(stream.cancelled[0]!);
    // And release what it keeps per request until then (the id → stream map, the answers of the
    // others): a response for a request whose stream has ended is not written anywhere, it
    // completes the set, and the transport forgets them all (and says the stream is gone).
    for (const request of stream.cancelled)
      super.send({ jsonrpc: "2.0", id: request, result: {} }).catch(() => undefined);
  }
}

/** The request id a `notifications/cancelled` names, or undefined for any other message. */
function cancelledRequest(message: JSONRPCMessage): RequestId | undefined {
  if (!("method" in message) || "id" in message || message.method !== "notifications/cancelled")
    return undefined;
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof requestId === "string" || typeof requestId === "number" ? requestId : undefined;
}

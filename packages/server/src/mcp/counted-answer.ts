/**
 * A 2026-07-28 answer counted against its request's response budget (budget.ts), as the 2025
 * session transport counts its answers: the SDK's per-request transport writes the answer itself,
 * so it is counted here, on its way out. A JSON answer that does not fit goes out as the JSON-RPC
 * error `Response too large: …` instead (the answer is dropped); an SSE answer is counted frame by
 * frame, and past the budget its stream ends with that error (and the SDK stops the call). The
 * bytes held count against the caller's budget until the client has read them, or gone.
 */
import { Buffer } from "node:buffer";
import type { RequestBudget } from "../budget.js";

/** The JSON-RPC code of the refusal, as on the 2025 era. */
const RESPONSE_TOO_LARGE = -32000;

/** `response` (to the request `id`), counted against `budget`; or the refusal that replaces it. */
export async function countedAnswer(
  response: Response,
  budget: RequestBudget,
  id: unknown,
): Promise<Response> {
  if (response.body === null) return response;
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("text/event-stream")) return countedStream(response, budget, id);
  if (!type.startsWith("application/json")) return response;
  const text = await response.text();
  // Errors go out uncounted: they are small, and a refusal must always get through.
  const refusal = budget.answer(id, isError(text) ? 0 : Buffer.byteLength(text));
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return refusal === undefined
    ? new Response(text, { status: response.status, headers })
    : new Response(JSON.stringify(refused(id, refusal)), { status: 200, headers });
}

/** An SSE answer, counted frame by frame; past the budget, the refusal ends it. */
function countedStream(response: Response, budget: RequestBudget, id: unknown): Response {
  const reader = response.body!.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      const refusal = budget.answer(id, value.byteLength);
      if (refusal === undefined) return controller.enqueue(value);
      controller.enqueue(
        new TextEncoder().encode(
          `event: message\ndata: ${JSON.stringify(refused(id, refusal))}\n\n`,
        ),
      );
      controller.close();
      await reader.cancel();
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

function refused(id: unknown, message: string): object {
  return { jsonrpc: "2.0", id: id ?? null, error: { code: RESPONSE_TOO_LARGE, message } };
}

/** Whether a JSON-RPC answer's text is an error (errors are small: a large answer is a result). */
function isError(text: string): boolean {
  if (text.length > 65_536) return false;
  try {
    return "error" in (JSON.parse(text) as object);
  } catch {
    return false;
  }
}

/**
 * The 2025 era's resource subscriptions of one session: `resources/subscribe` and
 * `resources/unsubscribe`, and `notifications/resources/updated` when the embedding application
 * calls `runtime.resourceUpdated(uri)`. (The 2026-07-28 era's `subscriptions/listen` is the
 * SDK's, fed by the same calls: http.ts.)
 */
import { ProtocolErrorCode as ErrorCode, type Server } from "@modelcontextprotocol/server";
import type { Features } from "@zcp/runtime";
import { ProtocolError } from "./errors.js";
import { RESOURCE_NOT_FOUND } from "./resources.js";

/** URIs one session may subscribe to at once; one more is refused. */
export const MAX_SUBSCRIPTIONS = 1_000;

/**
 * The 2025 era's subscriptions of one session: `resources/subscribe` to a URI the features know
 * (a static resource's, or one a template matches; else -32602 "not found"), at most
 * `MAX_SUBSCRIPTIONS`, and `notifications/resources/updated` when the application calls
 * `runtime.resourceUpdated(uri)`. Returns the function that stops listening (the session's end).
 */
export function serveSubscriptions(server: Server, features: Features): () => void {
  if (features.resources.length + features.templates.length === 0) return () => undefined;
  const subscribed = new Set<string>();
  server.setRequestHandler("resources/subscribe", (request) => {
    const { uri } = request.params;
    if (!features.has(uri))
      throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
    if (!subscribed.has(uri) && subscribed.size >= MAX_SUBSCRIPTIONS)
      throw new ProtocolError(
        ErrorCode.InvalidRequest,
        `Too many subscriptions: at most ${MAX_SUBSCRIPTIONS} per session; unsubscribe from one first`,
      );
    subscribed.add(uri);
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  return features.onUpdated((uri) => {
    if (subscribed.has(uri) && server.transport)
      server.sendResourceUpdated({ uri }).catch(() => undefined);
  });
}

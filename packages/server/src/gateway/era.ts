/**
 * The two MCP eras, as the gateway sees an upstream: the 2025 era (`initialize`, a session) and
 * the 2026-07-28 era (`server/discover`, no session). The SDK client probes with `server/discover`
 * (`versionNegotiation: { mode: "auto" }`) and falls back to `initialize`; the verdict it reached
 * is remembered per upstream and handed to the next connection as `prior`, so that a reconnect
 * (a restarted child, a forgotten session) costs no probe. A verdict goes stale when the upstream
 * changes era under us; `eraMismatch` recognizes the answers that say so, and the upstream then
 * forgets the verdict, probes once more and makes the call again.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type Client,
  type PriorDiscovery,
  type VersionNegotiationOptions,
} from "@modelcontextprotocol/client";

/**
 * How long the probe of a stdio upstream may go unanswered. A 2025 server may ignore a request
 * before `initialize` (the Python SDK's servers do: they log it and answer nothing); the SDK
 * takes a silent stdio server for a legacy one once the probe times out, so this bound is what
 * connecting to such a server costs once per process (the verdict is remembered after it). A
 * 2026 server that starts slower than this is taken for a legacy one at first; its answer to
 * `initialize` (-32022) sends us back to probe, then with the whole connect timeout.
 */
export const STDIO_PROBE_TIMEOUT_MS = 3000;

/** The client's negotiation: probe and fall back, the probe bounded by `probeTimeoutMs`. */
export function negotiation(probeTimeoutMs: number): VersionNegotiationOptions {
  return { mode: "auto", probe: { timeoutMs: probeTimeoutMs } };
}

/** What a connected client found out: the verdict to hand the next connection as `prior`. */
export function verdictOf(client: Client): PriorDiscovery {
  const discover = client.getDiscoverResult();
  return client.getProtocolEra() === "modern" && discover !== undefined
    ? { kind: "modern", discover }
    : { kind: "legacy" };
}

/**
 * Whether `error` (a failed connect or call on a connection of era `era`) says the upstream does
 * not speak that era (any more): "refused" when it refused the request unrun, saying why: it
 * answered -32022 (unsupported protocol version; in-band, or as the body of an HTTP 400), an HTTP
 * 400 whose text names the protocol version, or, on a 2026 connection, an HTTP 400 of a 2025
 * server asking for its session (SESSION_REQUIRED). Nothing else is evidence of an era: a 400
 * without such a text (a proxy's `400 text/html` for a header too large, a server's own
 * validation) fails its own call only, as any other error status does. "answered" when a 2026
 * connection got a 2025 result (no `resultType`): a 2025 stdio server runs a call it gets before
 * `initialize`, so the call ran. Undefined for any other error.
 */
export function eraMismatch(
  error: unknown,
  era: PriorDiscovery["kind"],
): "refused" | "answered" | undefined {
  if (error instanceof ProtocolError)
    return error.code === (ProtocolErrorCode.UnsupportedProtocolVersion as number)
      ? "refused"
      : undefined;
  if (era === "modern" && error instanceof SdkError && error.code === SdkErrorCode.InvalidResult)
    return LEGACY_RESULT.test(error.message) ? "answered" : undefined;
  if (!(error instanceof SdkHttpError) || error.status !== 400) return undefined;
  const text = (error.data as { text?: unknown } | undefined)?.text;
  if (typeof text !== "string") return undefined;
  const { code, message } = reasonOf(text);
  if (code === (ProtocolErrorCode.UnsupportedProtocolVersion as number)) return "refused";
  return UNSUPPORTED.test(message) || (era === "modern" && SESSION_REQUIRED.test(message))
    ? "refused"
    : undefined;
}

/**
 * What an HTTP 400's body says: the error of a JSON-RPC error response (what the SDKs' servers
 * answer), else the text itself (a plain-text server). The patterns below match only at the
 * start of that message, so that a 400 which merely quotes the request (a validation message
 * naming an argument) is no evidence: an argument cannot make a call refuse the era.
 */
function reasonOf(text: string): { readonly code?: number; readonly message: string } {
  try {
    const { error } = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof error?.message === "string")
      return typeof error.code === "number"
        ? { code: error.code, message: error.message }
        : { message: error.message };
  } catch {
    // not JSON: the text is the message
  }
  return { message: text.trim() };
}

/** The start of a 400's message that rejects the protocol version (the SDKs' 2025 transports, v1 and v2, and Python's). */
const UNSUPPORTED = /^(?:Bad Request: )?Unsupported protocol version\b/i;

/**
 * The start of a 400's message by which a 2025 server asks for the session that a 2026 request
 * (sent without one) does not carry: how a 2025 server answers the 2026 era, as it checks the
 * session before the protocol version. The SDKs' stateful transports (v1 1.32.2 and v2 2.4.0,
 * `validateSession`): `Bad Request: Server not initialized` (a transport made for the request)
 * and `Bad Request: Mcp-Session-Id header is required`; the TypeScript SDK's examples, which
 * route sessions themselves and are widely copied: `Bad Request: No valid session ID provided`;
 * the Python SDK's `StreamableHTTPServerTransport`: `Bad Request: Missing session ID`. A 2026
 * server's own 400 is a JSON-RPC error for the request's id, which the SDK hands to the call
 * in-band (a ProtocolError), so it never reaches this test.
 */
const SESSION_REQUIRED =
  /^Bad Request: (?:Server not initialized|Mcp-Session-Id header is required|No valid session ID provided|Missing session ID)\b/i;

/**
 * The SDK's message for a 2026 result without `resultType` (SDK 2.4.0: "Invalid result for
 * tools/call: missing required resultType — …"). The SDK gives it no code of its own; this
 * module holds every reliance on the SDK's wording, each pinned by `gateway-sdk.test.ts`.
 */
const LEGACY_RESULT = /missing required resultType/;

/**
 * Whether a failed connect's `error` is the SDK's for a probe whose connection closed (a stdio
 * child that exits on a request before `initialize`, as servers on the Rust SDK rmcp do): a
 * 2025 server. Probed in place, the transport has no second life, so the SDK rejects where its
 * own stdio transport (which probes a sibling process) falls back; the caller starts a new
 * child as a 2025 one. Known by its code and the message's wording (SDK 2.4.0).
 */
export const closedInProbe = (error: unknown): boolean =>
  error instanceof SdkError &&
  error.code === SdkErrorCode.EraNegotiationFailed &&
  /connection closed during the server\/discover probe/.test(error.message);

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
 * not speak that era (any more): "refused" when it refused the request unrun: it answered
 * -32022 (unsupported protocol version, naming the ones it supports), or HTTP 400 saying so.
 * On a 2026 connection every HTTP 400 counts: the SDK hands a 2026 server's 400 (a JSON-RPC
 * error) to the call in-band, so a bare 400 is a server that does not speak the 2026 era (a
 * 2025 server asking for its session). "answered" when a 2026 connection got a 2025 result (no
 * `resultType`): a 2025 stdio server runs a call it gets before `initialize`, so the call ran.
 * Undefined for any other error.
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
  if (era === "modern") return "refused";
  const text = (error.data as { text?: unknown }).text;
  return typeof text === "string" && UNSUPPORTED.test(text) ? "refused" : undefined;
}

/** An HTTP 400's body that rejects the protocol version: the JSON-RPC -32022, or a 2025 server's text. */
const UNSUPPORTED = /"code"\s*:\s*-32022\b|unsupported protocol version/i;

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

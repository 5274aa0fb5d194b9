/**
 * One connection to an upstream: the SDK `Client` over the child's stdio or Streamable HTTP
 * (its answers bounded by `maxAnswerBytes` either way), connected in whichever era the upstream
 * speaks (era.ts: probed, or the verdict of an earlier connection), a promise that tells when
 * (and why) it ended without being closed by us, and its requests in flight counted, so that a
 * retired connection closes only once they have settled.
 */
import {
  Client,
  StreamableHTTPClientTransport,
  type PriorDiscovery,
} from "@modelcontextprotocol/client";
import { RUNTIME_VERSION } from "@zcp/runtime";
import { boundedFetch } from "./bounded-fetch.js";
import { ChildTransport } from "./child-transport.js";
import {
  closedInProbe,
  eraMismatch,
  negotiation,
  STDIO_PROBE_TIMEOUT_MS,
  verdictOf,
} from "./era.js";
import type { UpstreamServer } from "./types.js";

/** How long connecting (the probe, then `initialize` or none) may take. */
const CONNECT_TIMEOUT_MS = 30_000;

export interface Connection {
  readonly client: Client;
  /** The child's process id (stdio), else null. */
  readonly pid: number | null;
  /** Resolves, with how it ended (e.g. `exited (code 1)`), when the connection ends unasked. */
  readonly ended: Promise<string>;
  /** How it ended, as soon as it has (before the calls in flight reject), else null. */
  readonly endedWhy: string | null;
  /** The session id a Streamable HTTP upstream gave (2025 era only), else undefined. */
  readonly sessionId: string | undefined;
  /** The era the connection speaks: what the next connection may take as `prior`. */
  readonly verdict: PriorDiscovery;
  /**
   * Makes `request` on the client, counted as in flight until it settles, so that `retire`
   * knows when the connection is no longer used.
   */
  run<T>(request: (client: Client) => Promise<T>): Promise<T>;
  /**
   * Ends the connection once the requests in flight on it have settled (at once when none is):
   * the upstream said it is no longer the one to use (it forgot the session, it refused the era),
   * which is no reason to cut the other requests on it short: each finishes, or fails, on its
   * own. The caller makes no new request on it. Resolves when it is closed.
   */
  retire(why: string): Promise<void>;
  /**
   * Ends the connection (stops the child); `ended` then never resolves. With `why` (the
   * connection was found dead), the calls in flight see it as `endedWhy` as they reject.
   */
  close(why?: string): Promise<void>;
}

export interface ConnectionOptions {
  /** Longest answer in bytes (a stdio line, an HTTP JSON body or SSE event). */
  readonly maxAnswerBytes: number;
  /** What the transport and client report that fails no call (a dropped answer, an unknown id). */
  readonly onError: (error: Error) => void;
  /** The era an earlier connection found: no probe. Without it, the client probes. */
  readonly prior?: PriorDiscovery;
  /**
   * How long a stdio upstream's probe may go unanswered (default STDIO_PROBE_TIMEOUT_MS); an
   * HTTP upstream's probe has the whole connect timeout (silence there is an outage).
   */
  readonly probeTimeoutMs?: number;
}

/**
 * Opens a connection to `server` (already expanded) in its era; rejects with an Error saying why
 * it could not. A stdio probe can be wrong two ways, each put right once, on a new child: a
 * child that exits on the probe (servers on SDKs that end on any request before `initialize`
 * do) is a 2025 server, initialized without a probe; a child that left the probe unanswered,
 * then refused `initialize` (-32022) is a 2026 server slower to start than the probe's bound,
 * probed again with the whole connect timeout.
 */
export async function openConnection(
  server: UpstreamServer,
  options: ConnectionOptions,
): Promise<Connection> {
  try {
    return await connectOnce(server, options);
  } catch (error) {
    const cause = (error as Error).cause;
    if (options.prior !== undefined || !("command" in server)) throw error;
    if (closedInProbe(cause))
      return await connectOnce(server, { ...options, prior: { kind: "legacy" } });
    if (eraMismatch(cause, "legacy") === "refused")
      return await connectOnce(server, { ...options, probeTimeoutMs: CONNECT_TIMEOUT_MS });
    throw error;
  }
}

async function connectOnce(
  server: UpstreamServer,
  options: ConnectionOptions,
): Promise<Connection> {
  const { maxAnswerBytes } = options;
  const child = "command" in server ? new ChildTransport(server, maxAnswerBytes) : undefined;
  const http = child
    ? undefined
    : new StreamableHTTPClientTransport(new URL((server as { url: string }).url), {
        fetch: boundedFetch(maxAnswerBytes),
        ...("headers" in server && server.headers
          ? { requestInit: { headers: { ...server.headers } } }
          : {}),
      });
  const transport = child ?? http!;
  const client = new Client(
    { name: "zcp-gateway", version: RUNTIME_VERSION },
    {
      versionNegotiation: negotiation(
        child ? (options.probeTimeoutMs ?? STDIO_PROBE_TIMEOUT_MS) : CONNECT_TIMEOUT_MS,
      ),
    },
  );
  let closing = false;
  // Once we close it, what the transport reports (aborted streams) is our doing, not the upstream's.
  client.onerror = (error) => {
    if (!closing) options.onError(error);
  };
  let endedWhy: string | null = null;
  let ended!: (why: string) => void;
  const endedPromise = new Promise<string>((resolve) => (ended = resolve));
  client.onclose = () => {
    if (closing) return;
    endedWhy = child ? `exited (${child.exit ?? "unknown status"})` : "closed";
    ended(endedWhy);
  };
  try {
    await client.connect(transport, {
      timeout: CONNECT_TIMEOUT_MS,
      ...(options.prior !== undefined ? { prior: options.prior } : {}),
    });
  } catch (error) {
    closing = true;
    await client.close().catch(() => undefined);
    const tail = child?.stderrTail;
    throw new Error(
      `${(error as Error).message}${child?.exit ? ` (the child exited, ${child.exit})` : ""}${
        tail ? `; its stderr ends: ${tail.split("\n").slice(-3).join(" | ")}` : ""
      }`,
      { cause: error },
    );
  }
  const close = async (why?: string) => {
    closing = true;
    if (why !== undefined) endedWhy ??= why;
    await client.close();
  };
  /** Requests in flight, and what to do when the last one settles (set by `retire`). */
  let running = 0;
  let whenIdle: (() => void) | undefined;
  let retired: Promise<void> | undefined;
  return {
    client,
    async run(request) {
      running++;
      try {
        return await request(client);
      } finally {
        if (--running === 0) whenIdle?.();
      }
    },
    retire(why) {
      retired ??=
        running === 0
          ? close(why)
          : new Promise<void>((resolve, reject) => {
              whenIdle = () => void close(why).then(resolve, reject);
            });
      return retired;
    },
    get pid() {
      return child?.pid ?? null;
    },
    ended: endedPromise,
    get endedWhy() {
      return endedWhy;
    },
    get sessionId() {
      return http?.sessionId;
    },
    verdict: verdictOf(client),
    close,
  };
}

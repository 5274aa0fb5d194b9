/**
 * One connection to an upstream: the SDK `Client` over the child's stdio or Streamable HTTP
 * (its answers bounded by `maxAnswerBytes` either way), initialized, and a promise that tells
 * when (and why) it ended without being closed by us.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { RUNTIME_VERSION } from "@zcp/runtime/codegen";
import { boundedFetch } from "./bounded-fetch.js";
import { ChildTransport } from "./child-transport.js";
import type { UpstreamServer } from "./types.js";

/** How long connecting and `initialize` may take. */
const CONNECT_TIMEOUT_MS = 30_000;

export interface Connection {
  readonly client: Client;
  /** The child's process id (stdio), else null. */
  readonly pid: number | null;
  /** Resolves, with how it ended (e.g. `exited (code 1)`), when the connection ends unasked. */
  readonly ended: Promise<string>;
  /** How it ended, as soon as it has (before the calls in flight reject), else null. */
  readonly endedWhy: string | null;
  /** The session id a Streamable HTTP upstream gave, else undefined. */
  readonly sessionId: string | undefined;
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
}

/** Opens and initializes a connection to `server` (already expanded); rejects with an Error saying why it could not. */
export async function openConnection(
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
  const client = new Client({ name: "zcp-gateway", version: RUNTIME_VERSION });
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
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
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
  return {
    client,
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
    async close(why) {
      closing = true;
      if (why !== undefined) endedWhy ??= why;
      await client.close();
    },
  };
}

/**
 * One connection to an upstream: the SDK `Client` over the child's stdio or Streamable HTTP,
 * initialized, and a promise that tells when (and why) it ended without being closed by us.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { RUNTIME_VERSION } from "@zcp/runtime/codegen";
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
  /** Ends the connection (stops the child); `ended` then never resolves. */
  close(): Promise<void>;
}

/** Opens and initializes a connection to `server` (already expanded); rejects with an Error saying why it could not. */
export async function openConnection(server: UpstreamServer): Promise<Connection> {
  const child = "command" in server ? new ChildTransport(server) : undefined;
  const transport =
    child ??
    new StreamableHTTPClientTransport(
      new URL((server as { url: string }).url),
      "headers" in server && server.headers
        ? { requestInit: { headers: { ...server.headers } } }
        : {},
    );
  const client = new Client({ name: "zcp-gateway", version: RUNTIME_VERSION });
  let closing = false;
  let ended!: (why: string) => void;
  const endedPromise = new Promise<string>((resolve) => (ended = resolve));
  client.onclose = () => {
    if (!closing) ended(child ? `exited (${child.exit ?? "unknown status"})` : "closed");
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
    async close() {
      closing = true;
      await client.close();
    },
  };
}

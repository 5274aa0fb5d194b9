/**
 * The 2025 era's MCP sessions in a store (`RuntimeOptions.sessions`, e.g. Redis; native sessions
 * and 2026-07-28 requests keep no state there): a session unknown here is resumed from the store,
 * once per id however many of its requests arrive together; the answer when the store is
 * unreachable; the readiness probe's check of the store; the answer when it has no room for a new
 * session; and what a session keeps of its `initialize`.
 */
import type { InitializeRequest, RequestId } from "@modelcontextprotocol/server";
import type { JsonValue, SessionStore } from "@zcp/runtime";

/** The message of the 503 a request gets when the store it needs does not answer. */
export const STORE_UNREACHABLE = "Service Unavailable: the session store is unreachable";

/**
 * The message of the 503 a new session gets when the store holds as many states as it keeps:
 * that of a full session table (idle.ts).
 */
export const STORE_FULL = "Service Unavailable: too many open sessions";

/** How long `/readyz` waits for the store's answer. */
const READY_TIMEOUT_MS = 500;

/** Whether the store answers within `ms`. */
export async function storeAnswers(
  store: SessionStore,
  ms: number = READY_TIMEOUT_MS,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([store.ping().then(() => true as const), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sessions being resumed, by id: the requests of a session that arrive while it is being resumed
 * wait for the same resumption instead of loading it again.
 */
export class Resumptions<T> {
  readonly #pending = new Map<string, Promise<T>>();

  /** The resumption of `id` in progress, or `resume()`, started now. */
  get(id: string, resume: () => Promise<T>): Promise<T> {
    const pending = this.#pending.get(id);
    if (pending) return pending;
    const started = resume().finally(() => this.#pending.delete(id));
    this.#pending.set(id, started);
    return started;
  }
}

/** The JSON bytes of an MCP session's `initialize` a store keeps at most. */
const MAX_KEPT_INITIALIZE_BYTES = 4096;

/**
 * What a session shared by replicas keeps of its MCP `initialize`, which another replica
 * replays to resume it: what the SDK server reads of it (the protocol version, the client's
 * capabilities, its name, title and version) and the JSON-RPC frame, nothing else the request
 * carries (`_meta`, other fields, the client's icons and description), so that the stored state
 * stays small. Or, when even that is over `MAX_KEPT_INITIALIZE_BYTES`, the message of the
 * refusal.
 */
export function keptInitialize(
  request: InitializeRequest & { readonly id?: RequestId },
): JsonValue | string {
  const { protocolVersion, capabilities, clientInfo } = request.params;
  const { name, title, version } = clientInfo;
  const kept = {
    jsonrpc: "2.0",
    id: request.id ?? null,
    method: "initialize",
    params: {
      protocolVersion,
      capabilities: capabilities as JsonValue,
      clientInfo: { name, ...(title === undefined ? {} : { title }), version },
    },
  };
  const bytes = Buffer.byteLength(JSON.stringify(kept));
  return bytes <= MAX_KEPT_INITIALIZE_BYTES
    ? kept
    : `Invalid params: the initialize request's id, protocolVersion, capabilities and clientInfo take ${bytes} bytes as JSON; a session shared by replicas keeps at most ${MAX_KEPT_INITIALIZE_BYTES}`;
}

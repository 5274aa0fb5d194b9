/**
 * Client transports for the native ZCP protocol: a spawned stdio server, or `POST /zcp`.
 * Both send one JSON-RPC request and resolve to its response, and send notifications (over
 * HTTP, each in a POST of its own with the session header; over stdio, on the same stream).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { SESSION_HEADER, SessionTokenJar, type RpcResponse } from "@zcp/runtime/wire";

/** A request as a transport sends it. */
export interface RequestMessage {
  readonly jsonrpc: "2.0";
  readonly id: number;
  readonly method: string;
  readonly params?: object;
}

export interface ClientTransport {
  /**
   * Sends one request (with an id) and resolves to its response. When `signal` aborts (the
   * client's time limit passed), the transport stops waiting for the answer (and forgets the
   * request) and rejects with the signal's reason.
   */
  request(
    message: RequestMessage,
    options?: { readonly signal?: AbortSignal },
  ): Promise<RpcResponse>;
  /** Sends one notification (no id, nothing is answered); resolves once it is sent. */
  notify(message: {
    readonly jsonrpc: "2.0";
    readonly method: string;
    readonly params?: object;
  }): Promise<void>;
  close(): Promise<void>;
}

/** A transport failure (the server went away, an HTTP status without a JSON-RPC answer, ...). */
export class ZcpTransportError extends Error {
  override name = "ZcpTransportError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface StdioTransportOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** What happens to the server's stderr (default `inherit`). */
  readonly stderr?: "inherit" | "ignore" | "pipe";
}

export function stdioTransport(
  command: string,
  args: readonly string[],
  options: StdioTransportOptions = {},
): ClientTransport & { readonly child: ChildProcess } {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["pipe", "pipe", options.stderr ?? "inherit"],
  });
  const waiting = new Map<
    number,
    { resolve: (response: RpcResponse) => void; reject: (error: Error) => void }
  >();
  let gone: Error | undefined;
  const fail = (error: Error) => {
    gone ??= error;
    for (const entry of waiting.values()) entry.reject(gone);
    waiting.clear();
  };
  child.once("error", (error) =>
    fail(new ZcpTransportError(`cannot run ${command}: ${error.message}`)),
  );
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      fail(new ZcpTransportError(`the server exited (${signal ?? `code ${code}`})`));
      resolve();
    });
  });
  child.stdin!.on("error", () => undefined);
  createInterface({ input: child.stdout!, crlfDelay: Infinity }).on("line", (line) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return; // not ours to answer; the server writes only responses
    }
    for (const response of Array.isArray(parsed) ? parsed : [parsed]) {
      const id = (response as { id?: unknown }).id;
      const entry = typeof id === "number" ? waiting.get(id) : undefined;
      if (!entry) continue;
      waiting.delete(id as number);
      entry.resolve(response as RpcResponse);
    }
  });
  return {
    child,
    request(message, { signal } = {}) {
      if (gone) return Promise.reject(gone);
      return new Promise((resolve, reject) => {
        const entry = { resolve, reject };
        waiting.set(message.id, entry);
        signal?.addEventListener(
          "abort",
          () => {
            if (waiting.get(message.id) === entry) waiting.delete(message.id);
            reject(signal.reason);
          },
          { once: true },
        );
        child.stdin!.write(`${JSON.stringify(message)}\n`);
      });
    },
    async notify(message) {
      if (gone) throw gone;
      child.stdin!.write(`${JSON.stringify(message)}\n`);
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin!.end();
        const timer = setTimeout(() => child.kill(), 2000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

export interface HttpTransportOptions {
  /** Extra headers on every request (e.g. `authorization`). */
  readonly headers?: { readonly [name: string]: string };
  /**
   * The `fetch` that sends each request (default the global one): e.g. one that spreads them over
   * replicas, any of which serves any request of the session from its token.
   */
  readonly fetch?: (url: string | URL, init: RequestInit) => Promise<Response>;
}

/**
 * `POST /zcp`. The session's state travels as a token in `zcp-session-id`: each answer carries
 * the session's current one, and the transport sends back the newest (`SessionTokenJar`: the
 * highest revision; two of one revision when two requests changed the state at once, which the
 * server merges). `sessionId` is the header it sends.
 */
export function httpTransport(
  url: string | URL,
  options: HttpTransportOptions = {},
): ClientTransport & { readonly sessionId: string | undefined } {
  const tokens = new SessionTokenJar();
  const post = async (body: unknown, signal?: AbortSignal): Promise<Response> => {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json",
      ...options.headers,
    };
    const sessionId = tokens.header;
    if (sessionId !== undefined) headers[SESSION_HEADER] = sessionId;
    return (options.fetch ?? fetch)(url, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  };
  return {
    get sessionId() {
      return tokens.header;
    },
    async request(message, { signal } = {}) {
      if (message.method === "initialize") tokens.clear();
      const response = await post(message, signal);
      const header = response.headers.get(SESSION_HEADER);
      if (header !== null) tokens.keep(header);
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ZcpTransportError(
          `HTTP ${response.status}: ${text.slice(0, 200)}`,
          response.status,
        );
      }
      if (parsed !== null && typeof parsed === "object" && "jsonrpc" in parsed)
        return parsed as RpcResponse;
      throw new ZcpTransportError(
        `HTTP ${response.status}: not a JSON-RPC response`,
        response.status,
      );
    },
    async notify(message) {
      const response = await post(message);
      await response.body?.cancel();
      if (!response.ok)
        throw new ZcpTransportError(
          `HTTP ${response.status}: the notification was refused`,
          response.status,
        );
    },
    async close() {
      if (tokens.header === undefined) return;
      await post({ jsonrpc: "2.0", method: "session/close" }).then(
        (response) => response.body?.cancel(),
        () => undefined,
      );
      tokens.clear();
    },
  };
}

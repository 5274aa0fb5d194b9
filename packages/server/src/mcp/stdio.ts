/**
 * MCP over stdio, both eras on one connection: the SDK's `serveStdio` reads the opening message
 * and pins the connection to an era. A 2025 opening (`initialize`, or any message without the
 * 2026-07-28 envelope) gets one MCP session (one runtime session) for the process, as before;
 * a 2026-07-28 one gets the stateless server (stateless.ts) over the fixed view the process's
 * options name, the connection being its one caller. Newline-delimited JSON-RPC on stdin/stdout;
 * nothing but protocol messages is written to stdout; logs go to stderr.
 *
 * The transport is ours, not the SDK's `StdioServerTransport`: that one buffers up to 10 MiB of
 * a line and, past it, drops the buffer mid-line and stops answering. Ours reads through the
 * bounded line reader the native stdio server uses, so a long line costs at most `maxLineBytes`
 * of memory and one error answer, and the next line is served.
 *
 * At the end of input the transport closes only once every request it read has been answered
 * (or cancelled by the client: the SDK answers nothing then), so that a host that writes its
 * requests and closes stdin at once still gets every answer; closing earlier would make the SDK
 * abort the handlers still running, and their answers would be lost.
 */
import { randomUUID } from "node:crypto";
import process from "node:process";
import type { Readable, Writable } from "node:stream";
import {
  ProtocolErrorCode as ErrorCode,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/server";
import { serveStdio as serveBothEras } from "@modelcontextprotocol/server/stdio";
import type { Runtime } from "@zcp/runtime";
import {
  SessionBudget,
  type BudgetedTransport,
  type RequestBudget,
  type ResponseLimits,
} from "../budget.js";
import { DEFAULT_MAX_LINE_BYTES, readJsonLines } from "../stdio/lines.js";
import { jsonRpcMessage } from "./messages.js";
import { createMcpServer, type McpServerOptions, type ZcpMcpServer } from "./server.js";
import { StatelessMcp } from "./stateless.js";

/** The MCP server on stdio. */
export interface McpStdioServer {
  /**
   * Resolves once stdin has ended and every request read before its end was answered (or
   * cancelled), and the transport closed; or once the server was closed.
   */
  readonly done: Promise<void>;
  /** The era the connection was opened in; undefined before its first message. */
  readonly era: "legacy" | "modern" | undefined;
  /** `tools/call` requests running now. */
  readonly running: number;
  /** Resolves once no `tools/call` runs (at once when none does). */
  idle(): Promise<void>;
  /** Ends the running calls: they answer `cancelled` with `reason`; the connection stays open. */
  endCalls(reason: string): Promise<void>;
  /** Closes the connection and the runtime session (a 2025 one's handles are dropped). */
  close(): Promise<void>;
}

export interface StdioOptions extends McpServerOptions {
  /** Default `process.stdin`. */
  readonly stdin?: Readable;
  /** Default `process.stdout`. Nothing else may write to it. */
  readonly stdout?: Writable;
  /**
   * Longest line in bytes (default 1 MiB); a longer one is discarded and answered with -32600
   * (with its id when the line starts with one).
   */
  readonly maxLineBytes?: number;
  /** Errors the SDK reports out of band (default: none reported). */
  readonly onError?: (error: Error) => void;
}

/**
 * Serves `runtime` on stdin/stdout until stdin ends and the requests read before were answered
 * (then the session closes and its handles are dropped; `done` resolves). A line that is not
 * JSON gets a -32700 error; one that is JSON but no JSON-RPC message, or is longer than
 * `maxLineBytes`, a -32600 error (with the line's id when it has a usable one, else `id: null`;
 * a malformed notification gets no answer); the server goes on reading.
 */
export async function serveStdio(
  runtime: Runtime,
  options: StdioOptions = {},
): Promise<McpStdioServer> {
  const transport = new LineTransport(
    options.stdin ?? process.stdin,
    options.stdout ?? process.stdout,
    options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    options,
  );
  const stateless = new StatelessMcp(runtime, options);
  // The connection is its one caller: its handles are its own, with short ids.
  const caller = {
    authorization: `stdio:${randomUUID()}`,
    ...(options.caller ? { identity: options.caller } : {}),
  };
  const view = {
    surface: options.surface ?? "mcp",
    ...(options.stage !== undefined ? { stage: options.stage } : {}),
  };
  let legacy: ZcpMcpServer | undefined;
  let era: McpStdioServer["era"];
  let stopUpdates = (): void => undefined;
  const handle = serveBothEras(
    (context) => {
      era = context.era;
      if (context.era === "modern") {
        const server = stateless.connection(view, caller);
        // The SDK routes the connection's `notifications/resources/updated` onto the open
        // `subscriptions/listen` streams whose filter lists the URI (none: nothing is sent).
        stopUpdates = runtime.features.onUpdated((uri) => {
          server.sendResourceUpdated({ uri }).catch(() => undefined);
        });
        return server;
      }
      legacy = createMcpServer(runtime, options);
      return legacy.server;
    },
    { transport, ...(options.onError ? { onerror: options.onError } : {}) },
  );
  return {
    done: transport.closed.then(() => {
      stopUpdates();
      return legacy?.close();
    }),
    get era() {
      return era;
    },
    get running() {
      return (legacy?.running ?? 0) + stateless.running;
    },
    idle: () => Promise.all([legacy?.idle(), stateless.idle()]).then(() => undefined),
    async endCalls(reason) {
      await Promise.all([legacy?.session.close(reason), stateless.close(reason)]);
    },
    async close() {
      stopUpdates();
      await handle.close();
      await Promise.all([legacy?.close(), stateless.close()]);
    },
  };
}

/**
 * The SDK `Transport` over newline-delimited stdin/stdout; it closes once stdin has ended and
 * the requests it read are answered.
 */
class LineTransport implements Transport, BudgetedTransport {
  onmessage?: Transport["onmessage"];
  onerror?: Transport["onerror"];
  onclose?: Transport["onclose"];
  #stop: (() => void) | undefined;
  #closed = false;
  #ended = false;
  /** The requests passed on and not answered yet, by id (a count: a client may repeat an id). */
  readonly #unanswered = new Map<string | number, number>();
  #resolveClosed!: () => void;
  /** Resolves once the transport has closed. */
  readonly closed = new Promise<void>((resolve) => (this.#resolveClosed = resolve));

  /** Each line is a request of the session's response budget (budget.ts), until its answer is written. */
  readonly #budget: SessionBudget;
  /**
   * The budgets of the requests passed on and not answered yet, by id, oldest first (as
   * `#unanswered` counts them: a client may repeat an id). Which of a repeated id's requests an
   * answer or a reservation belongs to cannot be told: the oldest one's budget is taken, so that
   * each request holds a budget of its own until an answer with its id is written.
   */
  readonly #budgets = new Map<string | number, RequestBudget[]>();

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxLineBytes: number,
    limits: ResponseLimits,
  ) {
    this.#budget = new SessionBudget(limits);
  }

  requestBudget(id: unknown): RequestBudget | undefined {
    return this.#budgets.get(id as string | number)?.[0];
  }

  async start(): Promise<void> {
    if (this.#stop) throw new Error("zcp: the stdio transport is started already");
    this.stdin.on("error", this.#onError);
    this.#stop = readJsonLines(this.stdin, {
      maxLineBytes: this.maxLineBytes,
      onValue: (value) => this.#onValue(value),
      onRefused: (answer) => void this.#write(answer),
      onEnd: () => {
        this.#ended = true;
        this.#closeWhenAnswered();
      },
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const id = "result" in message || "error" in message ? message.id : undefined;
    const budget = id === undefined ? undefined : this.#takeBudget(id);
    // Counted (serialized and encoded once), and held from the session until stdout has taken it.
    await this.#write(budget ? budget.encode(id, message) : message);
    budget?.end();
    if (("result" in message || "error" in message) && message.id !== undefined)
      this.#answered(message.id);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop?.();
    this.stdin.off("error", this.#onError);
    // Stop reading unless someone else reads stdin too.
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.onclose?.();
    this.#resolveClosed();
  }

  /** A request with this id was answered, or cancelled by the client (the SDK answers nothing then). */
  #answered(id: string | number): void {
    const count = this.#unanswered.get(id);
    if (count === undefined) return;
    if (count > 1) this.#unanswered.set(id, count - 1);
    else this.#unanswered.delete(id);
    this.#closeWhenAnswered();
  }

  /** The budget of the oldest unanswered request with this id, no longer theirs. */
  #takeBudget(id: string | number): RequestBudget | undefined {
    const [oldest, ...rest] = this.#budgets.get(id) ?? [];
    if (rest.length > 0) this.#budgets.set(id, rest);
    else this.#budgets.delete(id);
    return oldest;
  }

  #closeWhenAnswered(): void {
    if (this.#ended && this.#unanswered.size === 0) void this.close();
  }

  readonly #onError = (error: Error): void => this.onerror?.(error);

  #onValue(value: unknown): void {
    if (Array.isArray(value) && value.length === 0) {
      void this.#write(refusal(ErrorCode.InvalidRequest, "Invalid Request: empty batch"));
      return;
    }
    const message = jsonRpcMessage(value);
    if (message) {
      if ("method" in message && "id" in message) {
        this.#unanswered.set(message.id, (this.#unanswered.get(message.id) ?? 0) + 1);
        const budgets = this.#budgets.get(message.id) ?? [];
        this.#budgets.set(message.id, [...budgets, this.#budget.request()]);
      }
      this.onmessage?.(message);
      if ("method" in message && message.method === CANCELLED) {
        const id = (message.params as { readonly requestId?: unknown } | undefined)?.requestId;
        if (typeof id === "string" || typeof id === "number") {
          this.#answered(id);
          // Never answered: what its handler reserved goes back to the session.
          this.#takeBudget(id)?.end();
        }
      }
      return;
    }
    const { id, notification } = shape(value);
    // A notification is never answered, not even when it is malformed.
    if (notification) return;
    void this.#write(
      refusal(ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 message", id),
    );
  }

  /** Writes one message as a line; resolves once the stream took it (after `drain` if it must). */
  #write(message: unknown): Promise<void> {
    // An answer the budget encoded comes as its bytes already.
    const line =
      message instanceof Uint8Array
        ? Buffer.concat([message, NEWLINE])
        : `${JSON.stringify(message)}\n`;
    return new Promise((resolve) => {
      if (this.stdout.write(line)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }
}

const CANCELLED = "notifications/cancelled";
const NEWLINE = Buffer.from("\n");

/** An error answer to a line; `id: null` when it carries no usable id. */
function refusal(code: number, message: string, id: string | number | null = null): unknown {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/** What can be told of a line that is no valid message: its id, and whether it is a notification. */
function shape(value: unknown): {
  readonly id: string | number | null;
  readonly notification: boolean;
} {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { id: null, notification: false };
  const record = value as { readonly [key: string]: unknown };
  const id = record["id"];
  return {
    id: typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null,
    notification:
      record["jsonrpc"] === "2.0" && typeof record["method"] === "string" && !("id" in record),
  };
}

/**
 * The native ZCP client: `initialize`, listings cached by hash (`knownHash`), typed calls, handle
 * operations and stages, over any `ClientTransport`. JSON-RPC errors throw `ZcpRpcError`; tool
 * errors are results (`{ ok: false, error, hint }`), as the server sends them.
 */
import type {
  CallError,
  ContentBlock,
  CountResult,
  GrepOptions,
  GrepResult,
  HandleInfo,
  HandleMeta,
  JsonValue,
  ReadOptions,
  ReadResult,
  ViewOptions,
  ViewResult,
} from "@zcp/runtime";
import type {
  InitializeParams,
  InitializeResult,
  ListFormat,
  ListToolsParams,
  ListToolsResult,
  RpcErrorObject,
  RpcResponse,
  StageResult,
  ToolListing,
} from "@zcp/runtime/wire";
import {
  httpTransport,
  stdioTransport,
  type ClientTransport,
  type HttpTransportOptions,
  type RequestMessage,
  type StdioTransportOptions,
} from "./transport.js";

/**
 * How long a request waits for its answer by default: longer than `zcp-serve` takes to answer a
 * call with its default flags, so that the server's own `busy` or `timeout` answer comes first.
 * A call may wait for a worker up to 2 × (T + G) (T = `--timeout-ms`, 30 s; G = 1 s, the grace
 * before a stuck worker is terminated; past it `busy`), then run up to T: 2 × (T + G) + T = 92 s.
 */
const DEFAULT_TIMEOUT_MS = 120_000;
/** The longest delay `setTimeout` keeps (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ClientOptions {
  /**
   * How long a request waits for its answer, in ms (default 120,000). When it passes, the request
   * rejects with `ZcpTimeoutError`, and the server is sent `notifications/cancelled` for it.
   * `0` (or `Infinity`) waits for as long as it takes.
   */
  readonly timeoutMs?: number;
}

/** A request got no answer within the client's `timeoutMs`. */
export class ZcpTimeoutError extends Error {
  override name = "ZcpTimeoutError";
  constructor(
    readonly method: string,
    readonly id: number,
    readonly timeoutMs: number,
  ) {
    super(`zcp: no answer to ${method} (request ${id}) within ${timeoutMs} ms`);
  }
}

/** A JSON-RPC error answer. */
export class ZcpRpcError extends Error {
  override name = "ZcpRpcError";
  readonly code: number;
  readonly data: unknown;
  constructor(error: RpcErrorObject) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
  }
}

/** A call's result with the tool's value typed. */
export type TypedCallResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: true; readonly content: readonly ContentBlock[] }
  | {
      readonly ok: true;
      readonly handle: string;
      readonly summary: string;
      readonly meta: HandleMeta;
      /** The value's first page, when it was over the call's token budget. */
      readonly head?: JsonValue;
    }
  | CallError;

export interface CallOptions {
  /**
   * Cancels the call: the server is sent `notifications/cancelled` for it (its tool's signal
   * aborts), and the call resolves `{ ok: false, error: "cancelled" }` at once, without waiting
   * for the server's answer.
   */
  readonly signal?: AbortSignal;
  /**
   * The most tokens the caller reads of the result (a whole number from 1): a larger result
   * is a handle whose first page is inline. The server's and the tool's budgets still apply;
   * the smallest wins.
   */
  readonly maxResultTokens?: number;
}

/** What a cancelled call resolves to (the runtime's own words for a cancelled call). */
const CANCELLED: CallError = { ok: false, error: "cancelled", hint: "the call was cancelled" };

/** Any alias with any arguments: the client's types when no generated map is given. */
export type AnyToolArgs = { readonly [alias: string]: { readonly [param: string]: unknown } };

/** The result type of `A`: from the generated `ToolResults` when it names `A`, else any JSON. */
export type ResultOf<Results, A> = A extends keyof Results ? Results[A] : JsonValue;

export type ListOptions = Omit<ListToolsParams, "knownHash">;

/** What `initialize` may ask for besides what the client sends itself. */
export type InitializeOptions = Pick<InitializeParams, "findFormat">;

/** What `listTools` resolves to for each format. */
export type ListingOf<F extends ListFormat> =
  Extract<ToolListing, { format: F }> extends never
    ? ToolListing
    : Extract<ToolListing, { format: F }>;

/**
 * A native ZCP client. `Args` and `Results` are the generated `ToolArgs`/`ToolResults` maps of
 * `zcp.gen/types.ts`: with them, `call` accepts only known aliases and their exact arguments.
 */
export class ZcpClient<Args extends object = AnyToolArgs, Results = Record<never, never>> {
  #nextId = 1;
  /** The last listing per format: its hash goes out as `knownHash`. */
  readonly #listings = new Map<ListFormat, ToolListing>();
  #info: InitializeResult | undefined;
  /** 0: no time limit. */
  readonly #timeoutMs: number;

  constructor(
    readonly transport: ClientTransport,
    options: ClientOptions = {},
  ) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (
      timeoutMs !== Infinity &&
      !(Number.isSafeInteger(timeoutMs) && timeoutMs >= 0 && timeoutMs <= MAX_TIMER_MS)
    )
      throw new RangeError(
        `ZcpClient: timeoutMs must be 0, Infinity or an integer from 1 to ${MAX_TIMER_MS}, got ${String(timeoutMs)}`,
      );
    this.#timeoutMs = timeoutMs === Infinity ? 0 : timeoutMs;
  }

  /** What `initialize` answered, once it has. */
  get serverInfo(): InitializeResult | undefined {
    return this.#info;
  }

  /** Sends a request; resolves to its result or throws `ZcpRpcError`. */
  request<R = unknown>(method: string, params?: object): Promise<R> {
    return this.#send(this.#nextId++, method, params);
  }

  async #send<R>(id: number, method: string, params?: object): Promise<R> {
    const response = await this.#exchange({
      jsonrpc: "2.0",
      id,
      method,
      ...(params !== undefined ? { params } : {}),
    });
    if ("error" in response) throw new ZcpRpcError(response.error);
    return response.result as R;
  }

  /**
   * The transport's answer to `message`, within `timeoutMs`: past it, the transport is told to
   * stop waiting (its signal aborts), the server to stop the request, and it rejects.
   */
  #exchange(message: RequestMessage): Promise<RpcResponse> {
    const ms = this.#timeoutMs;
    if (ms === 0) return this.transport.request(message);
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new ZcpTimeoutError(message.method, message.id, ms);
        controller.abort(error);
        this.#cancel(message.id, error.message);
        reject(error);
      }, ms);
    });
    return Promise.race([
      this.transport.request(message, { signal: controller.signal }),
      timedOut,
    ]).finally(() => clearTimeout(timer));
  }

  /** Tells the server to stop request `id`; a server that is gone is the next request's news. */
  #cancel(id: number, reason: string | undefined): void {
    this.transport
      .notify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: id, ...(reason !== undefined ? { reason } : {}) },
      })
      .catch(() => undefined);
  }

  /** Opens the session; `findFormat`: how its `zcp.find_tools` lists what it found. */
  async initialize(options: InitializeOptions = {}): Promise<InitializeResult> {
    this.#listings.clear();
    const params: InitializeParams = {
      protocolVersion: "zcp/1",
      clientInfo: { name: "@zcp/client", version: "0.1.0" },
      ...(options.findFormat !== undefined ? { findFormat: options.findFormat } : {}),
    };
    this.#info = await this.request<InitializeResult>("initialize", params);
    return this.#info;
  }

  /**
   * The tools of the session's view, narrowed by the options, in `format` (default `compact`).
   * Sends the hash of the last listing of that format as `knownHash`; when the server answers
   * `unchanged`, resolves to that cached listing without a new transfer.
   */
  async listTools<F extends ListFormat = "compact">(
    options: ListOptions & { readonly format?: F } = {},
  ): Promise<ListingOf<F>> {
    const format: ListFormat = options.format ?? "compact";
    const cached = this.#listings.get(format);
    const result = await this.request<ListToolsResult>("tools/list", {
      ...options,
      format,
      ...(cached ? { knownHash: cached.hash } : {}),
    });
    if ("unchanged" in result) {
      if (cached && cached.hash === result.hash) return cached as ListingOf<F>;
      // Cannot happen with a well-behaved server: ask again without the hash.
      this.#listings.delete(format);
      return this.listTools(options);
    }
    this.#listings.set(format, result);
    return result as ListingOf<F>;
  }

  /** The hash of the cached listing of `format` (what the next `listTools` sends as `knownHash`). */
  cachedHash(format: ListFormat = "compact"): string | undefined {
    return this.#listings.get(format)?.hash;
  }

  /**
   * Calls a tool by alias (or id / provider name); tool errors are results. Aborting
   * `options.signal` cancels the call (see `CallOptions`).
   */
  call<A extends keyof Args & string>(
    alias: A,
    args: Args[A],
    options: CallOptions = {},
  ): Promise<TypedCallResult<ResultOf<Results, A>>> {
    const { signal, maxResultTokens } = options;
    const params = {
      name: alias,
      arguments: args,
      ...(maxResultTokens !== undefined ? { maxResultTokens } : {}),
    };
    if (signal === undefined) return this.request("tools/call", params);
    if (signal.aborted) return Promise.resolve(CANCELLED);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const cancel = () => {
        this.#cancel(id, signal.reason instanceof Error ? signal.reason.message : undefined);
        resolve(CANCELLED);
      };
      signal.addEventListener("abort", cancel, { once: true });
      // The listener goes before the answer is passed on: an abort after it sends nothing.
      this.#send<TypedCallResult<ResultOf<Results, A>>>(id, "tools/call", params).then(
        (result) => {
          signal.removeEventListener("abort", cancel);
          resolve(result);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", cancel);
          reject(error);
        },
      );
    });
  }

  readonly handles = {
    count: (handle: string): Promise<CountResult | CallError> =>
      this.request("handles/count", { handle }),
    read: (handle: string, options: ReadOptions = {}): Promise<ReadResult | CallError> =>
      this.request("handles/read", { handle, ...options }),
    view: (handle: string, options: ViewOptions = {}): Promise<ViewResult | CallError> =>
      this.request("handles/view", { handle, ...options }),
    grep: (handle: string, options: GrepOptions): Promise<GrepResult | CallError> =>
      this.request("handles/grep", { handle, ...options }),
    summary: (handle: string): Promise<HandleInfo | CallError> =>
      this.request("handles/summary", { handle }),
    release: (handle: string): Promise<{ readonly ok: true } | CallError> =>
      this.request("handles/release", { handle }),
  };

  /** Moves the session's stage (null: no stage); resolves to the new view hash. */
  setStage(stage: string | null): Promise<StageResult> {
    return this.request("session/stage", { stage });
  }

  async ping(): Promise<void> {
    await this.request("ping");
  }

  /** Ends the session (over HTTP, `session/close`; over stdio, the server process ends). */
  async close(): Promise<void> {
    await this.transport.close();
  }
}

/** Spawns a native stdio server (`command args…`) and connects to it. Call `initialize()` next. */
export function connectStdio<Args extends object = AnyToolArgs, Results = Record<never, never>>(
  command: string,
  args: readonly string[] = [],
  options: StdioTransportOptions & ClientOptions = {},
): ZcpClient<Args, Results> {
  return new ZcpClient<Args, Results>(stdioTransport(command, args, options), options);
}

/** Connects to a native HTTP endpoint (`…/zcp`). Call `initialize()` next: it opens the session. */
export function connectHttp<Args extends object = AnyToolArgs, Results = Record<never, never>>(
  url: string | URL,
  options: HttpTransportOptions & ClientOptions = {},
): ZcpClient<Args, Results> {
  return new ZcpClient<Args, Results>(httpTransport(url, options), options);
}

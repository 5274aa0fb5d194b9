/**
 * The native ZCP dispatcher: JSON-RPC 2.0 over one runtime session, independent of the
 * transport. `handle(message)` takes a parsed message (or batch) and resolves to the response
 * (or batch of responses), or `undefined` when nothing is to be answered (notifications). It
 * never throws and never stops serving: bad input gets a JSON-RPC error.
 *
 *   initialize      server info, `zcp/1`, the registry hash, the session's view hash, capabilities
 *   tools/list      profile/groups/excludeGroups/stages, format, docs, lean, knownHash → listing or `{ unchanged, hash }`
 *   tools/call      name, arguments → the runtime's CallResult (tool errors are results)
 *   handles/count|read|view|summary|release   handle + op options → the store's answer (errors are results)
 *   session/stage   stage → `{ stage, hash }`
 *   session/close   ends the session (its handles are dropped)
 *   ping            `{}`
 *   notifications/cancelled   requestId → cancels that running `tools/call` of this session
 */
import { clip, SelectionError, type Runtime, type Session } from "@zcp/runtime";
import { nativeMethods, RpcFailure, type Params } from "./methods.js";
import {
  DEFAULT_MAX_BATCH,
  DEFAULT_MAX_DEPTH,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  nestedDeeperThan,
  rpcError,
  rpcResult,
  SERVER_ERROR,
  type RequestId,
  type RpcResponse,
} from "./protocol.js";

export interface NativeSessionOptions {
  /** `serverInfo.name` (default `zcp`). */
  readonly name?: string;
  /** `serverInfo.version` (default `0.1.0`). */
  readonly version?: string;
  /** Sent to the client in the `initialize` result. */
  readonly instructions?: string;
  /** The exposure-policy surface of the runtime session (default `native`). */
  readonly surface?: string;
  /** The session's initial stage. */
  readonly stage?: string;
  /** Whether the client may move the stage with `session/stage` (default true). */
  readonly clientStages?: boolean;
  /** Called with each new runtime session before the client can use it (e.g. to set its stage). */
  readonly onSession?: (session: Session) => void;
  /** Messages in one batch at most (default 50); a larger batch gets -32600. */
  readonly maxBatch?: number;
  /** Nesting levels of one message at most (default 64); deeper ones get -32600 before dispatch. */
  readonly maxDepth?: number;
  /** Unexpected errors (default: `console.error`, i.e. stderr). */
  readonly onError?: (error: unknown) => void;
}

/** `createNativeSession`'s options: the session's, and the runtime session to serve when there is one. */
export interface CreateNativeSessionOptions extends NativeSessionOptions {
  /**
   * An existing runtime session to serve (e.g. one `runtime.resume` gave back) instead of a new
   * one; `surface`, `stage` and `onSession` do not apply to it.
   */
  readonly session?: Session;
}

export interface NativeSession {
  /** The runtime session behind this native session. */
  readonly session: Session;
  /** True once `close()` ran (or the client sent `session/close`). */
  readonly closed: boolean;
  /**
   * Answers a parsed message or batch; `undefined` when there is nothing to answer. Never throws.
   * Aborting `options.signal` (e.g. the HTTP request's, when the client goes away) cancels
   * every `tools/call` of the message: they answer `cancelled`.
   */
  handle(
    message: unknown,
    options?: { readonly signal?: AbortSignal },
  ): Promise<RpcResponse | RpcResponse[] | undefined>;
  /**
   * Ends the runtime session: its handles are dropped; running and later calls answer
   * `cancelled`, with `reason` as the hint (default "the session is closed"). With `keep`, the
   * runtime session is only unloaded from this process (its handles and stored state stay).
   */
  close(reason?: string, options?: { readonly keep?: boolean }): Promise<void>;
}

/**
 * A native session: one runtime session (surface `native` by default, or `options.session`)
 * behind a JSON-RPC dispatcher.
 */
export function createNativeSession(
  runtime: Runtime,
  options: CreateNativeSessionOptions = {},
): NativeSession {
  const session =
    options.session ??
    runtime.session({
      surface: options.surface ?? "native",
      ...(options.stage !== undefined ? { stage: options.stage } : {}),
    });
  if (!options.session) options.onSession?.(session);
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const clientStages = options.clientStages ?? true;
  const clientFilters = runtime.options.exposure?.clientFilters ?? true;
  const onError = options.onError ?? ((error: unknown) => console.error("zcp native:", error));
  let closed = false;

  const close = async (reason?: string, closeOptions?: { readonly keep?: boolean }) => {
    if (closed) return;
    closed = true;
    await session.close(reason, closeOptions);
  };

  // Running `tools/call` requests by id, for `notifications/cancelled`. Keyed by the id's JSON
  // (1 and "1" are different ids); a set, as a careless client may reuse an id.
  const running = new Map<string, Set<AbortController>>();
  const cancel = (requestId: RequestId): void => {
    for (const controller of running.get(JSON.stringify(requestId)) ?? []) controller.abort();
  };

  /** Runs a `tools/call` cancellable by its id and by `outer` (the message's signal). */
  const cancellable = async (
    id: RequestId | undefined,
    outer: AbortSignal | undefined,
    run: (signal: AbortSignal) => Promise<unknown>,
  ): Promise<unknown> => {
    const controller = new AbortController();
    const abort = () => controller.abort();
    if (outer?.aborted) controller.abort();
    else outer?.addEventListener("abort", abort, { once: true });
    const key = id === undefined ? undefined : JSON.stringify(id);
    if (key !== undefined) {
      const same = running.get(key) ?? new Set();
      running.set(key, same.add(controller));
    }
    try {
      return await run(controller.signal);
    } finally {
      outer?.removeEventListener("abort", abort);
      if (key !== undefined) {
        const same = running.get(key)!;
        same.delete(controller);
        if (same.size === 0) running.delete(key);
      }
    }
  };

  const methods = nativeMethods({
    runtime,
    session,
    options,
    maxBatch,
    clientStages,
    clientFilters,
    close,
    cancel,
  });

  /** One message (not a batch): a response, or undefined for a notification. */
  const one = async (
    message: unknown,
    signal: AbortSignal | undefined,
  ): Promise<RpcResponse | undefined> => {
    const request = readRequest(message, maxDepth);
    if ("refused" in request) return request.refused;
    const { id, method, record } = request;
    const notification = !("id" in record);
    const params = record["params"];
    let response: RpcResponse;
    if (
      params !== undefined &&
      (params === null || typeof params !== "object" || Array.isArray(params))
    ) {
      response = rpcError(
        id,
        INVALID_PARAMS,
        "Invalid params: params must be an object of named parameters",
      );
    } else if (!Object.hasOwn(methods, method)) {
      response = rpcError(id, METHOD_NOT_FOUND, `Method not found: ${clip(method)}`);
    } else if (closed && method !== "ping") {
      response = rpcError(id, SERVER_ERROR, "Session closed: start a new session with initialize");
    } else {
      try {
        const run = methods[method]!;
        const given = (params ?? {}) as Params;
        const result =
          method === "tools/call"
            ? await cancellable(notification ? undefined : id, signal, async (callSignal) =>
                run(given, callSignal),
              )
            : await run(given, signal);
        response = rpcResult(id, result);
      } catch (error) {
        if (error instanceof RpcFailure) response = rpcError(id, error.code, error.message);
        else if (error instanceof SelectionError)
          response = rpcError(id, INVALID_PARAMS, `Invalid params: ${error.message}`);
        else {
          onError(error);
          response = rpcError(id, INTERNAL_ERROR, "Internal error");
        }
      }
    }
    return notification ? undefined : response;
  };

  const handle = async (
    message: unknown,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<RpcResponse | RpcResponse[] | undefined> => {
    const { signal } = options;
    try {
      if (!Array.isArray(message)) return await one(message, signal);
      if (message.length === 0)
        return rpcError(null, INVALID_REQUEST, "Invalid Request: empty batch");
      if (message.length > maxBatch)
        return rpcError(
          null,
          INVALID_REQUEST,
          `Invalid Request: batch too large (at most ${maxBatch} messages)`,
        );
      // In order: a batch may initialize, call a tool and read its handle.
      const responses: RpcResponse[] = [];
      for (const element of message) {
        const response = await one(element, signal);
        if (response) responses.push(response);
      }
      return responses.length > 0 ? responses : undefined;
    } catch (error) {
      onError(error);
      return rpcError(null, INTERNAL_ERROR, "Internal error");
    }
  };

  return {
    session,
    get closed() {
      return closed;
    },
    handle,
    close,
  };
}

/** A message's id, method and fields, or the -32600 answer it gets. */
function readRequest(
  message: unknown,
  maxDepth: number,
):
  | { readonly id: RequestId; readonly method: string; readonly record: Params }
  | { readonly refused: RpcResponse } {
  if (message === null || typeof message !== "object" || Array.isArray(message))
    return refuse(null, INVALID_REQUEST, "Invalid Request: a message must be a JSON object");
  const record = message as Params;
  const rawId = record["id"];
  const idValid =
    rawId === undefined ||
    rawId === null ||
    typeof rawId === "string" ||
    (typeof rawId === "number" && Number.isFinite(rawId));
  const id: RequestId = idValid && rawId !== undefined ? (rawId as RequestId) : null;
  if (!idValid)
    return refuse(null, INVALID_REQUEST, "Invalid Request: id must be a string, a number or null");
  if (record["jsonrpc"] !== "2.0")
    return refuse(id, INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"');
  const method = record["method"];
  if (typeof method !== "string")
    return refuse(id, INVALID_REQUEST, "Invalid Request: method must be a string");
  if (nestedDeeperThan(message, maxDepth))
    return refuse(
      id,
      INVALID_REQUEST,
      `Invalid Request: the message nests deeper than ${maxDepth} levels`,
    );
  return { id, method, record };
}

function refuse(id: RequestId, code: number, message: string): { readonly refused: RpcResponse } {
  return { refused: rpcError(id, code, message) };
}

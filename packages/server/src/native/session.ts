/**
 * The native ZCP dispatcher: JSON-RPC 2.0 over one runtime session, independent of the
 * transport. `handle(message)` takes a parsed message (or batch) and resolves to the response
 * (or batch of responses), or `undefined` when nothing is to be answered (notifications). It
 * never throws and never stops serving: bad input gets a JSON-RPC error.
 *
 *   initialize      server info, `zcp/1`, the registry hash, the session's view hash, capabilities
 *   tools/list      profile/groups/excludeGroups/stages, format, docs, lean, knownHash → listing or `{ unchanged, hash }`
 *   tools/call      name, arguments, maxResultTokens? → the runtime's CallResult (tool errors are results)
 *   handles/count|read|view|grep|summary|release   handle + op options → the store's answer (errors are results)
 *   session/stage   stage → `{ stage, hash }`
 *   session/close   ends the session (its handles are dropped)
 *   ping            `{}`
 *   notifications/cancelled   requestId → cancels that running `tools/call` of this session
 *
 * Each answer of a message or batch is counted, in order, against the session's response
 * budget (budget.ts); past it, answers are `-32000 Response too large: …`, and a handle read
 * that would not fit is refused before its value is read.
 */
import {
  clip,
  SelectionError,
  tooDeepAt,
  type CallerIdentity,
  type Runtime,
  type Session,
} from "@zcp/runtime";
import {
  ResponseTooLarge,
  SessionBudget,
  type RequestBudget,
  type ResponseLimits,
} from "../budget.js";
import { nativeMethods, RpcFailure, type InitializeOptions, type Params } from "./methods.js";
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  SERVER_ERROR,
  type RequestId,
  type RpcResponse,
} from "@zcp/runtime/wire";
import { DEFAULT_MAX_BATCH, DEFAULT_MAX_DEPTH, rpcError, rpcResult } from "./protocol.js";

export interface NativeSessionOptions extends ResponseLimits, InitializeOptions {
  /** The exposure-policy surface of the runtime session (default `native`). */
  readonly surface?: string;
  /** Who makes the session's calls, the tools' `ctx.caller` (default anonymous, no scopes). */
  readonly caller?: CallerIdentity;
  /** The session's initial stage. */
  readonly stage?: string;
  /**
   * Whether the client may move the stage with `session/stage` (default true). When false the
   * stage is the server's: over HTTP it is not in the session's token, and a session loaded from
   * a token starts at `stage` and gets it from `onSession`, never from the client.
   */
  readonly clientStages?: boolean;
  /**
   * Called with the runtime session each time one is loaded, before the client can use it: when
   * it is created (`loaded: false`), and over HTTP also each time a replica loads it from its
   * token (`loaded: true`: first use on this replica, or after it was unloaded for room or
   * idleness). A server that moves the stage itself (`clientStages: false`) keeps it by
   * `session.id` in a store of its own and sets it here on every load. A promise holds the
   * session's requests until it settles; a rejected one goes to `onError`, the requests waiting
   * answer -32603 and the session is unloaded (its handles stay; its token loads it again).
   * Any other value returned is ignored (the type says `unknown` so that `push` and the like fit).
   */
  readonly onSession?: (session: Session, load: { readonly loaded: boolean }) => unknown;
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
   * An existing runtime session to serve (one loaded from a token) instead of a new one;
   * `surface` and `stage` do not apply to it, and `onSession` gets it with `loaded: true`.
   */
  readonly session?: Session;
}

export interface NativeSession {
  /** The runtime session behind this native session. */
  readonly session: Session;
  /**
   * The session's response budget (budget.ts). `handle` counts a message's answers against a
   * request of it, ended when `handle` returns unless the caller gives its own (`budget`: a
   * transport that writes the answers later ends it once they are written).
   */
  readonly budget: SessionBudget;
  /** True once `close()` ran (or the client sent `session/close`). */
  readonly closed: boolean;
  /**
   * True once the session ended, not only unloaded: the client sent `session/close`, or
   * `close()` ran without `keep` (its handles are dropped).
   */
  readonly ended: boolean;
  /**
   * Answers a parsed message or batch; `undefined` when there is nothing to answer. Never throws.
   * Aborting `options.signal` (e.g. the HTTP request's, when the client goes away) cancels
   * every `tools/call` of the message: they answer `cancelled`. Past the response budget,
   * answers are the JSON-RPC error `Response too large: …`.
   */
  handle(
    message: unknown,
    options?: { readonly signal?: AbortSignal; readonly budget?: RequestBudget },
  ): Promise<RpcResponse | RpcResponse[] | undefined>;
  /**
   * `handle`, for a transport: the answer as UTF-8 JSON in parts, to write one after another
   * (each answer of a batch serialized and encoded once, as it is counted, and not copied into
   * one buffer); `undefined` when there is nothing to answer.
   */
  handleJson(
    message: unknown,
    options?: { readonly signal?: AbortSignal; readonly budget?: RequestBudget },
  ): Promise<readonly Buffer[] | undefined>;
  /**
   * Ends the runtime session: its handles are dropped; running and later calls answer
   * `cancelled`, with `reason` as the hint (default "the session is closed"). With `keep`, the
   * runtime session is only unloaded from this process (its handles stay). The runtime's
   * session store is never used: a native session's state is not stored (over HTTP it is the
   * client's token).
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
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const clientStages = options.clientStages ?? true;
  const clientFilters = runtime.options.exposure?.clientFilters ?? true;
  const onError = options.onError ?? ((error: unknown) => console.error("zcp native:", error));
  const budget = new SessionBudget(options);
  let closed = false;
  let ended = false;
  /** Settles once `onSession` has (false: it failed); undefined when nothing is to wait for. */
  let ready: Promise<boolean> | undefined;

  const close = async (reason?: string, closeOptions?: { readonly keep?: boolean }) => {
    if (closed) return;
    closed = true;
    // A native session is never in the runtime's session store (over HTTP its state is its
    // token): ending it drops its handles, and nothing else is stored.
    ended = closeOptions?.keep !== true;
    await session.close(reason, { keep: true });
    if (ended) await runtime.handles.dropSession(session.id);
  };

  const hook = options.onSession?.(session, { loaded: options.session !== undefined });
  if (hook instanceof Promise)
    ready = hook.then(
      () => {
        ready = undefined;
        return true;
      },
      async (error: unknown) => {
        onError(error);
        await close("the session could not be loaded", { keep: true });
        return false;
      },
    );

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
    caller: options.caller,
    maxBatch,
    clientStages,
    clientFilters,
    close,
    cancel,
  });

  /**
   * One message (not a batch), answer `key` of `request`: its answer, counted by `out`, or
   * undefined for a notification (what it reserved goes back).
   */
  const counted = async <T>(
    message: unknown,
    signal: AbortSignal | undefined,
    request: RequestBudget,
    key: number,
    out: Out<T>,
  ): Promise<T | undefined> => {
    const response = await one(message, signal, (bytes) => request.reserve(key, bytes));
    if (response !== undefined) return out(request, key, response);
    request.answer(key, 0);
    return undefined;
  };

  /** One message (not a batch): a response, or undefined for a notification. */
  const one = async (
    message: unknown,
    signal: AbortSignal | undefined,
    reserve: (bytes: number) => Promise<void>,
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
                run(given, callSignal, reserve),
              )
            : await run(given, signal, reserve);
        response = rpcResult(id, result);
      } catch (error) {
        if (error instanceof RpcFailure || error instanceof ResponseTooLarge)
          response = rpcError(id, error.code, error.message);
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

  /** A message or batch, each answer counted and shaped by `out`; a refusal of the whole is not counted. */
  const dispatch = async <T>(
    message: unknown,
    options: HandleOptions,
    out: Out<T>,
  ): Promise<T | T[] | undefined> => {
    const { signal } = options;
    const request = options.budget ?? budget.request();
    const whole = async (response: RpcResponse) => out(request, WHOLE, response);
    try {
      // No message runs before the server's hook has seen the session.
      if (ready !== undefined && !(await ready))
        return whole(rpcError(null, INTERNAL_ERROR, "Internal error"));
      if (!Array.isArray(message)) return await counted(message, signal, request, 0, out);
      if (message.length === 0)
        return whole(rpcError(null, INVALID_REQUEST, "Invalid Request: empty batch"));
      if (message.length > maxBatch)
        return whole(
          rpcError(
            null,
            INVALID_REQUEST,
            `Invalid Request: batch too large (at most ${maxBatch} messages)`,
          ),
        );
      // In order: a batch may initialize, call a tool and read its handle.
      const answers: T[] = [];
      for (const [index, element] of message.entries()) {
        const answer = await counted(element, signal, request, index, out);
        if (answer !== undefined) answers.push(answer);
      }
      return answers.length > 0 ? answers : undefined;
    } catch (error) {
      onError(error);
      return whole(rpcError(null, INTERNAL_ERROR, "Internal error"));
    } finally {
      if (options.budget === undefined) request.end();
    }
  };

  const handle = (message: unknown, options: HandleOptions = {}) =>
    dispatch<RpcResponse>(message, options, (request, key, response) =>
      request.count(key, response),
    );

  const handleJson = async (
    message: unknown,
    options: HandleOptions = {},
  ): Promise<readonly Buffer[] | undefined> => {
    const answer = await dispatch(message, options, (request, key, response) =>
      request.encode(key, response),
    );
    if (answer === undefined || !Array.isArray(answer)) return answer && [answer];
    // A batch's answers as a JSON array, without copying them into one buffer.
    const parts = answer.flatMap((part, index) => (index === 0 ? [part] : [COMMA, part]));
    return [OPEN, ...parts, CLOSE];
  };

  return {
    session,
    budget,
    get closed() {
      return closed;
    },
    get ended() {
      return ended;
    },
    handle,
    handleJson,
    close,
  };
}

interface HandleOptions {
  readonly signal?: AbortSignal;
  readonly budget?: RequestBudget;
}

/** How an answer goes out: counted against the request as its answer `key`, as an object or as bytes. */
type Out<T> = (request: RequestBudget, key: number, response: RpcResponse) => T | Promise<T>;

/** The key of an answer to a whole message (a refusal of a batch): no item's. */
const WHOLE = -1;
const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

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
  // maxDepth counts the message itself as level 1; tooDeepAt counts its top object as depth 0.
  if (tooDeepAt(message, maxDepth - 1) !== null)
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

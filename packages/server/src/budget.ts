/**
 * Response budgets: what one request may make the server produce and buffer, and one session at
 * once, on every surface (MCP and native, over HTTP and stdio). A request is what arrives in one
 * piece: an HTTP POST (one message or a batch), a stdio line.
 *
 * - Each answer of a request is counted, when it goes out, against the request's budget
 *   (`maxResponseBytes`) and the session's (`maxSessionResponseBytes`: the bytes of answers its
 *   requests are producing or have buffered, not yet taken by the client, at once). An answer
 *   that does not fit goes out as the JSON-RPC error `Response too large: …` instead (and
 *   counts nothing): past the budget, a batch's remaining items answer the error, in order,
 *   unless one is small enough for what is left. Error answers are not counted (they are small,
 *   and a refusal must always get through).
 * - Where an answer's size is known before it is made (a handle's value, read whole or in part),
 *   the handler reserves it first (`reserve`): a read the request cannot afford is refused before
 *   the value is read, parsed or serialized, so that the concurrent handlers of one MCP batch
 *   cannot make a hundred copies of a large value at once. The answer, once made, is counted in
 *   place of its reservation. A large reservation also waits for a turn of the event loop of its
 *   own (`nextTurn`), so that large answers are made one per turn, with I/O (`/healthz`, other
 *   sessions) served between them, instead of a whole batch's in one turn.
 * - A request's bytes go back to its session once its answers are written out (the HTTP body
 *   has been read to its end, the stdio line flushed) or dropped.
 *
 * The transports own this: they know which request an answer belongs to (the SDK's transports
 * collect a batch's answers; the native dispatcher assembles its batches), so no method counts
 * anything itself.
 */
import { Buffer } from "node:buffer";
import { positiveLimit } from "./limits.js";

const MIB = 1024 * 1024;

/**
 * Default bytes of answers one request may produce: three times the largest value the runtime
 * hands out (a tool result, `maxResultBytes`, or a handle, `sessionMaxBytes`: 16 MiB each), so
 * that one such value always fits as MCP sends it (as text, its quotes escaped, and as
 * structured content).
 */
const DEFAULT_MAX_RESPONSE_BYTES = 48 * MIB;

/** Default bytes of answers one session may have in production or buffered at once: two requests' worth. */
const DEFAULT_MAX_SESSION_RESPONSE_BYTES = 96 * MIB;

/** The JSON-RPC code of the refusal: an implementation-defined server error. */
const RESPONSE_TOO_LARGE = -32000;

export interface ResponseLimits {
  /**
   * Bytes of answers one request (an HTTP POST, a stdio line; a batch is one request) may
   * produce (default 48 MiB); past it, its remaining answers are the JSON-RPC error
   * `Response too large`.
   */
  readonly maxResponseBytes?: number;
  /**
   * Bytes of answers one session may have in production or buffered, not yet taken by its
   * client, at once (default 96 MiB), likewise.
   */
  readonly maxSessionResponseBytes?: number;
}

/** The response limits `options` gives (and no other field), to pass on. */
export function responseLimitsOf(options: ResponseLimits): ResponseLimits {
  const { maxResponseBytes, maxSessionResponseBytes } = options;
  return {
    ...(maxResponseBytes !== undefined ? { maxResponseBytes } : {}),
    ...(maxSessionResponseBytes !== undefined ? { maxSessionResponseBytes } : {}),
  };
}

/** The refusal a handler throws (its reservation did not fit): answered as a JSON-RPC error. */
export class ResponseTooLarge extends Error {
  override name = "ResponseTooLarge";
  readonly code = RESPONSE_TOO_LARGE;
}

/** The answers of one session: its budget, and the requests that take from it. */
export class SessionBudget {
  /** Bytes taken by this session's requests that have not ended. */
  held = 0;
  readonly maxRequestBytes: number;
  readonly maxSessionBytes: number;

  /** Throws a `RangeError` for a limit that is not a positive integer: a configuration bug. */
  constructor(limits: ResponseLimits = {}) {
    this.maxRequestBytes = positiveLimit(
      "maxResponseBytes",
      limits.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    );
    this.maxSessionBytes = positiveLimit(
      "maxSessionResponseBytes",
      limits.maxSessionResponseBytes ?? DEFAULT_MAX_SESSION_RESPONSE_BYTES,
    );
  }

  /** The budget of a new request; `end()` it once its answers are written out or dropped. */
  request(): RequestBudget {
    return new RequestBudget(this);
  }
}

/** One request's answers. Keys name its answers: request ids (MCP), item positions (native). */
export class RequestBudget {
  #taken = 0;
  /** Bytes reserved per answer, counted in `#taken` until the answer replaces them. */
  readonly #reserved = new Map<unknown, number>();
  #ended = false;

  constructor(private readonly session: SessionBudget) {}

  /**
   * Takes `bytes` ahead for the answer `key` is making (its size known before it is made), at
   * once (concurrent reservations are decided in the order they are asked for); rejects with
   * `ResponseTooLarge` when they do not fit. A large one resolves in a turn of its own.
   */
  reserve(key: unknown, bytes: number): Promise<void> {
    const refusal = this.#take(bytes);
    if (refusal !== undefined) return Promise.reject(new ResponseTooLarge(refusal));
    this.#reserved.set(key, (this.#reserved.get(key) ?? 0) + bytes);
    return bytes >= LARGE_ANSWER_BYTES ? nextTurn() : Promise.resolve();
  }

  /**
   * Counts the answer to `key`, `bytes` long, in place of what was reserved for it: undefined
   * when it fits, else the refusal to answer instead (the answer then counts nothing).
   */
  answer(key: unknown, bytes: number): string | undefined {
    this.#give(this.#reserved.get(key) ?? 0);
    this.#reserved.delete(key);
    return this.#take(bytes);
  }

  /**
   * The JSON-RPC answer `message` (answer `key` of the request), counted: `message` itself, or
   * the refusal (with the message's id) when it does not fit. Errors go out uncounted. A large
   * answer is measured in a turn of the event loop of its own and resolves in another: its
   * making, its measuring and the transport's serializing of it each run apart.
   */
  async count<M extends object>(key: unknown, message: M): Promise<M | RefusedAnswer> {
    if ((this.#reserved.get(key) ?? 0) >= LARGE_ANSWER_BYTES) await nextTurn();
    const bytes = "error" in message ? 0 : Buffer.byteLength(JSON.stringify(message));
    const refusal = this.answer(key, bytes);
    if (refusal !== undefined) return refusedAnswer(message, refusal);
    if (bytes >= LARGE_ANSWER_BYTES) await nextTurn();
    return message;
  }

  /**
   * `count`, for a transport that writes bytes: the answer's UTF-8 JSON, serialized and encoded
   * once (and measured exactly), or the refusal's.
   */
  encode(key: unknown, message: object): Buffer {
    const bytes = Buffer.from(JSON.stringify(message));
    const refusal = this.answer(key, "error" in message ? 0 : bytes.length);
    return refusal === undefined
      ? bytes
      : Buffer.from(JSON.stringify(refusedAnswer(message, refusal)));
  }

  /** The request is over (answered and written, or dropped): its bytes go back to the session. */
  end(): void {
    if (this.#ended) return;
    this.session.held -= this.#taken;
    this.#ended = true;
  }

  #take(bytes: number): string | undefined {
    const { session } = this;
    if (this.#taken + bytes > session.maxRequestBytes)
      return `Response too large: the answers to one request may take ${size(session.maxRequestBytes)} (maxResponseBytes, zcp-serve --max-response-bytes); read fewer or smaller handles per request`;
    // A request that ended (its client went away) counts for its own limit, not the session's.
    if (!this.#ended && session.held + bytes > session.maxSessionBytes)
      return `Response too large: the answers a session has in progress may take ${size(session.maxSessionBytes)} (maxSessionResponseBytes, zcp-serve --max-session-response-bytes); wait for them, or read fewer or smaller handles at once`;
    this.#taken += bytes;
    if (!this.#ended) session.held += bytes;
    return undefined;
  }

  #give(bytes: number): void {
    this.#taken -= bytes;
    if (!this.#ended) this.session.held -= bytes;
  }
}

/** Reservations from this size on wait for a turn of the event loop of their own. */
const LARGE_ANSWER_BYTES = 256 * 1024;

/** The last turn handed out: each is a later turn of the event loop than the one before. */
let lastTurn: Promise<void> = Promise.resolve();

/**
 * Resolves in a turn of the event loop after every earlier caller's: the next one's
 * `setImmediate` is set only once this one's has run, so I/O is polled between the two, and
 * each caller's (synchronous) work on a large answer runs apart from the others'.
 */
function nextTurn(): Promise<void> {
  const turn = lastTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  lastTurn = turn;
  return turn;
}

/** What a transport that counts its answers tells the handlers: the budget of a request id's request. */
export interface BudgetedTransport {
  requestBudget(id: unknown): RequestBudget | undefined;
}

/** The budgets of servers that answer one request each (the 2026-07-28 era's), by server. */
const requestBudgets = new WeakMap<object, RequestBudget>();

/**
 * Counts what `server` answers against `budget`: for a server that serves one request, over a
 * transport that counts nothing (the SDK's per-request one), whose caller counts its answer.
 */
export function bindBudget(server: object, budget: RequestBudget): void {
  requestBudgets.set(server, budget);
}

/**
 * The reservation a handler of request `id` of `server` passes to a handle read: from the budget
 * bound to the server, else from its transport's when that counts answers (a transport that does
 * not, such as a test's in-memory one, gets none).
 */
export function reserveFor(
  server: { readonly transport?: unknown },
  id: unknown,
): ((bytes: number) => Promise<void>) | undefined {
  const budgeted = server.transport as Partial<BudgetedTransport> | undefined;
  const budget = requestBudgets.get(server) ?? budgeted?.requestBudget?.(id);
  return budget && ((bytes) => budget.reserve(id, bytes));
}

export interface RefusedAnswer {
  readonly jsonrpc: "2.0";
  readonly id: never;
  readonly error: { readonly code: number; readonly message: string };
}

/** The refusal that answers in place of `answer`, with its id. */
function refusedAnswer(answer: object, message: string): RefusedAnswer {
  const id = (answer as { readonly id?: unknown }).id ?? null;
  return { jsonrpc: "2.0", id: id as never, error: { code: RESPONSE_TOO_LARGE, message } };
}

function size(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

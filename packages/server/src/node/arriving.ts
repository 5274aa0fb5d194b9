/**
 * Request bodies still arriving, per remote address, for the `node:http` adapter (node.ts). A
 * client that trickles its bodies holds a connection for each, and the session each is for (a
 * session with a POST in progress is never evicted, idle.ts): 100 sessions from each of 10
 * addresses, each with a body that never ends, left no room for anyone else's `initialize`. So
 * one address may have at most `maxBodiesPerAddress` bodies arriving at once (a request beyond is
 * refused at once: 429 with `Retry-After`, and its connection closed), and a body must have
 * arrived `bodyTimeoutMs` after its request's headers (else 408, and the connection is closed).
 *
 * The address is the socket's: a header such as `X-Forwarded-For` is the client's word, and
 * would let it spread its bodies over addresses it makes up.
 */
import type http from "node:http";
import { positiveLimit } from "../limits.js";
import { json, jsonRpcError } from "../http/body.js";
import { writeResponse } from "./response.js";

/** Request bodies one address may be sending at once, by default. */
const DEFAULT_MAX_BODIES_PER_ADDRESS = 16;
/** How long after its headers a request's body must have arrived, by default (30 s). */
const DEFAULT_BODY_TIMEOUT_MS = 30_000;
/** The `Retry-After` (seconds) of a request refused for its address's bodies in progress. */
const RETRY_AFTER_S = 1;

export interface BodyLimits {
  /**
   * Request bodies one remote address may be sending at once (default 16). A request beyond is
   * answered at once: 429 with `Retry-After: 1`, and its connection is closed.
   */
  readonly maxBodiesPerAddress?: number;
  /**
   * How long after its headers a request's body must have arrived (default 30 s); else it gets
   * 408 and its connection is closed.
   */
  readonly bodyTimeoutMs?: number;
}

/** The bodies arriving on one server's connections, by remote address. */
export class ArrivingBodies {
  readonly #byAddress = new Map<string, Set<http.IncomingMessage>>();
  readonly #max: number;
  readonly #timeoutMs: number;

  constructor(limits: BodyLimits) {
    this.#max = positiveLimit(
      "maxBodiesPerAddress",
      limits.maxBodiesPerAddress ?? DEFAULT_MAX_BODIES_PER_ADDRESS,
    );
    this.#timeoutMs = positiveLimit(
      "bodyTimeoutMs",
      limits.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    );
  }

  /**
   * Whether the request may be served: true, its body (if still arriving) counted against its
   * address and timed; false when its address has too many arriving already, and the 429 is
   * being written.
   */
  admit(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    // No body, or all of it came with the headers.
    if (req.complete) return true;
    const address = req.socket.remoteAddress ?? "";
    let arriving = this.#byAddress.get(address);
    if (arriving && arriving.size >= this.#max) {
      // Bodies that have arrived since (and are not read yet) count no longer.
      for (const other of arriving) if (other.complete || other.destroyed) arriving.delete(other);
      if (arriving.size >= this.#max) {
        void writeResponse(
          json(
            429,
            jsonRpcError(
              -32000,
              `Too Many Requests: this address has as many request bodies arriving as it may (${this.#max})`,
            ),
            { "retry-after": String(RETRY_AFTER_S), connection: "close" },
          ),
          res,
        );
        return false;
      }
    }
    if (!arriving) this.#byAddress.set(address, (arriving = new Set()));
    const own = arriving;
    own.add(req);
    const settle = () => {
      clearTimeout(timer);
      req.off("end", settle).off("close", settle);
      own.delete(req);
      if (own.size === 0 && this.#byAddress.get(address) === own) this.#byAddress.delete(address);
    };
    const timer = setTimeout(() => {
      settle();
      // Arrived, and waiting to be read: in time.
      if (!req.complete) this.#expire(res);
    }, this.#timeoutMs);
    req.once("end", settle).once("close", settle);
    return true;
  }

  /** The body is late: 408 when nothing was answered yet, and the connection closes either way. */
  #expire(res: http.ServerResponse): void {
    if (res.headersSent) {
      res.socket?.destroy();
      return;
    }
    void writeResponse(
      json(
        408,
        jsonRpcError(
          -32000,
          `Request Timeout: the body did not arrive within ${this.#timeoutMs} ms`,
        ),
        { connection: "close" },
      ),
      res,
    );
  }
}

/**
 * What a graceful shutdown needs (zcp-serve's on stdio too): the POST requests in progress on a
 * server's endpoints (MCP and native alike), to wait until there are none for a bounded time,
 * and how the calls it ends answer.
 */
export class InFlight {
  #count = 0;
  readonly #waiting: (() => void)[] = [];

  /** A request started; call the returned function (once) when its answer has ended. */
  begin(): () => void {
    this.#count++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.#count === 0) for (const resolve of this.#waiting.splice(0)) resolve();
    };
  }

  /** Resolves once no request is in progress, or after `ms`. */
  async drained(ms: number): Promise<void> {
    if (this.#count === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.#waiting.push(resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
    ]);
    clearTimeout(timer);
  }
}

/**
 * How long, at most, the answers of the calls a shutdown ended have to be written, after their
 * sessions closed (they answer at once; a client that does not read is not waited for longer).
 */
export const FLUSH_MS = 1000;

/** The hint of the calls a stop ends (they answer `cancelled`). */
export const SHUTTING_DOWN = "the server is shutting down";

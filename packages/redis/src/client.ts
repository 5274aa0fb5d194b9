/**
 * The one thing the stores need of a Redis connection: send a command, get its reply. Both
 * stores send raw commands (most of them Lua scripts, each op one round trip), so they take
 * any client with `sendCommand`, such as `@redis/client`'s.
 */
import { createHash } from "node:crypto";

export interface RedisCommander {
  /** Sends one command (its name, then its arguments); resolves with the raw reply. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** A Lua script run with EVALSHA (EVAL once when Redis does not have it cached yet). */
export class Script {
  readonly #sha: string;

  constructor(readonly source: string) {
    this.#sha = createHash("sha1").update(source).digest("hex");
  }

  async run(
    redis: RedisCommander,
    keys: readonly string[],
    args: readonly string[],
  ): Promise<unknown> {
    const rest = [String(keys.length), ...keys, ...args];
    try {
      return await redis.sendCommand(["EVALSHA", this.#sha, ...rest]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return redis.sendCommand(["EVAL", this.source, ...rest]);
    }
  }
}

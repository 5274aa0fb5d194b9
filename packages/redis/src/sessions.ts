/**
 * `SessionStore` on Redis: each session's state is one JSON string at
 * `<prefix>:session:<id>` with a PEXPIRE of `idleMs`, restarted by every load (GETEX) and save.
 */
import type { RedisCommander } from "./client.js";
import type { SessionState, SessionStore } from "@zcp/runtime";
import { positive } from "./handles.js";

export interface RedisSessionStoreOptions {
  /** Key prefix (default "zcp"). */
  readonly prefix?: string;
  /** A state lives this long after its last load or save (default 30 min). */
  readonly idleMs?: number;
}

export class RedisSessionStore implements SessionStore {
  readonly #redis: RedisCommander;
  readonly #prefix: string;
  readonly #idleMs: string;

  constructor(redis: RedisCommander, options: RedisSessionStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = `${options.prefix ?? "zcp"}:session:`;
    this.#idleMs = String(positive("sessionIdleMs", options.idleMs ?? 30 * 60_000));
  }

  async load(id: string): Promise<SessionState | undefined> {
    const json = await this.#redis.sendCommand(["GETEX", this.#prefix + id, "PX", this.#idleMs]);
    return typeof json === "string" ? (JSON.parse(json) as SessionState) : undefined;
  }

  async save(id: string, state: SessionState): Promise<void> {
    await this.#redis.sendCommand([
      "SET",
      this.#prefix + id,
      JSON.stringify(state),
      "PX",
      this.#idleMs,
    ]);
  }

  async delete(id: string): Promise<void> {
    await this.#redis.sendCommand(["DEL", this.#prefix + id]);
  }

  async ping(): Promise<void> {
    await this.#redis.sendCommand(["PING"]);
  }
}

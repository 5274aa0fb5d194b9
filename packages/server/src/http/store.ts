/**
 * What both HTTP surfaces share when the runtime keeps its sessions in a store
 * (`RuntimeOptions.sessions`, e.g. Redis): a session unknown here is resumed from the store, once
 * per id however many of its requests arrive together; the answer when the store is unreachable;
 * and the readiness probe's check of the store.
 */
import type { SessionStore } from "@zcp/runtime";

/** The message of the 503 a request gets when the store it needs does not answer. */
export const STORE_UNREACHABLE = "Service Unavailable: the session store is unreachable";

/** How long `/readyz` waits for the store's answer. */
const READY_TIMEOUT_MS = 500;

/** Whether the store answers within `ms`. */
export async function storeAnswers(
  store: SessionStore,
  ms: number = READY_TIMEOUT_MS,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([store.ping().then(() => true as const), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sessions being resumed, by id: the requests of a session that arrive while it is being resumed
 * wait for the same resumption instead of loading it again.
 */
export class Resumptions<T> {
  readonly #pending = new Map<string, Promise<T>>();

  /** The resumption of `id` in progress, or `resume()`, started now. */
  get(id: string, resume: () => Promise<T>): Promise<T> {
    const pending = this.#pending.get(id);
    if (pending) return pending;
    const started = resume().finally(() => this.#pending.delete(id));
    this.#pending.set(id, started);
    return started;
  }
}

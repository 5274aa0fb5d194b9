/**
 * `--store redis://…`: the Redis store `zcp-serve`'s runtime keeps handles and 2025 MCP sessions in
 * (`@zcp/redis`, an optional peer loaded only then). Redis unreachable at start fails the start
 * (exit 1): a replica without its store would hand out sessions no other replica can see, and
 * whatever runs the replicas restarts it.
 */
import type { RuntimeOptions } from "@zcp/runtime";
import { fail } from "./log.js";

export interface SharedStore {
  /** The runtime options that keep handles and session state in the store. */
  readonly options: Pick<RuntimeOptions, "handles" | "sessions">;
  close(): Promise<void>;
}

/** Connects to the Redis at `url`; or the exit code, once the reason is logged. */
export async function openStore(url: string): Promise<SharedStore | number> {
  let redis: typeof import("@zcp/redis");
  try {
    redis = await import("@zcp/redis");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw error;
    return fail(
      2,
      "--store redis:// needs the package @zcp/redis beside @zcp/server: npm install @zcp/redis",
    );
  }
  let store;
  try {
    store = await redis.connectRedisStore({ url });
  } catch (error) {
    return fail(1, (error as Error).message);
  }
  return {
    options: { handles: { storage: store.handles }, sessions: store.sessions },
    close: () => store.close(),
  };
}

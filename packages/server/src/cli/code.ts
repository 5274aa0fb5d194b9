/**
 * `--code`: the runtime's `CodeRunner`, `@zcp/code`'s pool of QuickJS workers, and how the log
 * names it. The package is imported only then: a server without `--code` never loads the
 * sandbox (QuickJS, sucrase), and `@zcp/code` is an optional peer dependency: a server that does
 * not serve programs need not install it.
 */
import type { PooledCodeRunner } from "@zcp/code";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../native/protocol.js";
import type { ServeArgs } from "./args.js";

/** What `--code` says when `@zcp/code` (an optional peer dependency of @zcp/server) is not installed. */
const MISSING = "--code needs the package @zcp/code beside @zcp/server: npm install @zcp/code";

/**
 * The runner `--code` serves with (its first worker starts now) and its line for the log, or
 * why there is none. A program is one call: its limit is at most `--timeout-ms`; and the
 * arguments of its tool calls are held to a request's bounds (the server's message limit).
 */
export async function codeRunner(args: Pick<ServeArgs, "timeoutMs" | "codeTimeoutMs">): Promise<
  | {
      readonly runner: PooledCodeRunner;
      readonly description: string;
    }
  | { readonly failure: string }
> {
  let code: typeof import("@zcp/code");
  try {
    code = await import("@zcp/code");
  } catch (error) {
    const missing =
      (error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND" &&
      String((error as Error).message).includes("@zcp/code");
    if (missing) return { failure: MISSING };
    throw error;
  }
  const { createCodeRunner, DEFAULT_LIMITS } = code;
  const timeoutMs = args.codeTimeoutMs ?? Math.min(DEFAULT_LIMITS.timeoutMs, args.timeoutMs);
  return {
    runner: createCodeRunner({ timeoutMs, argumentBytes: DEFAULT_MAX_MESSAGE_BYTES }),
    description: `programs (zcp.run) run in a QuickJS sandbox in their own worker threads, ${timeoutMs} ms each at most`,
  };
}

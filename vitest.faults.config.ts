import { defineConfig } from "vitest/config";

/**
 * The fault suite (`pnpm test:faults`, and the last step of `pnpm test`): real zcp-serve
 * processes under runaway tools, floods and signals, asserting that /healthz answers within
 * 100 ms. One file at a time, after the rest of the tests, so that the latencies measured are
 * the server's and not those of other test files competing for the machine's cores.
 */
export default defineConfig({
  test: {
    include: ["packages/server/test/faults/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

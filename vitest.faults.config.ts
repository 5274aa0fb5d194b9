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
    // Latency and memory bounds are samples on a shared 2-core machine: a test fails when it
    // misses its bound twice in a row (a regression misses it every time), not on one slow
    // scheduling turn. Until issue 32 makes the suite hold beside a CPU hog.
    retry: 1,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

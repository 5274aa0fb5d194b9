import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "tools/**/*.test.ts"],
    // The fault suite runs on its own, one file at a time (vitest.faults.config.ts).
    exclude: [...configDefaults.exclude, "packages/server/test/faults/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

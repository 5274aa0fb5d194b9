#!/usr/bin/env node
// The CLI is TypeScript; tsx compiles it on the fly (and caches the result).
import { register } from "tsx/esm/api";

register();
try {
  const { main } = await import("../src/cli.ts");
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`zcp-serve: internal error (please report it): ${error instanceof Error ? error.stack : error}\n`);
  process.exitCode = 1;
}

#!/usr/bin/env node
import { main } from "../cli/index.js";

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(
    `zcp: internal error (please report it): ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exitCode = 1;
}

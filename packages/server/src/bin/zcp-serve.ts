#!/usr/bin/env node
import { main } from "../cli/main.js";

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(
    `zcp-serve: internal error (please report it): ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exitCode = 1;
}

#!/usr/bin/env node
import { main } from "../cli/main.js";

let code: number;
try {
  code = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(
    `zcp-serve: internal error (please report it): ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  code = 1;
}
// Once main has stopped serving, nothing may keep the process alive (a tool that never settles,
// its timers, a worker): exit explicitly, after what was written has gone out.
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}

/** `zcp-serve`'s output: logs and usage errors go to stderr only (over stdio, stdout carries the protocol). */
import process from "node:process";
import { USAGE } from "./args.js";

export function log(message: string): void {
  process.stderr.write(`zcp-serve: ${message}\n`);
}

/** A usage error: the message and the usage, exit code 2. */
export function usage(message: string): number {
  process.stderr.write(`zcp-serve: ${message}\n\n${USAGE}`);
  return 2;
}

export function fail(code: number, message: string): number {
  log(message);
  return code;
}

/**
 * What the runner (the server's thread) and a program worker say to each other. A task carries
 * the program, its limits and a MessagePort; on the port the worker asks for tool calls and the
 * runner answers them; a shared flag lets the runner stop a program that is running JavaScript.
 */
import type { MessagePort } from "node:worker_threads";
import type { CallResult } from "@zcp/runtime";
import type { RunLimits } from "./options.js";

/** One program run, as the pool hands it to a worker. */
export interface ProgramTask {
  readonly code: string;
  /** The aliases bound under `tools`. */
  readonly aliases: readonly string[];
  readonly limits: RunLimits;
  readonly port: MessagePort;
  /** `Int32Array` over it: index 0 becomes 1 when the run is cancelled (read by the interrupt handler). */
  readonly stop: SharedArrayBuffer;
}

/** Worker → runner: the run began (the runner's watchdog starts), or a tool call (`args` as JSON). */
export type FromWorker =
  | { readonly started: true }
  | { readonly call: number; readonly alias: string; readonly args: string };

/** Runner → worker: the answer of call `call`. */
export interface ToWorker {
  readonly answer: number;
  readonly result: CallResult;
}

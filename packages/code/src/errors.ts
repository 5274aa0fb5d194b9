/**
 * What a failed run answers: the CallErrors of a program's syntax error, uncaught exception,
 * time limit, memory limit and result, from what QuickJS reports (`context.dump` of its error).
 */
import { failure, type CallError } from "@zcp/runtime";
import { syntaxHint, WRAPPER_LINES } from "./transpile.js";

/** The file name programs run under (their stack frames name it). */
export const PROGRAM_FILE = "program.js";

/** The most characters of an error message echoed back. */
const MESSAGE_MAX = 300;

/** `timeout`: the run passed its wall-clock limit. */
export function timedOut(timeoutMs: number): CallError {
  return failure("timeout", `the program ran longer than ${timeoutMs} ms`);
}

/** `program_memory`: the run's heap passed its limit. */
export function outOfMemory(memoryBytes: number): CallError {
  return failure("program_memory", `the program used more than ${memoryBytes} bytes`);
}

/** `cancelled`: the `zcp.run` call was cancelled or its session closed. */
export const CANCELLED = Object.freeze(failure("cancelled", "the program was cancelled"));

/** Whether a dumped error is QuickJS's out-of-memory error. */
export function isOutOfMemory(dumped: unknown): boolean {
  return dumped === null || (errorFields(dumped)?.message ?? "") === "out of memory";
}

/** Whether a dumped error is QuickJS's interruption (the interrupt handler said stop). */
export function isInterrupted(dumped: unknown): boolean {
  const fields = errorFields(dumped);
  return fields?.name === "InternalError" && fields.message === "interrupted";
}

/** `invalid:$.code` for a syntax error QuickJS found while compiling the program. */
export function syntaxFailure(dumped: unknown): CallError | undefined {
  const fields = errorFields(dumped);
  if (fields?.name !== "SyntaxError") return undefined;
  const line =
    typeof fields.lineNumber === "number" ? fields.lineNumber - WRAPPER_LINES : lineOf(fields);
  return failure("invalid:$.code", syntaxHint(cut(fields.message), line));
}

/** `program_error`: what the program threw and did not catch, `<Name>: <message> (line L)`. */
export function programError(dumped: unknown): CallError {
  const fields = errorFields(dumped);
  if (!fields) return failure("program_error", `uncaught ${cut(describe(dumped))}`);
  const line = lineOf(fields);
  return failure(
    "program_error",
    `${cut(fields.name)}: ${cut(fields.message)}${line !== undefined ? ` (line ${line})` : ""}`,
  );
}

interface ErrorFields {
  readonly name: string;
  readonly message: string;
  readonly stack?: unknown;
  readonly lineNumber?: unknown;
}

/** The fields of a dumped Error (an object with string `name` and `message`), else undefined. */
function errorFields(dumped: unknown): ErrorFields | undefined {
  if (typeof dumped !== "object" || dumped === null) return undefined;
  const { name, message } = dumped as { name?: unknown; message?: unknown };
  if (typeof name !== "string" || typeof message !== "string") return undefined;
  return dumped as ErrorFields;
}

/** The program's line of the innermost stack frame in the program, if any. */
function lineOf(fields: ErrorFields): number | undefined {
  if (typeof fields.stack !== "string") return undefined;
  const match = new RegExp(`${PROGRAM_FILE.replace(".", "\\.")}:(\\d+)`).exec(fields.stack);
  if (!match) return undefined;
  const line = Number(match[1]) - WRAPPER_LINES;
  return line >= 1 ? line : undefined;
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function cut(text: string): string {
  return text.length > MESSAGE_MAX ? `${text.slice(0, MESSAGE_MAX)}…` : text;
}

/**
 * What the model is told of a throw that is neither a `ToolError` nor a declared error type:
 * the application's `exposeError` hook decides, and by default only Node's system errors
 * (`ENOENT`, `EACCES`...) are told, by their code and fixed words, never by their message.
 */
import type { ToolDefinition } from "../definition/registry.js";
import type { Caller, RuntimeOptions } from "./host.js";
import { hintText } from "./tool-error.js";

/** The hint of `exec:error` when nothing about the throw is told. */
const UNTOLD = "the tool failed; the details are in the server's log";

/**
 * The fixed words of the Node system errors a tool on files, processes or the network commonly
 * meets. A system error's message names the path or the host (`ENOENT: no such file or
 * directory, open '/home/ann/.ssh/id_rsa'`), which may be a secret the model did not send: only
 * the code and these words go out. A code not listed here is not told.
 */
const SYSTEM_ERRORS: { readonly [code: string]: string } = {
  EACCES: "permission denied",
  EADDRINUSE: "address already in use",
  EAI_AGAIN: "name lookup failed for now",
  EBUSY: "resource busy or locked",
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset by peer",
  EEXIST: "file already exists",
  EISDIR: "is a directory",
  ELOOP: "too many levels of symbolic links",
  EMFILE: "too many open files",
  ENAMETOOLONG: "file name too long",
  ENOENT: "no such file or directory",
  ENOSPC: "no space left on device",
  ENOTDIR: "not a directory",
  ENOTEMPTY: "directory not empty",
  ENOTFOUND: "host not found",
  EPERM: "operation not permitted",
  EPIPE: "broken pipe",
  EROFS: "read-only file system",
  ETIMEDOUT: "operation timed out",
  EXDEV: "cross-device link not permitted",
};

/** What Node puts in a system error's `syscall`: a word (`open`, `getaddrinfo`...). */
const SYSCALL = /^[a-z_]{1,32}$/;

/**
 * The default `exposeError`: for a Node system error (an object with a `syscall` string and a
 * `code` listed above, as Node's errors are, also after crossing from a worker thread),
 * `<code>: <words> (<syscall>)`, e.g. `ENOENT: no such file or directory (open)`; else
 * undefined. The model sent the path it asked about, and learns what went wrong with it.
 */
export function systemErrorHint(error: unknown): string | undefined {
  if (error === null || typeof error !== "object") return undefined;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (
    typeof code !== "string" ||
    typeof syscall !== "string" ||
    !Object.hasOwn(SYSTEM_ERRORS, code)
  )
    return undefined;
  const call = SYSCALL.test(syscall) ? ` (${syscall})` : "";
  return `${code}: ${SYSTEM_ERRORS[code]!}${call}`;
}

type ExposeError = NonNullable<RuntimeOptions["exposeError"]>;

/**
 * The `exec:error` hint of a throw: the hook's text (control characters out, cut), or `UNTOLD`
 * when it tells nothing, returns an empty text or itself throws (the hook is the application's
 * code, run on a path that must answer).
 */
export function exposedHint(
  expose: ExposeError,
  error: unknown,
  tool: ToolDefinition,
  session: Caller,
): string {
  let text: unknown;
  try {
    text = expose(error, tool, session);
  } catch {
    return UNTOLD;
  }
  const hint = typeof text === "string" ? hintText(text) : "";
  return hint === "" ? UNTOLD : hint;
}

import { ProtocolErrorCode as ErrorCode } from "@modelcontextprotocol/server";
import { clip, type FeatureOutcome } from "@zcp/runtime";

/**
 * A JSON-RPC error answer. The SDK sends any thrown error's `code`, `message` and `data`; its own
 * `McpError` would prefix the message with "MCP error <code>: ", which clients add again.
 */
export class ProtocolError extends Error {
  override name = "ProtocolError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * The value of a prompt's, resource's or completion's outcome, or the JSON-RPC error it stands
 * for: -32603 when the author's function failed (no detail: that is in the server's log),
 * else -32602 (an unknown name or argument, arguments the generated validator refused).
 */
export function featureValue<T>(outcome: FeatureOutcome<T>, data?: unknown): T {
  if (outcome.ok) return outcome.value;
  const code = outcome.error === "failed" ? ErrorCode.InternalError : ErrorCode.InvalidParams;
  throw new ProtocolError(code, outcome.message, data);
}

/** The longest message `invalidParams` gives (it may quote keys and values a client sent). */
const MAX_MESSAGE = 200;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** What this module reads of a zod issue (zod 3 and 4 alike), without depending on zod. */
interface Issue {
  readonly code?: unknown;
  readonly path?: readonly unknown[];
  readonly message?: unknown;
  readonly expected?: unknown;
  readonly values?: readonly unknown[];
  readonly keys?: readonly unknown[];
  readonly errors?: readonly (readonly Issue[])[];
}

/**
 * The -32602 answer for the error of a request schema's parse, else undefined. The v2 SDK checks
 * a request against its era's schema before the handler and throws a plain `Error` whose
 * message is zod's JSON dump of the issues (the request's params at path `params`), which it
 * would answer -32603 with that dump (`tools/call`: -32602 with the dump after "Invalid
 * tools/call request: "). The answer's message names the first issue's path and
 * what was expected, e.g. `Invalid params: $.params.protocolVersion: expected string`, at most
 * 200 characters.
 */
export function invalidParams(error: unknown): ProtocolError | undefined {
  if (!(error instanceof Error) || error instanceof ProtocolError) return undefined;
  const issues = issuesOf(error);
  if (issues === undefined) return undefined;
  const issue = issues[0] as Issue;
  const path = Array.isArray(issue.path) ? issue.path : [];
  if (path[0] !== "params") return undefined;
  const message = `Invalid params: ${issuePath(path)}: ${expectation(issue)}`;
  return new ProtocolError(ErrorCode.InvalidParams, clip(message, MAX_MESSAGE));
}

/**
 * The issues of a zod error: its `issues` (a `ZodError` or `$ZodError`), or its message read as
 * the JSON array of them (the SDK's rethrow); else undefined.
 */
function issuesOf(error: Error): readonly unknown[] | undefined {
  const own: unknown = (error as { issues?: unknown }).issues;
  if (/^\$?ZodError$/.test(error.name))
    return Array.isArray(own) && own.length > 0 ? own : undefined;
  // `[…]` (a request's schema) or `Invalid tools/call request: […]` (the SDK's own tools/call check).
  const message = /^(?:Invalid [\w/]+ request: )?(\[[\s\S]*)$/.exec(error.message)?.[1];
  if (message === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  return Array.isArray(parsed) &&
    parsed.length > 0 &&
    parsed.every((issue) => typeof issue === "object" && issue !== null && "path" in issue)
    ? parsed
    : undefined;
}

/** `$.params.clientInfo.name`, `$.params.items[0]`, `$.params["a key"]`; long keys clipped. */
function issuePath(path: readonly unknown[]): string {
  let text = "$";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else {
      const key = String(segment);
      text += IDENTIFIER.test(key) ? `.${clip(key, 64)}` : `[${JSON.stringify(clip(key, 64))}]`;
    }
  }
  return text;
}

/** What the issue says was expected, in a few words. */
function expectation(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      // zod's `record` is JSON's object (of named values: `arguments`, `_meta`…).
      if (issue.expected === "record") return "expected an object";
      if (typeof issue.expected === "string") return `expected ${issue.expected}`;
      break;
    case "invalid_value":
    case "invalid_literal":
    case "invalid_enum_value":
      if (Array.isArray(issue.values) && issue.values.length > 0)
        return issue.values.length === 1
          ? `expected ${quote(issue.values[0])}`
          : `expected one of ${issue.values.map(quote).join(", ")}`;
      break;
    case "invalid_union": {
      // zod 4: one list of issues per alternative; say "expected A or B" when each is a plain type.
      const types = (issue.errors ?? []).map((branch) =>
        branch.length === 1 &&
        branch[0]?.code === "invalid_type" &&
        typeof branch[0].expected === "string" &&
        (branch[0].path ?? []).length === 0
          ? branch[0].expected
          : undefined,
      );
      if (types.length > 0 && types.every((type) => type !== undefined))
        return `expected ${[...new Set(types)].join(" or ")}`;
      return "matches none of the allowed forms";
    }
    case "unrecognized_keys":
      if (Array.isArray(issue.keys) && issue.keys.length > 0)
        return `unknown key ${JSON.stringify(clip(String(issue.keys[0]), 64))}`;
      break;
  }
  return typeof issue.message === "string"
    ? clip(issue.message.replace(/^Invalid input: /, ""), 100)
    : "invalid";
}

function quote(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(clip(value, 64)) : clip(String(value), 64);
}

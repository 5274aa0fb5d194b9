/**
 * Tools over MCP: `tools/list` hands out the MCP entries of the session's exposed view (which
 * the runtime derives from the registry once; paginated), `tools/call` runs the runtime's call pipeline and shapes its `CallResult` as a
 * `CallToolResult`, `logging/setLevel` sets the level of the calls' log lines.
 *
 * - value   → text: a string as it is, any other value as its compact JSON; `structuredContent`:
 *             the value when it is a plain object
 * - content → the blocks as they are (an image is one image block, never JSON text about it);
 *             no `structuredContent`
 * - handle  → text: `encodeResult(result)` (id, summary, meta) + a `resource_link` to `zcp://handle/%23T1`;
 *             a handle over the call's token budget has its first page (`head`) first, a text
 *             block of its own (a text as it is, any other value as its compact JSON)
 * - error   → `isError: true`, text: `encodeResult(result)` (`{"ok":false,"error":"invalid:$.city","hint":"…"}`)
 * - unknown tool → JSON-RPC error -32602 (a protocol error in MCP's terms, not a tool result)
 *
 * The SDK checks a `tools/call`'s params against its era's schema first (a mismatch, such as
 * `arguments` that is an array, answers -32602: server.ts); the arguments then go to the runtime
 * as they came (its depth check runs before any recursion). Registering the handler, rather than
 * answering from a fallback, lets the SDK answer an unknown method itself (HTTP 404 on the
 * 2026-07-28 era).
 *
 * A client states the most tokens it reads of one result in the request's
 * `_meta["zcp/maxResultTokens"]` (`MAX_RESULT_TOKENS_META`): the call's budget is then at most
 * that; a value other than a whole number from 1 answers -32602.
 *
 * With a session store, the session's state (found tools, stage) is saved before a call's
 * answer goes out, so that no answer is acknowledged that another replica does not see; when
 * the store cannot save it, the call answers `unavailable:store` (the client tries again).
 */
import {
  LOG_LEVEL_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolErrorCode as ErrorCode,
  type CallToolResult,
  type ContentBlock,
  type InputRequiredResult,
  type ListToolsResult,
  type LoggingLevel,
  type Resource,
  type Server,
  type ServerContext,
  type Tool,
} from "@modelcontextprotocol/server";
import {
  clip,
  encodeResult,
  failure,
  type CallerIdentity,
  type CallResult,
  type JsonValue,
  type Session,
} from "@zcp/runtime";
import { codeListing, codeOnlyListing, directCallRefusal } from "./code-listing.js";
import { ProtocolError } from "./errors.js";
import { readCursor, writeCursor } from "./paging.js";
import { reserveFor } from "../budget.js";
import { handleUri, type IssuedHandles } from "./resources.js";
import { sessionInput, type InputRounds } from "./input.js";

/** Running `tools/call` requests: of one session, or of every server that shares the count. */
export class RunningCalls {
  #running = 0;
  readonly #idle: (() => void)[] = [];

  get running(): number {
    return this.#running;
  }

  /** Resolves once no call runs (at once when none does). */
  idle(): Promise<void> {
    return this.#running === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => this.#idle.push(resolve));
  }

  /** Counts `call` as running until it settles. */
  async count<T>(call: () => Promise<T>): Promise<T> {
    this.#running++;
    try {
      return await call();
    } finally {
      if (--this.#running === 0) for (const resolve of this.#idle.splice(0)) resolve();
    }
  }
}

type Extra = ServerContext;
/** A `tools/call`'s params, as the SDK checked them. */
type CallToolParams = { readonly name: string; readonly arguments?: { [key: string]: unknown } };

/** MCP's (syslog's) levels, least severe first. */
const LOG_LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** How `serveTools` serves a session's tools. */
export interface ServeToolsOptions {
  /** Items per page of `tools/list`. */
  readonly pageSize: number;
  /** The session's state is saved to the session store after each call (the 2025 era's sessions). */
  readonly persist: boolean;
  /** Code mode only: `zcp_run` alone is listed and called directly (code-listing.ts). */
  readonly codeOnly?: boolean;
  /** Where the calls are counted (default: a counter of this server's own). */
  readonly calls?: RunningCalls;
  /** How a 2026-07-28 call asks its client (input.ts; without it, it cannot). */
  readonly rounds?: InputRounds;
  /** Who makes the calls, the tools' `ctx.caller` (default anonymous). */
  readonly caller?: CallerIdentity;
}

/** Registers `logging/setLevel`, `tools/list` and `tools/call` for the session. */
export function serveTools(
  server: Server,
  session: Session,
  handles: IssuedHandles,
  options: ServeToolsOptions,
): RunningCalls {
  const {
    pageSize,
    persist,
    codeOnly = false,
    calls = new RunningCalls(),
    rounds,
    caller,
  } = options;
  // Log lines of a call go out on that call's stream, at or above the level the client set.
  let logLevel: LoggingLevel = "debug";
  server.setRequestHandler("logging/setLevel", (request) => {
    logLevel = request.params.level;
    return {};
  });

  server.setRequestHandler("tools/list", (request) => {
    const view = session.exposed;
    const entries = codeOnly ? codeOnlyListing(view) : codeListing(view);
    const offset = readCursor(request.params?.cursor, `t${view.hash}`, entries.length);
    const end = offset + pageSize;
    // The derived entries are MCP tools as they are (the rules leave handle tools without an outputSchema).
    const result: ListToolsResult = { tools: entries.slice(offset, end) as Tool[] };
    if (end < entries.length) result.nextCursor = writeCursor(`t${view.hash}`, end);
    return result;
  });

  const callTool = async (
    params: CallToolParams,
    extra: Extra,
  ): Promise<CallToolResult | InputRequiredResult> => {
    const name = params.name;
    const args = params.arguments ?? {};
    const refused = codeOnly ? directCallRefusal(session.exposed, name) : undefined;
    if (refused) return toCallToolResult(refused, handles);
    // `zcp.handle` reserves what it reads from this request's response budget (budget.ts).
    const reserve = reserveFor(server, extra.mcpReq.id);
    // A 2026-07-28 request carries its envelope; a 2025 session's questions go to its client.
    const round =
      extra.mcpReq.envelope !== undefined ? rounds?.open(extra, name, args, session.id) : undefined;
    const input = extra.mcpReq.envelope !== undefined ? round : sessionInput(server, extra);
    const maxResultTokens = clientBudget(extra);
    let result: CallResult = await calls.count(() =>
      session.call(name, args, {
        ...callOptions(name, extra, () => levelOf(extra, logLevel)),
        ...(reserve ? { reserve } : {}),
        ...(input ? { input } : {}),
        ...(maxResultTokens !== undefined ? { maxResultTokens } : {}),
        ...(caller ? { caller } : {}),
      }),
    );
    if (!result.ok && result.error === `unknown:${clip(name)}`)
      throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${clip(name)}`);
    // A 2026-07-28 tool that needed what the client did not declare (and did not do without).
    const missing = round && !result.ok && /^unsupported:(\w+)$/.exec(result.error)?.[1];
    if (missing && Object.hasOwn(round.offers, missing))
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { [missing]: {} } },
        `${clip(name)} needs the client's ${missing} capability`,
      );
    // Whatever the run answered (a tool may catch the refusal), its open questions come first.
    if (round?.asking) {
      const next = await rounds!.inputRequired(round, extra, name, args, session.id);
      if ("asked" in next) return next.asked;
      result = next.refused;
    }
    // A 2025 session's state lives in the store; a stateless (2026-07-28) one has none to save.
    if (persist)
      try {
        await session.save();
      } catch {
        result = failure("unavailable:store", "the shared store is unreachable; try again shortly");
      }
    return toCallToolResult(result, handles);
  };
  server.setRequestHandler("tools/call", (request, extra) => callTool(request.params, extra));

  return calls;
}

/** The result as MCP shows it; a handle is also remembered for `resources/list`. */
function toCallToolResult(result: CallResult, handles: IssuedHandles): CallToolResult {
  if (!result.ok) return { content: [{ type: "text", text: encodeResult(result) }], isError: true };
  if ("handle" in result) {
    const { head, ...handle } = result;
    const resource: Resource = {
      uri: handleUri(result.handle),
      name: result.handle,
      description: result.summary,
      mimeType: "application/json",
      size: result.meta.size,
    };
    handles.add(result.handle, resource);
    const content: ContentBlock[] = [
      ...(head === undefined ? [] : [{ type: "text" as const, text: textOf(head) }]),
      { type: "text", text: encodeResult(handle) },
      { type: "resource_link", ...resource },
    ];
    return { content };
  }
  // The runtime checked and copied the blocks; they are MCP's own content blocks.
  if ("content" in result) return { content: result.content as ContentBlock[] };
  const out: CallToolResult = { content: [{ type: "text", text: textOf(result.value) }] };
  if (isRecord(result.value)) out.structuredContent = result.value;
  return out;
}

/**
 * A value as MCP text. A string is the text itself, as a plain MCP server returns it: quoting it
 * as JSON would cost the model its quotes and escapes (a `\n` per line break), and nests text
 * inside text.
 */
function textOf(value: JsonValue): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "null");
}

/** The `_meta` key of a `tools/call` request with which a client states its result budget. */
const MAX_RESULT_TOKENS_META = "zcp/maxResultTokens";

/** The client's result budget from the request's `_meta`, or undefined; a bad one is -32602. */
function clientBudget(extra: Extra): number | undefined {
  const meta = extra.mcpReq._meta as { readonly [key: string]: unknown } | undefined;
  const tokens = meta?.[MAX_RESULT_TOKENS_META];
  if (tokens === undefined) return undefined;
  if (typeof tokens === "number" && Number.isSafeInteger(tokens) && tokens >= 1) return tokens;
  throw new ProtocolError(
    ErrorCode.InvalidParams,
    `Invalid params: _meta["${MAX_RESULT_TOKENS_META}"] must be a whole number from 1, got ${clip(JSON.stringify(tokens) ?? String(tokens), 40)}`,
  );
}

/** Cancellation, progress and log lines of a call, wired to the MCP request. */
function callOptions(name: string, extra: Extra, level: () => LoggingLevel | undefined) {
  const token = extra.mcpReq._meta?.progressToken;
  return {
    signal: extra.mcpReq.signal,
    onProgress:
      token === undefined
        ? undefined
        : (progress: number, total: number | undefined, message: string | undefined) => {
            const params = {
              progressToken: token,
              progress,
              ...(total !== undefined ? { total } : {}),
              ...(message !== undefined ? { message } : {}),
            };
            extra.mcpReq
              .notify({ method: "notifications/progress", params })
              .catch(() => undefined);
          },
    onLog: (lineLevel: "debug" | "info" | "warning" | "error", message: string) => {
      const least = level();
      if (least === undefined || LOG_LEVELS.indexOf(lineLevel) < LOG_LEVELS.indexOf(least)) return;
      extra.mcpReq
        .notify({
          method: "notifications/message",
          params: { level: lineLevel, logger: name, data: message },
        })
        .catch(() => undefined);
    },
  };
}

/**
 * The least severe level of a call's log lines that go out: on the 2026-07-28 era the request's
 * own (its envelope's `logLevel`; none without it), on the 2025 era the session's.
 */
function levelOf(extra: Extra, session: LoggingLevel): LoggingLevel | undefined {
  const envelope = extra.mcpReq.envelope as { readonly [key: string]: unknown } | undefined;
  if (envelope === undefined) return session;
  const level = envelope[LOG_LEVEL_META_KEY];
  return LOG_LEVELS.includes(level as LoggingLevel) ? (level as LoggingLevel) : undefined;
}

function isRecord(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

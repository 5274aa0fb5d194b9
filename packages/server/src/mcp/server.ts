/**
 * The MCP surface of the 2025 era: one runtime session behind one MCP session, served by the
 * official SDK's low-level `Server` (v2). Nothing is compiled here: `tools/list` hands out the
 * MCP entries of the session's exposed view (the runtime's, derived once from the registry),
 * `tools/call` runs the runtime's call pipeline (tools.ts), and handles are readable as resources
 * (resources.ts). This module wires them to one SDK `Server` and ties its life to the runtime
 * session's. The 2026-07-28 era, which has no sessions, is stateless.ts.
 */
import {
  Server,
  type CacheHint,
  type JSONRPCRequest,
  type jsonSchemaValidator,
  type Result,
  type ServerCapabilities,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { CallerIdentity, Features, Runtime, Session } from "@zcp/runtime";
import type { ResponseLimits } from "../budget.js";
import { invalidParams } from "./errors.js";
import { IssuedHandles, serveHandleResources } from "./resources.js";
import { servePrompts } from "./prompts.js";
import { serveSubscriptions } from "./subscriptions.js";
import { serveTools } from "./tools.js";

const DEFAULT_PAGE_SIZE = 100;
/** How long a 2026-07-28 client may keep a listing (default 5 minutes; see `listTtlMs`). */
const DEFAULT_LIST_TTL_MS = 300_000;

/** The MCP surface's options; its transports count answers within the `ResponseLimits` (budget.ts). */
export interface McpServerOptions extends ResponseLimits {
  /** `serverInfo.name` (default `zcp`). */
  readonly name?: string;
  /** `serverInfo.version` (default `0.1.0`). */
  readonly version?: string;
  /** Sent to the host in the `initialize` result. */
  readonly instructions?: string;
  /**
   * Code mode only: `tools/list` answers `zcp_run` alone, its description carrying the view's API
   * text, and the view's other tools are refused as direct calls (`forbidden:<alias>`): they are
   * called from programs. Needs a runtime with a `CodeRunner` (`RuntimeOptions.code`); without
   * one the listing is empty. Default false.
   */
  readonly codeOnly?: boolean;
  /** Items per page of `tools/list` and `resources/list` (default 100). */
  readonly pageSize?: number;
  /** The exposure-policy surface of the runtime session (default `mcp`). */
  readonly surface?: string;
  /** The session's initial stage. */
  readonly stage?: string;
  /** Called with each new runtime session, before the client can use it (e.g. to set its stage). */
  readonly onSession?: (session: Session) => void;
  /**
   * The `ttlMs` of the 2026-07-28 era's lists and `server/discover` (default 300000, 5 minutes):
   * a listing changes only when the server restarts with another registry, so this is how stale
   * a client's copy may be after a deploy.
   */
  readonly listTtlMs?: number;
  /**
   * Whether an authorization shapes what the lists hold (a token is required, or scopes are
   * granted per caller): their `cacheScope` is then `private`, else `public` (default false).
   */
  readonly privateLists?: boolean;
  /**
   * The key the 2026-07-28 era's `requestState` is signed with (tools that ask their client:
   * input.ts); replicas that share it take each other's states. Default: a random key per
   * process, so a retry must reach the process that asked.
   */
  readonly secret?: Uint8Array;
  /**
   * Who makes this server's calls, the tools' `ctx.caller` (`CallerIdentity`): over stdio the one
   * client; over HTTP each session's or request's, from `callerIdentity` (fetch.ts). Default:
   * anonymous, no scopes.
   */
  readonly caller?: CallerIdentity;
}

/** `createMcpServer`'s options: the server's, and the runtime session to serve when there is one. */
export interface CreateMcpServerOptions extends McpServerOptions {
  /**
   * An existing runtime session to serve (e.g. one `runtime.resume` gave back) instead of a new
   * one; `surface`, `stage` and `onSession` do not apply to it.
   */
  readonly session?: Session;
}

/** An MCP server bound to its runtime session. */
export interface ZcpMcpServer {
  /** The SDK server: `connect` it to a transport. */
  readonly server: Server;
  /** The runtime session every request of this MCP session runs in. */
  readonly session: Session;
  /**
   * Closes the server (and its transport) and the runtime session, dropping its handles; with
   * `keep`, the runtime session is only unloaded from this process (`Session.close`'s `keep`:
   * its handles and stored state stay for another replica).
   */
  close(options?: { readonly keep?: boolean }): Promise<void>;
  /** `tools/call` requests running now. */
  readonly running: number;
  /** Resolves once no `tools/call` runs (at once when none does); for a graceful shutdown. */
  idle(): Promise<void>;
}

/**
 * The SDK server only validates elicitation answers with its JSON Schema validator, and builds
 * an Ajv instance per server when given none (about 0.25 ms and 30 KB per MCP session). This
 * surface sends its questions with `send`, not `elicitInput`, and checks the answers itself
 * (the runtime's session/input.ts, the same in both eras), so it gets a validator that refuses
 * to be used.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error("zcp: elicitation answers are checked by the runtime, not the SDK");
  },
};

/** The page size the options ask for, checked. */
export function pageSizeOf(options: McpServerOptions): number {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(
      `MCP server: pageSize must be a positive integer, got ${String(pageSize)}`,
    );
  return pageSize;
}

type Handler = (request: JSONRPCRequest, context: ServerContext) => Promise<Result>;

/**
 * The SDK's low-level server, with the one thing zcp changes: a request whose params its era's
 * schema refuses is answered -32602 in plain words (errors.ts), where the SDK answers -32603 with
 * zod's dump. `_wrapHandler` is the SDK's documented hook for wrapping every registered handler,
 * `initialize` (which the constructor registers) included; `tools/call` is the fallback handler
 * (tools.ts), which checks its own params.
 */
class ZcpServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, context) => {
      try {
        return await wrapped(request, context);
      } catch (error) {
        throw invalidParams(error) ?? error;
      }
    };
  }
}

/**
 * An SDK `Server` with zcp's capabilities, before any handler: the same for both eras. On the
 * 2026-07-28 era the SDK adds `ttlMs` and `cacheScope` to the cacheable results from the hints:
 * the lists and `server/discover` live `listTtlMs`, and a handle read is never cached (a handle
 * is one caller's and expires).
 */
export function sdkServer(
  options: McpServerOptions,
  features: Features,
  tools: { readonly listChanged: boolean } = { listChanged: true },
  verifyState?: (state: string, context: ServerContext) => Promise<unknown>,
): Server {
  const list: CacheHint = {
    ttlMs: options.listTtlMs ?? DEFAULT_LIST_TTL_MS,
    cacheScope: options.privateLists === true ? "private" : "public",
  };
  return new ZcpServer(
    { name: options.name ?? "zcp", version: options.version ?? "0.1.0" },
    {
      capabilities: {
        tools: { ...tools },
        resources: {},
        logging: {},
        ...featureCapabilities(features),
      },
      jsonSchemaValidator: NO_ELICITATION,
      cacheHints: {
        "server/discover": list,
        "tools/list": list,
        "prompts/list": list,
        "resources/list": list,
        "resources/templates/list": list,
        "resources/read": { ttlMs: 0, cacheScope: "private" },
      },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
      ...(verifyState ? { requestState: { verify: verifyState } } : {}),
    },
  );
}

/** The capabilities the features add: none of a kind the registry has none of. */
function featureCapabilities(features: Features): ServerCapabilities {
  const resources = features.resources.length + features.templates.length > 0;
  const completes = features.prompts.length > 0 || features.templates.length > 0;
  return {
    ...(features.prompts.length > 0 ? { prompts: {} } : {}),
    ...(completes ? { completions: {} } : {}),
    ...(resources ? { resources: { subscribe: true } } : {}),
  };
}

/**
 * A new runtime session (surface `mcp`), or `options.session`, and an SDK `Server` serving it.
 * Connect `server` to one transport; when the transport closes, the runtime session closes too.
 */
export function createMcpServer(
  runtime: Runtime,
  options: CreateMcpServerOptions = {},
): ZcpMcpServer {
  const pageSize = pageSizeOf(options);
  const session =
    options.session ??
    runtime.session({
      surface: options.surface ?? "mcp",
      ...(options.stage !== undefined ? { stage: options.stage } : {}),
    });
  const server = sdkServer(options, runtime.features);
  const handles = new IssuedHandles(true);
  const calls = serveTools(server, session, handles, {
    pageSize,
    persist: true,
    codeOnly: options.codeOnly === true,
    ...(options.caller ? { caller: options.caller } : {}),
  });
  serveHandleResources(server, runtime, session, handles, pageSize);
  servePrompts(server, runtime.features, pageSize);
  const stopUpdates = serveSubscriptions(server, runtime.features);

  const unsubscribe = session.onChange(() => {
    // Only a connected server can notify; a change before `initialize` is seen by the first list.
    if (server.transport) server.sendToolListChanged().catch(() => undefined);
  });

  // Released handles leave resources/list, however they were released.
  const stopForgetting = runtime.handles.onRelease((sessionId, id) => {
    if (sessionId === session.id) handles.forget(id);
  });
  // Set by close({ keep }) before the server closes: its onclose then unloads, not ends.
  let keep = false;
  // Once, and every caller waits for the same end (a DELETE is answered after it).
  let closing: Promise<void> | undefined;
  const closeSession = (): Promise<void> =>
    (closing ??= (async () => {
      unsubscribe();
      stopForgetting();
      stopUpdates();
      await session.close(undefined, { keep });
    })());
  server.onclose = () => void closeSession();
  if (!options.session) options.onSession?.(session);
  return {
    server,
    session,
    async close(closeOptions = {}) {
      keep = closeOptions.keep ?? false;
      await server.close();
      await closeSession();
    },
    get running() {
      return calls.running;
    },
    idle: () => calls.idle(),
  };
}

/**
 * MCP over Streamable HTTP, web-standard: the session table. One SDK transport
 * (`WebStandardStreamableHTTPServerTransport`), one SDK server and one runtime session per MCP
 * session (`mcp-session-id`, a random UUID from `crypto`).
 *
 *   POST    JSON-RPC; an `initialize` without a session id opens a session; answers are SSE
 *   GET     the session's stream of server notifications (SSE)
 *   DELETE  ends the session and its runtime session (its handles are dropped)
 *
 * The body is read and parsed here, within `maxBodyBytes` (413 beyond, -32700 when it is not
 * JSON; neither ends the session), so that a request is routed by session, and refused, before
 * a session is touched. The transport gets it parsed, and still checks Accept, Content-Type and
 * the protocol-version header. The guards (Host, Origin, token) ran before (guards.ts).
 */
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Runtime } from "@zcp/runtime";
import { createMcpServer, type McpServerOptions, type ZcpMcpServer } from "../mcp/server.js";
import { json, jsonRpcError, readJson, whenEnded, type ErrorAnswer } from "./body.js";
import { beginRequest, idleActivity, sweepIdle, type Activity, type Sweep } from "./idle.js";

export interface McpSessionLimits {
  readonly maxBodyBytes: number;
  readonly maxSessions: number;
  readonly idleTimeoutMs: number;
  readonly onError: (error: unknown) => void;
}

interface Entry extends Activity {
  readonly mcp: ZcpMcpServer;
  readonly transport: WebStandardStreamableHTTPServerTransport;
}

/** An error answer of the HTTP layer: `{"jsonrpc":"2.0","error":{code,message},"id":null}`. */
const refuse: ErrorAnswer = (status, code, message, headers) =>
  json(status, jsonRpcError(code, message), headers);

/** The MCP sessions of one endpoint. */
export class McpSessions {
  readonly #sessions = new Map<string, Entry>();
  #closing = false;
  /** POST requests in progress, and who waits for there to be none. */
  #posts = 0;
  readonly #drained: (() => void)[] = [];
  readonly #sweep: Sweep;

  constructor(
    private readonly runtime: Runtime,
    private readonly options: McpServerOptions,
    private readonly limits: McpSessionLimits,
  ) {
    // Closing the SDK server closes its transport, whose onclose forgets the session.
    this.#sweep = sweepIdle(
      this.#sessions,
      limits.idleTimeoutMs,
      (_id, entry) => void entry.mcp.close().catch(limits.onError),
    );
  }

  /** Open sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /** True once `stop()` ran: `initialize` gets 503. */
  get closing(): boolean {
    return this.#closing;
  }

  /** Answers one request on the endpoint. */
  async handle(request: Request): Promise<Response> {
    const admitted = await this.#admit(request);
    if (admitted instanceof Response) return admitted;
    const { entry, body } = admitted;
    const ended = beginRequest(entry);
    const post = request.method === "POST";
    if (post) this.#posts++;
    // Runs once the answer's body has ended (an SSE stream: when it closes).
    const finish = () => {
      ended();
      if (post && --this.#posts === 0) for (const resolve of this.#drained.splice(0)) resolve();
      // An initialize the transport refused (bad Accept, ...) opened no session, and one that
      // finished while close() ran was not kept: close them. (After a DELETE this does nothing.)
      const opened = entry.transport.sessionId;
      if (opened === undefined || this.#sessions.get(opened) !== entry)
        entry.mcp.close().catch(this.limits.onError);
    };
    let response: Response;
    try {
      response = await entry.transport.handleRequest(request, { parsedBody: body });
    } catch (error) {
      finish();
      throw error;
    }
    return whenEnded(response, finish);
  }

  /** Refuses new sessions from now on and stops the idle sweep. */
  stop(): void {
    this.#closing = true;
    clearInterval(this.#sweep);
  }

  /** Resolves once no POST is in progress (running calls have answered), or after `graceMs`. */
  async drained(graceMs: number): Promise<void> {
    if (this.#posts === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.#drained.push(resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
  }

  /** Ends every session (and its runtime session: running calls answer `cancelled`). */
  async close(): Promise<void> {
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(open.map((entry) => entry.mcp.close()));
  }

  /** The session a request may go on to, with its parsed body; or the answer that refuses it. */
  async #admit(
    request: Request,
  ): Promise<{ readonly entry: Entry; readonly body: unknown } | Response> {
    const sessionId = request.headers.get("mcp-session-id") ?? undefined;
    const entry = sessionId === undefined ? undefined : this.#sessions.get(sessionId);
    if (sessionId !== undefined && !entry) return refuse(404, -32001, "Session not found");
    if (request.method === "GET" || request.method === "DELETE") {
      return entry
        ? { entry, body: undefined }
        : refuse(400, -32000, "Bad Request: the mcp-session-id header is required");
    }
    if (request.method !== "POST")
      return refuse(405, -32000, "Method not allowed", { allow: "GET, POST, DELETE" });
    const read = await readJson(request, this.limits.maxBodyBytes, refuse);
    if (read instanceof Response) return read;
    if (entry) return { entry, body: read.json };
    if (!isInitializeRequest(read.json))
      return refuse(
        400,
        -32000,
        "Bad Request: no valid mcp-session-id; start a session with initialize",
      );
    if (this.#closing) return refuse(503, -32000, "Service Unavailable: the server is closing");
    if (this.#sessions.size >= this.limits.maxSessions)
      return refuse(503, -32000, "Service Unavailable: too many open sessions");
    return { entry: await this.#open(), body: read.json };
  }

  /** A new session: its SDK server connected to its transport; kept once `initialize` gave it an id. */
  async #open(): Promise<Entry> {
    const mcp = createMcpServer(this.runtime, this.options);
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          if (!this.#closing) this.#sessions.set(id, entry);
        },
      });
    // Whatever closes the transport (DELETE, close(), the idle sweep) forgets the session; the
    // SDK server's onclose then closes the runtime session.
    transport.onclose = () => {
      if (transport.sessionId !== undefined && this.#sessions.get(transport.sessionId) === entry)
        this.#sessions.delete(transport.sessionId);
    };
    const entry: Entry = { mcp, transport, ...idleActivity() };
    await mcp.server.connect(transport);
    return entry;
  }
}

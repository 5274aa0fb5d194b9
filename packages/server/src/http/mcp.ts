/**
 * MCP over Streamable HTTP, web-standard: the session table. One SDK transport (McpTransport,
 * the SDK's with cancellation ending streams), one SDK server and one runtime session per MCP
 * session (`mcp-session-id`, a random UUID from `crypto`).
 *
 *   POST    JSON-RPC; an `initialize` without a session id opens a session; answers are SSE
 *   GET     the session's stream of server notifications (SSE)
 *   DELETE  ends the session and its runtime session (its handles are dropped)
 *
 * The body is read and checked here, within `maxBodyBytes` (413 beyond; -32700 when it is not
 * JSON, -32600 when it is JSON but not a JSON-RPC message or batch of them, or an empty batch;
 * none ends the session), so that a request is routed by session, and refused, before a session
 * is touched. The transport gets it parsed, and still checks Accept, Content-Type and the
 * protocol-version header. The guards (Host, Origin, token) ran before (guards.ts).
 *
 * A new session makes room for itself (idle.ts): beyond `maxSessionsPerClient` or `maxSessions`
 * the least recently active session without a POST in progress is closed; its next request gets
 * 404, and its client starts over.
 */
import { randomUUID } from "node:crypto";
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import type { Runtime } from "@zcp/runtime";
import { createMcpServer, type McpServerOptions, type ZcpMcpServer } from "../mcp/server.js";
import { json, jsonRpcError, readJson, whenEnded, type ErrorAnswer } from "./body.js";
import {
  beginRequest,
  idleActivity,
  makeRoom,
  sweepIdle,
  type Activity,
  type SessionLimits,
  type Sweep,
} from "./idle.js";
import { McpTransport } from "./mcp-transport.js";

export interface McpSessionLimits extends SessionLimits {
  readonly maxBodyBytes: number;
  readonly idleTimeoutMs: number;
  readonly onError: (error: unknown) => void;
  /** Whose request it is, for `maxSessionsPerClient`. */
  readonly clientKey: (request: Request) => string;
}

interface Entry extends Activity {
  readonly id: string;
  readonly mcp: ZcpMcpServer;
  readonly transport: McpTransport;
}

/** A POST's body: as parsed, and its messages, checked. */
interface Posted {
  readonly body: unknown;
  readonly messages: readonly JSONRPCMessage[];
}

/** An error answer of the HTTP layer: `{"jsonrpc":"2.0","error":{code,message},"id":null}`. */
const refuse: ErrorAnswer = (status, code, message, headers) =>
  json(status, jsonRpcError(code, message), headers);

/** The MCP sessions of one endpoint. */
export class McpSessions {
  readonly #sessions = new Map<string, Entry>();
  #closing = false;
  readonly #sweep: Sweep;

  constructor(
    private readonly runtime: Runtime,
    private readonly options: McpServerOptions,
    private readonly limits: McpSessionLimits,
  ) {
    // Closing the SDK server closes its transport, whose onclose forgets the session.
    this.#sweep = sweepIdle(this.#sessions, limits.idleTimeoutMs, (_id, entry) => this.#end(entry));
  }

  /** Open sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Answers one request on the endpoint. */
  async handle(request: Request): Promise<Response> {
    const sessionId = request.headers.get("mcp-session-id") ?? undefined;
    const entry = sessionId === undefined ? undefined : this.#sessions.get(sessionId);
    if (sessionId !== undefined && !entry) return refuse(404, -32001, "Session not found");
    if (request.method === "GET" || request.method === "DELETE") {
      if (!entry) return refuse(400, -32000, "Bad Request: the mcp-session-id header is required");
      return this.#answer(entry, false, () => entry.transport.handleRequest(request));
    }
    if (request.method !== "POST")
      return refuse(405, -32000, "Method not allowed", { allow: "GET, POST, DELETE" });
    // Counted from now: a session whose POST body is still being read is not idle.
    if (entry)
      return this.#answer(entry, true, async () => {
        const posted = await this.#read(request);
        return posted instanceof Response
          ? posted
          : entry.transport.post(request, posted.body, posted.messages);
      });
    return this.#initialize(request);
  }

  /** Refuses new sessions from now on and stops the idle sweep. */
  stop(): void {
    this.#closing = true;
    clearInterval(this.#sweep);
  }

  /**
   * Ends the runtime sessions, not the MCP ones: running calls answer `cancelled`, and those
   * answers still reach their clients on the open streams (close() comes after).
   */
  async endCalls(reason: string): Promise<void> {
    await Promise.allSettled(
      [...this.#sessions.values()].map((entry) => entry.mcp.session.close(reason)),
    );
  }

  /** Ends every session (and its runtime session); `initialize` gets 503 from now on. */
  async close(): Promise<void> {
    this.stop();
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(open.map((entry) => entry.mcp.close()));
  }

  /** A POST without a session: an `initialize`, which opens one if there is (or can be made) room. */
  async #initialize(request: Request): Promise<Response> {
    const posted = await this.#read(request);
    if (posted instanceof Response) return posted;
    if (!isInitializeRequest(posted.body))
      return refuse(
        400,
        -32000,
        "Bad Request: no valid mcp-session-id; start a session with initialize",
      );
    if (this.#closing) return refuse(503, -32000, "Service Unavailable: the server is closing");
    const client = this.limits.clientKey(request);
    const room = makeRoom(this.#sessions, client, this.limits);
    if (typeof room === "string") return refuse(503, -32000, `Service Unavailable: ${room}`);
    for (const [, victim] of room) this.#end(victim);
    const entry = this.#open(client);
    const response = await this.#answer(entry, true, async () => {
      await entry.mcp.server.connect(entry.transport);
      return entry.transport.post(request, posted.body, posted.messages);
    });
    // An initialize the transport refused (bad Accept, ...) opened no session: close it.
    if (entry.transport.sessionId === undefined) this.#end(entry);
    return response;
  }

  /** The answer of `run`, counted as the session's request until its body has ended. */
  async #answer(entry: Entry, post: boolean, run: () => Promise<Response>): Promise<Response> {
    const ended = beginRequest(entry, post);
    let response: Response;
    try {
      response = await run();
    } catch (error) {
      ended();
      throw error;
    }
    return whenEnded(response, ended);
  }

  /** A POST's body, read and checked; or the answer that refuses it. */
  async #read(request: Request): Promise<Posted | Response> {
    const read = await readJson(request, this.limits.maxBodyBytes, refuse);
    if (read instanceof Response) return read;
    const body = read.json;
    if (Array.isArray(body) && body.length === 0)
      return refuse(400, -32600, "Invalid Request: empty batch");
    const messages: JSONRPCMessage[] = [];
    for (const [index, item] of (Array.isArray(body) ? body : [body]).entries()) {
      const parsed = JSONRPCMessageSchema.safeParse(item);
      if (!parsed.success)
        return refuse(
          400,
          -32600,
          Array.isArray(body)
            ? `Invalid Request: element ${index} of the batch is not a JSON-RPC message`
            : "Invalid Request: not a JSON-RPC message",
        );
      messages.push(parsed.data);
    }
    return { body, messages };
  }

  /**
   * A new session, in the table at once (so that concurrent `initialize`s count it); its id is
   * the transport's once `initialize` went through.
   */
  #open(client: string): Entry {
    const id = randomUUID();
    const mcp = createMcpServer(this.runtime, this.options);
    const transport = new McpTransport({ sessionIdGenerator: () => id });
    const entry: Entry = { id, mcp, transport, ...idleActivity(client) };
    // Whatever closes the transport (DELETE, close(), the sweep, eviction) forgets the session;
    // the SDK server's onclose then closes the runtime session.
    transport.onclose = () => {
      if (this.#sessions.get(id) === entry) this.#sessions.delete(id);
    };
    this.#sessions.set(id, entry);
    return entry;
  }

  #end(entry: Entry): void {
    if (this.#sessions.get(entry.id) === entry) this.#sessions.delete(entry.id);
    entry.mcp.close().catch(this.limits.onError);
  }
}

/**
 * What the replica tests share: a real `redis-server` (tools/redis-server.ts), `zcp-serve
 * --store redis://…` replicas of the kitchen sink (discover profile) on it, a `fetch` for the
 * SDK client that sends each request to the replica chosen for it, native JSON-RPC posts to a
 * chosen replica, and the requests they send (resume.test.ts, the replicas in one process, sends
 * them too).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { randomBytes } from "node:crypto";
import { createConnection } from "node:net";
import { SessionTokenJar, tokenFields } from "@zcp/runtime/wire";
import { expect } from "vitest";
import { post, type HttpAnswer, type HttpServed, type Processes } from "./faults/harness.js";

const NATIVE_INIT = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "zcp/1", clientInfo: { name: "replicas", version: "0" } },
};

export const STORE_DOWN = "Service Unavailable: the session store is unreachable";

/** A JSON-RPC request. */
export const rpc = (id: number, method: string, params: object = {}) => ({
  jsonrpc: "2.0",
  id,
  method,
  params,
});

/** A `tools/call` of `zcp.find_tools` for `query`. */
export const find = (id: number, query: string) =>
  rpc(id, "tools/call", { name: "zcp.find_tools", arguments: { query } });

/** A `tools/call` of `tables.load` (a call that makes a handle). */
export const load = (id: number) =>
  rpc(id, "tools/call", { name: "tables.load", arguments: { name: "t" } });

/** The native session tokens' key the replicas share (`ZCP_SERVE_SECRET`): 32 random bytes. */
export const REPLICA_SECRET = randomBytes(32).toString("base64");

/**
 * `count` replicas of `registries` (default the kitchen sink), discover profile, on the Redis at
 * `url`, sharing `REPLICA_SECRET`.
 */
export function startReplicas(
  processes: Processes,
  url: string,
  count: number,
  registries: readonly string[],
  flags: readonly string[] = [],
  env: { readonly [name: string]: string } = {},
): Promise<HttpServed[]> {
  const args = [
    ...registries.flatMap((registry) => ["--registry", registry]),
    "--profile",
    "discover",
    "--isolation",
    "none",
    "--store",
    url,
    ...flags,
  ];
  return Promise.all(
    Array.from({ length: count }, () =>
      processes.http(args, { env: { ZCP_SERVE_SECRET: REPLICA_SECRET, ...env } }),
    ),
  );
}

/**
 * A `fetch` for the SDK client: each POST or DELETE goes to the replica `at` names (or, unset,
 * the next one in turn), each GET (the notification stream) to the last; `sent` records where.
 */
export class Router {
  readonly sent: { readonly port: number; readonly method: string }[] = [];
  at: number | undefined;
  #next = 0;

  constructor(public replicas: readonly HttpServed[]) {}

  readonly fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    const method = init?.method ?? "GET";
    const to =
      method === "GET"
        ? this.replicas.at(-1)!
        : this.replicas[(this.at ?? this.#next++) % this.replicas.length]!;
    url.port = to.base.port;
    this.sent.push({ port: Number(to.base.port), method });
    return fetch(url, init);
  };
}

/** An SDK client connected through `router` (initialize and initialized on the replicas in turn). */
export async function mcpClient(
  router: Router,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(router.replicas[0]!.mcp, {
    fetch: router.fetch,
  });
  const client = new Client({ name: "replicas", version: "0" });
  await client.connect(transport);
  return { client, transport };
}

/** One native POST to a replica, with the session's header when given. */
export function nativePost(
  replica: HttpServed,
  body: unknown,
  session?: string,
): Promise<HttpAnswer> {
  return post(replica.native, body, session ? { "zcp-session-id": session } : {});
}

/**
 * A native session as a client keeps it: its tokens (`SessionTokenJar`) sent to whichever
 * replica each request goes to, and the newest of their answers kept.
 */
export class NativeSession {
  readonly tokens = new SessionTokenJar();

  /** Sends `body` to `replica` with the session's tokens. */
  async post(replica: HttpServed, body: unknown): Promise<HttpAnswer> {
    const answer = await nativePost(replica, body, this.tokens.header);
    const token = answer.headers.get("zcp-session-id");
    if (token !== null) this.tokens.keep(token);
    return answer;
  }

  /** The runtime session's id the tokens carry (its handles are kept under it). */
  get id(): string {
    return tokenFields(this.tokens.header!.split(",")[0]!)![2] as string;
  }
}

/** A new native session, opened on `replica`. */
export async function openNative(replica: HttpServed): Promise<NativeSession> {
  const session = new NativeSession();
  const opened = await session.post(replica, NATIVE_INIT);
  if (opened.status !== 200)
    throw new Error(`initialize answered ${opened.status}: ${opened.text}`);
  return session;
}

/** Asserts a native answer is the 404 of a session no replica knows. */
export function expectNativeGone(answer: HttpAnswer): void {
  expect(answer.status).toBe(404);
  expect(answer.messages[0].error).toEqual({
    code: -32001,
    message: "Session not found: start a new session with initialize",
  });
}

/** The result of a native request's answer, or throws with the answer. */
export function result(answer: HttpAnswer): any {
  const message = answer.messages[0];
  if (answer.status !== 200 || message?.result === undefined)
    throw new Error(`expected a result, got ${answer.status}: ${answer.text.slice(0, 500)}`);
  return message.result;
}

/** The `uri` of the `resource_link` of an MCP tool result. */
export function linkOf(content: unknown): string {
  const link = (content as { type: string; uri?: string }[]).find(
    (block) => block.type === "resource_link",
  );
  if (link?.uri === undefined) throw new Error(`no resource_link in ${JSON.stringify(content)}`);
  return link.uri;
}

/**
 * Sends one command to the Redis on `port` (as a plain client, `password` its AUTH) and
 * resolves with its reply: an integer reply as a number, a status or bulk reply as a string;
 * an error reply rejects. Enough for the tests to look at what the replicas stored.
 */
export function redisCommand(
  port: number,
  args: readonly string[],
  password?: string,
): Promise<number | string> {
  const encode = (command: readonly string[]) =>
    `*${command.length}\r\n${command.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join("")}`;
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port }, () =>
      socket.write((password === undefined ? "" : encode(["AUTH", password])) + encode(args)),
    );
    let replies = password === undefined ? 1 : 2;
    let buffer = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      for (let end; replies > 0 && (end = buffer.indexOf("\r\n")) >= 0;) {
        const line = buffer.slice(0, end);
        let rest = buffer.slice(end + 2);
        let value: number | string | Error;
        if (line[0] === "$" && line !== "$-1") {
          const length = Number(line.slice(1));
          if (Buffer.byteLength(rest) < length + 2) return;
          value = rest.slice(0, length);
          rest = rest.slice(length + 2);
        } else if (line[0] === ":") value = Number(line.slice(1));
        else if (line[0] === "-") value = new Error(line.slice(1));
        else value = line.slice(1);
        buffer = rest;
        if (--replies > 0 && !(value instanceof Error)) continue;
        socket.end();
        if (value instanceof Error) reject(value);
        else resolve(value);
        return;
      }
    });
    socket.on("error", reject);
  });
}

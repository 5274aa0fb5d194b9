/**
 * One client flooding replicas that share a real Redis with `initialize`s (issue 27, item 8):
 * Redis counts each client's session states across replicas and evicts only that client's own
 * past its cap, so the other clients' sessions answer on every replica; past the cap of all, a
 * new session is refused (503) instead of pushing out another client's. In-process replicas
 * (two fetch handlers, each with its own connection) with small caps, so that it runs fast; the
 * client is told by a header, as the remote address tells it behind `zcp-serve`. Native sessions
 * (their state a token, native/token.ts) store nothing: a flood of them fills nothing and ends
 * nobody's session.
 */
import { randomBytes } from "node:crypto";
import { connectRedisStore, type RedisStore } from "@zcp/redis";
import { createRuntime } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import { redisAvailable, startRedis, type RedisServer } from "../../../tools/redis-server.js";
import { createFetchHandler, type ZcpFetchHandler } from "../src/index.js";
import { INITIALIZE, POST_HEADERS } from "./checks.js";
import { redisCommand, rpc } from "./replicas.js";

const skip = redisAvailable();
const ORIGIN = "http://127.0.0.1:8787";
const PER_CLIENT = 3;
const SECRET = randomBytes(32).toString("base64");
const IN_ALL = 8;
const NATIVE_INIT = rpc(0, "initialize", {
  protocolVersion: "zcp/1",
  clientInfo: { name: "t", version: "0" },
});
const FULL = {
  jsonrpc: "2.0",
  error: { code: -32000, message: "Service Unavailable: too many open sessions" },
  id: null,
};

describe.skipIf(skip !== null)("one client flooding replicas on one Redis", () => {
  let redis: RedisServer;
  const stores: RedisStore[] = [];
  const handlers: ZcpFetchHandler[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    for (let replica = 0; replica < 2; replica++) {
      const store = await connectRedisStore({
        url: redis.url,
        maxSessions: IN_ALL,
        maxSessionsPerClient: PER_CLIENT,
      });
      stores.push(store);
      const runtime = createRuntime(kitchenSink, {
        sessions: store.sessions,
        handles: { storage: store.handles },
      });
      handlers.push(
        createFetchHandler(runtime, {
          native: { secret: SECRET },
          clientKey: (request) => request.headers.get("x-client") ?? "",
        }),
      );
    }
  });
  afterAll(async () => {
    await Promise.all(handlers.map((handler) => handler.close()));
    await Promise.all(stores.map((store) => store.close()));
    await redis?.stop();
  });

  /** One POST to replica `to` from `client`; its status, session id and JSON-RPC answer. */
  async function post(
    to: number,
    client: string,
    path: "/mcp" | "/zcp",
    body: unknown,
    session?: string,
  ) {
    const header = path === "/mcp" ? "mcp-session-id" : "zcp-session-id";
    const response = await handlers[to]!.fetch(
      new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: {
          ...POST_HEADERS,
          host: "127.0.0.1:8787",
          "x-client": client,
          ...(session === undefined ? {} : { [header]: session }),
        },
        body: JSON.stringify(body),
      }),
    );
    const text = await response.text();
    // MCP answers are one SSE event: its data line is the JSON-RPC answer.
    const json = text.startsWith("event:") ? text.split("data: ")[1]! : text;
    return { status: response.status, id: response.headers.get(header), json: JSON.parse(json) };
  }

  /** How many of these sessions Redis holds a state of. */
  const stored = (ids: readonly string[]) =>
    redisCommand(redis.port, ["EXISTS", ...ids.map((id) => `zcp:session:${id}`)]);

  const open = (to: number, client: string, path: "/mcp" | "/zcp") =>
    post(to, client, path, path === "/mcp" ? INITIALIZE : NATIVE_INIT);

  /** A request of an open session: tools/list (MCP) or a native tools/list. */
  const use = (to: number, client: string, path: "/mcp" | "/zcp", session: string) =>
    post(
      to,
      client,
      path,
      rpc(2, "tools/list", path === "/mcp" ? {} : { format: "json" }),
      session,
    );

  it("evicts only the flooding client's own states; the others' answer on every replica", async () => {
    const y = { mcp: (await open(0, "y", "/mcp")).id!, native: (await open(1, "y", "/zcp")).id! };
    const flood: string[] = [];
    const nativeFlood: string[] = [];
    for (let i = 0; i < 20; i++) {
      const path = i % 4 < 2 ? "/mcp" : "/zcp";
      const opened = await open(i % 2, "x", path);
      expect(opened.status).toBe(200);
      (path === "/mcp" ? flood : nativeFlood).push(opened.id!);
    }
    for (const to of [0, 1]) {
      expect((await use(to, "y", "/mcp", y.mcp)).status).toBe(200);
      expect((await use(to, "y", "/zcp", y.native)).status).toBe(200);
      // Native sessions fill nothing: every one of them answers, on every replica.
      for (const token of nativeFlood) expect((await use(to, "x", "/zcp", token)).status).toBe(200);
    }
    // Redis keeps the client's 3 most recent MCP states; its first session ended on every replica.
    const kept = [y.mcp, ...flood.slice(-PER_CLIENT)];
    expect(await stored(kept)).toBe(kept.length);
    expect(await stored(flood.slice(0, -PER_CLIENT))).toBe(0);
    expect(await redisCommand(redis.port, ["ZCARD", "zcp:sessions"])).toBe(kept.length);
    for (const to of [0, 1]) expect((await use(to, "x", "/mcp", flood[0]!)).status).toBe(404);
    // Its oldest kept one (opened on replica 1) is resumed on replica 0.
    expect((await use(0, "x", "/mcp", flood.at(-PER_CLIENT)!)).status).toBe(200);
  });

  it("refuses a new session once all clients together fill Redis, and ends none of theirs", async () => {
    // 4 states stored (1 of y, 3 of x): 4 more clients fill it to 8.
    const others: string[] = [];
    for (const client of ["a", "b", "c", "e"])
      others.push((await open(others.length % 2, client, "/mcp")).id!);
    for (const to of [0, 1]) {
      const refused = await open(to, "d", "/mcp");
      expect(refused).toEqual({ status: 503, id: null, json: FULL });
      // A native session needs no room in Redis.
      expect((await open(to, "d", "/zcp")).status).toBe(200);
    }
    for (const [index, id] of others.entries())
      expect((await use(1 - (index % 2), "abce"[index]!, "/mcp", id)).status).toBe(200);
    expect(await redisCommand(redis.port, ["ZCARD", "zcp:sessions"])).toBe(IN_ALL);
    // A client at its own cap still opens one, in place of its own least recently used.
    expect((await open(0, "x", "/mcp")).status).toBe(200);
  });
});

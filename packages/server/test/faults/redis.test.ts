/**
 * Issue 19's faults, on real `zcp-serve --store redis://…` replicas and a real `redis-server`:
 *
 * - Redis unreachable at start: the replica does not start (exit 1, the reason on stderr).
 * - Redis lost mid-run: a call running then that needs it answers `unavailable:store`; every
 *   request of an MCP session answers 503 "the session store is unreachable" (JSON-RPC -32000,
 *   new sessions too), `/readyz` 503, `/healthz` 200 within 100 ms, no replica crashes; a native
 *   session, whose state is its token (native/token.ts), is served on, and what needs Redis
 *   (its handles) answers `unavailable:store`; once Redis is back (restarted empty: no
 *   persistence) the replicas serve again, the MCP sessions Redis lost are 404 (the clients
 *   start over), and the native ones go on without the handles Redis lost.
 * - A replica SIGKILLed in the middle of a call: the call was never acknowledged; its retry on
 *   another replica runs in the same session (its stage, found tools and handles).
 */
import { readFileSync } from "node:fs";
import { createConnection } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { redisAvailable, startRedis, type RedisServer } from "../../../../tools/redis-server.js";
import {
  expectHealthy,
  FAULTY,
  KITCHEN_SINK,
  MCP_INITIALIZE,
  mcpSession,
  NATIVE_INITIALIZE,
  post,
  Processes,
  sleep,
  watchHealth,
  type HttpServed,
} from "./harness.js";
import {
  find,
  linkOf,
  load,
  mcpClient,
  nativePost,
  NativeSession,
  openNative,
  redisCommand,
  result,
  REPLICA_SECRET,
  Router,
  rpc,
  startReplicas,
  STORE_DOWN,
} from "../replicas.js";

const skip = redisAvailable();
const processes = new Processes();
let redis: RedisServer | undefined;
afterEach(async () => {
  await processes.cleanup();
  await redis?.stop();
  redis = undefined;
});

/** Stops the Redis server as a crash would, without `stop()` (which removes its folder): `restart()` brings it back on its port. */
function shutdownRedis(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: "127.0.0.1", port }, () =>
      socket.write("SHUTDOWN NOSAVE\r\n"),
    );
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });
}

const gauge = (id: number, ms: number) =>
  rpc(id, "tools/call", { name: "gauge", arguments: { ms } });

/** A `tools/call` of `zcp.find_tools` (`name`: as MCP or native names it) for the one best tool. */
const findOne = (id: number, query: string, name = "zcp.find_tools") =>
  rpc(id, "tools/call", { name, arguments: { query, limit: 1 } });

/** A new Redis (kept in `redis`, for afterEach) and `count` replicas of the faulty fixture and the kitchen sink on it. */
async function faultyReplicas(
  count: number,
): Promise<{ server: RedisServer; replicas: HttpServed[] }> {
  const server = await startRedis();
  redis = server;
  const replicas = await startReplicas(
    processes,
    server.url,
    count,
    [FAULTY, KITCHEN_SINK],
    ["--timeout-ms", "20000"],
    { FAULTY_DIR: processes.tempDir("redis") },
  );
  return { server, replicas };
}

/** Polls `/readyz` of each replica until it answers `status`. */
async function readyz(replicas: readonly HttpServed[], status: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (const replica of replicas)
    while ((await fetch(new URL("/readyz", replica.base))).status !== status) {
      if (Date.now() > deadline) throw new Error(`/readyz never answered ${status}`);
      await sleep(50);
    }
}

describe.skipIf(skip !== null)("faults of a Redis-backed replica", () => {
  it("does not start when Redis is unreachable: exit 1 with the reason", async () => {
    redis = await startRedis();
    const { port } = redis;
    await redis.stop();
    redis = undefined;
    const url = `redis://127.0.0.1:${port}`;
    const served = processes.spawn([
      "--registry",
      KITCHEN_SINK,
      "--transport",
      "http",
      "--port",
      "0",
      "--store",
      url,
    ]);
    expect(await served.exited).toEqual({ code: 1, signal: null });
    expect(served.stderr()).toBe(
      `zcp-serve: cannot reach Redis at ${url}: connect ECONNREFUSED 127.0.0.1:${port}\n`,
    );
  });

  it("answers 503 while Redis is down, stays up and healthy, and serves again once it is back", async () => {
    const { server, replicas } = await faultyReplicas(2);
    const [first, second] = replicas as [HttpServed, HttpServed];
    const native = await openNative(first);
    result(await native.post(second, find(1, "count the calls of this tool running at once")));
    result(await native.post(first, find(2, "load a table of rows")));
    const { handle } = result(await native.post(second, load(3)));
    const mcp = await mcpSession(first.mcp);
    const mcpHeaders = { "mcp-session-id": mcp.id, "mcp-protocol-version": "2025-11-25" };
    expect((await post(second.mcp, rpc(1, "tools/list"), mcpHeaders)).status).toBe(200);

    const health = replicas.map((replica) => watchHealth(replica.base));
    // A batch running when Redis goes: its call that makes a handle answers unavailable:store.
    const batch = native.post(first, [gauge(3, 1500), load(4)]);
    await sleep(300);
    await shutdownRedis(server.port);
    const answered = await batch;
    expect(answered.status).toBe(200);
    expect(answered.messages[0].result).toMatchObject({ ok: true });
    expect(answered.messages[1].result).toEqual({
      ok: false,
      error: "unavailable:store",
      hint: "the shared store is unreachable; try again shortly",
    });
    await readyz(replicas, 503);
    for (const replica of replicas) {
      const ready = await fetch(new URL("/readyz", replica.base));
      expect(await ready.json()).toEqual({
        status: "not ready",
        reason: "the session store is unreachable",
      });
      // Native: served from the token; its handles, in Redis, are unavailable.
      expect((await native.post(replica, rpc(2, "ping"))).status).toBe(200);
      expect((await nativePost(replica, NATIVE_INITIALIZE)).status).toBe(200);
      expect(result(await native.post(replica, rpc(2, "handles/count", { handle })))).toEqual({
        ok: false,
        error: "unavailable:store",
        hint: "the shared store is unreachable; try again shortly",
      });
      for (const refused of [
        await post(replica.mcp, rpc(3, "tools/list"), mcpHeaders),
        await post(replica.mcp, MCP_INITIALIZE),
      ]) {
        expect(refused.status).toBe(503);
        expect(refused.messages).toEqual([
          { jsonrpc: "2.0", error: { code: -32000, message: STORE_DOWN }, id: null },
        ]);
      }
    }
    for (const [i, watch] of health.entries())
      expectHealthy(await watch.stop(), `Redis down (replica ${i})`);
    for (const replica of replicas) expect(replica.child.exitCode).toBeNull();

    await server.restart();
    await readyz(replicas, 200);
    // The restarted Redis is empty: the MCP sessions it held are gone, on every replica; the
    // native session goes on, without its handles.
    for (const replica of replicas) {
      expect(result(await native.post(replica, rpc(4, "handles/count", { handle })))).toMatchObject(
        { ok: false, error: `expired:${handle}` },
      );
      const mcpGone = await post(replica.mcp, rpc(5, "tools/list"), mcpHeaders);
      expect(mcpGone.status).toBe(404);
    }
    // New sessions span both replicas again.
    const fresh = await openNative(first);
    result(await fresh.post(second, find(6, "load a table of rows")));
    const loaded = result(await fresh.post(first, load(7)));
    expect(
      result(await fresh.post(second, rpc(8, "handles/count", { handle: loaded.handle }))),
    ).toMatchObject({ ok: true });
    expect(first.stderr()).toContain(`zcp: lost the connection to Redis at ${server.url}`);
  });

  it("a replica killed in the middle of a call: the retry on another runs in the same session", async () => {
    const { replicas } = await faultyReplicas(3);
    const [a, b, c] = replicas as [HttpServed, HttpServed, HttpServed];

    // Native: a session with found tools, a stage and a handle, made on all three.
    const native = await openNative(a);
    result(await native.post(b, find(1, "count the calls of this tool running at once")));
    result(await native.post(c, find(2, "load a table of rows")));
    const staged = result(await native.post(a, rpc(3, "session/stage", { stage: "discover" })));
    const { handle } = result(await native.post(b, load(4)));
    const running = native.post(a, gauge(5, 5000));
    await sleep(500);
    a.child.kill("SIGKILL");
    await expect(running).rejects.toThrow("fetch failed");
    // The client's retry, on another replica: the same session, as it was.
    expect(result(await native.post(b, gauge(5, 10)))).toMatchObject({ ok: true });
    const listed = result(await native.post(c, rpc(6, "tools/list", { format: "json" })));
    expect(listed.hash).toBe(staged.hash);
    expect(listed.tools.map((tool: { name: string }) => tool.name)).toEqual(
      expect.arrayContaining(["gauge", "tables_load"]),
    );
    expect(result(await native.post(c, rpc(7, "handles/count", { handle })))).toMatchObject({
      ok: true,
    });

    // MCP, over the SDK client: the same on the two replicas left.
    const router = new Router([b, c]);
    const { client } = await mcpClient(router);
    router.at = 0;
    await client.callTool({
      name: "zcp_find_tools",
      arguments: { query: "count the calls of this tool running at once" },
    });
    router.at = 1;
    await client.callTool({ name: "zcp_find_tools", arguments: { query: "load a table of rows" } });
    router.at = 0;
    const uri = linkOf(
      (await client.callTool({ name: "tables_load", arguments: { name: "t" } })).content,
    );
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    // The SDK client keeps waiting for an answer on a stream that broke: its timeout ends the wait.
    const call = client.callTool({ name: "gauge", arguments: { ms: 5000 } }, undefined, {
      timeout: 2000,
    });
    await sleep(500);
    b.child.kill("SIGKILL");
    await expect(call).rejects.toThrow("Request timed out");
    router.replicas = [c];
    expect(
      (await client.callTool({ name: "gauge", arguments: { ms: 10 } })).isError,
    ).toBeUndefined();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(tools);
    expect((await client.readResource({ uri })).contents[0]).toMatchObject({ uri });
    await client.close();
  });
});

/**
 * Issue 27, item 8: replicas saving one session at once, a save landing after the session
 * ended, and what an `initialize` leaves in Redis. Each race is made certain by a slow call
 * (the faulty fixture's `gauge`) that holds one replica's save back.
 */
describe.skipIf(skip !== null)("replicas racing on one session", () => {
  /** The number of session states in Redis and their bytes (their JSON), by a Lua script. */
  async function stored(port: number): Promise<{ states: number; bytes: number }> {
    const count = (measure: string) =>
      redisCommand(port, [
        "EVAL",
        `local n = 0 for _, key in ipairs(redis.call('KEYS', 'zcp:session:*')) do n = n + ${measure} end return n`,
        "0",
      ]) as Promise<number>;
    return { states: await count("1"), bytes: await count("redis.call('STRLEN', key)") };
  }

  it("(a) native: a close drops the handles on every replica, and nothing of the session is stored, whatever ran meanwhile", async () => {
    const { server, replicas } = await faultyReplicas(3);
    const [a, b, c] = replicas as [HttpServed, HttpServed, HttpServed];
    const native = await openNative(a);
    result(await native.post(a, find(1, "count the calls of this tool running at once")));
    result(await native.post(a, find(2, "load a table of rows")));
    const { handle } = result(await native.post(a, load(3)));
    // On b, a request that changes the state (a find) after a slow call, ending after the close.
    const late = native.post(b, [gauge(4, 1500), find(5, "sum a column of a table handle")]);
    await sleep(500);
    result(await native.post(c, rpc(6, "session/close")));
    expect((await late).status).toBe(200);
    for (const replica of replicas)
      expect(result(await native.post(replica, rpc(7, "handles/count", { handle })))).toMatchObject(
        { ok: false, error: `expired:${handle}` },
      );
    expect(await redisCommand(server.port, ["EXISTS", `zcp:session:${native.id}`])).toBe(0);
    expect((await stored(server.port)).states).toBe(0);
  });

  it("(b) what two replicas find at once is all kept: the later save merges", async () => {
    const { replicas } = await faultyReplicas(3);
    const [a, b, c] = replicas as [HttpServed, HttpServed, HttpServed];
    const names = async (session: NativeSession, on: HttpServed) =>
      result(await session.post(on, rpc(9, "tools/list", { format: "json" }))).tools.map(
        (tool: { name: string }) => tool.name,
      ) as string[];
    const sessions = await Promise.all(Array.from({ length: 5 }, () => openNative(a)));
    await Promise.all(
      sessions.map(async (session) => {
        result(await session.post(a, find(1, "count the calls of this tool running at once")));
        // Native: both finds start from the same token; the client keeps both answers' tokens
        // (one revision, two states) and the next replica merges them.
        const [slow, fast] = await Promise.all([
          session.post(a, [gauge(2, 800), findOne(3, "load a table of rows")]),
          sleep(200).then(() => session.post(b, findOne(4, "sum a column of a table handle"))),
        ]);
        expect(slow.messages.map((message) => message.result.ok)).toEqual([true, true]);
        expect(result(fast).ok).toBe(true);
      }),
    );
    for (const session of sessions)
      for (const replica of [a, b, c])
        expect(await names(session, replica)).toEqual(
          expect.arrayContaining(["gauge", "tables_load", "tables_sum"]),
        );
    // The same over MCP, ten sessions each finding on two replicas at exactly the same time.
    const mcp = await Promise.all(Array.from({ length: 10 }, () => mcpSession(a.mcp)));
    const headers = (id: string) => ({
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-11-25",
    });
    await Promise.all(
      mcp.map(({ id }) =>
        Promise.all([
          post(a.mcp, findOne(1, "load a table of rows", "zcp_find_tools"), headers(id)),
          post(b.mcp, findOne(2, "sum a column of a table handle", "zcp_find_tools"), headers(id)),
        ]),
      ),
    );
    for (const { id } of mcp) {
      const listed = await post(c.mcp, rpc(3, "tools/list"), headers(id));
      const tools = listed.messages[0].result.tools.map((tool: { name: string }) => tool.name);
      expect(tools).toEqual(expect.arrayContaining(["tables_load", "tables_sum"]));
    }
  });

  it("(c) an initialize leaves only what resuming needs in Redis, at most 4 KiB, 100 states per client; more is refused", async () => {
    const { server, replicas } = await faultyReplicas(2);
    const before = await stored(server.port);
    const pad = "x".repeat(100_000);
    const padded = {
      ...MCP_INITIALIZE,
      params: {
        ...MCP_INITIALIZE.params,
        _meta: { pad },
        clientInfo: { name: "faults", version: "0", description: pad },
      },
    };
    for (let i = 0; i < 300; i += 10)
      await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const opened = await post(replicas[(i + j) % 2]!.mcp, padded);
          expect(opened.status).toBe(200);
        }),
      );
    const after = await stored(server.port);
    // One client (one address): Redis keeps its 100 most recent states (`@zcp/redis`
    // maxSessionsPerClient), of both replicas together.
    expect(after.states - before.states).toBe(100);
    // 300 × 100 KB posted; each state kept is its surface, stage, found tools and the trimmed
    // initialize: a few hundred bytes.
    expect(after.bytes - before.bytes).toBeLessThan(100 * 512);

    const over = await post(replicas[0]!.mcp, {
      ...MCP_INITIALIZE,
      params: { ...MCP_INITIALIZE.params, capabilities: { experimental: { pad: { pad } } } },
    });
    expect(over.status).toBe(400);
    expect(over.messages).toEqual([
      {
        jsonrpc: "2.0",
        error: {
          code: -32602,
          message:
            "Invalid params: the initialize request's id, protocolVersion, capabilities and clientInfo take 100184 bytes as JSON; a session shared by replicas keeps at most 4096",
        },
        id: null,
      },
    ]);
    expect((await stored(server.port)).states).toBe(after.states);
  });
});

describe.skipIf(skip !== null)("the Redis password", () => {
  it("is taken from ZCP_SERVE_STORE, out of the process list and the log", async () => {
    redis = await startRedis();
    const password = "s3cret-pass";
    await redisCommand(redis.port, ["CONFIG", "SET", "requirepass", password]);
    const url = `redis://:${password}@127.0.0.1:${redis.port}`;
    const args = ["--registry", KITCHEN_SINK, "--profile", "discover", "--isolation", "none"];
    const env = { ZCP_SERVE_STORE: url, ZCP_SERVE_SECRET: REPLICA_SECRET };
    const [a, b] = await Promise.all([
      processes.http(args, { env }),
      processes.http(args, { env }),
    ]);
    for (const replica of [a!, b!]) {
      expect(replica.stderr()).toContain(
        `zcp-serve: handles and 2025 MCP sessions are kept in Redis at redis://127.0.0.1:${redis.port}\n`,
      );
      expect(replica.stderr()).not.toContain(password);
      expect(readFileSync(`/proc/${replica.pid}/cmdline`, "utf8")).not.toContain(password);
    }
    // Both on the one Redis: a session opened on one is served by the other.
    const native = await openNative(a!);
    result(await native.post(b!, find(1, "load a table of rows")));
    const { handle } = result(await native.post(b!, load(2)));
    expect(result(await native.post(a!, rpc(3, "handles/count", { handle })))).toMatchObject({
      ok: true,
    });
    expect(
      await redisCommand(redis.port, ["EXISTS", `zcp:h:rec:${native.id}:${handle}`], password),
    ).toBe(1);
    // A wrong password: the replica does not start, and says why without the password.
    const wrong = processes.spawn(
      ["--registry", KITCHEN_SINK, "--transport", "http", "--port", "0"],
      { env: { ZCP_SERVE_STORE: `redis://:nope@127.0.0.1:${redis.port}` } },
    );
    expect(await wrong.exited).toEqual({ code: 1, signal: null });
    expect(wrong.stderr()).toMatch(
      new RegExp(
        `^zcp-serve: cannot reach Redis at redis://127\\.0\\.0\\.1:${redis.port}: WRONGPASS`,
      ),
    );
    expect(wrong.stderr()).not.toContain("nope");
  });
});

/**
 * The native surface with no session state on the server: two real `zcp-serve --store
 * redis://… ` replicas sharing `ZCP_SERVE_SECRET` on one real `redis-server`, and one
 * `@zcp/client` whose requests alternate between them. Tools found on one are called on the
 * other, a handle made on one is read on the other, and Redis holds handles only: no key of the
 * session store, and every key naming the session is a handle's. A handle of one session is
 * refused to another, a guessed token finds nothing, and a replica without the secret refuses to
 * start.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { connectHttp } from "@zcp/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisAvailable, startRedis, type RedisServer } from "../../../tools/redis-server.js";
import { KITCHEN_SINK, Processes, type HttpServed } from "./faults/harness.js";
import {
  expectNativeGone,
  find,
  nativePost,
  openNative,
  redisCommand,
  result,
  rpc,
  startReplicas,
} from "./replicas.js";

const skip = redisAvailable();

/** Keys matching `pattern` (a Redis glob) that do not start with `outside`, counted by a Lua script. */
const countKeys = (port: number, pattern: string, outside = "") =>
  redisCommand(port, [
    "EVAL",
    "local n = 0 for _, key in ipairs(redis.call('KEYS', ARGV[1])) do if ARGV[2] == '' or string.sub(key, 1, #ARGV[2]) ~= ARGV[2] then n = n + 1 end end return n",
    "0",
    pattern,
    outside,
  ]) as Promise<number>;

describe.skipIf(skip !== null)("native sessions on replicas, without session state", () => {
  const processes = new Processes();
  let redis: RedisServer;
  let replicas: HttpServed[];
  beforeAll(async () => {
    redis = await startRedis();
    replicas = await startReplicas(processes, redis.url, 2, [KITCHEN_SINK]);
  });
  afterAll(async () => {
    await processes.cleanup();
    await redis?.stop();
  });

  it("one client alternating between two replicas: find on A, the found tool called on B, its handle read on A; Redis holds handles only", async () => {
    const sent: string[] = [];
    let next = 0;
    const client = connectHttp(replicas[0]!.native, {
      fetch: (url, init) => {
        const to = replicas[next++ % 2]!;
        sent.push(to.base.port);
        const routed = new URL(url);
        routed.port = to.base.port;
        return fetch(routed, init);
      },
    });
    await client.initialize();
    expect((await client.listTools({ format: "json" })).tools.map((tool) => tool.alias)).toEqual([
      "zcp.find_tools",
    ]);
    // Each request on the other replica than the one before (A, B, A, …): the find (request 2)
    // on A, the found tool (3: #T1 made) on B, #T1 read (4) on A, #T2 made (5) on B, read (6) on A.
    expect(await client.call("zcp.find_tools", { query: "load a table of rows" })).toMatchObject({
      ok: true,
    });
    expect(await client.call("tables.load", { name: "orders" })).toMatchObject({
      ok: true,
      handle: "#T1",
    });
    expect(await client.handles.count("#T1")).toEqual({ ok: true, count: 3 });
    expect(await client.call("tables.load", { name: "more" })).toMatchObject({
      ok: true,
      handle: "#T2",
    });
    expect(await client.handles.read("#T2", { item: 2 })).toEqual({
      ok: true,
      value: { sku: "more-2", qty: 2 },
    });
    // The listing is the same on both replicas: the found tools, from the token.
    const listings = [await client.listTools(), await client.listTools({ format: "json" })];
    expect(listings[1]!.hash).toBe(listings[0]!.hash);
    const tools = listings[1]!.tools as readonly { readonly alias: string }[];
    expect(tools.map((tool) => tool.alias)).toContain("tables.load");
    const ports = replicas.map((replica) => replica.base.port);
    expect(sent).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => ports[i % 2]));

    // Redis: nothing of the session store; what names the session is its handles'.
    const session = await openNative(replicas[0]!);
    result(await session.post(replicas[0]!, find(1, "load a table of rows")));
    result(
      await session.post(
        replicas[1]!,
        rpc(1, "tools/call", { name: "tables.load", arguments: { name: "t" } }),
      ),
    );
    for (const pattern of ["zcp:session:*", "zcp:sessions", "zcp:owners", "zcp:client:*"])
      expect({ pattern, keys: await countKeys(redis.port, pattern) }).toEqual({ pattern, keys: 0 });
    expect(await countKeys(redis.port, `*${session.id}*`)).toBeGreaterThan(0);
    expect(await countKeys(redis.port, `*${session.id}*`, "zcp:h:")).toBe(0);
    await client.close();
  });

  it("refuses a handle of one session to another, and a guessed token, on both replicas", async () => {
    const one = await openNative(replicas[0]!);
    result(await one.post(replicas[0]!, find(1, "load a table of rows")));
    const made = result(
      await one.post(
        replicas[1]!,
        rpc(1, "tools/call", { name: "tables.load", arguments: { name: "t" } }),
      ),
    );
    const other = await openNative(replicas[1]!);
    for (const replica of replicas) {
      for (const handle of [made.handle as string, "#T2"])
        expect(result(await other.post(replica, rpc(2, "handles/count", { handle })))).toEqual({
          ok: false,
          error: `expired:${handle}`,
          hint: `${handle} has expired or does not exist in this session: call the tool that made it again`,
        });
      // A token made up with the first session's id, a fresh expiry and a random MAC.
      const payload = Buffer.from(
        JSON.stringify([9, Date.now() + 60_000, one.id, null, "planner", "", ""]),
      ).toString("base64url");
      for (const guessed of [
        `z1.${payload}.${randomBytes(32).toString("base64url")}`,
        one.id,
        randomUUID(),
      ])
        expectNativeGone(
          await nativePost(replica, rpc(3, "handles/count", { handle: "#T1" }), guessed),
        );
    }
  });

  it("refuses the token of another secret: that of a replica started without the shared one", async () => {
    const foreign = await processes.http(["--registry", KITCHEN_SINK, "--isolation", "none"]);
    const stranger = await openNative(foreign);
    expect((await stranger.post(foreign, rpc(1, "ping"))).status).toBe(200);
    for (const replica of replicas)
      expectNativeGone(await nativePost(replica, rpc(2, "ping"), stranger.tokens.header));
  });

  it("a replica on the store without a secret does not start, and says why", async () => {
    const served = processes.spawn([
      "--registry",
      KITCHEN_SINK,
      "--transport",
      "http",
      "--port",
      "0",
      "--surface",
      "native",
      "--store",
      redis.url,
    ]);
    expect(await served.exited).toEqual({ code: 2, signal: null });
    expect(served.stderr()).toContain(
      "--store redis://… with the native surface needs --secret (or ZCP_SERVE_SECRET): replicas must share the key that signs native session tokens",
    );
  });
});

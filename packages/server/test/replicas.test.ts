/**
 * Stateless HTTP replicas (issue 19): two and three real `zcp-serve --transport http --store
 * redis://…` processes on one real `redis-server`, every request of a session sent to another
 * replica than the one before. Over MCP with the official SDK client (its `fetch` picks the
 * replica per request) and over native ZCP: tools found on one replica are called on the next, a
 * stage set on one is seen on another, a handle made on one is read on another, handle ids stay
 * unique, another session cannot read them whatever the id, and ending a session ends it on all.
 * The faults (Redis down, a replica killed mid-call) are in faults/redis.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisAvailable, startRedis, type RedisServer } from "../../../tools/redis-server.js";
import { KITCHEN_SINK, post, Processes, type HttpServed } from "./faults/harness.js";
import {
  find,
  linkOf,
  load,
  mcpClient,
  openNative,
  result,
  Router,
  rpc,
  startReplicas,
} from "./replicas.js";

const skip = redisAvailable();

describe.skipIf(skip !== null)("replicas on one Redis", () => {
  const processes = new Processes();
  let redis: RedisServer;
  let all: HttpServed[];
  beforeAll(async () => {
    redis = await startRedis();
    all = await startReplicas(processes, redis.url, 3, [KITCHEN_SINK]);
  });
  afterAll(async () => {
    await processes.cleanup();
    await redis?.stop();
  });

  it("logs where the state lives", () => {
    expect(all[0]!.stderr()).toContain(
      `zcp-serve: handles and 2025 MCP sessions are kept in Redis at ${redis.url}`,
    );
  });

  describe.each([2, 3])("%i replicas, alternating", (count) => {
    const replica = (i: number) => all[i % count]!;

    it("MCP (SDK client): find on one, list and call on the next, read the handle on another; DELETE ends it on all", async () => {
      const router = new Router(all.slice(0, count));
      const { client, transport } = await mcpClient(router);
      const id = transport.sessionId!;
      router.at = 1;
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["zcp_find_tools"]);
      router.at = 0;
      const found = await client.callTool({
        name: "zcp_find_tools",
        arguments: { query: "load a table of rows" },
      });
      expect(found.isError).toBeUndefined();
      router.at = 1;
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("tables_load");
      router.at = 2;
      const loaded = await client.callTool({ name: "tables_load", arguments: { name: "t" } });
      const uri = linkOf(loaded.content);
      router.at = 0;
      const read = await client.readResource({ uri });
      expect(read.contents[0]).toMatchObject({ uri, mimeType: "application/json" });
      // Another session reads it on no replica.
      const otherRouter = new Router(all.slice(0, count));
      const { client: other } = await mcpClient(otherRouter);
      for (let i = 0; i < count; i++) {
        otherRouter.at = i;
        await expect(other.readResource({ uri })).rejects.toThrow(
          `MCP error -32602: Resource not found: ${decodeURIComponent(uri.slice("zcp://handle/".length))} has expired or does not exist in this session: call the tool that made it again`,
        );
      }
      await other.close();
      // Every replica served some of it.
      const ports = new Set(router.sent.map((sent) => sent.port));
      expect(ports.size).toBe(count);
      router.at = 1;
      await transport.terminateSession();
      await client.close();
      for (const served of all.slice(0, count)) {
        const after = await post(served.mcp, rpc(9, "tools/list"), {
          "mcp-session-id": id,
          "mcp-protocol-version": "2025-11-25",
        });
        expect(after.status).toBe(404);
        expect(after.messages).toEqual([
          { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
        ]);
      }
    });

    it("native: the found tools, the stage and the handles follow the session's token; ids stay unique and private", async () => {
      // A native session's state is its token (native/token.ts), which the client sends back:
      // no replica stores it, any replica serves it.
      const session = await openNative(replica(0));
      expect(result(await session.post(replica(1), find(1, "load a table of rows")))).toMatchObject(
        { ok: true },
      );
      const listed = result(
        await session.post(replica(2), rpc(2, "tools/list", { format: "json" })),
      );
      expect(listed.tools.map((tool: { name: string }) => tool.name)).toContain("tables_load");
      const first = result(await session.post(replica(0), load(3))).handle as string;
      const second = result(await session.post(replica(1), load(3))).handle as string;
      expect(first).not.toBe(second);
      for (const [handle, at] of [
        [first, 1],
        [second, 2],
      ] as const)
        expect(
          result(await session.post(replica(at), rpc(4, "handles/count", { handle }))),
        ).toMatchObject({
          ok: true,
        });
      // A stage set on one replica is the view of the next.
      const staged = result(
        await session.post(replica(1), rpc(5, "session/stage", { stage: "operate" })),
      );
      expect(staged.stage).toBe("operate");
      const after = result(
        await session.post(replica(2), rpc(6, "tools/list", { format: "json" })),
      );
      expect(after.hash).toBe(staged.hash);
      expect(after.hash).not.toBe(listed.hash);
      expect(after.tools.map((tool: { name: string }) => tool.name)).not.toContain("tables_load");
      // Another session reads none of them, whatever the id and the replica.
      const other = await openNative(replica(2));
      for (let i = 0; i < count; i++)
        for (const handle of [first, second, "#T1", "#T2", "#T3"])
          expect(result(await other.post(replica(i), rpc(7, "handles/count", { handle })))).toEqual(
            {
              ok: false,
              error: `expired:${handle}`,
              hint: `${handle} has expired or does not exist in this session: call the tool that made it again`,
            },
          );
      // session/close on one replica drops the handles on all (the token, good until it
      // expires, opens the session again without them).
      result(await session.post(replica(0), rpc(8, "session/close")));
      for (let i = 0; i < count; i++)
        expect(
          result(await session.post(replica(i), rpc(9, "handles/count", { handle: first }))),
        ).toMatchObject({ ok: false, error: `expired:${first}` });
    });
  });
});

/**
 * bench:scale's parts: the load it sends reaches real replicas as the benchmark says (a native
 * session spread over replicas on one Redis, stateless MCP requests spread over replicas with no
 * store), a wrong answer fails the run, and the report's sentences follow its figures.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisAvailable, startRedis, type RedisServer } from "../redis-server.ts";
import { mcpCaller, nativeCaller, type Route } from "./callers.ts";
import { startReplica, stopReplica, type Replica } from "./replicas.ts";
import { writeReports, type ReplicaResult, type Results } from "./report.ts";

describe.skipIf(redisAvailable() !== null)("replicas", () => {
  let redis: RedisServer;
  const replicas: Replica[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    // Started one after the other, as the benchmark does: two native replicas on one Redis
    // (which refuse to start without the shared secret), two MCP replicas with no store.
    for (const name of ["native A", "native B"])
      replicas.push(await startReplica(name, "native", redis.url));
    for (const name of ["MCP A", "MCP B"]) replicas.push(await startReplica(name, "mcp"));
  });
  afterAll(async () => {
    for (const replica of replicas) await stopReplica(replica);
    await redis?.stop();
  });

  it("one native session alternates between two replicas on Redis: they share the token secret", async () => {
    const route: Route = { urls: [replicas[0]!.url, replicas[1]!.url], next: 0 };
    const caller = await nativeCaller(route);
    for (let a = 0; a < 6; a++) await caller.subtract(a);
    await caller.close();
    // initialize, six calls and session/close, each to the next replica in turn.
    expect(route.next).toBe(8);
  });

  it("stateless MCP requests alternate between two replicas with no store", async () => {
    const route: Route = { urls: [replicas[2]!.url, replicas[3]!.url], next: 1 };
    const caller = mcpCaller(route);
    for (let a = -2; a < 4; a++) await caller.subtract(a);
    expect(route.next).toBe(7);
  });
});

it("an MCP answer other than a - 1 fails the run, with what was answered", async () => {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ text: "5" }] } });
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { "content-type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const caller = mcpCaller({ urls: [new URL(`http://127.0.0.1:${port}/mcp`)], next: 0 });
    await expect(caller.subtract(5)).rejects.toThrow(
      `MCP math_subtract(5, 1) answered 200 application/json: ${body}`,
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("the report", () => {
  const row = (
    key: string,
    overrides: { commands?: number; byName?: Record<string, number> } = {},
  ): ReplicaResult => {
    const [surface, store, n] = key.split("-") as ["native" | "mcp", "memory" | "redis", string];
    return {
      key,
      surface,
      store,
      replicas: Number(n),
      callsPerSec: { median: 1000, perRepeat: [900, 1000, 1100] },
      latencyUs: { p50: 4000, p99: 20_000 },
      cpuUsPerCall: { replicas: 600, redis: 1, client: 400 },
      load: { own: 0.9, other: 0.05 },
      redisCommandsPerCall: overrides.commands ?? 0,
      redisCommandsByName: overrides.byName ?? {},
    };
  };
  const quiet = () => [1, 2, 3].map((n) => row(`native-redis-${n}`));
  const results = (nativeRedis = quiet(), first = 1020): Results => ({
    generatedAt: "2026-12-07T00:00:00.000Z",
    settings: { clients: 8, calls: 300, warmup: 30, repeats: 3, handleOps: 100 },
    replicas: [
      row("native-memory-1"),
      ...nativeRedis,
      ...[1, 2, 3].map((n) => row(`mcp-memory-${n}`)),
      row("mcp-redis-1"),
    ],
    handles: ["handle create", "handle get", "handle create (random id)"].flatMap((op) =>
      (["memory", "redis"] as const).map((storage) => ({
        op,
        storage,
        latencyUs: { p50: 100, p99: 200 },
        roundTrips: storage === "memory" ? 0 : 3,
      })),
    ),
    resume: {
      sessions: 10,
      first: { p50: first, p99: 5000 },
      second: { p50: 1000, p99: 5000 },
      redisCommandsPerFirst: 0,
      startMs: 900,
    },
    machine: { node: "v20", platform: "linux", cpus: 2, cpuModel: "cpu", redis: "7.0.15" },
    loadavg: { start: [1, 1, 1], end: [1, 1, 1] },
    seconds: 60,
  });
  const render = (input: Results): string => {
    const dir = mkdtempSync(path.join(tmpdir(), "bench-scale-"));
    writeReports(input, path.join(dir, "report.md"), path.join(dir, "report.json"));
    return readFileSync(path.join(dir, "report.md"), "utf8");
  };

  it("says that native calls never reach Redis only when Redis executed no command for them", () => {
    const none = render(results());
    expect(none).toContain(
      "- Per call Redis executed 0.00, 0.00 and 0.00 commands with 1, 2, 3 replicas: a native session's state travels in its token, which each replica checks with the shared secret, so a call that makes no handle never reaches Redis; Redis holds handles only.",
    );
    expect(none).toContain("Redis executed no command for these calls, so it sets no ceiling");
    expect(none).toContain(
      "during the runs these processes used 90 %, 90 %, 90 % of the machine's CPU and other processes 5 %, 5 %, 5 %: the cores were busy, so they are the limit here, not the number of replicas.",
    );
    expect(none).toContain(
      "Its calls made 0.00 Redis commands per call (none), so a shared handle store costs a call that makes no handle no Redis round trip.",
    );
    const some = render(
      results(
        [1, 2, 3].map((n) => row(`native-redis-${n}`, { commands: 1, byName: { getex: 1 } })),
      ),
    );
    expect(some).toContain(
      "- Per call Redis executed 1.00 commands with 1 replica (GETEX 1.00): no handle is involved, so no script runs and each command is one round trip from the replica.",
    );
    expect(some).toContain("so it saturates near 1,000,000 calls/s");
    expect(some).not.toContain("never reaches Redis");
  });

  it("claims a cost of loading a session from its token only beyond the noise", () => {
    expect(render(results(quiet(), 1020))).toContain(
      "- Loading a session from its token cost nothing this run can tell from its noise at the median (1.02 ms against 1.00 ms); Redis executed 0.00 commands per first request (nothing of a native session is stored to read back).",
    );
    expect(render(results(quiet(), 1300))).toContain(
      "- Loading a session from its token costs 0.30 ms at the median, once per replica that takes it over",
    );
  });
});

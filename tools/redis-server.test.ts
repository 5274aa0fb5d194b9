/**
 * The Redis test harness: a server that starts, restarts on its port and stops for good, and
 * `redisAvailable` skipping without a redis-server, or failing under CI.
 */
import { spawnSync } from "node:child_process";
import { createConnection } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { redisAvailable, startRedis } from "./redis-server.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What `redisAvailable()` does in a process whose PATH has no redis-server. */
function withoutRedis(env: { [name: string]: string }) {
  return spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--eval",
      'import("./tools/redis-server.ts").then((m) => console.log(JSON.stringify(m.redisAvailable())))',
    ],
    { cwd: REPO, encoding: "utf8", env: { PATH: "/nonexistent", ...env } },
  );
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (reply) => {
      socket.destroy();
      resolve(reply.toString().startsWith("+PONG"));
    });
    socket.once("error", () => resolve(false));
  });

describe("redisAvailable", () => {
  it("gives the reason without redis-server, and throws it under CI", () => {
    const skip = withoutRedis({});
    expect(skip.status).toBe(0);
    expect(JSON.parse(skip.stdout)).toBe(
      "redis-server cannot run (spawnSync redis-server ENOENT); install Redis 7 to run these tests",
    );
    expect(skip.stderr).toContain("skipping the Redis tests: redis-server cannot run");
    const ci = withoutRedis({ CI: "true" });
    expect(ci.status).not.toBe(0);
    expect(ci.stderr).toContain(
      "CI is set, so the Redis tests must run: redis-server cannot run (spawnSync redis-server ENOENT)",
    );
  });
});

describe.skipIf(redisAvailable())("startRedis", () => {
  it("starts on a free port, restarts on the same one and stops", async () => {
    const server = await startRedis();
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    expect(await answers(server.port)).toBe(true);
    await server.restart();
    expect(await answers(server.port)).toBe(true);
    await server.stop();
    expect(await answers(server.port)).toBe(false);
  });
});

/** The README's runnable example runs against a real Redis and prints what the README says. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { unavailable, useRedis } from "./harness.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

const redis = useRedis();

it.skipIf(unavailable)("examples/replicas.ts runs end to end", () => {
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", "packages/redis/examples/replicas.ts"],
    { cwd: REPO, encoding: "utf8", env: { ...process.env, REDIS_URL: redis.server.url } },
  );
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  expect(run.stdout.trim().split("\n")).toEqual([
    '{"ok":true,"handle":"#T1","summary":"3 records; fields: sku, qty","meta":{"kind":"table","size":82,"ttl":"10m","count":3}}',
    'operate {"ok":true,"value":3}',
    "undefined",
  ]);
});

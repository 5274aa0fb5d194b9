/**
 * Two replicas on one Redis: a session started on replica A continues on replica B, its stage
 * and its handles included, and ends for both when B closes it.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 node --import tsx packages/redis/examples/replicas.ts
 */
import { createRuntime, type RuntimeOptions } from "@zcp/runtime";
import { connectRedisStore } from "@zcp/redis";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";

const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** One replica: in production its own process, here its own connection. */
async function replica() {
  const store = await connectRedisStore({ url, prefix: "example" });
  const options: RuntimeOptions = { handles: { storage: store.handles }, sessions: store.sessions };
  return { runtime: createRuntime(kitchen, options), store };
}

const a = await replica();
const b = await replica();

// Replica A: a call whose result stays in Redis as a handle, then the session's state saved.
const session = a.runtime.session({ stage: "discover" });
console.log(JSON.stringify(await session.call("tables.load", { name: "orders" })));
session.setStage("operate");
await session.save();

// Replica B: the next request of that session.
const resumed = (await b.runtime.resume(session.id))!;
console.log(
  resumed.stage,
  JSON.stringify(await resumed.call("tables.sum", { rows: "#T1", column: "qty" })),
);

// Ending it on B ends it everywhere: state and handles are gone from Redis.
await resumed.close();
console.log(await a.runtime.resume(session.id));

await a.store.close();
await b.store.close();

/**
 * 10,000 results of about 100 KB through one session with a 64 MB budget: the store evicts the
 * least recently used handles, memory stays bounded, nothing crashes, and the newest handles
 * are still readable.
 */
import v8 from "node:v8";
import vm from "node:vm";
import { expect, it } from "vitest";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import { createRuntime } from "../src/index.js";

it("keeps heap growth bounded through 10,000 results of 100 KB", async () => {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  const load = kitchen.registry.tools.find((tool) => tool.alias === "tables.load")!;
  // About 100 KB of records, a fresh array each call (as a real tool would build).
  const rows = (n: number) =>
    Array.from({ length: 1000 }, (_, i) => ({
      sku: `sku-${n}-${i}`,
      qty: i,
      note: "x".repeat(60),
    }));
  const runtime = createRuntime(
    {
      ...kitchen,
      dispatch: {
        ...kitchen.dispatch,
        [load.id]: (args) => rows(Number(String(args.name).slice(1))),
      },
    },
    { handles: { totalMaxBytes: 64 << 20, sessionMaxBytes: 64 << 20 } },
  );
  const session = runtime.session();
  gc();
  const before = process.memoryUsage().heapUsed;
  let last = "";
  for (let n = 0; n < 10_000; n++) {
    const result = await session.call("tables.load", { name: `n${n}` });
    if (!result.ok || !("handle" in result))
      throw new Error(`call ${n} failed: ${JSON.stringify(result)}`);
    last = result.handle;
  }
  gc();
  const growth = process.memoryUsage().heapUsed - before;
  const usage = await runtime.handles.usage(session.id);
  expect(usage.bytes).toBeLessThanOrEqual(64 << 20);
  expect(growth).toBeLessThan(96 << 20);
  expect(last).toBe("#T10000");
  expect(await session.call("zcp.handle", { op: "count", handle: last })).toEqual({
    ok: true,
    value: { count: 1000 },
  });
  expect(await session.call("zcp.handle", { op: "count", handle: "#T1" })).toMatchObject({
    ok: false,
    error: "expired:#T1",
  });
}, 120_000);

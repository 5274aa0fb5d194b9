/**
 * Worker isolation (issue 12, W): `createWorkerExecutor` on the weather and kitchen-sink
 * fixtures (the same answers as in process) and on a module of misbehaving tools written here
 * by hand (a synchronous infinite loop, a memory hog, a result that cannot cross, ...), then
 * `zcp-serve` spawned with its default `--isolation worker`, whose /healthz keeps answering
 * while a tool spins. The executor is imported from dist/: its workers run the built
 * dist/isolation/worker.js next to it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  createRuntime,
  ToolError,
  type GeneratedModule,
  type ToolContext,
  type ToolDefinition,
} from "@zcp/runtime";
import { CONTEXT_BRAND, HANDLE_BRAND, REGISTRY_FORMAT_VERSION } from "@zcp/runtime/definition";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { createWorkerExecutor, type WorkerExecutor } from "../dist/isolation/executor.js";
import { whilePolling } from "./checks.js";
import { serveHttp } from "./serve-http.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const WEATHER = path.join(ROOT, "fixtures/weather/src/zcp.gen/index.ts");
const KITCHEN_SINK = path.join(ROOT, "fixtures/kitchen-sink/src/zcp.gen/index.ts");

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function executor(options: Parameters<typeof createWorkerExecutor>[0]): WorkerExecutor {
  const created = createWorkerExecutor(options);
  cleanup.push(() => created.close());
  return created;
}

/** A context as the runtime gives one, recording what the tool reports. */
function context(signal = new AbortController().signal) {
  const reported: unknown[][] = [];
  const ctx: ToolContext = {
    [CONTEXT_BRAND]: true,
    sessionId: "s1",
    signal,
    config: undefined,
    caller: { scopes: [] },
    progress: (...args) => reported.push(["progress", ...args]),
    log: (...args) => reported.push(["log", ...args]),
    clientOffers: { elicitation: false, sampling: false, roots: false },
    elicit: () => Promise.reject(new Error("no client")),
    sample: () => Promise.reject(new Error("no client")),
    roots: () => Promise.reject(new Error("no client")),
  };
  return { ctx, reported };
}

// The misbehaving tools: a generated module written by hand (plain JavaScript, so that the
// workers need no TypeScript loader), its ToolError the runtime's own class.
const FAULTY_TOOLS: {
  [id: string]: { context: number | null; handles?: object; outputMode?: string; body: string };
} = {
  spin: { context: null, body: "() => { for (;;) {} }" },
  hog: {
    context: null,
    body: "() => { const kept = []; for (;;) kept.push(new Array(100000).fill(kept.length + 0.5)); }",
  },
  report: {
    context: 1,
    body: '(args, ctx) => { ctx.progress(1, 2, "half"); ctx.log("info", "hello"); return "done"; }',
  },
  refuse: { context: null, body: '() => { throw new ToolError("invalid:$.x", "x is wrong"); }' },
  wait: {
    context: 1,
    body: '(args, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(`stopped: ${ctx.signal.reason.message}`)))',
  },
  count: { context: null, body: "() => ++count" },
  big: { context: null, body: '(args) => "x".repeat(args.n)' },
  summarized: {
    context: null,
    outputMode: "handle",
    body: '() => withSummary([1, 2, 3], "three numbers")',
  },
  slow: {
    context: null,
    body: "(args) => new Promise((resolve) => setTimeout(() => resolve(args.ms), args.ms))",
  },
  fn: { context: null, body: "() => ({ f() {} })" },
  proxy: { context: null, body: "() => new Proxy({}, {})" },
  kind: {
    context: null,
    body: `(args) => {
    const big = "x".repeat(args.n);
    const cycle = { a: [] };
    cycle.a.push(cycle);
    const make = {
      Map: () => new Map([[1, big]]),
      Set: () => new Set([big]),
      ArrayBuffer: () => new TextEncoder().encode(big).buffer,
      Uint8Array: () => new TextEncoder().encode(big),
      Error: () => new Error(big),
      BigInt: () => [big.length, 1n],
      cycle: () => cycle,
      Date: () => new Date(0),
    };
    return { x: make[args.kind]() };
  }`,
  },
  brand: {
    context: null,
    handles: { h: "*" },
    body: `(args) => ({ brand: args.h[${JSON.stringify(HANDLE_BRAND)}], id: args.h.id, kind: args.h.kind, value: args.h.value })`,
  },
};

function faultyModuleText(): string {
  const template = weather.registry.tools.find((tool) => tool.alias === "math.subtract")!;
  const tools: ToolDefinition[] = Object.entries(FAULTY_TOOLS).map(([id, tool]) => ({
    ...template,
    id,
    alias: `faulty.${id}`,
    name: `faulty_${id}`,
    inputSchema: { type: "object" },
    outputSchema: null,
    handleParams: (tool.handles ?? {}) as { [param: string]: string },
    outputMode: (tool.outputMode ?? template.outputMode) as ToolDefinition["outputMode"],
    call: { kind: "object", context: tool.context },
  }));
  const runtime = new URL("../../runtime/dist/index.js", import.meta.url).href;
  return `import { ToolError, withSummary } from ${JSON.stringify(runtime)};
let count = 0;
const bodies = { ${Object.entries(FAULTY_TOOLS)
    .map(([id, tool]) => `${id}: ${tool.body}`)
    .join(",\n  ")} };
const tools = ${JSON.stringify(tools)};
const entries = Object.fromEntries(tools.map((t) => [t.id, { name: t.name, description: t.alias, inputSchema: t.inputSchema, _meta: { groups: [], stages: [] } }]));
export default {
  registry: { version: ${REGISTRY_FORMAT_VERSION}, hash: "faulty", tools, names: Object.fromEntries(tools.map((t) => [t.name, t.alias])) },
  validators: Object.fromEntries(tools.map((t) => [t.id, (value) => ({ ok: true, value })])),
  dispatch: Object.fromEntries(tools.map((t) => [t.id, (args, ctx) => bodies[t.id](args, ctx)])),
  artifacts: { hash: "faulty", load: () => entries },
};
`;
}

let dir: string;
let FAULTY: string;
let faulty: GeneratedModule;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-isolation-"));
  FAULTY = path.join(dir, "faulty.mjs");
  fs.writeFileSync(FAULTY, faultyModuleText());
  faulty = ((await import(pathToFileURL(FAULTY).href)) as { default: GeneratedModule }).default;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const tool = (generated: GeneratedModule, alias: string) =>
  generated.registry.tools.find((t) => t.alias === alias)!;

describe("createWorkerExecutor: the fixtures answer as in process", () => {
  it("weather: every call, a refused one included, answers as in process", async () => {
    const calls: [string, object][] = [
      ["math.subtract", { a: 5, b: 2 }],
      ["math.average", { numbers: [1, 2, 4] }],
      ["unit.celsius_to_fahrenheit", { celsius: 100 }],
      ["weather.get_current", { city: "Beijing" }],
      ["weather.get_current", { city: "Shanghai", unit: "fahrenheit" }],
      ["math.subtract", { a: "x", b: 1 }],
    ];
    const inProcess = createRuntime(weather).session();
    const isolated = createRuntime(weather, {
      executor: executor({ module: WEATHER, workers: 2 }),
    }).session();
    for (const [name, args] of calls)
      expect(await isolated.call(name, args)).toEqual(await inProcess.call(name, args));
  });

  it("kitchen-sink: handles in and out, dates, logs and object parameters answer as in process", async () => {
    const run = async (generated: GeneratedModule, options: object) => {
      const session = createRuntime(generated, options).session();
      const logs: unknown[] = [];
      const loaded = await session.call(
        "tables.load",
        { name: "t", limit: 3 },
        { onLog: (level, message) => logs.push([level, message]) },
      );
      const id = (loaded as { handle: string }).handle;
      return [
        loaded,
        logs,
        await session.call("tables.sum", { rows: id, column: "qty", anything: id }),
        await session.call("search.run", {
          text: "hello",
          window: { from: "2024-01-01T00:00:00Z", to: "2024-02-01T00:00:00Z" },
        }),
        await session.call("people.find", {
          filter: { city: "Oslo" },
          weights: {},
          byLevel: { low: 1, high: 2 },
          since: "2024-01-01T00:00:00Z",
        }),
        await session.call("shapes.area", { shape: { kind: "circle", radius: 1 } }),
        await session.call("ping_server", { echo: "ab", times: 2 }),
        await session.call("orders.add", { line: { sku: "a", qty: 2 } }),
        await session.call("reports.export", { title: "T" }),
        await session.call("tables.drop", { name: "t" }),
      ];
    };
    const isolated = await run(kitchenSink, {
      executor: executor({ module: pathToFileURL(KITCHEN_SINK), workers: 2 }),
    });
    expect(isolated).toEqual(await run(kitchenSink, {}));
    expect(isolated[2]).toEqual({ ok: true, value: 3 });
    expect(isolated[1]).toEqual([["info", "loading t"]]);
  });
});

describe("createWorkerExecutor: contexts, handles and errors cross the boundary", () => {
  it("re-brands handle arguments in the worker", async () => {
    const pool = executor({ module: FAULTY, workers: 1 });
    const handle = { [HANDLE_BRAND]: "table", id: "#T1", kind: "table", value: [{ qty: 1 }] };
    expect(await pool.execute(tool(faulty, "faulty.brand"), { h: handle }, context().ctx)).toEqual({
      brand: "table",
      id: "#T1",
      kind: "table",
      value: [{ qty: 1 }],
    });
  });

  it("relays progress and log lines, in order", async () => {
    const pool = executor({ module: FAULTY, workers: 1 });
    const { ctx, reported } = context();
    expect(await pool.execute(tool(faulty, "faulty.report"), {}, ctx)).toBe("done");
    expect(reported).toEqual([
      ["progress", 1, 2, "half"],
      ["log", "info", "hello"],
    ]);
  });

  it("rethrows a ToolError as a ToolError, and the call answers its code and hint", async () => {
    const pool = executor({ module: FAULTY, workers: 1 });
    const thrown = await pool
      .execute(tool(faulty, "faulty.refuse"), {}, context().ctx)
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ToolError);
    expect(thrown).toMatchObject({ code: "invalid:$.x", message: "x is wrong" });
    const session = createRuntime(faulty, { executor: pool }).session();
    expect(await session.call("faulty.refuse", {})).toEqual({
      ok: false,
      error: "invalid:$.x",
      hint: "x is wrong",
    });
  });

  it("a result that cannot cross answers exec:error, and the next call works", async () => {
    const errors: unknown[] = [];
    const pool = executor({ module: FAULTY, workers: 1 });
    const session = createRuntime(faulty, {
      executor: pool,
      onToolError: (error) => errors.push(error),
    }).session();
    expect(await session.call("faulty.proxy", {})).toEqual({
      ok: false,
      error: "exec:error",
      hint: "the tool failed; the details are in the server's log",
    });
    expect(String(errors[0])).toMatch(
      /^Error: the tool returned a value that cannot be sent to the server's thread: .*could not be cloned/,
    );
    expect(await session.call("faulty.count", {})).toEqual({ ok: true, value: 1 });
  });
});

describe("createWorkerExecutor: a result that is not JSON data never crosses (issue 27 review)", () => {
  const limits = { timeoutMs: 5000, maxResultBytes: 1000, queued: () => {}, started: () => {} };
  /** Each kind, as `faulty.kind` returns it in `{ x }` with 5 MB in it, and what it answers. */
  const refused: [kind: string, found: string][] = [
    ["Map", "a Map at $.x"],
    ["Set", "a Set at $.x"],
    ["ArrayBuffer", "an ArrayBuffer at $.x"],
    ["Uint8Array", "a Uint8Array at $.x"],
    ["Error", "an Error at $.x"],
    ["BigInt", "a BigInt at $.x[1]"],
    ["cycle", "a cycle at $.x.a[0]"],
    ["fn", "a function at $.f"],
  ];

  it("the worker refuses it with exec:error naming what and where; in process answers the same", async () => {
    const pool = executor({ module: FAULTY, workers: 1 });
    const kind = tool(faulty, "faulty.kind");
    const isolated = createRuntime(faulty, { executor: pool }).session();
    const inProcess = createRuntime(faulty, { onToolError: () => {} }).session();
    for (const [name, found] of refused) {
      const [alias, args] =
        name === "fn" ? ["faulty.fn", {}] : ["faulty.kind", { kind: name, n: 5e6 }];
      const hint = `the result holds ${found}: a tool returns JSON data`;
      if (name !== "fn") {
        // Refused in the worker (a ToolError from it), not cloned and refused on this thread.
        const thrown = await pool
          .execute(kind, args, context().ctx, limits)
          .catch((e: unknown) => e);
        expect(thrown).toBeInstanceOf(ToolError);
        expect(thrown).toMatchObject({ code: "exec:error", message: hint });
      }
      const answer = { ok: false, error: "exec:error", hint };
      expect(await isolated.call(alias, args)).toEqual(answer);
      expect(await inProcess.call(alias, args)).toEqual(answer);
    }
  });

  it("a Date is JSON data: its ISO text, in a worker as in process", async () => {
    const pool = executor({ module: FAULTY, workers: 1 });
    const args = { kind: "Date", n: 0 };
    const answer = { ok: true, value: { x: "1970-01-01T00:00:00.000Z" } };
    expect(
      await createRuntime(faulty, { executor: pool }).session().call("faulty.kind", args),
    ).toEqual(answer);
    expect(await createRuntime(faulty).session().call("faulty.kind", args)).toEqual(answer);
  });
});

describe("createWorkerExecutor: results and turns (issue 27, items 4 and 6)", () => {
  const call = (maxResultBytes: number) => ({
    timeoutMs: 1000,
    maxResultBytes,
    queued: () => {},
    started: () => {},
  });

  it("refuses a result over maxResultBytes in the worker: the call rejects, the value never crosses", async () => {
    const pool = executor({ module: FAULTY, workers: 1 });
    const big = tool(faulty, "faulty.big");
    const thrown = await pool
      .execute(big, { n: 2000 }, context().ctx, call(1000))
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ToolError);
    expect(thrown).toMatchObject({
      code: "exec:too_large",
      message: "the result is 2002 bytes; at most 1000",
    });
    expect(await pool.execute(big, { n: 998 }, context().ctx, call(1000))).toBe("x".repeat(998));
    // Through a runtime: the same answer as in process, from the runtime's own limit.
    const options = { maxResultBytes: 1000 };
    const inProcess = createRuntime(faulty, options).session();
    const isolated = createRuntime(faulty, { ...options, executor: pool }).session();
    expect(await isolated.call("faulty.big", { n: 2000 })).toEqual({
      ok: false,
      error: "exec:too_large",
      hint: "the result is 2002 bytes; at most 1000",
    });
    expect(await isolated.call("faulty.big", { n: 2000 })).toEqual(
      await inProcess.call("faulty.big", { n: 2000 }),
    );
  });

  it("keeps a tool's withSummary across the boundary", async () => {
    const session = createRuntime(faulty, {
      executor: executor({ module: FAULTY, workers: 1 }),
    }).session();
    expect(await session.call("faulty.summarized", {})).toMatchObject({
      ok: true,
      summary: "three numbers",
    });
  });

  it("runs a call's time limit from when it gets a worker, and gives another session the next one", async () => {
    const runtime = createRuntime(faulty, {
      executor: executor({ module: FAULTY, workers: 1 }),
      timeoutMs: 400,
    });
    const [a, b] = [runtime.session(), runtime.session()];
    expect(await a.call("faulty.count", {})).toMatchObject({ ok: true });
    const order: string[] = [];
    const slow = [1, 2, 3].map((i) =>
      a.call("faulty.slow", { ms: 300 }).then((result) => (order.push(`a${i}`), result)),
    );
    const quick = b.call("faulty.count", {}).then((result) => (order.push("b"), result));
    // Each of a's calls takes 300 ms of its 400: the third waits 600 ms first, and still answers.
    for (const result of await Promise.all(slow)) expect(result).toEqual({ ok: true, value: 300 });
    expect(await quick).toMatchObject({ ok: true });
    expect(order).toEqual(["a1", "b", "a2", "a3"]);
  });
});

describe("createWorkerExecutor: tools that do not stop", () => {
  it("aborts the tool's signal in the worker at once, with the reason's message", async () => {
    const pool = executor({ module: FAULTY, workers: 1 });
    // The worker started first: an abort that comes before the tool does stops it from starting.
    expect(await pool.execute(tool(faulty, "faulty.count"), {}, context().ctx)).toBe(1);
    const controller = new AbortController();
    const waiting = pool.execute(tool(faulty, "faulty.wait"), {}, context(controller.signal).ctx);
    setTimeout(() => controller.abort(new Error("timeout")), 100);
    expect(await within(waiting, 500)).toBe("stopped: timeout");
  });

  it("a tool that heeds its signal stops in its worker, which lives on (module state is per worker)", async () => {
    const pool = executor({ module: FAULTY, workers: 1, stopGraceMs: 5000 });
    const session = createRuntime(faulty, { executor: pool }).session();
    expect(await session.call("faulty.count", {})).toEqual({ ok: true, value: 1 });
    const controller = new AbortController();
    const waiting = session.call("faulty.wait", {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await waiting).toEqual({
      ok: false,
      error: "cancelled",
      hint: "the call was cancelled",
    });
    await until(() => session.running === 0, 2000);
    expect(await session.call("faulty.count", {})).toEqual({ ok: true, value: 2 });
  });

  it("a synchronous infinite loop answers timeout, its worker is terminated after the grace and replaced", async () => {
    const pool = executor({ module: FAULTY, workers: 1, stopGraceMs: 200 });
    const reported: unknown[] = [];
    const session = createRuntime(faulty, {
      executor: pool,
      timeoutMs: 300,
      onToolError: (error) => reported.push(error),
    }).session();
    const started = performance.now();
    expect(await session.call("faulty.spin", {})).toEqual({
      ok: false,
      error: "timeout",
      hint: "the tool did not finish within 300 ms",
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(session.running).toBe(1);
    await until(() => session.running === 0, 3000);
    expect(String(reported[0])).toBe(
      "Error: faulty.spin did not stop within 200 ms of its abort; its worker was terminated",
    );
    // One worker: this call runs on its replacement, whose module state is new.
    expect(await session.call("faulty.count", {})).toEqual({ ok: true, value: 1 });
  });

  it("a tool that runs out of memory answers exec:error with the limit, and the next call works", async () => {
    const pool = executor({ module: FAULTY, workers: 1 });
    const session = createRuntime(faulty, { executor: pool }).session();
    expect(await session.call("faulty.hog", {})).toEqual({
      ok: false,
      error: "exec:error",
      hint: "the tool ran out of memory (512 MiB) and was stopped",
    });
    expect(await session.call("faulty.count", {})).toEqual({ ok: true, value: 1 });
  });

  it("close() terminates a worker that spins; its call rejects", async () => {
    const pool = createWorkerExecutor({ module: FAULTY, workers: 1 });
    const spinning = pool
      .execute(tool(faulty, "faulty.spin"), {}, context().ctx)
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await pool.close();
    expect(await spinning).toBeInstanceOf(Error);
  });
});

describe("zcp-serve --isolation worker (the default)", () => {
  /** zcp-serve on HTTP (native surface), under tsx as the other tests run it. */
  const serve = async (registry: string, ...extra: string[]) => {
    const served = await serveHttp(
      ["--registry", registry, "--surface", "native", ...extra],
      cleanup,
    );
    return { ...served, client: served.native };
  };

  it("serves a TypeScript registry from its workers under node --import tsx", async () => {
    const server = await serve(WEATHER, "--workers", "2");
    expect(server.stderr()).toContain("tools run in up to 2 worker threads of 512 MiB");
    expect(await server.client.call("math.subtract", { a: 5, b: 2 })).toEqual({
      ok: true,
      value: 3,
    });
  });

  it("keeps /healthz answering within 100 ms while a tool spins, then serves the next call", async () => {
    const server = await serve(FAULTY, "--timeout-ms", "1500");
    const healthz = new URL("/healthz", server.url);
    // Warm up: the workers started (a call answered), this process's first fetch made.
    expect(await server.client.call("faulty.count", {})).toEqual({ ok: true, value: 1 });
    await (await fetch(healthz)).text();
    const { answer, latencies } = await whilePolling(healthz, () =>
      server.client.call("faulty.spin", {}),
    );
    expect(answer).toEqual({
      ok: false,
      error: "timeout",
      hint: "the tool did not finish within 1500 ms",
    });
    expect(latencies.length).toBeGreaterThanOrEqual(15);
    expect(Math.max(...latencies), latencies.map(Math.round).join(" ")).toBeLessThan(100);
    expect(await server.client.call("faulty.count", {})).toMatchObject({ ok: true });
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });
});

/** Settles with `promise`'s value, or with "pending" when it has not settled after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | "pending"> {
  return Promise.race([promise, new Promise<"pending">((r) => setTimeout(() => r("pending"), ms))]);
}

async function until(condition: () => boolean, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The sandbox against known escape attempts and resource attacks, each with its exact outcome,
 * through a real session (`createRuntime` with the worker runner from dist/, whose workers run
 * the built dist/worker.js): nothing of Node exists inside, host objects cannot be reached or
 * changed, every limit answers its own error, and the runner keeps serving afterwards.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createRuntime, type CallResult, type Session } from "@zcp/runtime";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { createCodeRunner, DEFAULT_LIMITS, WATCHDOG_GRACE_MS } from "../dist/index.js";

const TIMEOUT_MS = 1000;
const MEMORY_BYTES = DEFAULT_LIMITS.memoryBytes;
const code = createCodeRunner({ timeoutMs: TIMEOUT_MS });
afterAll(() => code.close());

const runtime = createRuntime(weather, { code });
const run = (program: string, session = runtime.session()): Promise<CallResult> =>
  session.call("zcp.run", { code: program });
const value = (result: unknown) => ({ ok: true, value: { value: result } });

describe("escapes", () => {
  it('constructor.constructor("return process")() finds no process', async () => {
    expect(await run('return constructor.constructor("return process")()')).toEqual({
      ok: false,
      error: "program_error",
      hint: "ReferenceError: 'process' is not defined (line 1)",
    });
    expect(await run('return typeof constructor.constructor("return this")().process')).toEqual(
      value("undefined"),
    );
  });

  it("import() and require load nothing", async () => {
    expect(await run('return await import("fs")')).toEqual({
      ok: false,
      error: "program_error",
      hint: "ReferenceError: could not load module 'fs'",
    });
    expect(await run('return require("fs")')).toEqual({
      ok: false,
      error: "program_error",
      hint: "ReferenceError: 'require' is not defined (line 1)",
    });
    expect(await run('import fs from "fs";\nreturn fs')).toEqual({
      ok: false,
      error: "invalid:$.code",
      hint: "SyntaxError: expecting '(' (line 1)",
    });
  });

  it("globalThis holds the ECMAScript built-ins, tools and console: no Node, web or timer APIs", async () => {
    const probed = await run(`
      const names = ["process", "require", "module", "Buffer", "fetch", "XMLHttpRequest", "WebSocket",
        "setTimeout", "setInterval", "queueMicrotask", "std", "os", "WebAssembly", "SharedArrayBuffer",
        "Atomics", "performance", "navigator", "Deno", "Bun", "__zcp_call"];
      return names.filter((name) => typeof globalThis[name] !== "undefined");
    `);
    // A SharedArrayBuffer without Atomics or threads shares nothing: it is an ArrayBuffer inside.
    expect(probed).toEqual(value(["SharedArrayBuffer"]));
    const globals = (await run(
      "return Object.getOwnPropertyNames(globalThis).sort()",
    )) as unknown as {
      value: { value: string[] };
    };
    expect(globals.value.value).toEqual(
      expect.arrayContaining(["Array", "JSON", "Promise", "console", "eval", "tools"]),
    );
    expect(globals.value.value.filter((name) => /^[a-z]/.test(name))).toEqual([
      "console",
      "decodeURI",
      "decodeURIComponent",
      "encodeURI",
      "encodeURIComponent",
      "escape",
      "eval",
      "globalThis",
      "isFinite",
      "isNaN",
      "parseFloat",
      "parseInt",
      "tools",
      "undefined",
      "unescape",
    ]);
  });

  it("Function from a host callback is the sandbox's own", async () => {
    expect(
      await run(
        'const g = tools.weather.get_current.constructor("return this")();\nreturn [g === globalThis, typeof g.process]',
      ),
    ).toEqual(value([true, "undefined"]));
  });

  it("prototype pollution inside changes nothing outside; a result mutated inside stays the host's", async () => {
    const session = runtime.session();
    expect(
      await run(
        `Object.prototype.polluted = 1;
         Array.prototype.push = () => { throw new Error("hijacked") };
         const w = await tools.weather.get_current({ city: "Shanghai" });
         w.temperature = 1000; w.__proto__.x = 2; JSON.parse = () => ({});
         return (await tools.weather.get_current({ city: "Shanghai" })).temperature`,
        session,
      ),
    ).toEqual(value(22));
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { x?: unknown }).x).toBeUndefined();
    expect(await session.call("weather.get_current", { city: "Shanghai" })).toMatchObject({
      value: { temperature: 22 },
    });
    // A fresh context per run: the next program sees none of it.
    expect(await run("return [({}).polluted, typeof [].push]", session)).toEqual(
      value([null, "function"]),
    );
  });

  it("getters on the returned object run inside, under the time limit", async () => {
    expect(await run("return { get x() { return 40 + 2 } }")).toEqual(value({ x: 42 }));
    expect(await run("return { get x() { while (true) {} } }")).toEqual({
      ok: false,
      error: "timeout",
      hint: `the program ran longer than ${TIMEOUT_MS} ms`,
    });
    expect(await run("return { toJSON() { throw new RangeError('no') } }")).toEqual({
      ok: false,
      error: "program_result",
      hint: "the returned value is not JSON (RangeError: no)",
    });
  });
});

describe("resources", () => {
  it("an infinite loop times out, even inside try/catch", async () => {
    const timeout = {
      ok: false,
      error: "timeout",
      hint: `the program ran longer than ${TIMEOUT_MS} ms`,
    };
    expect(await run("while (true) {}")).toEqual(timeout);
    expect(await run("try { while (true) {} } catch (e) { return 'caught' }")).toEqual(timeout);
    expect(await run("for (;;) { try { while (true) {} } finally { continue } }")).toEqual(timeout);
  });

  it("an endless microtask loop times out (issue 27, item 10), also when the program has returned", async () => {
    const timeout = {
      ok: false,
      error: "timeout",
      hint: `the program ran longer than ${TIMEOUT_MS} ms`,
    };
    expect(await run("for (;;) await null")).toEqual(timeout);
    expect(await run("for (;;) { try { await null } catch {} }")).toEqual(timeout);
    expect(await run("(async () => { for (;;) await null })(); return 1")).toEqual(timeout);
    // A loop of promises that each wait for the next: cut by the time limit, not misread as a
    // program awaiting what nothing can settle. (Every promise of it stays pending, so it grows:
    // a short limit, so that time is the limit it meets.)
    const quick = createCodeRunner({ timeoutMs: 300 });
    try {
      expect(
        await createRuntime(weather, { code: quick }).session().call("zcp.run", {
          code: "const f = () => Promise.resolve().then(f); f(); await new Promise(() => {})",
        }),
      ).toEqual({ ok: false, error: "timeout", hint: "the program ran longer than 300 ms" });
    } finally {
      await quick.close();
    }
  });

  it("a memory bomb answers program_memory", async () => {
    const outOfMemory = {
      ok: false,
      error: "program_memory",
      hint: `the program used more than ${MEMORY_BYTES} bytes`,
    };
    expect(await run("const a = []; while (true) a.push(new Array(1e6).fill(1))")).toEqual(
      outOfMemory,
    );
    expect(
      await run('const parts = []; while (true) parts.push("x".repeat(1e6) + parts.length)'),
    ).toEqual(outOfMemory);
    expect(await run('let s = "x"; while (true) s += s')).toEqual({
      ok: false,
      error: "program_error",
      hint: "InternalError: string too long (line 1)",
    });
  });

  it("deep recursion answers the engine's stack overflow", async () => {
    expect(await run("function f() { return f() + 1 }\nreturn f()")).toEqual({
      ok: false,
      error: "program_error",
      hint: "InternalError: stack overflow (line 1)",
    });
  });

  it("a native call that never polls the interrupt handler is ended by the watchdog, and its worker replaced", async () => {
    // QuickJS's JSON.stringify checks for cycles along the whole path: quadratic in the depth.
    const started = Date.now();
    expect(
      await run(
        "let o = []; const root = o; for (let i = 0; i < 1e4; i++) o = o[0] = []; return root",
      ),
    ).toEqual({
      ok: false,
      error: "timeout",
      hint: `the program ran longer than ${TIMEOUT_MS} ms`,
    });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + WATCHDOG_GRACE_MS + 1000);
    expect(await run("return 1")).toEqual(value(1));
  });

  it("huge output: logs are cut at logBytes, a 10 MB result is refused", async () => {
    const logged = (await run(
      'for (let i = 0; i < 20000; i++) console.log("line " + i); return "done"',
    )) as unknown as { value: { value: string; logs: string[] } };
    expect(logged.value.value).toBe("done");
    const kept = logged.value.logs.slice(0, -1);
    expect(kept.join("").length).toBeLessThanOrEqual(16 * 1024);
    expect(kept.at(-1)).toBe(`line ${kept.length - 1}`);
    const dropped = Array.from(
      { length: 20000 - kept.length },
      (_, i) => `line ${i + kept.length}`,
    );
    expect(logged.value.logs.at(-1)).toBe(
      `… ${dropped.join("").length} more bytes of output dropped`,
    );
    expect(await run('return "x".repeat(10_000_000)')).toEqual({
      ok: false,
      error: "program_result",
      hint: "the returned value is 10000002 bytes of JSON; at most 65536",
    });
  });

  it("tool arguments over a request's bounds are refused in the worker (issue 27, item 5)", async () => {
    const { argumentBytes, argumentDepth } = DEFAULT_LIMITS;
    // 12 MB of one string: its JSON is the argument object around it.
    expect(
      await run(
        'try { await tools.math.average({ numbers: [], pad: "x".repeat(12e6) }) } catch (e) { return [e.name, e.code, e.hint] }',
      ),
    ).toEqual(
      value([
        "ToolError",
        "invalid:$",
        `the arguments are ${12e6 + '{"numbers":[],"pad":""}'.length} bytes of JSON; at most ${argumentBytes}`,
      ]),
    );
    const nested = (depth: number) =>
      `let v = 1; for (let i = 0; i < ${depth}; i++) v = [v]; try { return await tools.math.average({ numbers: v }) } catch (e) { return [e.code, e.hint] }`;
    expect(await run(nested(argumentDepth + 1))).toEqual(
      value(["invalid:$", `nested deeper than ${argumentDepth} levels`]),
    );
    // At the limit the arguments reach the tool's validator, which names the path.
    expect(await run(nested(argumentDepth))).toMatchObject(
      value(["invalid:$.numbers[0]", expect.any(String)]),
    );
    // Brackets inside strings are text, not nesting.
    expect(
      await run(
        `try { await tools.weather.get_current({ city: "${"[".repeat(100)}" }) } catch (e) { return e.code }`,
      ),
    ).toEqual(value("invalid:$.city"));
  });

  it("the runner still serves after all of it", async () => {
    expect(await run("return 1 + 1")).toEqual(value(2));
  });
});

describe("tools", () => {
  it("a tool outside the view is not bound; one that leaves it mid-run rejects with forbidden:<alias>", async () => {
    const current: { session?: Session } = {};
    const subtract = weather.registry.tools.find((tool) => tool.alias === "math.subtract")!;
    const staging = createRuntime(
      {
        ...weather,
        // Moves the session out of the stage of weather.get_current while the program runs.
        dispatch: {
          ...weather.dispatch,
          [subtract.id]: () => (current.session!.setStage("plan"), 0),
        },
      },
      { code },
    );
    const session = staging.session({ stage: "operate" });
    current.session = session;
    expect(
      await run(
        `const before = typeof tools.weather.get_current;
         await tools.math.subtract({ a: 1, b: 1 });
         try { await tools.weather.get_current({ city: "Shanghai" }) }
         catch (e) { return [before, e instanceof Error, e.name, e.code, e.hint, e.message] }`,
        session,
      ),
    ).toEqual(
      value([
        "function",
        true,
        "ToolError",
        "forbidden:weather.get_current",
        "the tool is not available in this session",
        "forbidden:weather.get_current: the tool is not available in this session",
      ]),
    );
    expect(await run("return typeof tools.weather", session)).toEqual(value("undefined"));
  });

  it("approval applies to a program's calls as to direct ones", async () => {
    const approving = createRuntime(kitchen, { code, approve: () => false });
    expect(
      await run(
        `try { await tools.tables.drop({ name: "t" }) } catch (e) { return [e.code, e.hint] }`,
        approving.session({ stage: "operate" }),
      ),
    ).toEqual(value(["approval_required", "this tool needs a person's approval before it runs"]));
  });

  it("a handle from another session answers the error a direct call gets", async () => {
    const kitchenRuntime = createRuntime(kitchen, { code });
    const owner = kitchenRuntime.session({ stage: "discover" });
    const made = (await owner.call("tables.load", { name: "t" })) as { handle: string };
    const other = kitchenRuntime.session({ stage: "operate" });
    const direct = await other.call("tables.sum", { rows: made.handle, column: "qty" });
    expect(direct).toMatchObject({ ok: false, error: `expired:${made.handle}` });
    expect(
      await run(
        `try { return await tools.tables.sum({ rows: ${JSON.stringify(made.handle)}, column: "qty" }) } catch (e) { return [e.code, e.hint] }`,
        other,
      ),
    ).toEqual(value([(direct as { error: string }).error, (direct as { hint: string }).hint]));
  });
});

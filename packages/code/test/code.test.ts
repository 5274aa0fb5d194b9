/**
 * The program model through a real session and the worker runner (from dist/): results and
 * logs, TypeScript stripped, tools nested by their aliases, handles as frozen objects and back
 * as ids, parallel calls and their limits, every failure's exact code and hint, cancellation,
 * and a spinning program leaving the event loop free.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createRuntime, type CallResult, type CodeRunner } from "@zcp/runtime";
import conformance from "../../../fixtures/conformance/src/zcp.gen/index.js";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { createCodeRunner } from "../dist/index.js";

const code = createCodeRunner({ timeoutMs: 2000, maxCalls: 10, maxParallelCalls: 2 });
afterAll(() => code.close());

const value = (result: unknown, logs?: string[]) => ({
  ok: true,
  value: { value: result, ...(logs ? { logs } : {}) },
});
const weatherRun = (program: string) =>
  createRuntime(weather, { code }).session().call("zcp.run", { code: program });

describe("programs", () => {
  it("return their value as JSON, null for undefined, with the console lines they printed", async () => {
    expect(await weatherRun("return { a: [1, 'two', null], b: true }")).toEqual(
      value({ a: [1, "two", null], b: true }),
    );
    expect(await weatherRun("const x = 1")).toEqual(value(null));
    expect(await weatherRun("return () => 1")).toEqual(value(null));
    expect(
      await weatherRun(
        'console.log("a", 1, { b: [2] }); console.info(undefined); console.warn(null, true); console.error(Symbol("s")); return new Date(0)',
      ),
    ).toEqual(
      value("1970-01-01T00:00:00.000Z", ['a 1 {"b":[2]}', "undefined", "null true", "Symbol(s)"]),
    );
  });

  it("may be TypeScript: the types are stripped", async () => {
    expect(
      await weatherRun(
        `interface Reading { city: string; temperature: number }
         const cities: string[] = ["Shanghai", "Beijing"];
         const readings: Reading[] = [];
         for (const city of cities) readings.push(await tools.weather.get_current({ city }) as Reading);
         return readings.map((r): string => \`\${r.city} \${r.temperature}\`);`,
      ),
    ).toEqual(value(["Shanghai 22", "Beijing 18"]));
  });

  it("call the tools nested by their aliases, in parallel with Promise.all", async () => {
    expect(
      await weatherRun(
        `const [avg, diff, f] = await Promise.all([
           tools.math.average({ numbers: [1, 2, 3] }),
           tools.math.subtract({ a: 10, b: 4 }),
           tools["unit"]["celsius_to_fahrenheit"]({ celsius: 100 }),
         ]);
         return { avg, diff, f, kinds: Object.keys(tools).sort() }`,
      ),
    ).toEqual(value({ avg: 2, diff: 6, f: 212, kinds: ["math", "unit", "weather"] }));
  });

  it("run at most maxParallelCalls calls at once; the others wait their turn", async () => {
    let running = 0;
    let most = 0;
    const average = weather.registry.tools.find((tool) => tool.alias === "math.average")!;
    const slow = createRuntime(
      {
        ...weather,
        dispatch: {
          ...weather.dispatch,
          [average.id]: async () => {
            most = Math.max(most, ++running);
            await new Promise((resolve) => setTimeout(resolve, 20));
            running--;
            return 0;
          },
        },
      },
      { code },
    );
    const calls = Array.from({ length: 6 }, () => "tools.math.average({ numbers: [1] })");
    expect(
      await slow
        .session()
        .call("zcp.run", { code: `return (await Promise.all([${calls.join(", ")}])).length` }),
    ).toEqual(value(6));
    expect(most).toBe(2);
  });

  it("get ToolErrors for failed calls, and program_calls past maxCalls", async () => {
    expect(
      await weatherRun(
        `try { await tools.weather.get_current({ city: "Paris" }) }
         catch (e) { return [e instanceof Error, e.name, e.code, e.hint, e.message] }`,
      ),
    ).toEqual(
      value([
        true,
        "ToolError",
        "invalid:$.city",
        "expected one of: Shanghai, Beijing, Shenzhen, Hangzhou",
        "invalid:$.city: expected one of: Shanghai, Beijing, Shenzhen, Hangzhou",
      ]),
    );
    expect(
      await weatherRun(
        `const out = [];
         for (let i = 0; i < 12; i++)
           out.push(await tools.math.subtract({ a: i, b: 0 }).catch((e) => e.code));
         return out`,
      ),
    ).toEqual(value([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, "program_calls", "program_calls"]));
    expect(await weatherRun('await tools.weather.get_current({ city: "Paris" })')).toEqual({
      ok: false,
      error: "program_error",
      hint: "ToolError: invalid:$.city: expected one of: Shanghai, Beijing, Shenzhen, Hangzhou",
    });
  });

  it("get a content tool's blocks as an array", async () => {
    const session = createRuntime(conformance, { code }).session();
    expect(
      await session.call("zcp.run", {
        code: `const [resource] = await tools.test.embedded_resource({});
               return resource.resource.uri`,
      }),
    ).toEqual(value("test://embedded-resource"));
  });

  it("get handles as frozen objects, and pass them (or their ids) back to tools", async () => {
    const session = createRuntime(kitchen, { code }).session();
    expect(
      await session.call("zcp.run", {
        code: `const rows = await tools.tables.load({ name: "stock" });
               const frozen = Object.isFrozen(rows);
               const a = await tools.tables.sum({ rows, column: "qty" });
               const b = await tools.tables.sum({ rows: rows.handle, column: "qty" });
               const read = await tools.zcp.handle({ op: "read", handle: rows, item: 2 });
               return { frozen, a, b, read, rows }`,
      }),
    ).toEqual(
      value({
        frozen: true,
        a: 3,
        b: 3,
        read: { value: { sku: "stock-2", qty: 2 } },
        rows: { handle: "#T1", summary: "3 records; fields: sku, qty", count: 3 },
      }),
    );
    // The handle the program returned is the session's: a direct call reads it.
    expect(await session.call("zcp.handle", { op: "count", handle: "#T1" })).toEqual({
      ok: true,
      value: { count: 3 },
    });
  });
});

describe("failures", () => {
  it("a syntax error is invalid:$.code with its line", async () => {
    expect(await weatherRun("const a = 1;\nconst = 2;")).toEqual({
      ok: false,
      error: "invalid:$.code",
      hint: "SyntaxError: Unexpected token (line 2)",
    });
    expect(await weatherRun("return 1;\n}\n{")).toEqual({
      ok: false,
      error: "invalid:$.code",
      hint: 'SyntaxError: Unexpected token, expected "," (line 3)',
    });
    // Found by QuickJS rather than by the TypeScript stripper: the same shape.
    expect(await weatherRun("const a = 1;\nlet a = 2;")).toEqual({
      ok: false,
      error: "invalid:$.code",
      hint: "SyntaxError: invalid redefinition of lexical identifier (line 2)",
    });
  });

  it("an uncaught exception is program_error with its name, message and line", async () => {
    expect(await weatherRun("const a = 1;\n\nthrow new RangeError('too far')")).toEqual({
      ok: false,
      error: "program_error",
      hint: "RangeError: too far (line 3)",
    });
    expect(await weatherRun("throw 42")).toEqual({
      ok: false,
      error: "program_error",
      hint: "uncaught 42",
    });
    expect(await weatherRun("await new Promise(() => {})")).toEqual({
      ok: false,
      error: "program_error",
      hint: "the program awaits a promise that nothing can settle (there are no timers)",
    });
  });

  it("the output printed before a failure is dropped", async () => {
    expect(await weatherRun('console.log("before"); throw new Error("after")')).toEqual({
      ok: false,
      error: "program_error",
      hint: "Error: after (line 1)",
    });
  });
});

describe("the runner", () => {
  it("answers cancelled when the zcp.run call is cancelled, and stops the program", async () => {
    const session = createRuntime(weather, { code }).session();
    const controller = new AbortController();
    const started = Date.now();
    const answer = session.call(
      "zcp.run",
      { code: "while (true) {}" },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 100);
    expect(await answer).toEqual({
      ok: false,
      error: "cancelled",
      hint: "the program was cancelled",
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await session.call("zcp.run", { code: "return 1" })).toEqual(value(1));
  });

  it("keeps the event loop free while a program spins", async () => {
    const session = createRuntime(weather, { code }).session();
    const spinning = session.call("zcp.run", { code: "while (true) {}" });
    const ticks: number[] = [];
    const started = Date.now();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        ticks.push(Date.now() - started);
        if (ticks.length === 10) {
          clearInterval(timer);
          resolve();
        }
      }, 20);
    });
    expect(ticks.at(-1)!).toBeLessThan(1000);
    expect(await spinning).toMatchObject({ ok: false, error: "timeout" });
  });

  it("answers cancelled once closed, and checks its options", async () => {
    const closed = createCodeRunner();
    await closed.close();
    const runner: CodeRunner = closed;
    const host = {
      sessionId: "s",
      aliases: [],
      signal: new AbortController().signal,
      call: async () => null!,
    };
    expect(await runner("return 1", host)).toEqual<CallResult>({
      ok: false,
      error: "cancelled",
      hint: "the program was cancelled",
    });
    expect(() => createCodeRunner({ timeoutMs: 0 })).toThrow(
      "timeoutMs must be a positive integer, got 0",
    );
    expect(() => createCodeRunner({ workers: 1.5 })).toThrow(
      "workers must be a positive integer, got 1.5",
    );
  });
});

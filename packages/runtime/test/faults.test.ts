/**
 * The runtime under misbehaving tools and hostile arguments (issue 12, R1–R8), on the generated
 * modules of the weather and kitchen-sink fixtures with single dispatchers replaced: slots held
 * until tools stop, close aborting running calls, `__proto__` in arguments, clipped names,
 * deeply nested arguments, oversized results, `ToolError`, and executors. Every answer is
 * asserted exactly.
 */
import { describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import {
  clip,
  createRuntime,
  ToolError,
  type GeneratedModule,
  type ToolContext,
  type ToolDefinition,
  type ToolExecutor,
} from "../src/index.js";
import { HANDLE_BRAND } from "@zcp/runtime/definition";
import { put, type DispatchTable } from "@zcp/runtime/codegen";

const idOf = (generated: GeneratedModule, alias: string) =>
  generated.registry.tools.find((tool) => tool.alias === alias)!.id;

/** `generated` with one tool's function replaced. */
function withDispatch(
  generated: GeneratedModule,
  alias: string,
  fn: DispatchTable[string],
): GeneratedModule {
  return { ...generated, dispatch: { ...generated.dispatch, [idOf(generated, alias)]: fn } };
}

/** Settles with `promise`'s value, or with "pending" when it has not settled after `ms`. */
function within<T>(promise: Promise<T>, ms = 200): Promise<T | "pending"> {
  return Promise.race([promise, new Promise<"pending">((r) => setTimeout(() => r("pending"), ms))]);
}

/** Lets every queued promise reaction run. */
const drain = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A tool that ignores its signal: each run waits until the test lets it go, and the tool counts
 * how many runs are in progress at once.
 */
function stubborn() {
  const releases: (() => void)[] = [];
  const stats = { now: 0, max: 0, started: 0 };
  const fn = () => {
    stats.started++;
    stats.now++;
    stats.max = Math.max(stats.max, stats.now);
    return new Promise((resolve) =>
      releases.push(() => {
        stats.now--;
        resolve(1);
      }),
    );
  };
  const releaseAll = () => releases.splice(0).forEach((release) => release());
  return { fn, stats, releaseAll };
}

const BUSY_8 = {
  ok: false,
  error: "busy",
  hint: "at most 8 calls at once in a session; wait for one to finish",
};
const CANCELLED = { ok: false, error: "cancelled", hint: "the call was cancelled" };
const CLOSED = { ok: false, error: "cancelled", hint: "the session is closed" };

describe("R1: a call's slot is held until its tool has stopped", () => {
  it("cancel-and-resubmit of 40 calls never runs more than 8 tools at once", async () => {
    const tool = stubborn();
    const session = createRuntime(withDispatch(weather, "math.subtract", tool.fn)).session();
    const answers = [];
    for (let i = 0; i < 40; i++) {
      const controller = new AbortController();
      const answer = session.call("math.subtract", { a: 1, b: 2 }, { signal: controller.signal });
      controller.abort();
      answers.push(await answer);
    }
    expect(answers).toEqual([...Array(8).fill(CANCELLED), ...Array(32).fill(BUSY_8)]);
    expect(tool.stats).toEqual({ now: 8, max: 8, started: 8 });
    expect(session.running).toBe(8);
    tool.releaseAll();
    await drain();
    expect(session.running).toBe(0);
    const next = session.call("math.subtract", { a: 1, b: 2 });
    tool.releaseAll();
    expect(await next).toEqual({ ok: true, value: 1 });
  });

  it("a timed-out call keeps its slot until its tool settles", async () => {
    const tool = stubborn();
    const session = createRuntime(withDispatch(weather, "math.subtract", tool.fn), {
      maxConcurrentCalls: 1,
    }).session();
    expect(await session.call("math.subtract", { a: 1, b: 2 }, { timeoutMs: 10 })).toEqual({
      ok: false,
      error: "timeout",
      hint: "the tool did not finish within 10 ms",
    });
    expect(session.running).toBe(1);
    expect(await session.call("math.subtract", { a: 1, b: 2 })).toEqual({
      ok: false,
      error: "busy",
      hint: "at most 1 calls at once in a session; wait for one to finish",
    });
    tool.releaseAll();
    await drain();
    expect(session.running).toBe(0);
  });

  it("synchronous tools and refused calls free their slot at once", async () => {
    const session = createRuntime(weather).session();
    const answer = session.call("math.subtract", { a: 5, b: 2 });
    expect(session.running).toBe(0);
    expect(await answer).toEqual({ ok: true, value: 3 });
    expect(await session.call("math.subtract", { a: "x", b: 2 })).toMatchObject({ ok: false });
    expect(session.running).toBe(0);
  });
});

describe("R2: close() aborts every running call", () => {
  it("answers cancelled at once, aborts the tools' signals, and holds slots until they stop", async () => {
    const reasons: unknown[] = [];
    let stop = () => {};
    // tables.load takes a ToolContext; this one records the abort but keeps running until told.
    const slow = withDispatch(
      kitchen,
      "tables.load",
      (_args, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener("abort", () => reasons.push(context.signal.reason));
          const previous = stop;
          stop = () => (previous(), resolve([]));
        }),
    );
    let approve = (_yes: boolean) => {};
    const session = createRuntime(slow, {
      approve: () => new Promise<boolean>((resolve) => (approve = resolve)),
    }).session();
    const calls = [
      session.call("tables.load", { name: "a" }),
      session.call("tables.load", { name: "b" }),
      session.call("tables.drop", { name: "c" }), // waiting for approval
    ];
    await drain();
    expect(session.running).toBe(3);
    await session.close();
    expect(await within(Promise.all(calls))).toEqual([CLOSED, CLOSED, CLOSED]);
    expect(reasons.map(String)).toEqual([
      "Error: the session is closed",
      "Error: the session is closed",
    ]);
    expect(session.running).toBe(3);
    stop();
    approve(true); // too late: the closed session starts no tool
    await drain();
    expect(session.running).toBe(0);
    expect(await session.call("tables.load", { name: "d" })).toEqual(CLOSED);
  });
});

describe("R2b: an abort during a tool's synchronous part", () => {
  it("answers at once, not at the time limit, for the caller's signal and for close()", async () => {
    const controller = new AbortController();
    let session = createRuntime(
      withDispatch(weather, "weather.get_current", () => {
        controller.abort();
        return new Promise(() => {});
      }),
    ).session();
    const cancelled = session.call(
      "weather.get_current",
      { city: "Shanghai" },
      {
        signal: controller.signal,
      },
    );
    expect(await within(cancelled)).toEqual(CANCELLED);
    session = createRuntime(
      withDispatch(weather, "weather.get_current", () => {
        void session.close();
        return new Promise(() => {});
      }),
    ).session();
    expect(await within(session.call("weather.get_current", { city: "Shanghai" }))).toEqual(CLOSED);
  });
});

describe("R3: __proto__ in arguments", () => {
  it("stays an own property, so a closed object's validator refuses it", async () => {
    const session = createRuntime(weather).session();
    const args = JSON.parse('{"city":"Shanghai","__proto__":{"unit":"fahrenheit"}}') as object;
    expect(await session.call("weather.get_current", args)).toEqual({
      ok: false,
      error: "invalid:$.__proto__",
      hint: "unknown property; expected: city, unit",
    });
  });

  it("reaches a tool as data, never as the prototype of its arguments", async () => {
    const seen: object[] = [];
    const open: GeneratedModule = {
      ...withDispatch(weather, "math.subtract", (args) => (seen.push(args), 0)),
      validators: {
        ...weather.validators,
        [idOf(weather, "math.subtract")]: (value) => ({ ok: true, value }),
      },
    };
    const args = JSON.parse('{"a":1,"__proto__":{"b":2}}') as object;
    expect(await createRuntime(open).session().call("math.subtract", args)).toEqual({
      ok: true,
      value: 0,
    });
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(seen[0], "__proto__")?.value).toEqual({ b: 2 });
    expect((seen[0] as { b?: unknown }).b).toBeUndefined();
  });

  it("stays an own property when a generated validator copies on write", () => {
    const copy = put(undefined, { a: 1 }, "__proto__", { polluted: true });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["a", "__proto__"]);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe("R4: names echoed in errors are clipped", () => {
  it("answers a 1 MB unknown name with its first 64 characters", async () => {
    const name = "x".repeat(1024 * 1024);
    expect(await createRuntime(weather).session().call(name, {})).toEqual({
      ok: false,
      error: `unknown:${"x".repeat(64)}…`,
      hint: "no tool by that name; list the tools to see what exists",
    });
  });

  it("cuts a validator's path that names a 1 MB unknown property to 1,024 characters", async () => {
    const key = "k".repeat(1024 * 1024);
    const result = await createRuntime(weather)
      .session()
      .call("weather.get_current", { city: "Shanghai", [key]: 1 });
    expect(result).toMatchObject({ ok: false, error: `invalid:$.${"k".repeat(1014)}…` });
    expect((result as { error: string }).error).toHaveLength(1025);
  });

  it("clip cuts past max characters, between code points", () => {
    expect(clip("a".repeat(64))).toBe("a".repeat(64));
    expect(clip("a".repeat(65))).toBe(`${"a".repeat(64)}…`);
    expect(clip("abcdef", 3)).toBe("abc…");
    expect(clip("😀".repeat(5), 2)).toBe("😀😀…");
    expect(clip("😀😀", 2)).toBe("😀😀");
  });
});

describe("R5: deeply nested arguments", () => {
  it("answer invalid:<path> at 100,000 levels without overflowing the stack", async () => {
    let root: { name: string; children: unknown[] } = { name: "leaf", children: [] };
    for (let i = 0; i < 100_000; i++) root = { name: "n", children: [root] };
    // tree.count's validator is recursive: without the check it would overflow the stack.
    expect(await createRuntime(kitchen).session().call("tree.count", { root })).toEqual({
      ok: false,
      error: `invalid:$.root${".children[0]".repeat(32)}`,
      hint: "nested deeper than 64 levels",
    });
  });

  it("allow exactly the limit and name the first value past it in document order", async () => {
    const session = createRuntime(weather, { maxArgumentDepth: 2 }).session();
    const answer = (args: object) => session.call("math.average", args);
    expect(await answer({ numbers: [[1]] })).toEqual({
      ok: false,
      error: "invalid:$.numbers[0]",
      hint: "expected number",
    });
    expect(await answer({ numbers: [1, [2, [3]], { "a b": [[4]] }] })).toEqual({
      ok: false,
      error: "invalid:$.numbers[1][1]",
      hint: "nested deeper than 2 levels",
    });
    expect(await answer({ numbers: [1, { "a b": [[4]] }, [2, [3]]] })).toEqual({
      ok: false,
      error: 'invalid:$.numbers[1]["a b"]',
      hint: "nested deeper than 2 levels",
    });
  });

  it("bound the arguments of zcp.handle too", async () => {
    const session = createRuntime(kitchen, { maxArgumentDepth: 2 }).session();
    expect(
      await session.call("zcp.handle", { op: "read", handle: "#T1", fields: [[["x"]]] }),
    ).toEqual({
      ok: false,
      error: "invalid:$.fields[0][0]",
      hint: "nested deeper than 2 levels",
    });
  });

  it("check a cyclic argument object without looping", async () => {
    const cycle: { [key: string]: unknown } = {};
    cycle.self = cycle;
    expect(await createRuntime(weather).session().call("math.average", { numbers: cycle })).toEqual(
      {
        ok: false,
        error: `invalid:$.numbers${".self".repeat(64)}`,
        hint: "nested deeper than 64 levels",
      },
    );
  });
});

describe("R6: results larger than maxResultBytes", () => {
  it("answer exec:too_large with the sizes (default 16 MiB)", async () => {
    const huge = withDispatch(weather, "math.subtract", () => "x".repeat(16 * 1024 * 1024));
    expect(await createRuntime(huge).session().call("math.subtract", { a: 1, b: 2 })).toEqual({
      ok: false,
      error: "exec:too_large",
      hint: "the result is 16777218 bytes; at most 16777216",
    });
  });

  it("count bytes of UTF-8, for async tools too", async () => {
    const wide = withDispatch(weather, "math.subtract", async () => "é".repeat(50));
    const session = createRuntime(wide, { maxResultBytes: 101 }).session();
    expect(await session.call("math.subtract", { a: 1, b: 2 })).toEqual({
      ok: false,
      error: "exec:too_large",
      hint: "the result is 102 bytes; at most 101",
    });
    const fits = createRuntime(wide, { maxResultBytes: 102 }).session();
    expect(await fits.call("math.subtract", { a: 1, b: 2 })).toEqual({
      ok: true,
      value: "é".repeat(50),
    });
  });
});

describe("R7: ToolError", () => {
  const throwing = (error: unknown, async = false) => {
    const reported: unknown[] = [];
    const fn = async
      ? () => Promise.reject(error)
      : () => {
          throw error;
        };
    const runtime = createRuntime(withDispatch(weather, "math.subtract", fn), {
      onToolError: (thrown) => reported.push(thrown),
    });
    return {
      answer: () => runtime.session().call("math.subtract", { a: 1, b: 2 }),
      reported,
    };
  };
  const EXEC_ERROR = {
    ok: false,
    error: "exec:error",
    hint: "the tool failed; the details are in the server's log",
  };

  it("answers the tool's own code and hint, thrown or rejected, and is not reported", async () => {
    for (const async of [false, true]) {
      const tool = throwing(new ToolError("invalid:$.range", "A1:XFD1048576 is too large"), async);
      expect(await tool.answer()).toEqual({
        ok: false,
        error: "invalid:$.range",
        hint: "A1:XFD1048576 is too large",
      });
      expect(tool.reported).toEqual([]);
    }
    const plain = new ToolError("not_found", "no such sheet");
    expect(plain).toBeInstanceOf(Error);
    expect([plain.name, plain.code, plain.message]).toEqual([
      "ToolError",
      "not_found",
      "no such sheet",
    ]);
    expect(await throwing(plain).answer()).toEqual({
      ok: false,
      error: "not_found",
      hint: "no such sheet",
    });
  });

  it("cuts the hint to 300 characters", async () => {
    expect(await throwing(new ToolError("too_big", "y".repeat(1000))).answer()).toEqual({
      ok: false,
      error: "too_big",
      hint: "y".repeat(300),
    });
  });

  it("answers exec:error, reported, for a code that does not match", async () => {
    for (const code of ["Bad", "two words", "x:", "x:a b", `x:${"d".repeat(201)}`, "_x", "a1"]) {
      const tool = throwing(new ToolError(code, "hint"));
      expect(await tool.answer()).toEqual(EXEC_ERROR);
      expect(tool.reported).toHaveLength(1);
    }
    expect(await throwing(new ToolError(`x:${"d".repeat(200)}`, "h")).answer()).toEqual({
      ok: false,
      error: `x:${"d".repeat(200)}`,
      hint: "h",
    });
  });

  it("is recognised by name after crossing a thread boundary", async () => {
    const crossed = Object.assign(new Error("sheet is locked"), {
      name: "ToolError",
      code: "busy",
    });
    expect(await throwing(crossed, true).answer()).toEqual({
      ok: false,
      error: "busy",
      hint: "sheet is locked",
    });
    const noCode = Object.assign(new Error("x"), { name: "ToolError", code: 7 });
    expect(await throwing(noCode).answer()).toEqual(EXEC_ERROR);
    const renamed = Object.assign(new Error("x"), { code: "busy" });
    expect(await throwing(renamed).answer()).toEqual(EXEC_ERROR);
  });
});

describe("R8: executors", () => {
  interface Recorded {
    readonly alias: string;
    readonly args: { readonly [name: string]: unknown };
    readonly context: ToolContext;
  }

  /** An executor that records each call and runs it with the generated dispatcher. */
  function recording(generated: GeneratedModule, run?: (call: Recorded) => Promise<unknown>) {
    const calls: Recorded[] = [];
    const executor: ToolExecutor = {
      execute(tool: ToolDefinition, args, context) {
        const call = { alias: tool.alias, args, context };
        calls.push(call);
        return run ? run(call) : Promise.resolve(generated.dispatch[tool.id]!(args, context));
      },
    };
    return { executor, calls };
  }

  /** The module with dispatchers that fail: with an executor, none of them may run. */
  const unreachable = (generated: GeneratedModule): GeneratedModule => ({
    ...generated,
    dispatch: Object.fromEntries(
      Object.keys(generated.dispatch).map((id) => [
        id,
        () => {
          throw new Error(`dispatcher ${id} ran in the runtime`);
        },
      ]),
    ),
  });

  it("runs every call through the executor with a real context", async () => {
    const { executor, calls } = recording(weather);
    const session = createRuntime(unreachable(weather), { executor }).session();
    expect(await session.call("math.subtract", { a: 5, b: 2 })).toEqual({ ok: true, value: 3 });
    expect(await session.call("weather.get_current", { city: "Beijing" })).toEqual({
      ok: true,
      value: {
        city: "Beijing",
        temperature: 18,
        unit: "celsius",
        condition: "sunny",
        humidity: 35,
      },
    });
    expect(calls.map(({ alias, args }) => [alias, args])).toEqual([
      ["math.subtract", { a: 5, b: 2 }],
      ["weather.get_current", { city: "Beijing", unit: "celsius" }],
    ]);
    const context = calls[0]!.context;
    expect(context.sessionId).toBe(session.id);
    expect(context.signal).toBeInstanceOf(AbortSignal);
    expect(context.signal.aborted).toBe(false);
    expect(calls[1]!.context.signal).not.toBe(context.signal);
  });

  it("passes handles resolved, and leaves zcp.handle to the runtime", async () => {
    const { executor, calls } = recording(kitchen);
    const session = createRuntime(unreachable(kitchen), { executor }).session();
    const loaded = await session.call("tables.load", { name: "t" });
    expect(loaded).toMatchObject({ ok: true, handle: "#T1" });
    expect(await session.call("zcp.handle", { op: "count", handle: "#T1" })).toEqual({
      ok: true,
      value: { count: 3 },
    });
    expect(await session.call("tables.sum", { rows: "#T1", column: "qty" })).toEqual({
      ok: true,
      value: 3,
    });
    expect(calls.map((call) => call.alias)).toEqual(["tables.load", "tables.sum"]);
    const rows = calls[1]!.args.rows as { [key: string]: unknown };
    expect(rows[HANDLE_BRAND]).toBe("table");
    expect([rows.id, rows.kind, (rows.value as unknown[]).length]).toEqual(["#T1", "table", 3]);
  });

  it("answers timeout at once, aborts the context, and holds the slot until it settles", async () => {
    let settle = () => {};
    const { executor, calls } = recording(
      weather,
      () => new Promise((resolve) => (settle = () => resolve(0))),
    );
    const session = createRuntime(weather, { executor, maxConcurrentCalls: 1 }).session();
    expect(await session.call("math.subtract", { a: 1, b: 2 }, { timeoutMs: 10 })).toEqual({
      ok: false,
      error: "timeout",
      hint: "the tool did not finish within 10 ms",
    });
    expect(String(calls[0]!.context.signal.reason)).toBe("Error: timeout");
    expect(session.running).toBe(1);
    settle();
    await drain();
    expect(session.running).toBe(0);
  });

  it("answers what the executor rejects with: a ToolError's code, else exec:error", async () => {
    const reported: unknown[] = [];
    let error: unknown = null;
    const { executor } = recording(weather, () => Promise.reject(error));
    const session = createRuntime(weather, {
      executor,
      onToolError: (thrown) => reported.push(thrown),
    }).session();
    error = Object.assign(new Error("the tool ran out of memory (512 MiB) and was stopped"), {
      name: "ToolError",
      code: "exec:error",
    });
    expect(await session.call("math.subtract", { a: 1, b: 2 })).toEqual({
      ok: false,
      error: "exec:error",
      hint: "the tool ran out of memory (512 MiB) and was stopped",
    });
    expect(reported).toEqual([]);
    error = new Error("boom");
    expect(await session.call("math.subtract", { a: 1, b: 2 })).toEqual({
      ok: false,
      error: "exec:error",
      hint: "the tool failed; the details are in the server's log",
    });
    expect(reported).toEqual([error]);
  });
});

/**
 * Code mode on the runtime's side, with a `CodeRunner` written here (no sandbox): where views
 * list `zcp.run`, its arguments, the `ProgramHost` a runner gets (the session's own calls, with
 * `auto` results inline, refusing `zcp.run` itself), and how a run holds a slot and answers
 * cancellation and a runner's failure.
 */
import { describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import {
  codeTool,
  createRuntime,
  type CallResult,
  type CodeRunner,
  type ProgramHost,
  type View,
} from "../src/index.js";
import { parsePlannerLine } from "@zcp/runtime/definition";

const aliases = (view: View) => view.tools.map((tool) => tool.alias);

/** A runner that hands its host to `body` and answers what `body` returns. */
function runner(body: (code: string, host: ProgramHost) => Promise<CallResult> | CallResult) {
  const seen: ProgramHost[] = [];
  const run: CodeRunner = async (code, host) => {
    seen.push(host);
    return body(code, host);
  };
  return { run, seen };
}

const echo = runner((code) => ({ ok: true, value: { value: code } }));

describe("zcp.run in views", () => {
  it("is listed only with a CodeRunner: after the registry's tools and zcp.find_tools, before zcp.handle", () => {
    expect(aliases(createRuntime(weather).session().exposed)).not.toContain("zcp.run");
    expect(aliases(createRuntime(weather, { code: echo.run }).session().exposed)).toEqual([
      "math.average",
      "math.subtract",
      "unit.celsius_to_fahrenheit",
      "weather.get_current",
      "zcp.run",
    ]);
    const view = createRuntime(kitchen, { code: echo.run, exposure: { find: true } }).session()
      .exposed;
    expect(aliases(view).slice(-3)).toEqual(["zcp.find_tools", "zcp.run", "zcp.handle"]);
    expect(view.artifacts("mcp").map((entry) => entry.name)).toContain("zcp_run");
  });

  it("comes right after zcp.find_tools in a discover view, so found tools are appended after both", async () => {
    const runtime = createRuntime(weather, {
      code: echo.run,
      exposure: { defaults: { "*": { profile: "discover" } } },
    });
    const session = runtime.session();
    expect(aliases(session.exposed)).toEqual(["zcp.find_tools", "zcp.run"]);
    await session.call("zcp.find_tools", { query: "subtract numbers", limit: 1 });
    expect(aliases(session.exposed)).toEqual(["zcp.find_tools", "zcp.run", "math.subtract"]);
  });

  it("has a definition, a planner line and entries of its own", () => {
    const { definition } = codeTool;
    expect([definition.id, definition.alias, definition.name]).toEqual([
      "zr",
      "zcp.run",
      "zcp_run",
    ]);
    expect(definition.description).toMatch(
      /^Run a short JavaScript program against this session's tools and return its result\. Call a tool as `await tools\.<alias>\(args\)`/,
    );
    expect(definition.plannerBare).toBe("TOOL @zr zcp.run(code:str) -> scalar");
    expect(parsePlannerLine(definition.planner).alias).toBe("zcp.run");
    expect(codeTool.artifacts.mcp.inputSchema).toEqual({
      type: "object",
      properties: {
        code: {
          type: "string",
          description:
            "The body of an async function: top-level await works, and its return value is the result.",
          minLength: 1,
          maxLength: 20000,
        },
      },
      required: ["code"],
      additionalProperties: false,
    });
    expect(codeTool.leanArtifacts.anthropic.input_schema.properties).toEqual({
      code: { type: "string", description: expect.any(String) },
    });
  });

  it("is refused without a CodeRunner, as a tool outside the view", async () => {
    expect(await createRuntime(weather).session().call("zcp.run", { code: "1" })).toEqual({
      ok: false,
      error: "forbidden:zcp.run",
      hint: "the tool is not available in this session",
    });
  });
});

describe("zcp.run calls", () => {
  it("check their arguments before the runner runs", async () => {
    const session = createRuntime(weather, { code: echo.run }).session();
    expect(await session.call("zcp.run", {})).toEqual({
      ok: false,
      error: "missing:$.code",
      hint: "expected the program's text",
    });
    expect(await session.call("zcp.run", { code: "" })).toEqual({
      ok: false,
      error: "invalid:$.code",
      hint: "expected a string of 1 to 20000 characters",
    });
    expect(await session.call("zcp.run", { code: "x".repeat(20_001) })).toMatchObject({
      error: "invalid:$.code",
    });
    expect(await session.call("zcp_run", { code: "1", extra: true })).toEqual({
      ok: false,
      error: "invalid:$.extra",
      hint: "unknown property; expected: code",
    });
    expect(await session.call("zr", [1])).toEqual({
      ok: false,
      error: "invalid:$",
      hint: "arguments must be an object of named parameters",
    });
    expect(await session.call("zcp.run", { code: "return 1" })).toEqual({
      ok: true,
      value: { value: "return 1" },
    });
  });

  it("give the runner the session's view and calls, refusing zcp.run by any name", async () => {
    const { run, seen } = runner(async (_code, host) => {
      const results = [];
      for (const name of ["zcp.run", "zr", "zcp_run"]) results.push(await host.call(name, {}));
      results.push(await host.call("math.subtract", { a: 5, b: 2 }));
      results.push(await host.call("weather.get_current", { city: "Paris" }));
      return { ok: true, value: results as never };
    });
    const session = createRuntime(weather, { code: run }).session();
    const answer = await session.call("zcp.run", { code: "…" });
    expect(seen[0]!.aliases).toEqual([
      "math.average",
      "math.subtract",
      "unit.celsius_to_fahrenheit",
      "weather.get_current",
    ]);
    const nested = {
      ok: false,
      error: "forbidden:zcp.run",
      hint: "a program cannot start another program",
    };
    expect(answer).toEqual({
      ok: true,
      value: [
        nested,
        nested,
        nested,
        { ok: true, value: 3 },
        {
          ok: false,
          error: "invalid:$.city",
          hint: "expected one of: Shanghai, Beijing, Shenzhen, Hangzhou",
        },
      ],
    });
  });

  it("apply exposure, stages and approval to every call a program makes", async () => {
    const decisions: string[] = [];
    const { run } = runner(async (_code, host) => ({
      ok: true,
      value: [
        await host.call("tables.drop", { name: "t" }),
        await host.call("people.update", {}),
      ] as never,
    }));
    const session = createRuntime(kitchen, {
      code: run,
      exposure: { defaults: { "*": { excludeGroups: ["people"] } } },
      approve: (tool) => {
        decisions.push(tool.alias);
        return false;
      },
    }).session({ stage: "operate" });
    const answer = await session.call("zcp.run", { code: "…" });
    expect(answer).toMatchObject({
      ok: true,
      value: [{ ok: false, error: "approval_required" }, { ok: false }],
    });
    expect(decisions).toEqual(["tables.drop"]);
  });

  it("answer a program's auto results inline whatever their size; handle tools still answer handles", async () => {
    const { run } = runner(async (_code, host) => ({
      ok: true,
      value: [
        await host.call("search.run", { text: "hello" }),
        await host.call("tables.load", { name: "t" }),
      ] as never,
    }));
    const session = createRuntime(kitchen, { code: run, maxResultTokens: 1 }).session();
    expect(await session.call("search.run", { text: "hello" })).toMatchObject({ handle: "#G1" });
    expect(await session.call("search.run", { text: "hello" }, { inline: true })).toEqual({
      ok: true,
      value: { hits: 5 },
    });
    const answer = (await session.call("zcp.run", { code: "…" })) as unknown as {
      value: CallResult[];
    };
    expect(answer.value[0]).toEqual({ ok: true, value: { hits: 5 } });
    expect(answer.value[1]).toMatchObject({ ok: true, handle: "#T2" });
  });

  it("hold one of the session's slots while the program runs", async () => {
    let finish = () => {};
    const { run } = runner(
      (_code, host) =>
        new Promise<CallResult>((resolve) => {
          finish = () => void host.call("math.subtract", { a: 1, b: 1 }).then(resolve);
        }),
    );
    const session = createRuntime(weather, { code: run, maxConcurrentCalls: 2 }).session();
    const program = session.call("zcp.run", { code: "…" });
    await Promise.resolve();
    expect(session.running).toBe(1);
    finish();
    expect(await program).toEqual({ ok: true, value: 0 });
    expect(session.running).toBe(0);
  });

  it("abort the host's signal when cancelled or when the session closes", async () => {
    const { run, seen } = runner(
      (_code, host) =>
        new Promise<CallResult>((resolve) =>
          host.signal.addEventListener("abort", () =>
            resolve({ ok: false, error: "cancelled", hint: "the program was cancelled" }),
          ),
        ),
    );
    const session = createRuntime(weather, { code: run }).session();
    const controller = new AbortController();
    const cancelled = session.call("zcp.run", { code: "…" }, { signal: controller.signal });
    await Promise.resolve();
    controller.abort();
    expect(await cancelled).toEqual({
      ok: false,
      error: "cancelled",
      hint: "the program was cancelled",
    });
    const closed = session.call("zcp.run", { code: "…" });
    await Promise.resolve();
    await session.close();
    expect(await closed).toEqual({ ok: false, error: "cancelled", hint: "the session is closed" });
    expect(seen[1]!.signal.aborted).toBe(true);
  });

  it("answer exec:error when the runner throws, and report it", async () => {
    const reported: unknown[] = [];
    const session = createRuntime(weather, {
      code: () => Promise.reject(new Error("no workers")),
      onToolError: (error, tool) => reported.push([(error as Error).message, tool.alias]),
    }).session();
    expect(await session.call("zcp.run", { code: "1" })).toEqual({
      ok: false,
      error: "exec:error",
      hint: "the program runner failed; the details are in the server's log",
    });
    expect(reported).toEqual([["no workers", "zcp.run"]]);
  });
});

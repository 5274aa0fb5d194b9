/**
 * The runtime through its public API, on the generated registries of the weather and
 * kitchen-sink fixtures: views and exposure, the call pipeline and every error it answers,
 * handles across calls and sessions, time limits and cancellation.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import { createRuntime, withSummary, type GeneratedModule } from "../src/index.js";
import { combineToolHashes, parsePlannerLine, renderPlannerLine } from "@zcp/runtime/definition";
import { reviveDates, type DispatchTable } from "@zcp/runtime/codegen";
import { handleTool } from "../src/builtins/handle-tool.js";

const idOf = (generated: GeneratedModule, alias: string) =>
  generated.registry.tools.find((tool) => tool.alias === alias)!.id;

/** The weather module with one tool's function replaced. */
function withDispatch(alias: string, fn: DispatchTable[string]): GeneratedModule {
  return { ...weather, dispatch: { ...weather.dispatch, [idOf(weather, alias)]: fn } };
}

describe("views", () => {
  it("expose every tool by default, with planner text, hash and provider artifacts in order", () => {
    const session = createRuntime(weather).session();
    const view = session.exposed;
    expect(view.tools.map((tool) => tool.alias)).toEqual([
      "math.average",
      "math.subtract",
      "unit.celsius_to_fahrenheit",
      "weather.get_current",
    ]);
    expect(view.hash).toBe(combineToolHashes(weather.registry.tools));
    expect(view.hash).toBe(weather.registry.hash);
    expect(view.planner.split("\n")).toEqual(weather.registry.tools.map((tool) => tool.planner));
    expect(view.artifacts("openai-responses").map((entry) => entry.name)).toEqual(
      weather.registry.tools.map((tool) => tool.name),
    );
    expect(view.artifacts("mcp")).toHaveLength(4);
    expect(() => view.artifacts("cohere" as never)).toThrow('unknown provider "cohere"');
  });

  it("narrow with client filters and never widen the server's policy", () => {
    const runtime = createRuntime(weather, {
      exposure: { defaults: { "*": { groups: ["math", "weather"] } } },
    });
    const session = runtime.session();
    expect(session.exposed.tools.map((tool) => tool.alias)).toEqual([
      "math.average",
      "math.subtract",
      "weather.get_current",
    ]);
    expect(session.select({ groups: ["math"] }).tools.map((tool) => tool.alias)).toEqual([
      "math.average",
      "math.subtract",
    ]);
    // A group the policy hides stays hidden, whatever the client asks for.
    expect(session.select({ groups: ["unit"] }).tools).toEqual([]);
    expect(
      session
        .select({ aliases: ["unit.celsius_to_fahrenheit", "math.subtract"] })
        .tools.map((tool) => tool.alias),
    ).toEqual(["math.subtract"]);
    expect(
      session.select({ excludeGroups: ["math"], limit: 5 }).tools.map((tool) => tool.alias),
    ).toEqual(["weather.get_current"]);
    expect(session.select({ limit: 1 }).tools).toHaveLength(1);
    expect(() => session.select({ profile: "everything" })).toThrow(
      'unknown profile "everything" (known: semantic-workflow, discover)',
    );
    // The semantic-workflow profile keeps the workflow group, or every tool when there is none.
    expect(session.select({ profile: "semantic-workflow" }).tools).toHaveLength(3);
    // A client's discover profile narrows nothing: only a surface default makes a view grow.
    expect(session.select({ profile: "discover" }).tools).toEqual(session.exposed.tools);
    const closed = createRuntime(weather, {
      exposure: { defaults: { mcp: { groups: ["math"] } }, clientFilters: false },
    }).session({ surface: "mcp" });
    expect(closed.select({ groups: ["nothing"] }).tools.map((tool) => tool.alias)).toEqual([
      "math.average",
      "math.subtract",
    ]);
  });

  it("refuse calls to tools outside the exposed set, however they are named", async () => {
    const session = createRuntime(weather, {
      exposure: { defaults: { native: { groups: ["math"] } } },
    }).session();
    const tool = weather.registry.tools.find(
      (candidate) => candidate.alias === "weather.get_current",
    )!;
    for (const name of [tool.alias, tool.id, tool.name]) {
      expect(await session.call(name, { city: "Shanghai" })).toEqual({
        ok: false,
        error: "forbidden:weather.get_current",
        hint: "the tool is not available in this session",
      });
    }
    expect(await session.call("math.subtract", { a: 3, b: 1 })).toEqual({ ok: true, value: 2 });
  });

  it("move with the stage and tell the listeners", async () => {
    const session = createRuntime(kitchen).session({ stage: "discover" });
    const inView = () => session.exposed.tools.map((tool) => tool.alias);
    expect(inView()).toContain("tables.load");
    expect(inView()).not.toContain("tables.sum");
    expect(inView()).toContain("box.open"); // no stages: in every stage
    const seen: string[] = [];
    session.onChange((view) => seen.push(view.hash));
    expect((await session.call("tables.sum", { rows: "#T1", column: "qty" })).ok).toBe(false);
    session.setStage("operate");
    expect(inView()).toContain("tables.sum");
    expect(inView()).not.toContain("tables.load");
    expect(seen).toEqual([session.exposed.hash]);
    session.setStage("operate");
    expect(seen).toHaveLength(1);
  });

  it("keep every stage's tools in everyStage, the same view whatever the stage", () => {
    const session = createRuntime(kitchen).session({ stage: "discover" });
    const all = createRuntime(kitchen).session().exposed;
    expect(session.everyStage.hash).toBe(all.hash);
    expect(session.exposed.hash).not.toBe(all.hash);
    session.setStage("operate");
    expect(session.everyStage.hash).toBe(all.hash);
    session.setStage(null);
    expect(session.everyStage).toBe(session.exposed);
  });

  it("list the handle tool whenever a tool can produce or take handles", () => {
    expect(createRuntime(weather).session().exposed.find("zcp.handle")).toBeUndefined();
    const view = createRuntime(kitchen).session().exposed;
    expect(view.find("zcp.handle")?.alias).toBe("zcp.handle");
    expect(view.planner).toContain("TOOL @zh zcp.handle(");
    expect(view.artifacts("anthropic").some((entry) => entry.name === "zcp_handle")).toBe(true);
  });

  it("give the planner text with documentation by default, and the bare signatures with docs: false", () => {
    const view = createRuntime(weather).session().exposed;
    expect(view.plannerText()).toBe(view.planner);
    expect(view.plannerText({ docs: true })).toBe(view.planner);
    expect(view.plannerText({ docs: false }).split("\n")).toEqual(
      weather.registry.tools.map((tool) => tool.plannerBare),
    );
    expect(view.planner.split("\n")[3]).toBe(
      'TOOL @b9634m weather.get_current(city:Shanghai|Beijing|Shenzhen|Hangzhou "City name, e.g. \\"Shanghai\\".", unit:celsius|fahrenheit=celsius "Unit of the returned temperature.") -> scalar -- "Get the current weather for one city."',
    );
    expect(view.plannerText({ docs: false }).split("\n")[3]).toBe(
      "TOOL @b9634m weather.get_current(city:Shanghai|Beijing|Shenzhen|Hangzhou, unit:celsius|fahrenheit=celsius) -> scalar",
    );
    // The documented line without its docs is the bare one, tool by tool (the built-in handle tool too).
    for (const tool of [...createRuntime(kitchen).session().exposed.tools]) {
      const line = parsePlannerLine(tool.planner);
      const bare = parsePlannerLine(tool.plannerBare);
      expect(bare.description).toBeNull();
      expect(bare.params.every((param) => param.description === null)).toBe(true);
      expect({
        ...line,
        description: null,
        params: line.params.map((param) => ({ ...param, description: null })),
      }).toEqual(bare);
    }
  });

  it("give the full artifacts by default, the lean ones when asked", () => {
    const view = createRuntime(weather).session().exposed;
    expect(view.artifacts("openai-responses", { lean: false })).toEqual(
      view.artifacts("openai-responses"),
    );
    const file = new URL("golden/weather/lean/openai-responses.json", import.meta.url);
    expect(view.artifacts("openai-responses", { lean: true })).toEqual(
      Object.values(JSON.parse(fs.readFileSync(file, "utf8")) as object),
    );
    const average = view.artifacts("openai-responses", { lean: true })[0]!;
    expect(average.parameters).toEqual({
      type: "object",
      properties: {
        numbers: {
          type: "array",
          description: "The numbers to average.",
          items: { type: "number" },
        },
      },
      required: ["numbers"],
      additionalProperties: false,
    });
    expect(view.artifacts("openai-responses")[0]!.parameters).toMatchObject({
      properties: { numbers: { minItems: 1 } },
    });
    expect(
      view.artifacts("mcp", { lean: true }).find((entry) => entry.name === "weather_get_current")!
        .description,
    ).toBe("Get the current weather for one city.");
  });

  it("list the handle tool's lean entries with lean artifacts: no pattern, no bounds", () => {
    const view = createRuntime(kitchen).session().exposed;
    const lean = view
      .artifacts("openai-responses", { lean: true })
      .find((entry) => entry.name === "zcp_handle")!;
    const full = view.artifacts("openai-responses").find((entry) => entry.name === "zcp_handle")!;
    expect(JSON.stringify(full.parameters)).toMatch(/"pattern"|"minimum"|"maximum"/);
    expect(JSON.stringify(lean.parameters)).not.toMatch(/"pattern"|"minimum"|"maximum"/);
    expect(Object.keys(lean.parameters.properties as object)).toEqual(
      Object.keys(full.parameters.properties as object),
    );
    expect(
      view.artifacts("mcp", { lean: true }).find((entry) => entry.name === "zcp_handle")!
        .inputSchema.properties,
    ).not.toHaveProperty("handle.pattern");
  });

  it("write the handle tool's planner lines as zcp gen would", () => {
    const tool = { ...handleTool.definition, handleParams: { handle: "*" } };
    expect(renderPlannerLine(tool)).toBe(handleTool.definition.planner);
    expect(renderPlannerLine(tool, { toolDocs: false, paramDocs: false })).toBe(
      handleTool.definition.plannerBare,
    );
  });
});

describe("calls", () => {
  it("merge defaults, validate, dispatch, and answer scalars inline", async () => {
    const session = createRuntime(weather).session();
    expect(await session.call("weather.get_current", { city: "Shanghai" })).toEqual({
      ok: true,
      value: {
        city: "Shanghai",
        temperature: 22,
        unit: "celsius",
        condition: "cloudy",
        humidity: 71,
      },
    });
    expect(
      await session.call("weather.get_current", { city: "Beijing", unit: "fahrenheit" }),
    ).toMatchObject({ ok: true, value: { temperature: 64 } });
    // The documented coercion: numeric strings where numbers are expected.
    expect(await session.call("math.subtract", { a: "10", b: 4 })).toEqual({ ok: true, value: 6 });
    // OpenAI strict mode sends unused optional parameters as null: the default applies.
    expect(
      await session.call("weather.get_current", { city: "Shanghai", unit: null }),
    ).toMatchObject({ ok: true, value: { unit: "celsius" } });
    // A null for a required parameter is still invalid.
    expect(await session.call("weather.get_current", { city: null })).toMatchObject({
      ok: false,
      error: "invalid:$.city",
    });
  });

  it("read nulls for optional properties at any depth as absent, as OpenAI strict mode sends them", async () => {
    const session = createRuntime(kitchen).session();
    // patch is a Partial<Person>: every property optional, nullable in the strict artifact.
    const update = (patch: unknown, names: unknown = null) =>
      session.call("people.update", {
        id: "p1",
        patch,
        names,
        slim: null,
        city: null,
        frozen: null,
      });
    expect(await update({ name: null, email: null, age: 7 })).toMatchObject({
      ok: true,
      value: { age: 7, name: "Ada" },
    });
    // Pick<Person, "name" | "age">: both required, so a null there is an error, not an absence.
    expect(await update({}, { name: null, age: 1 })).toMatchObject({
      ok: false,
      error: "invalid:$.names.name",
    });
    // nickname is `string | null`: null is a value there and passes as such.
    expect(await update({ nickname: null })).toMatchObject({ ok: true, value: { nickname: null } });
    // Nulls inside arrays are values, never dropped.
    expect(await update({ tags: ["a", null] })).toMatchObject({
      ok: false,
      error: "invalid:$.patch.tags[1]",
    });
  });

  it("answer every error as a value", async () => {
    const session = createRuntime(weather).session();
    expect(await session.call("nope", {})).toMatchObject({ ok: false, error: "unknown:nope" });
    expect(await session.call("weather.get_current", {})).toMatchObject({
      ok: false,
      error: "missing:$.city",
    });
    expect(await session.call("weather.get_current", { city: "Paris" })).toMatchObject({
      ok: false,
      error: "invalid:$.city",
    });
    expect(await session.call("weather.get_current", { city: "Shanghai", extra: 1 })).toMatchObject(
      { ok: false, error: "invalid:$.extra" },
    );
    expect(await session.call("math.average", { numbers: [1, "x"] })).toMatchObject({
      ok: false,
      error: "invalid:$.numbers[1]",
    });
    expect(await session.call("math.subtract", [1, 2])).toMatchObject({
      ok: false,
      error: "invalid:$",
    });
  });

  it("keep what a tool throws on the server and give the model a safe error", async () => {
    const logged: unknown[] = [];
    const runtime = createRuntime(
      withDispatch("math.subtract", () => {
        throw new Error("secret database password in message");
      }),
      { onToolError: (error) => logged.push(error) },
    );
    const result = await runtime.session().call("math.subtract", { a: 1, b: 2 });
    expect(result).toEqual({
      ok: false,
      error: "exec:error",
      hint: "the tool failed; the details are in the server's log",
    });
    expect(JSON.stringify(result)).not.toContain("secret");
    expect(String(logged[0])).toContain("secret");
    const rejected = createRuntime(
      withDispatch("math.subtract", async () => Promise.reject(new Error("async"))),
      { onToolError: () => {} },
    );
    expect(await rejected.session().call("math.subtract", { a: 1, b: 2 })).toMatchObject({
      error: "exec:error",
    });
    const notJson = createRuntime(
      withDispatch("math.subtract", () => 10n),
      { onToolError: () => {} },
    );
    expect(await notJson.session().call("math.subtract", { a: 1, b: 2 })).toMatchObject({
      error: "exec:error",
    });
  });

  it("time out and cancel slow tools, aborting the signal of tools that take the context", async () => {
    let aborted: unknown = null;
    let started = () => {};
    // tables.load takes a ToolContext: its signal aborts on timeout and cancellation.
    const load = idOf(kitchen, "tables.load");
    const slow = {
      ...kitchen,
      dispatch: {
        ...kitchen.dispatch,
        [load]: (_args: unknown, context: { signal: AbortSignal }) =>
          new Promise((resolve) => {
            context.signal.addEventListener("abort", () => {
              aborted = context.signal.reason;
              resolve([]);
            });
            started();
          }),
      },
    } as GeneratedModule;
    const session = createRuntime(slow).session();
    expect(await session.call("tables.load", { name: "t" }, { timeoutMs: 20 })).toEqual({
      ok: false,
      error: "timeout",
      hint: "the tool did not finish within 20 ms",
    });
    expect(String(aborted)).toContain("timeout");
    const controller = new AbortController();
    const running = new Promise<void>((resolve) => (started = resolve));
    const pending = session.call("tables.load", { name: "t" }, { signal: controller.signal });
    await running; // the tool is running now: cancelling aborts its signal
    controller.abort();
    expect(await pending).toEqual({
      ok: false,
      error: "cancelled",
      hint: "the call was cancelled",
    });
    expect(String(aborted)).toContain("cancelled");
    expect(
      await session.call("tables.load", { name: "t" }, { signal: AbortSignal.abort() }),
    ).toMatchObject({ error: "cancelled" });
    // A slow tool without a context times out too; it just cannot be told.
    const never = withDispatch("math.subtract", () => new Promise(() => {}));
    expect(
      await createRuntime(never).session().call("math.subtract", { a: 1, b: 2 }, { timeoutMs: 10 }),
    ).toMatchObject({ error: "timeout" });
  });

  it("limit the calls one session runs at once", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const blocked = withDispatch("math.subtract", async () => {
      await gate;
      return 1;
    });
    const runtime = createRuntime(blocked, { maxConcurrentCalls: 2 });
    const session = runtime.session();
    const first = [
      session.call("math.subtract", { a: 1, b: 2 }),
      session.call("math.subtract", { a: 1, b: 2 }),
    ];
    expect(await session.call("math.subtract", { a: 1, b: 2 })).toMatchObject({
      ok: false,
      error: "busy",
    });
    // Another session has its own allowance.
    const other = runtime.session().call("math.subtract", { a: 1, b: 2 });
    release();
    expect(await Promise.all([...first, other])).toEqual([
      { ok: true, value: 1 },
      { ok: true, value: 1 },
      { ok: true, value: 1 },
    ]);
  });

  it("ask for approval where a tool needs it", async () => {
    const refused = await createRuntime(kitchen).session().call("tables.drop", { name: "t" });
    expect(refused).toMatchObject({ ok: false, error: "approval_required" });
    const asked: string[] = [];
    const approving = createRuntime(kitchen, {
      approve: (tool, args) => (asked.push(`${tool.alias} ${JSON.stringify(args)}`), true),
    });
    expect(await approving.session().call("tables.drop", { name: "t" })).toEqual({
      ok: true,
      value: null,
    });
    expect(asked).toEqual(['tables.drop {"name":"t"}']);
  });

  it("give the context to tools that take one, with progress and log callbacks", async () => {
    const logs: string[] = [];
    const result = await createRuntime(kitchen)
      .session()
      .call(
        "tables.load",
        { name: "stock" },
        { onLog: (level, message) => logs.push(`${level}: ${message}`) },
      );
    expect(result.ok).toBe(true);
    expect(logs).toEqual(["info: loading stock"]);
  });
});

describe("handles", () => {
  it("store handle results with a useful summary, resolve them as arguments, and expand them with zcp.handle", async () => {
    const session = createRuntime(kitchen).session();
    const loaded = await session.call("tables.load", { name: "stock", limit: 3 });
    expect(loaded).toEqual({
      ok: true,
      handle: "#T1",
      summary: "3 records; fields: sku, qty",
      meta: { kind: "table", size: 79, ttl: "10m", count: 3 },
    });
    expect(await session.call("tables.sum", { rows: "#T1", column: "qty" })).toEqual({
      ok: true,
      value: 3,
    });
    expect(await session.call("zcp.handle", { op: "count", handle: "#T1" })).toEqual({
      ok: true,
      value: { count: 3 },
    });
    expect(
      await session.call("zcp.handle", { op: "read", handle: "#T1", item: 2, fields: ["sku"] }),
    ).toEqual({ ok: true, value: { value: { sku: "stock-2" } } });
    expect(
      await session.call("zcp.handle", {
        op: "view",
        handle: "#T1",
        columns: ["qty"],
        offset: 1,
        limit: 1,
      }),
    ).toEqual({ ok: true, value: { rows: [{ qty: 1 }], offset: 1, limit: 1, total: 3 } });
    expect(await session.call("zcp.handle", { op: "read", handle: "#T1", item: 9 })).toMatchObject({
      ok: false,
      error: "invalid:item",
    });
    // OpenAI strict mode sends every argument, absent ones as null.
    expect(
      await session.call("zh", {
        op: "count",
        handle: "#T1",
        item: null,
        fields: null,
        columns: null,
        offset: null,
        limit: null,
      }),
    ).toMatchObject({ ok: true });
    expect(await session.call("zcp.handle", { op: "explode", handle: "#T1" })).toMatchObject({
      ok: false,
      error: "invalid:$.op",
    });
    expect(await session.call("zcp.handle", { op: "release", handle: "#T1" })).toEqual({
      ok: true,
      value: { released: "#T1" },
    });
    expect(await session.call("tables.sum", { rows: "#T1", column: "qty" })).toMatchObject({
      ok: false,
      error: "expired:#T1",
    });
  });

  it("never reach another session's handles", async () => {
    const runtime = createRuntime(kitchen);
    const owner = runtime.session();
    const stranger = runtime.session();
    expect(owner.id).not.toBe(stranger.id);
    expect(owner.id).toMatch(/^[0-9a-f-]{36}$/);
    await owner.call("tables.load", { name: "secret" });
    expect(await stranger.call("tables.sum", { rows: "#T1", column: "qty" })).toMatchObject({
      ok: false,
      error: "expired:#T1",
    });
    for (const op of ["count", "read", "view", "summary", "release"]) {
      expect(await stranger.call("zcp.handle", { op, handle: "#T1" })).toMatchObject({
        ok: false,
        error: "expired:#T1",
      });
    }
    // The owner still has it.
    expect(await owner.call("zcp.handle", { op: "count", handle: "#T1" })).toEqual({
      ok: true,
      value: { count: 3 },
    });
    await owner.close();
    expect(await owner.call("tables.sum", { rows: "#T1", column: "qty" })).toMatchObject({
      ok: false,
      error: "cancelled",
    });
    expect(
      await runtime.session().call("zcp.handle", { op: "count", handle: "#T1" }),
    ).toMatchObject({ error: "expired:#T1" });
  });

  it("check the handle kind a tool asks for", async () => {
    const session = createRuntime(kitchen).session();
    const page = await session.call("people.find", {
      filter: {},
      weights: {},
      byLevel: { low: 1, high: 2 },
    });
    expect(page).toMatchObject({ ok: true, handle: "#P1", meta: { kind: "page" } });
    expect(await session.call("tables.sum", { rows: "#P1", column: "qty" })).toMatchObject({
      ok: false,
      error: "invalid:#P1",
    });
    // A Handle without a kind takes any.
    await session.call("tables.load", { name: "t" });
    expect(
      await session.call("tables.sum", { rows: "#T2", column: "qty", anything: "#P1" }),
    ).toEqual({ ok: true, value: 3 });
  });

  it("keep auto results inline when small, as handles when large, and use the summary a tool sets", async () => {
    const session = createRuntime(kitchen).session();
    expect(await session.call("search.run", { text: "hello" })).toEqual({
      ok: true,
      value: { hits: 5 },
    });
    const small = createRuntime(kitchen, { maxResultTokens: 1 }).session();
    expect(await small.call("search.run", { text: "hello" })).toMatchObject({
      ok: true,
      handle: "#G1",
      summary: "object with 1 key: hits",
    });
    const custom = createRuntime({
      ...kitchen,
      dispatch: {
        ...kitchen.dispatch,
        [idOf(kitchen, "tables.load")]: () => withSummary([{ a: 1 }], "one row, from the cache"),
      },
    });
    expect(await custom.session().call("tables.load", { name: "t" })).toMatchObject({
      handle: "#T1",
      summary: "one row, from the cache",
    });
  });
});

describe("reviveDates", () => {
  it("turns ISO strings at the given paths into Dates and copies what it changes", () => {
    const args = {
      window: { from: "2024-01-01T00:00:00Z", to: "2024-02-01T00:00:00Z" },
      rows: [{ at: "2024-03-01T00:00:00Z" }],
      m: { a: "2024-04-01T00:00:00Z" },
    };
    // Typed by its paths: the Dates are Dates to tsc too.
    const out = reviveDates(args, ["window.from", "rows.[].at", "m.*", "missing.x"]);
    expect(out.window.from).toBeInstanceOf(Date);
    expect(out.window.to).toBe("2024-02-01T00:00:00Z");
    expect(out.rows[0]!.at.toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(out.m.a.getUTCMonth()).toBe(3);
    expect(args.window.from).toBe("2024-01-01T00:00:00Z");
    expect(reviveDates("2024-01-01T00:00:00Z", [""])).toBeInstanceOf(Date);
  });
});

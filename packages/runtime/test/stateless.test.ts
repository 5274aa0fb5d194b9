/**
 * Sessions on the stateless protocol: the built-ins as one table, fixed sessions (a view chosen
 * once; discover as `zcp.find_tools` + `zcp.call_tool`), handle ids that grant nothing by
 * themselves (random ids, given session ids), and the handles' retention in `zcp.handle`'s
 * description. On the generated weather, kitchen-sink and workbench modules.
 */
import { describe, expect, it } from "vitest";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import workbench from "../../../fixtures/workbench/src/zcp.gen/index.js";
import {
  callTool,
  codeTool,
  createRuntime,
  encodeResult,
  findTool,
  formatCall,
  handleTool,
  HandleStore,
  parseCalls,
  type GeneratedModule,
  type RuntimeOptions,
  type View,
} from "../src/index.js";
import { HANDLE_ID_PATTERN } from "@zcp/runtime/definition";
import { formatReturn, parseReturn } from "../src/encoding/text-return.js";
import { fixedFindTool } from "../src/builtins/find-tool.js";

const DISCOVER = { exposure: { defaults: { "*": { profile: "discover" } } } } as const;
const aliases = (view: View) => view.tools.map((tool) => tool.alias);
const names = (view: View) => view.artifacts("mcp").map((entry) => entry.name);
const toolOf = (generated: GeneratedModule, alias: string) =>
  generated.registry.tools.find((tool) => tool.alias === alias)!;

describe("the built-in tools, one table", () => {
  it("holds find, call, run and handle in view order, with their hashes pinned", () => {
    const runtime = createRuntime(weather);
    expect(runtime.builtins.map((builtin) => builtin.tool.definition.alias)).toEqual([
      "zcp.find_tools",
      "zcp.call_tool",
      "zcp.run",
      "zcp.handle",
    ]);
    // Pinned: a listing's bytes (and so prompt caches) depend on them.
    expect(findTool.definition.hash).toBe("d0edff58d1d5");
    expect(codeTool.definition.hash).toBe("792566e941e5");
    // Changed deliberately once: the handle id pattern admits random ids.
    expect(handleTool.definition.hash).toBe("b0b110050fd8");
    expect(callTool.definition.hash).toBe("f1a288f13363");
    for (const builtin of runtime.builtins) {
      const { definition } = builtin.tool;
      expect(runtime.tool(definition.alias)).toBe(definition);
      expect(runtime.tool(definition.name)).toBe(definition);
      expect(runtime.builtin(definition.id)).toBe(builtin);
    }
    expect(runtime.builtin(toolOf(weather, "math.subtract").id)).toBeUndefined();
  });

  it("lists the same built-ins in the same places as before the table", () => {
    const run = async () => ({ ok: true as const, value: null });
    const code = createRuntime(workbench, { code: run, exposure: { find: true } }).session();
    expect(aliases(code.exposed).slice(-3)).toEqual(["zcp.find_tools", "zcp.run", "zcp.handle"]);
    const discover = createRuntime(workbench, { ...DISCOVER, code: run }).session();
    expect(aliases(discover.exposed)).toEqual(["zcp.find_tools", "zcp.run"]);
  });
});

describe("fixed sessions", () => {
  it("list exactly zcp_find_tools and zcp_call_tool in a discover profile, whatever is found", async () => {
    const session = createRuntime(weather, DISCOVER).session({ surface: "mcp", fixed: true });
    expect(session.fixed).toBe(true);
    expect(names(session.exposed)).toEqual(["zcp_find_tools", "zcp_call_tool"]);
    const before = JSON.stringify(session.exposed.artifacts("mcp"));
    const hash = session.exposed.hash;
    let changes = 0;
    session.onChange(() => changes++);
    await session.call("zcp_find_tools", { query: "temperature" });
    await session.call("zcp_call_tool", { name: "math_subtract", arguments: { a: 3, b: 1 } });
    expect(session.expose(weather.registry.tools)).toBe(0);
    expect(JSON.stringify(session.exposed.artifacts("mcp"))).toBe(before);
    expect(session.exposed.hash).toBe(hash);
    expect(changes).toBe(0);
  });

  it("list the same bytes for one address across 100 requests interleaved with finds, stage moves and calls", async () => {
    const runtime = createRuntime(workbench, DISCOVER);
    const listing = (stage: string | undefined) =>
      JSON.stringify(
        runtime.session({ surface: "mcp", stage, fixed: true }).exposed.artifacts("mcp"),
      );
    const first = {
      polish: listing("polish"),
      operate: listing("operate"),
      none: listing(undefined),
    };
    const growing = runtime.session({ surface: "mcp", stage: "polish" });
    const queries = ["merge cells", "insert rows", "read data from excel", "format range"];
    for (let i = 0; i < 100; i++) {
      const request = runtime.session({ surface: "mcp", stage: "operate", fixed: true });
      await request.call("zcp_find_tools", { query: queries[i % queries.length]! });
      await request.call("zcp_call_tool", { name: "excel_insert_rows", arguments: {} });
      await growing.call("zcp_find_tools", { query: queries[(i + 1) % queries.length]! });
      growing.setStage(i % 2 === 0 ? "operate" : "polish");
      expect(listing("polish")).toBe(first.polish);
      expect(listing("operate")).toBe(first.operate);
      expect(listing(undefined)).toBe(first.none);
      expect(JSON.stringify(request.exposed.artifacts("mcp"))).toBe(first.operate);
    }
    // The stage is part of the address: polish finds nothing that makes handles, operate does.
    expect(JSON.parse(first.polish).map((entry: { name: string }) => entry.name)).toEqual([
      "zcp_find_tools",
      "zcp_call_tool",
    ]);
    expect(JSON.parse(first.operate).map((entry: { name: string }) => entry.name)).toEqual([
      "zcp_find_tools",
      "zcp_call_tool",
      "zcp_handle",
    ]);
  });

  it("describe the find → call flow, naming the call tool as each surface does", () => {
    const view = createRuntime(weather, DISCOVER).session({ fixed: true }).exposed;
    const [find, call] = view.artifacts("mcp");
    expect(find!.description).toBe(
      "Find the tools for a task by keywords: returns the best matches with their parameters; call one through zcp_call_tool.",
    );
    expect(call!.description).toBe(
      "Call a tool that zcp_find_tools found: its name, and arguments as its parameters describe them.",
    );
    expect(call!.inputSchema.required).toEqual(["name", "arguments"]);
    expect(view.planner.split("\n")).toEqual([
      'TOOL @zf zcp.find_tools(query:str "Keywords of the task, e.g. \\"forecast weather city\\".", limit:int? "Most tools to return (default 5, at most 20).") -> scalar -- "Find the tools for a task by keywords: returns the best matches with their parameters; call one through zcp.call_tool."',
      'TOOL @zc zcp.call_tool(name:str "The tool\'s name, as the find gave it.", arguments:{*:any} "The tool\'s arguments.") -> scalar -- "Call a tool that zcp.find_tools found: its name, and arguments as its parameters describe them."',
    ]);
    // The fixed form is another definition of the same tool: same id and names.
    expect(fixedFindTool.definition).toMatchObject({
      id: "zf",
      alias: "zcp.find_tools",
      name: "zcp_find_tools",
    });
    expect(fixedFindTool.definition.hash).not.toBe(findTool.definition.hash);
    // OpenAI's strict mode cannot take an open-ended `arguments`: sent non-strict.
    expect(view.artifacts("openai-responses").map((entry) => entry.strict)).toEqual([true, false]);
    expect(view.artifacts("gemini")[1]!.parameters).toEqual({
      type: "OBJECT",
      properties: {
        name: { type: "STRING", description: "The tool's name, as the find gave it." },
        arguments: { type: "OBJECT", description: "The tool's arguments." },
      },
      required: ["name", "arguments"],
    });
  });

  it("find answers the found tools' definitions in the find format and adds nothing", async () => {
    const runtime = createRuntime(weather, DISCOVER);
    const entry = createRuntime(weather)
      .session({ surface: "mcp" })
      .exposed.artifacts("mcp")
      .find((candidate) => candidate.name === "math_subtract");
    const mcp = runtime.session({ surface: "mcp", fixed: true });
    // What a model calls it with: no annotations, output schema, title or _meta (a host's).
    expect(await mcp.call("zcp_find_tools", { query: "subtract" })).toEqual({
      ok: true,
      value: {
        tools: [
          { name: entry!.name, description: entry!.description, inputSchema: entry!.inputSchema },
        ],
      },
    });
    expect(names(mcp.exposed)).toEqual(["zcp_find_tools", "zcp_call_tool"]);
    const native = runtime.session({ fixed: true });
    expect(await native.call("zcp.find_tools", { query: "subtract" })).toEqual({
      ok: true,
      value: { tools: [toolOf(weather, "math.subtract").planner] },
    });
    // A direct call of a found tool is still outside the view.
    expect(await native.call("math.subtract", { a: 3, b: 1 })).toEqual({
      ok: false,
      error: "forbidden:math.subtract",
      hint: "the tool is not available in this session",
    });
  });

  it("call_tool answers exactly what a direct call answers, errors included", async () => {
    const fixed = createRuntime(weather, DISCOVER).session({ surface: "mcp", fixed: true });
    const direct = createRuntime(weather).session({ surface: "mcp" });
    const cases: [string, unknown][] = [
      ["math_subtract", { a: 3, b: 1 }],
      ["math.subtract", { a: 3 }],
      ["math.average", { numbers: "x" }],
      ["weather.get_current", { city: "Shanghai" }],
      ["unit.celsius_to_fahrenheit", [1]],
    ];
    for (const [name, args] of cases)
      expect(await fixed.call("zcp_call_tool", { name, arguments: args })).toEqual(
        await direct.call(name, args),
      );
    expect(
      await fixed.call("zcp_call_tool", { name: "math_subtract", arguments: { a: 3, b: 1 } }),
    ).toEqual({ ok: true, value: 2 });
    // No arguments, or null (OpenAI strict), is no arguments.
    expect(await fixed.call("zcp_call_tool", { name: "math.average", arguments: null })).toEqual(
      await direct.call("math.average", {}),
    );
    expect(await fixed.call("zcp_call_tool", { name: "nope" })).toEqual({
      ok: false,
      error: "unknown:nope",
      hint: "no tool by that name; list the tools to see what exists",
    });
  });

  it("call_tool calls only what the session could find, and no built-in", async () => {
    const runtime = createRuntime(workbench, {
      exposure: { defaults: { "*": { profile: "discover", excludeGroups: ["workflow"] } } },
    });
    const session = runtime.session({ stage: "polish", fixed: true });
    const call = (name: string, args: unknown = {}) =>
      session.call("zcp.call_tool", { name, arguments: args });
    const notHere = (alias: string) => ({
      ok: false,
      error: `forbidden:${alias}`,
      hint: "the tool is not available in this session",
    });
    // Another stage's tool, and a tool the policy excludes, are refused as a direct call would be.
    expect(await call("excel.copy_worksheet")).toEqual(notHere("excel.copy_worksheet"));
    expect(await call("excel_build_kpi_dashboard_sheet")).toEqual(
      notHere("excel.build_kpi_dashboard_sheet"),
    );
    for (const builtin of ["zcp.find_tools", "zcp_handle", "zcp.call_tool", "zr"]) {
      const alias = runtime.tool(builtin)!.alias;
      expect(await call(builtin)).toEqual({
        ok: false,
        error: `forbidden:${alias}`,
        hint: "a built-in tool is called directly, not through zcp.call_tool",
      });
    }
    const findable = session.find("merge cells", { stages: ["polish"] })[0]!.tool;
    expect(findable.alias).toBe("excel.merge_cells");
    expect((await call(findable.name, { path: 1 })).ok).toBe(false);
  });

  it("call_tool checks its own arguments", async () => {
    const session = createRuntime(weather, DISCOVER).session({ fixed: true });
    const call = (args: unknown) => session.call("zcp.call_tool", args);
    expect(await call({ arguments: {} })).toEqual({
      ok: false,
      error: "missing:$.name",
      hint: "expected the name of a tool that zcp.find_tools found",
    });
    expect(await call({ name: 1 })).toEqual({
      ok: false,
      error: "invalid:$.name",
      hint: "expected a tool's name of 1 to 256 characters",
    });
    expect(await call({ name: "" })).toMatchObject({ error: "invalid:$.name" });
    expect(await call({ name: "math.subtract", args: {} })).toEqual({
      ok: false,
      error: "invalid:$.args",
      hint: "unknown property; expected: name, arguments",
    });
    expect(await call([])).toEqual({
      ok: false,
      error: "invalid:$",
      hint: "arguments must be an object of named parameters",
    });
  });

  it("call_tool runs through the pipeline: approval, time limit, concurrency, handles", async () => {
    const options: RuntimeOptions = { ...DISCOVER, maxConcurrentCalls: 1 };
    const load = toolOf(kitchen, "tables.load").id;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = {
      ...kitchen,
      dispatch: {
        ...kitchen.dispatch,
        [load]: async () => (await gate, [{ sku: "a", qty: 1 }]),
      },
    } as GeneratedModule;
    const session = createRuntime(slow, options).session({ fixed: true });
    expect(aliases(session.exposed)).toEqual(["zcp.find_tools", "zcp.call_tool", "zcp.handle"]);
    const first = session.call("zcp.call_tool", { name: "tables.load", arguments: { name: "t" } });
    expect(
      await session.call("zcp.call_tool", { name: "tables.load", arguments: { name: "t" } }),
    ).toMatchObject({ ok: false, error: "busy" });
    release();
    const made = await first;
    expect(made).toMatchObject({ ok: true, handle: "#T1" });
    expect(await session.call("zcp.handle", { op: "count", handle: "#T1" })).toEqual({
      ok: true,
      value: { count: 1 },
    });
    expect(
      await session.call("zcp.call_tool", {
        name: "tables.sum",
        arguments: { rows: "#T1", column: "qty" },
      }),
    ).toEqual({ ok: true, value: 1 });
    expect(
      await session.call("zcp.call_tool", { name: "tables.drop", arguments: { name: "t" } }),
    ).toMatchObject({ ok: false, error: "approval_required" });
    const never = createRuntime(
      { ...kitchen, dispatch: { ...kitchen.dispatch, [load]: () => new Promise(() => {}) } },
      DISCOVER,
    ).session({ fixed: true });
    expect(
      await never.call(
        "zcp.call_tool",
        { name: "tables.load", arguments: { name: "t" } },
        { timeoutMs: 10 },
      ),
    ).toEqual({ ok: false, error: "timeout", hint: "the tool did not finish within 10 ms" });
  });

  it("refuse setStage with a TypeError: the stage is the view's address", () => {
    const session = createRuntime(workbench).session({ stage: "polish", fixed: true });
    const before = session.exposed;
    expect(() => session.setStage("operate")).toThrow(
      new TypeError(
        "a fixed session cannot change its stage: the stage is part of its view's address; start a session with the other stage",
      ),
    );
    expect(() => session.setStage("operate")).toThrow(TypeError);
    session.setStage("polish"); // no move: nothing to refuse
    expect(session.stage).toBe("polish");
    expect(session.exposed).toBe(before);
  });

  it("outside discover list what a growing session lists, and select narrows per request", () => {
    for (const options of [{}, { exposure: { find: true } }] as RuntimeOptions[]) {
      const runtime = createRuntime(workbench, options);
      for (const stage of [undefined, "polish", "operate"]) {
        const fixed = runtime.session({ stage, fixed: true, surface: "mcp" });
        const growing = runtime.session({ stage, surface: "mcp" });
        expect(JSON.stringify(fixed.exposed.artifacts("mcp"))).toBe(
          JSON.stringify(growing.exposed.artifacts("mcp")),
        );
        expect(fixed.exposed.hash).toBe(growing.exposed.hash);
      }
    }
    const session = createRuntime(weather).session({ fixed: true });
    expect(aliases(session.select({ groups: ["math"] }))).toEqual([
      "math.average",
      "math.subtract",
    ]);
    expect(aliases(session.exposed)).toHaveLength(4);
  });

  it("a growing discover session keeps growing and never lists zcp.call_tool", async () => {
    const session = createRuntime(weather, DISCOVER).session();
    expect(aliases(session.exposed)).toEqual(["zcp.find_tools"]);
    expect(await session.call("zcp.find_tools", { query: "subtract" })).toMatchObject({
      value: { added: 1 },
    });
    expect(aliases(session.exposed)).toEqual(["zcp.find_tools", "math.subtract"]);
    expect(
      await session.call("zcp.call_tool", { name: "math.subtract", arguments: { a: 1, b: 1 } }),
    ).toEqual({
      ok: false,
      error: "forbidden:zcp.call_tool",
      hint: "the tool is not available in this session",
    });
  });
});

describe("handle ids", () => {
  const RANDOM = /^#T[1-9][0-9]{29}$/;

  it("random: #, the kind's letter and 30 digits (99.5 bits), all different over 10,000", async () => {
    const store = new HandleStore();
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const made = await store.create("shared", "table", i, "n", "random");
      if (!made.ok) throw new Error(made.error);
      expect(made.id).toMatch(RANDOM);
      seen.add(made.id);
    }
    expect(seen.size).toBe(10_000);
    expect(new RegExp(HANDLE_ID_PATTERN).test([...seen][0]!)).toBe(true);
    const guess = "#T" + "7".repeat(30);
    expect(await store.get("shared", guess)).toEqual({
      ok: false,
      error: `expired:${guess}`,
      hint: `${guess} has expired or does not exist in this session: call the tool that made it again`,
    });
  });

  it("a random-id session's handles work with zcp.handle and with handle parameters", async () => {
    // tables.sum's generated validator as `zcp gen` writes it from HANDLE_ID_PATTERN.
    const pattern = new RegExp(HANDLE_ID_PATTERN);
    const sum = toolOf(kitchen, "tables.sum").id;
    const generated = {
      ...kitchen,
      validators: {
        ...kitchen.validators,
        [sum]: (args: unknown) =>
          pattern.test(String((args as { rows?: unknown }).rows))
            ? { ok: true as const, value: args }
            : { ok: false as const, error: "invalid:$.rows", hint: "not a handle id" },
      },
    } as GeneratedModule;
    const session = createRuntime(generated).session({ handleIds: "random" });
    const made = await session.call("tables.load", { name: "t" });
    if (!made.ok || !("handle" in made)) throw new Error("expected a handle");
    expect(made.handle).toMatch(RANDOM);
    expect(await session.call("zcp.handle", { op: "count", handle: made.handle })).toEqual({
      ok: true,
      value: { count: 3 },
    });
    expect(await session.call("tables.sum", { rows: made.handle, column: "qty" })).toEqual({
      ok: true,
      value: 3,
    });
    // The default stays the short form.
    expect(await createRuntime(kitchen).session().call("tables.load", { name: "t" })).toMatchObject(
      { handle: "#T1" },
    );
    expect(() => createRuntime(kitchen).session({ handleIds: "long" as never })).toThrow(
      new TypeError('unknown handle id form "long" (known: short, random)'),
    );
  });

  it("a random id passes every encoding as a short one does", async () => {
    const store = new HandleStore();
    const made = await store.create("s", "table", [1, 2], "2 rows", "random");
    if (!made.ok) throw new Error(made.error);
    const line = formatCall(null, "tables.sum", { rows: made.id, column: "qty" });
    expect(line).toBe(`CALL tables.sum rows=${made.id} column=qty`);
    expect(parseCalls(line).calls[0]!.args).toEqual({ rows: made.id, column: "qty" });
    const result = {
      ok: true as const,
      handle: made.id,
      summary: "2 rows",
      meta: { kind: "table", size: made.size, ttl: "10m", count: 2 },
    };
    expect(parseReturn(formatReturn("c1", result)).result).toEqual(result);
    expect(JSON.parse(encodeResult(result))).toMatchObject({ handle: made.id });
  });

  it("a given session id: another Session of that id reads its handles; close with keep leaves them", async () => {
    const runtime = createRuntime(kitchen);
    const first = runtime.session({ id: "caller:alice", fixed: true, handleIds: "random" });
    expect(first.id).toBe("caller:alice");
    const made = await first.call("tables.load", { name: "t" });
    if (!made.ok || !("handle" in made)) throw new Error("expected a handle");
    await first.close("request done", { keep: true });
    const second = runtime.session({ id: "caller:alice", fixed: true });
    expect(await second.call("zcp.handle", { op: "count", handle: made.handle })).toEqual({
      ok: true,
      value: { count: 3 },
    });
    // Another caller's session does not see it.
    const other = runtime.session({ id: "caller:bob", fixed: true });
    expect(await other.call("zcp.handle", { op: "count", handle: made.handle })).toMatchObject({
      error: `expired:${made.handle}`,
    });
    // A close without keep ends the id's handles for every Session of it.
    await second.close();
    expect(
      await runtime
        .session({ id: "caller:alice" })
        .call("zcp.handle", { op: "count", handle: made.handle }),
    ).toMatchObject({ error: `expired:${made.handle}` });
    expect(() => runtime.session({ id: "" })).toThrow(
      new TypeError("a session id must be a non-empty string"),
    );
  });
});

describe("retention in zcp.handle's description", () => {
  it("states the handle store's TTL when one is given; the default keeps the description", () => {
    const listed = (options: RuntimeOptions) =>
      createRuntime(workbench, options).session().exposed.tools.at(-1)!;
    expect(listed({})).toBe(handleTool.definition);
    const stated = listed({ handles: { ttlMs: 30 * 60_000 } });
    expect(stated.description).toBe(
      "Read a handle (#T1) that another tool returned: count it, read one item or fields, view rows (of a text: lines or characters), grep a text, get its summary, or release it. Handles last 30m after their last use.",
    );
    expect(stated.planner).toBe(handleTool.definition.planner);
    expect(stated.hash).not.toBe(handleTool.definition.hash);
    const runtime = createRuntime(workbench, { handles: new HandleStore({ ttlMs: 90_000 }) });
    const [mcp] = runtime.session({ surface: "mcp" }).exposed.artifacts("mcp").slice(-1);
    expect(mcp!.description).toMatch(/ Handles last 90s after their last use\.$/);
    const [lean] = runtime.session().exposed.artifacts("anthropic", { lean: true }).slice(-1);
    expect(lean!.description).toMatch(/ Handles last 90s after their last use\.$/);
    expect(runtime.tool("zcp.handle")!.description).toBe(
      runtime.session().exposed.find("zcp.handle")!.description,
    );
    expect(new HandleStore().retention).toBeUndefined();
  });
});

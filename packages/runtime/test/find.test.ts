/**
 * Finding tools: the index (`buildFindIndex`, its tokenizer and ranking) on a small hand-made
 * catalog with expected orders, the index `zcp gen` emitted, `session.find` within the exposure
 * policy, and the discover view that `zcp.find_tools` grows.
 */
import { describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import workbench from "../../../fixtures/workbench/src/zcp.gen/index.js";
import {
  buildFindIndex,
  composeGenerated,
  createRuntime,
  findTool,
  handleTool,
  renderDeclarations,
  type JsonSchema,
  type ToolDefinition,
  type View,
} from "../src/index.js";
import { FindSearch } from "../src/definition/find/search.js";
import { identifierTerms, tokenize } from "../src/definition/find/tokenize.js";

/** A definition for the index: what it reads, on a fixture tool's other fields. */
function tool(
  alias: string,
  description: string,
  extra: { title?: string; groups?: string[]; params?: { [name: string]: string } } = {},
): ToolDefinition {
  const properties = Object.fromEntries(
    Object.entries(extra.params ?? {}).map(([name, text]) => [
      name,
      { type: "string", description: text },
    ]),
  );
  return {
    ...weather.registry.tools[0]!,
    id: alias,
    alias,
    title: extra.title ?? null,
    description,
    groups: extra.groups ?? [],
    inputSchema: { type: "object", properties } as JsonSchema,
  };
}

const catalog = [
  tool("calendar.create_event", "Create an event in a calendar.", {
    params: { start: "When the meeting starts.", attendees: "Who is invited." },
  }),
  tool("mail.send", "Send an email message to recipients.", {
    title: "Send mail",
    params: { to: "Addresses of the recipients.", body: "The message text." },
  }),
  tool("mail.search", "Search the mailbox for messages.", { groups: ["mail"] }),
  tool("files.uploadFile", "Upload a file to storage.", { params: { path: "Local path." } }),
  tool("weather.forecast", "The weather forecast for a city.", { groups: ["weather"] }),
];

const rank = (query: string, limit = 5) =>
  new FindSearch(buildFindIndex(catalog))
    .rank(
      query,
      limit,
      () => true,
      (id) => id,
    )
    .map((hit) => hit.id);

const aliases = (view: View) => view.tools.map((entry) => entry.alias);

describe("the tool index", () => {
  it("tokenizes: lowercase words, stop words dropped, plurals stemmed, identifiers split", () => {
    expect(tokenize("The Messages of the Boxes, for cities and 3 buses")).toEqual([
      "message",
      "box",
      "city",
      "3",
      "bus",
    ]);
    expect(tokenize("the of to")).toEqual([]);
    expect(identifierTerms("files.uploadFile")).toEqual(["file", "upload", "file", "uploadfile"]);
    expect(identifierTerms("max_results")).toEqual(["max", "result"]);
  });

  it("ranks a small catalog in the expected orders", () => {
    expect(rank("send an email")).toEqual(["mail.send"]);
    expect(rank("mail messages")).toEqual(["mail.search", "mail.send"]);
    expect(rank("schedule a meeting with attendees")).toEqual(["calendar.create_event"]);
    expect(rank("upload files")).toEqual(["files.uploadFile"]);
    expect(rank("uploadFile")).toEqual(["files.uploadFile"]);
    expect(rank("forecast city weather")).toEqual(["weather.forecast"]);
    expect(rank("create send search upload forecast", 2)).toHaveLength(2);
    expect(rank("")).toEqual([]);
    expect(rank("the of and")).toEqual([]);
    expect(rank("nothing matches zzz")).toEqual([]);
  });

  it("breaks ties by alias order", () => {
    const twins = [tool("y.same", "Same words."), tool("x.same", "Same words.")];
    const hits = new FindSearch(buildFindIndex(twins)).rank(
      "same words",
      5,
      () => true,
      (id) => id,
    );
    expect(hits.map((hit) => hit.id)).toEqual(["x.same", "y.same"]);
    expect(hits[0]!.score).toBe(hits[1]!.score);
  });

  it("is deterministic plain data, sorted, rounded, and equal to the one zcp gen emitted", () => {
    const index = buildFindIndex(catalog);
    expect(JSON.stringify(buildFindIndex([...catalog]))).toBe(JSON.stringify(index));
    expect(Object.keys(index.terms)).toEqual(Object.keys(index.terms).sort());
    expect(index.docs).toEqual(catalog.map((entry) => entry.id));
    for (const postings of Object.values(index.terms)) {
      for (const value of postings) expect(Math.round(value * 1000) / 1000).toBe(value);
      const docs = postings.filter((_, i) => i % 2 === 0);
      expect(docs).toEqual([...docs].sort((a, b) => a - b));
    }
    expect(JSON.stringify(buildFindIndex(weather.registry.tools))).toBe(
      JSON.stringify(weather.find),
    );
    expect(JSON.stringify(buildFindIndex(workbench.registry.tools))).toBe(
      JSON.stringify(workbench.find),
    );
  });

  it("is rebuilt from the registry when it does not index the registry's tools", () => {
    for (const find of [
      buildFindIndex(workbench.registry.tools),
      { ...weather.find!, version: 2 },
    ]) {
      const session = createRuntime({ ...weather, find }).session();
      expect(session.find("average")[0]!.tool.alias).toBe("math.average");
    }
  });
});

describe("session.find", () => {
  it("ranks the session's exposable tools; without a generated index it builds one", () => {
    const { find: _find, ...bare } = weather;
    for (const generated of [weather, bare]) {
      const session = createRuntime(generated).session();
      const found = session.find("convert temperature to fahrenheit");
      expect(found.map((hit) => hit.tool.alias)).toEqual([
        "unit.celsius_to_fahrenheit",
        "weather.get_current",
      ]);
      expect(found[0]!.score).toBeGreaterThan(found[1]!.score);
      expect(session.find("temperature", { limit: 1 })).toHaveLength(1);
    }
  });

  it("finds nothing for an empty, stop-word or unknown query, and refuses a bad limit", () => {
    const session = createRuntime(weather).session();
    expect(session.find("")).toEqual([]);
    expect(session.find("the of to")).toEqual([]);
    expect(session.find("spreadsheet")).toEqual([]);
    for (const limit of [0, 21, 1.5])
      expect(() => session.find("average", { limit })).toThrow(RangeError);
    expect(() => session.find("average", { limit: 0 })).toThrow(
      "find: limit must be an integer from 1 to 20, got 0",
    );
  });

  it("filters by groups and stages", () => {
    const session = createRuntime(weather).session();
    expect(
      session.find("temperature", { groups: ["weather"] }).map((hit) => hit.tool.alias),
    ).toEqual(["weather.get_current"]);
    expect(
      session.find("merge cells", { stages: ["operate"] }).map((hit) => hit.tool.alias),
    ).toEqual([]);
    const bench = createRuntime(workbench).session();
    const polish = bench.find("merge cells", { stages: ["polish"], limit: 20 });
    expect(polish[0]!.tool.alias).toBe("excel.merge_cells");
    expect(
      polish.every((hit) => hit.tool.stages.length === 0 || hit.tool.stages.includes("polish")),
    ).toBe(true);
  });

  it("never finds or exposes a tool the exposure policy excludes, even by its exact alias", async () => {
    const runtime = createRuntime(weather, {
      exposure: { defaults: { "*": { excludeGroups: ["weather"] } } },
    });
    const session = runtime.session();
    expect(session.find("weather.get_current").map((hit) => hit.tool.alias)).not.toContain(
      "weather.get_current",
    );
    expect(session.find("get current weather city")).toEqual([]);
    const discovering = createRuntime(weather, {
      exposure: { defaults: { "*": { profile: "discover", excludeGroups: ["weather"] } } },
    }).session();
    const excluded = weather.registry.tools.find((entry) => entry.alias === "weather.get_current")!;
    expect(discovering.expose([excluded])).toBe(0);
    expect(aliases(discovering.exposed)).toEqual(["zcp.find_tools"]);
    expect(await discovering.call("weather.get_current", { city: "Shanghai" })).toMatchObject({
      error: "forbidden:weather.get_current",
    });
  });

  it("finds the tools of composed modules under their prefixed aliases", () => {
    const composed = composeGenerated([{ module: weather, prefix: "wx" }, workbench]);
    expect(composed.find).toEqual(buildFindIndex(composed.registry.tools));
    const session = createRuntime(composed).session();
    expect(session.find("celsius fahrenheit")[0]!.tool.alias).toBe("wx.unit.celsius_to_fahrenheit");
    expect(session.find("merge cells")[0]!.tool.alias).toBe("excel.merge_cells");
  });
});

describe("the discover view", () => {
  const discover = { exposure: { defaults: { "*": { profile: "discover" } } } };

  it("starts with the find tool only, and grows in the order found, once each", async () => {
    const session = createRuntime(weather, discover).session({ surface: "mcp" });
    expect(aliases(session.exposed)).toEqual(["zcp.find_tools"]);
    const hashes = [session.exposed.hash];
    let changes = 0;
    session.onChange(() => changes++);

    const first = await session.call("zcp.find_tools", { query: "average numbers", limit: 1 });
    expect(first).toMatchObject({ ok: true, value: { added: 1 } });
    expect(aliases(session.exposed)).toEqual(["zcp.find_tools", "math.average"]);
    expect(changes).toBe(1);
    hashes.push(session.exposed.hash);

    const again = await session.call("zcp_find_tools", { query: "average", limit: null });
    expect(again).toMatchObject({ ok: true, value: { added: 0 } });
    expect(changes).toBe(1);
    expect(session.exposed.hash).toBe(hashes[1]);

    const next = await session.call("zcp.find_tools", { query: "temperature", limit: 5 });
    expect(next).toMatchObject({ ok: true, value: { added: 2 } });
    expect(aliases(session.exposed)).toEqual([
      "zcp.find_tools",
      "math.average",
      "unit.celsius_to_fahrenheit",
      "weather.get_current",
    ]);
    expect(changes).toBe(2);
    hashes.push(session.exposed.hash);
    expect(new Set(hashes).size).toBe(3);
  });

  it("answers MCP definitions on MCP and planner lines on native", async () => {
    const runtime = createRuntime(weather, discover);
    const mcp = await runtime
      .session({ surface: "mcp" })
      .call("zcp.find_tools", { query: "subtract" });
    const entry = createRuntime(weather)
      .session({ surface: "mcp" })
      .exposed.artifacts("mcp")
      .find((candidate) => candidate.name === "math_subtract");
    expect(mcp).toEqual({ ok: true, value: { tools: [entry], added: 1 } });

    const native = await runtime.session().call("zcp.find_tools", { query: "subtract" });
    const subtract = weather.registry.tools.find((entry) => entry.alias === "math.subtract")!;
    expect(native).toEqual({ ok: true, value: { tools: [subtract.planner], added: 1 } });
  });

  it("lists what it found in the session's findFormat: planner lines or a provider's entries", async () => {
    const runtime = createRuntime(weather, discover);
    expect(runtime.session().findFormat).toBe("planner");
    expect(runtime.session({ surface: "mcp" }).findFormat).toBe("mcp");
    const session = runtime.session({ findFormat: "anthropic" });
    expect(session.findFormat).toBe("anthropic");
    const anthropic = await session.call("zcp.find_tools", { query: "subtract" });
    const entry = createRuntime(weather)
      .session()
      .exposed.artifacts("anthropic")
      .find((candidate) => candidate.name === "math_subtract");
    expect(entry).toBeDefined();
    expect(anthropic).toEqual({ ok: true, value: { tools: [entry], added: 1 } });

    session.setFindFormat("planner");
    const subtract = weather.registry.tools.find((tool) => tool.alias === "math.subtract")!;
    expect(await session.call("zcp.find_tools", { query: "subtract" })).toEqual({
      ok: true,
      value: { tools: [subtract.planner], added: 0 },
    });
    const mcp = runtime.session({ surface: "mcp", findFormat: "openai-chat" });
    const chat = await mcp.call("zcp.find_tools", { query: "subtract" });
    expect(chat).toEqual({
      ok: true,
      value: { tools: mcp.exposed.artifacts("openai-chat").slice(1), added: 1 },
    });
  });

  it("with findFormat typescript, answers one string: the API text of what it found", async () => {
    const session = createRuntime(workbench, discover).session({ findFormat: "typescript" });
    expect(session.findFormat).toBe("typescript");
    const merge = workbench.registry.tools.find((tool) => tool.alias === "excel.merge_cells")!;
    const text = renderDeclarations([merge]);
    expect(text).toContain("merge_cells(args: {");
    expect(text).not.toContain("zcp");
    expect(await session.call("zcp.find_tools", { query: "merge cells", limit: 1 })).toEqual({
      ok: true,
      value: { tools: [text], added: 1 },
    });
    // Again: nothing added, the same text.
    expect(await session.call("zcp.find_tools", { query: "merge cells", limit: 1 })).toEqual({
      ok: true,
      value: { tools: [text], added: 0 },
    });

    // The built-in the view gained with them is declared with them: `zcp.handle`, after the tool.
    const read = workbench.registry.tools.find(
      (tool) => tool.alias === "excel.read_data_from_excel",
    )!;
    const withHandle = await session.call("zcp.find_tools", {
      query: "read data from excel",
      limit: 1,
    });
    const both = renderDeclarations([read, handleTool.definition]);
    expect(both).toContain("handle(args: {");
    expect(withHandle).toEqual({ ok: true, value: { tools: [both], added: 1 } });

    // Nothing found: no text at all, as in the other formats.
    session.setFindFormat("typescript");
    expect(await session.call("zcp.find_tools", { query: "the of and" })).toEqual({
      ok: true,
      value: { tools: [], added: 0 },
    });
  });

  it("refuses an unknown findFormat with a TypeError naming the known ones", () => {
    const session = createRuntime(weather).session();
    const known =
      "known: planner, typescript, openai-responses, openai-chat, anthropic, gemini, mcp";
    expect(() => session.setFindFormat("compact" as never)).toThrow(
      new TypeError(`unknown find format "compact" (${known})`),
    );
    expect(() => session.setFindFormat("compact" as never)).toThrow(TypeError);
    expect(session.findFormat).toBe("planner");
    expect(() => createRuntime(weather).session({ findFormat: "json" as never })).toThrow(
      `unknown find format "json" (${known})`,
    );
  });

  it("makes a found tool callable; one not found yet is refused as outside the view", async () => {
    const session = createRuntime(weather, discover).session();
    expect(await session.call("math.subtract", { a: 3, b: 1 })).toEqual({
      ok: false,
      error: "forbidden:math.subtract",
      hint: "the tool is not available in this session",
    });
    await session.call("zcp.find_tools", { query: "subtract" });
    expect(await session.call("math.subtract", { a: 3, b: 1 })).toEqual({ ok: true, value: 2 });
    expect(await session.call("math.average", { numbers: [1] })).toMatchObject({
      error: "forbidden:math.average",
    });
  });

  it("a session that finds nothing keeps its view and tells no one", async () => {
    const session = createRuntime(weather, discover).session();
    let changes = 0;
    session.onChange(() => changes++);
    expect(await session.call("zcp.find_tools", { query: "spreadsheet cells" })).toEqual({
      ok: true,
      value: { tools: [], added: 0 },
    });
    expect(aliases(session.exposed)).toEqual(["zcp.find_tools"]);
    expect(changes).toBe(0);
  });

  it("checks the find tool's arguments", async () => {
    const session = createRuntime(weather, discover).session();
    expect(await session.call("zcp.find_tools", {})).toMatchObject({ error: "missing:$.query" });
    expect(await session.call("zcp.find_tools", { query: "" })).toMatchObject({
      error: "invalid:$.query",
    });
    expect(await session.call("zcp.find_tools", { query: "x".repeat(201) })).toMatchObject({
      error: "invalid:$.query",
    });
    expect(await session.call("zcp.find_tools", { query: "a", limit: 21 })).toMatchObject({
      error: "invalid:$.limit",
    });
    expect(await session.call("zcp.find_tools", { query: "a", extra: 1 })).toMatchObject({
      error: "invalid:$.extra",
    });
  });

  it("finds in the current stage and keeps the found tools the next stage allows", async () => {
    const session = createRuntime(workbench, discover).session({ stage: "polish" });
    await session.call("zcp.find_tools", { query: "merge cells", limit: 1 });
    expect(aliases(session.exposed)).toEqual(["zcp.find_tools", "excel.merge_cells"]);
    session.setStage("operate");
    expect(aliases(session.exposed)).toEqual(["zcp.find_tools"]);
    await session.call("zcp.find_tools", { query: "insert rows", limit: 1 });
    expect(aliases(session.exposed)).toEqual(["zcp.find_tools", "excel.insert_rows"]);
    session.setStage(null);
    expect(aliases(session.exposed)).toEqual([
      "zcp.find_tools",
      "excel.merge_cells",
      "excel.insert_rows",
    ]);
  });

  it("lists the handle tool once a found tool needs it, and answers its line with that search only", async () => {
    const session = createRuntime(workbench, discover).session();
    const first = await session.call("zcp.find_tools", { query: "read data from excel", limit: 1 });
    expect(aliases(session.exposed)).toEqual([
      "zcp.find_tools",
      "excel.read_data_from_excel",
      "zcp.handle",
    ]);
    const read = workbench.registry.tools.find(
      (tool) => tool.alias === "excel.read_data_from_excel",
    )!;
    expect(first).toEqual({
      ok: true,
      value: { tools: [read.planner, handleTool.definition.planner], added: 1 },
    });
    const again = await session.call("zcp.find_tools", { query: "read data from excel", limit: 1 });
    expect(again).toEqual({ ok: true, value: { tools: [read.planner], added: 0 } });
  });

  it("with find: true, every view lists the find tool last, and it adds nothing", async () => {
    const session = createRuntime(weather, { exposure: { find: true } }).session();
    expect(aliases(session.exposed).at(-1)).toBe("zcp.find_tools");
    expect(session.exposed.tools).toContain(findTool.definition);
    expect(await session.call("zcp.find_tools", { query: "average" })).toMatchObject({
      ok: true,
      value: { added: 0 },
    });
    expect(aliases(createRuntime(weather).session().exposed)).not.toContain("zcp.find_tools");
  });
});

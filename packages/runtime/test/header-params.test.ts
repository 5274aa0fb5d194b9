/**
 * Tools whose parameters travel in HTTP headers (`x-mcp-header`, MCP 2026-07-28): how their
 * declarations are read, and that a session calls such a tool only directly: `zcp.call_tool` and
 * `zcp.run` programs refuse it, and a fixed discover view lists it (byte-stable). On the weather
 * module with `weather.get_current`'s `city` declared as the header `Mcp-Param-City`, as a
 * gateway's definition of an upstream tool that declares it would be.
 */
import { describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import {
  createRuntime,
  declaresHeaders,
  headerDeclarations,
  type CallResult,
  type CodeRunner,
  type GeneratedModule,
  type JsonSchema,
  type ProgramHost,
  type RuntimeOptions,
  type View,
} from "../src/index.js";

/** `base` with the parameter `param` of the tool `alias` declared as the header `header`. */
function withHeader(
  base: GeneratedModule,
  alias: string,
  param: string,
  header: string,
): GeneratedModule {
  const tools = base.registry.tools.map((tool) => {
    if (tool.alias !== alias) return tool;
    const properties = tool.inputSchema["properties"] as { readonly [name: string]: JsonSchema };
    const marked = { ...properties[param]!, "x-mcp-header": header };
    return {
      ...tool,
      inputSchema: { ...tool.inputSchema, properties: { ...properties, [param]: marked } },
    };
  });
  return { ...base, registry: { ...base.registry, tools } };
}

const routed = withHeader(weather, "weather.get_current", "city", "City");
const DISCOVER = { exposure: { defaults: { "*": { profile: "discover" } } } } as const;
const names = (view: View) => view.artifacts("mcp").map((entry) => entry.name);
const REFUSED = {
  ok: false,
  error: "forbidden:weather.get_current",
  hint: "its parameters travel in HTTP headers (x-mcp-header), which only a direct call of it carries: call it directly",
};

/** A code runner that runs `body` against its host (no sandbox), remembering the hosts. */
function runner(body: (host: ProgramHost) => Promise<CallResult>) {
  const seen: ProgramHost[] = [];
  const run: CodeRunner = async (_code, host) => {
    seen.push(host);
    return body(host);
  };
  return { run, seen };
}

describe("headerDeclarations", () => {
  it("reads each x-mcp-header reached through properties whose value is an HTTP token", () => {
    const schema = {
      type: "object",
      "x-mcp-header": "Root",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        bad: { type: "string", "x-mcp-header": "Not a token" },
        number: { type: "integer", "x-mcp-header": 7 },
        target: {
          type: "object",
          properties: { zone: { type: "string", "x-mcp-header": "Zone" } },
        },
        list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } },
        either: { oneOf: [{ type: "string", "x-mcp-header": "Either" }] },
      },
    };
    expect(headerDeclarations(schema)).toEqual([
      { header: "Mcp-Param-Region", path: ["region"] },
      { header: "Mcp-Param-Zone", path: ["target", "zone"] },
    ]);
    // Walked once per schema object.
    expect(headerDeclarations(schema)).toBe(headerDeclarations(schema));
    expect(headerDeclarations(null)).toEqual([]);
    expect(headerDeclarations({ type: "object", "x-mcp-header": "Root" })).toEqual([]);
  });

  it("tells the tools that declare one from the others", () => {
    const current = routed.registry.tools.find((tool) => tool.alias === "weather.get_current")!;
    expect(declaresHeaders(current)).toBe(true);
    expect(routed.registry.tools.filter(declaresHeaders)).toEqual([current]);
    expect(weather.registry.tools.filter(declaresHeaders)).toEqual([]);
  });
});

describe("a tool that declares x-mcp-header, on a fixed discover view", () => {
  const session = (options: RuntimeOptions = {}) =>
    createRuntime(routed, { ...DISCOVER, ...options }).session({ surface: "mcp", fixed: true });

  it("is listed directly after the built-ins, and the listing stays byte-stable", async () => {
    const runtime = createRuntime(routed, DISCOVER);
    const first = runtime.session({ surface: "mcp", fixed: true });
    expect(names(first.exposed)).toEqual([
      "zcp_find_tools",
      "zcp_call_tool",
      "weather_get_current",
    ]);
    const entry = first.exposed.artifacts("mcp")[2]!;
    expect(entry.inputSchema.properties).toMatchObject({
      city: { "x-mcp-header": "City" },
    });
    const bytes = JSON.stringify(first.exposed.artifacts("mcp"));
    const hash = first.exposed.hash;
    for (let i = 0; i < 20; i++) {
      const request = runtime.session({ surface: "mcp", fixed: true });
      await request.call("zcp_find_tools", { query: i % 2 ? "weather city" : "subtract numbers" });
      await request.call("zcp_call_tool", { name: "math_subtract", arguments: { a: i, b: 1 } });
      await request.call("weather_get_current", { city: "Shanghai" });
      expect(JSON.stringify(request.exposed.artifacts("mcp"))).toBe(bytes);
      expect(request.exposed.hash).toBe(hash);
    }
    // With a code runner, zcp.run is among the built-ins the tool comes after.
    const code = session({ code: async () => ({ ok: true, value: null }) });
    expect(names(code.exposed)).toEqual([
      "zcp_find_tools",
      "zcp_call_tool",
      "zcp_run",
      "weather_get_current",
    ]);
  });

  it("is found by zcp.find_tools with its declaration", async () => {
    const result = await session().call("zcp_find_tools", { query: "current weather city" });
    expect(result.ok).toBe(true);
    const tools = (
      result as unknown as { value: { tools: { name: string; inputSchema: JsonSchema }[] } }
    ).value.tools;
    const found = tools.find((tool) => tool.name === "weather_get_current");
    expect(found?.inputSchema["properties"]).toMatchObject({ city: { "x-mcp-header": "City" } });
  });

  it("is refused by zcp.call_tool by any of its names, and runs when called directly", async () => {
    const fixed = session();
    for (const name of ["weather_get_current", "weather.get_current", routedId()])
      expect(await fixed.call("zcp_call_tool", { name, arguments: { city: "Shanghai" } })).toEqual(
        REFUSED,
      );
    const direct = await fixed.call("weather_get_current", { city: "Shanghai" });
    expect(direct.ok).toBe(true);
    // Other found tools still go through zcp.call_tool.
    expect(
      await fixed.call("zcp_call_tool", { name: "math_subtract", arguments: { a: 3, b: 1 } }),
    ).toEqual({ ok: true, value: 2 });
  });
});

describe("a tool that declares x-mcp-header, in a zcp.run program", () => {
  it("stays bound and answers forbidden, directly or through zcp.call_tool; other tools run", async () => {
    const answers: CallResult[] = [];
    const program = runner(async (host) => {
      answers.push(await host.call("weather.get_current", { city: "Shanghai" }));
      answers.push(
        await host.call("zcp.call_tool", {
          name: "weather.get_current",
          arguments: { city: "Shanghai" },
        }),
      );
      answers.push(await host.call("math.subtract", { a: 3, b: 1 }));
      return { ok: true, value: null };
    });
    // A growing session lists every tool; a fixed discover one lists the tool and zcp.call_tool.
    const growing = createRuntime(routed, { code: program.run }).session();
    const fixed = createRuntime(routed, { ...DISCOVER, code: program.run }).session({
      surface: "mcp",
      fixed: true,
    });
    expect(await growing.call("zcp.run", { code: "…" })).toEqual({ ok: true, value: null });
    expect(program.seen[0]!.aliases).toContain("weather.get_current");
    expect(answers.splice(0)).toEqual([
      REFUSED,
      {
        ok: false,
        error: "forbidden:zcp.call_tool",
        hint: "the tool is not available in this session",
      },
      { ok: true, value: 2 },
    ]);
    expect(await fixed.call("zcp.run", { code: "…" })).toEqual({ ok: true, value: null });
    expect(program.seen[1]!.aliases).toContain("weather.get_current");
    expect(answers).toEqual([
      REFUSED,
      REFUSED,
      {
        ok: false,
        error: "forbidden:math.subtract",
        hint: "the tool is not available in this session",
      },
    ]);
    // The session itself still calls it directly.
    expect((await growing.call("weather.get_current", { city: "Beijing" })).ok).toBe(true);
  });
});

function routedId(): string {
  return routed.registry.tools.find((tool) => tool.alias === "weather.get_current")!.id;
}

/**
 * The discover profile on both surfaces: the SDK's MCP client over an in-memory transport sees
 * a listing of the find tool alone, calls `zcp_find_tools`, gets `notifications/tools/list_changed`
 * and a listing that grew; a native session's `tools/list` grows the same way.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createRuntime, renderDeclarations } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { createMcpServer, createNativeSession, type RpcResponse } from "../src/index.js";

const discover = () =>
  createRuntime(weather, { exposure: { defaults: { "*": { profile: "discover" } } } });

describe("the discover profile", () => {
  it("on MCP: the listing grows by zcp_find_tools, with list_changed once per growth", async () => {
    const served = createMcpServer(discover());
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await served.server.connect(serverSide);
    const client = new Client({ name: "zcp-test", version: "0" });
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    await client.connect(clientSide);

    const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names()).toEqual(["zcp_find_tools"]);
    const refused = await client.callTool({ name: "math_subtract", arguments: { a: 3, b: 1 } });
    expect(refused.isError).toBe(true);

    const found = await client.callTool({
      name: "zcp_find_tools",
      arguments: { query: "subtract" },
    });
    expect(found.isError).toBeUndefined();
    expect(found.structuredContent).toMatchObject({
      added: 1,
      tools: [{ name: "math_subtract", inputSchema: { type: "object" } }],
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(changes).toBe(1);
    expect(await names()).toEqual(["zcp_find_tools", "math_subtract"]);
    expect(await client.callTool({ name: "math_subtract", arguments: { a: 3, b: 1 } })).toEqual({
      content: [{ type: "text", text: "2" }],
    });

    await client.callTool({ name: "zcp_find_tools", arguments: { query: "subtract" } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(changes).toBe(1);
    await client.close();
    await served.close();
  });

  it("on native: tools/list shows the grown view, and zcp.find_tools answers planner lines", async () => {
    const native = createNativeSession(discover());
    const list = async () => {
      const response = (await native.handle({ jsonrpc: "2.0", id: 1, method: "tools/list" })) as {
        result: { tools: string };
      };
      return response.result.tools;
    };
    expect(await list()).toBe(native.session.exposed.planner);
    expect((await list()).split("\n")).toHaveLength(1);
    const response = (await native.handle({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "zcp.find_tools", arguments: { query: "average" } },
    })) as RpcResponse;
    const average = weather.registry.tools.find((tool) => tool.alias === "math.average")!;
    expect(JSON.stringify(response)).toContain(JSON.stringify(average.planner).slice(1, -1));
    expect((await list()).split("\n")).toEqual([
      native.session.exposed.tools[0]!.planner,
      average.planner,
    ]);
    await native.close();
  });

  it("on native: findFormat openai-chat answers the entries tools/list lists for openai-chat", async () => {
    const native = createNativeSession(discover());
    const rpc = async (method: string, params: object) =>
      ((await native.handle({ jsonrpc: "2.0", id: 1, method, params })) as { result: unknown })
        .result;
    const init = (await rpc("initialize", { findFormat: "openai-chat" })) as {
      capabilities: { tools: { findFormats: string[] } };
    };
    expect(init.capabilities.tools.findFormats).toEqual([
      "compact",
      "typescript",
      "openai",
      "openai-chat",
      "anthropic",
      "gemini",
    ]);
    expect(native.session.findFormat).toBe("openai-chat");
    const found = (await rpc("tools/call", {
      name: "zcp.find_tools",
      arguments: { query: "temperature" },
    })) as { ok: true; value: { tools: unknown[]; added: number } };
    expect(found.ok).toBe(true);
    expect(found.value.added).toBe(2);
    for (const entry of found.value.tools)
      expect(entry).toMatchObject({
        type: "function",
        function: {
          name: expect.any(String),
          description: expect.any(String),
          parameters: { type: "object" },
          strict: true,
        },
      });
    const listed = (await rpc("tools/list", { format: "openai-chat" })) as { tools: unknown[] };
    // After zcp_find_tools, first: the found tools, in the order found.
    expect(listed.tools.slice(1)).toEqual(found.value.tools);
    await native.close();
  });

  it("on native: findFormat typescript answers the found tools' API text, one string", async () => {
    const native = createNativeSession(discover());
    const rpc = async (method: string, params: object) =>
      ((await native.handle({ jsonrpc: "2.0", id: 1, method, params })) as { result: unknown })
        .result;
    const init = (await rpc("initialize", { findFormat: "typescript" })) as {
      capabilities: { tools: { findFormats: string[] } };
    };
    expect(init.capabilities.tools.findFormats).toContain("typescript");
    expect(native.session.findFormat).toBe("typescript");
    const found = (await rpc("tools/call", {
      name: "zcp.find_tools",
      arguments: { query: "subtract" },
    })) as { ok: true; value: { tools: unknown[]; added: number } };
    const subtract = weather.registry.tools.find((tool) => tool.alias === "math.subtract")!;
    expect(found).toEqual({
      ok: true,
      value: { tools: [renderDeclarations([subtract])], added: 1 },
    });
    expect(found.value.tools[0]).toContain("subtract(args: {");
    // The view's own API text (tools/list typescript) declares the find tool too; the answer does not.
    const listed = (await rpc("tools/list", { format: "typescript" })) as { tools: string };
    expect(listed.tools).toBe(native.session.exposed.declarations());
    expect(listed.tools).toContain("find_tools(args: {");
    expect(found.value.tools[0]).not.toContain("find_tools");
    await native.close();
  });

  it("on native: findFormat compact answers planner lines; a bad one is -32602", async () => {
    const native = createNativeSession(discover());
    const initialize = (params: object) =>
      native.handle({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params,
      }) as Promise<RpcResponse>;
    expect(await initialize({ findFormat: "json" })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32602,
        message:
          'Invalid params: unknown findFormat "json" (known: compact, typescript, openai, openai-chat, anthropic, gemini)',
      },
    });
    expect(await initialize({ findFormat: "planner" })).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('unknown findFormat "planner"') },
    });
    expect(native.session.findFormat).toBe("planner");
    native.session.setFindFormat("gemini");
    expect(await initialize({ findFormat: "compact" })).toHaveProperty("result");
    expect(native.session.findFormat).toBe("planner");
    await native.close();
  });

  it("on MCP: findFormat stays mcp, and on native openai maps to openai-responses", async () => {
    const mcp = createMcpServer(discover());
    expect(mcp.session.findFormat).toBe("mcp");
    await mcp.close();
    const native = createNativeSession(discover());
    await native.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { findFormat: "openai" },
    });
    expect(native.session.findFormat).toBe("openai-responses");
    await native.close();
  });
});

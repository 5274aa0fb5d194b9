/**
 * The discover profile on both surfaces: the SDK's MCP client over an in-memory transport sees
 * a listing of the find tool alone, calls `zcp_find_tools`, gets `notifications/tools/list_changed`
 * and a listing that grew; a native session's `tools/list` grows the same way.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createRuntime } from "@zcp/runtime";
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
});

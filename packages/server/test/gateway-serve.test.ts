/**
 * `zcp-serve` serving a gateway registry as it serves any other: the real bin, spawned with its
 * default isolation, loads a compiled gateway module whose dispatch is `upstream(...)` of the
 * memory server; gateway tools run on the server's thread (one upstream connection), which the
 * log says. And the routing executor that does it when gateway and local tools are composed.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolContext, ToolDefinition } from "@zcp/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { gatewayExecutor, isGatewayTool } from "../src/gateway/serve.js";
import { npmServer, writeGatewayModule } from "./gateway-module.js";

const BIN = fileURLToPath(new URL("../dist/bin/zcp-serve.js", import.meta.url));
const tmp = mkdtempSync(path.join(os.tmpdir(), "zcp-gateway-serve-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// The variable the generated module's `${ZCP_TEST_MEMORY_FILE}` names (zcp-serve inherits it).
process.env["ZCP_TEST_MEMORY_FILE"] = path.join(tmp, "m.jsonl");

describe("zcp-serve and a gateway registry", () => {
  it("serves it over stdio, its tools in process with one upstream connection", async () => {
    // `${NAME}` is expanded at run time, from zcp-serve's environment.
    const file = path.join(tmp, "index.js");
    await writeGatewayModule(
      { ...npmServer("memory"), env: { MEMORY_FILE_PATH: "${ZCP_TEST_MEMORY_FILE}" } },
      { name: "memory" },
      file,
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "--registry", file],
      env: process.env as Record<string, string>,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "zcp-test", version: "0" });
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("memory_read_graph");
    const created = (await client.callTool({
      name: "memory_create_entities",
      arguments: { entities: [{ name: "Lin", entityType: "person", observations: [] }] },
    })) as CallToolResult;
    expect(created.isError).toBeUndefined();
    const graph = (await client.callTool({
      name: "memory_read_graph",
      arguments: {},
    })) as CallToolResult;
    expect(graph.structuredContent).toMatchObject({ entities: [{ name: "Lin" }] });
    await client.close();
    expect(stderr).toMatch(
      /tools run on the server's thread; \d+ gateway tools call their upstream MCP server/,
    );
    expect(stderr).not.toMatch(/worker threads/);
    expect(readFileSync(path.join(tmp, "m.jsonl"), "utf8")).toMatch(/"Lin"/);
  });
});

describe("gatewayExecutor", () => {
  const tool = (file: string) =>
    ({
      id: file === "mcp:x" ? "g" : "l",
      source: { file, export: "t" },
    }) as unknown as ToolDefinition;

  it("calls gateway tools here and hands the others to the workers", async () => {
    const calls: string[] = [];
    const executor = gatewayExecutor(
      {
        registry: { tools: [] },
        validators: {},
        dispatch: { g: () => (calls.push("here"), 1) },
      } as never,
      { execute: async () => (calls.push("worker"), 2) },
    );
    const context = {} as ToolContext;
    expect(await executor.execute(tool("mcp:x"), {}, context)).toBe(1);
    expect(await executor.execute(tool("src/tools.ts"), {}, context)).toBe(2);
    expect(calls).toEqual(["here", "worker"]);
    expect(isGatewayTool(tool("mcp:x"))).toBe(true);
    expect(isGatewayTool(tool("src/mcp.ts"))).toBe(false);
  });
});

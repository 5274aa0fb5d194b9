/**
 * The gateway's dispatch against real upstreams (the memory, filesystem and everything servers
 * of the workspace's devDependencies, over stdio): results as values on both surfaces,
 * structuredContent against text, upstream errors, a large result becoming a handle,
 * cancellation, and the upstream killed mid-run, answered `upstream_unavailable` and restarted.
 * And a hostile upstream (test/hostile-upstream.ts) in process: `maxAnswerBytes`, and an error
 * answer that looks like the SDK's own "connection closed".
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createRuntime, type Runtime } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idOfLine } from "../src/gateway/answers.js";
import { BACKOFF_START_MS, expandServer, upstream } from "../src/gateway/index.js";
import { createMcpServer, createNativeSession, type RpcResponse } from "../src/index.js";
import { CALL_CONTEXT, gatewayModule, npmServer, type GatewayModule } from "./gateway-module.js";

const tmp = mkdtempSync(path.join(os.tmpdir(), "zcp-gateway-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** An SDK client connected to the runtime's MCP surface. */
async function mcpClient(runtime: Runtime) {
  const served = createMcpServer(runtime);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await served.server.connect(serverSide);
  const client = new Client({ name: "zcp-test", version: "0" });
  await client.connect(clientSide);
  return {
    client,
    call: async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await served.close();
    },
  };
}

/** A native session's `tools/call`. */
async function nativeCall(runtime: Runtime, name: string, args: Record<string, unknown>) {
  const native = createNativeSession(runtime);
  const response = (await native.handle({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, arguments: args },
  })) as RpcResponse & { result: unknown };
  await native.close();
  return response.result;
}

describe("the gateway over the memory server", () => {
  let memory: GatewayModule;
  beforeAll(async () => {
    // The memory server keeps its graph in MEMORY_FILE_PATH.
    memory = await gatewayModule(
      {
        ...npmServer("memory"),
        env: { MEMORY_FILE_PATH: path.join(tmp, "memory.jsonl") },
      },
      "memory",
    );
  });
  afterAll(() => memory.upstream.close());

  it("forwards calls on both surfaces; structuredContent becomes the value", async () => {
    const runtime = createRuntime(memory.module);
    const mcp = await mcpClient(runtime);
    const names = (await mcp.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("memory_create_entities");
    const created = await mcp.call("memory_create_entities", {
      entities: [{ name: "Ada", entityType: "person", observations: ["wrote programs"] }],
    });
    expect(created.isError).toBeUndefined();
    expect(created.structuredContent).toEqual({
      entities: [{ name: "Ada", entityType: "person", observations: ["wrote programs"] }],
    });
    expect(memory.upstream.pid).toBeGreaterThan(0);
    const found = await nativeCall(runtime, "memory.search_nodes", { query: "Ada" });
    expect(found).toMatchObject({
      ok: true,
      value: { entities: [{ name: "Ada", entityType: "person" }] },
    });
    await mcp.close();
  });

  it("an upstream error answer (isError) becomes the tool error upstream_error", async () => {
    const session = createRuntime(memory.module).session();
    const result = await session.call("memory.add_observations", {
      observations: [{ entityName: "Nobody", contents: ["x"] }],
    });
    expect(result).toMatchObject({ ok: false, error: "upstream_error" });
    expect((result as { hint: string }).hint).toMatch(/Nobody/);
  });

  it("the upstream killed mid-run: upstream_unavailable, then a later call restarts it", async () => {
    const session = createRuntime(memory.module).session();
    expect(await session.call("memory.read_graph", {})).toMatchObject({ ok: true });
    const pid = memory.upstream.pid!;
    process.kill(pid, "SIGKILL");
    // A call while it is dying or down answers at once.
    let result = await session.call("memory.read_graph", {});
    expect(result).toMatchObject({ ok: false, error: "upstream_unavailable" });
    expect((result as { hint: string }).hint).toMatch(
      /^the upstream MCP server memory (exited \(signal SIGKILL\)|closed); restarting/,
    );
    const started = Date.now();
    do {
      await new Promise((resolve) => setTimeout(resolve, 50));
      result = await session.call("memory.read_graph", {});
    } while (!result.ok && Date.now() - started < 10_000);
    expect(result).toMatchObject({ ok: true, value: { entities: [{ name: "Ada" }] } });
    expect(memory.upstream.pid).not.toBe(pid);
  });
});

describe("the gateway over server-everything", () => {
  let everything: GatewayModule;
  beforeAll(async () => {
    everything = await gatewayModule(npmServer("everything", "stdio"), "everything", {
      "get-tiny-image": "scalar",
    });
  });
  afterAll(() => everything.upstream.close());

  it("a text result is text (one string); mixed content is the content array", async () => {
    const session = createRuntime(everything.module).session();
    expect(await session.call("everything.echo", { message: '{"a":1}' })).toEqual({
      ok: true,
      value: 'Echo: {"a":1}',
    });
    const image = await session.call("everything.get_tiny_image", {});
    expect(image).toMatchObject({
      ok: true,
      value: [
        { type: "text", text: "Here's the image you requested:" },
        { type: "image", mimeType: "image/png", data: expect.any(String) },
        { type: "text", text: "The image above is the MCP logo." },
      ],
    });
    expect(
      await session.call("everything.get_structured_content", { location: "New York" }),
    ).toMatchObject({
      ok: true,
      value: { temperature: expect.any(Number) },
    });
  });

  it("a JSON-RPC error from the upstream (an unknown tool) becomes upstream_error", async () => {
    await expect(everything.upstream.call("no-such-tool", {}, CALL_CONTEXT)).rejects.toMatchObject({
      name: "ToolError",
      code: "upstream_error",
      message: expect.stringMatching(/no-such-tool/),
    });
  });

  it("the upstream killed while a call runs: that call answers upstream_unavailable", async () => {
    const session = createRuntime(everything.module).session();
    expect(await session.call("everything.echo", { message: "up" })).toMatchObject({ ok: true });
    const pending = session.call("everything.trigger_long_running_operation", {
      duration: 20,
      steps: 2,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(everything.upstream.pid!, "SIGKILL");
    expect(await pending).toEqual({
      ok: false,
      error: "upstream_unavailable",
      hint: "the upstream MCP server everything exited (signal SIGKILL); restarting",
    });
    // At once: down until the backoff has passed.
    expect(await session.call("everything.echo", { message: "down" })).toMatchObject({
      ok: false,
      error: "upstream_unavailable",
      hint: expect.stringMatching(/restarting \(next attempt in \d+ ms\)$/),
    });
    await new Promise((resolve) => setTimeout(resolve, BACKOFF_START_MS + 50));
    expect(await session.call("everything.echo", { message: "again" })).toEqual({
      ok: true,
      value: "Echo: again",
    });
  });

  it("an invalid call rejected by the upstream becomes upstream_error", async () => {
    const session = createRuntime(everything.module).session();
    const result = await session.call("everything.get_sum", { a: "one", b: 2 });
    expect(result).toMatchObject({ ok: false, error: "upstream_error" });
  });

  it("cancelling a call aborts the upstream request", async () => {
    const session = createRuntime(everything.module).session();
    const controller = new AbortController();
    const pending = session.call(
      "everything.trigger_long_running_operation",
      { duration: 30, steps: 3 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await pending;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ ok: false, error: "cancelled" });
    // The connection is still up for the next call.
    expect(await session.call("everything.echo", { message: "after" })).toMatchObject({
      ok: true,
      value: "Echo: after",
    });
  });
});

describe("the gateway over the filesystem server", () => {
  let fs: GatewayModule;
  beforeAll(async () => {
    writeFileSync(path.join(tmp, "small.txt"), "hello");
    writeFileSync(path.join(tmp, "big.txt"), "line of text\n".repeat(20_000));
    fs = await gatewayModule(npmServer("filesystem", tmp), "fs");
  });
  afterAll(() => fs.upstream.close());

  it("a small result is inline; a large one becomes a handle, on both surfaces", async () => {
    const runtime = createRuntime(fs.module);
    const session = runtime.session();
    expect(await session.call("fs.read_text_file", { path: path.join(tmp, "small.txt") })).toEqual({
      ok: true,
      value: { content: "hello" },
    });
    const big = await session.call("fs.read_text_file", { path: path.join(tmp, "big.txt") });
    expect(big).toMatchObject({ ok: true, handle: expect.any(String) });
    const mcp = await mcpClient(runtime);
    const viaMcp = await mcp.call("fs_read_text_file", { path: path.join(tmp, "big.txt") });
    expect(JSON.stringify(viaMcp)).toMatch(/handle/);
    expect(JSON.stringify(viaMcp).length).toBeLessThan(20_000);
    await mcp.close();
  });

  it("a path outside the allowed folder is the upstream's error", async () => {
    const session = createRuntime(fs.module).session();
    const result = await session.call("fs.read_text_file", { path: "/etc/hostname" });
    expect(result).toMatchObject({ ok: false, error: "upstream_error" });
  });
});

describe("the gateway over a hostile upstream", () => {
  const hostile = upstream(
    {
      command: process.execPath,
      args: ["--import", "tsx", fileURLToPath(new URL("./hostile-upstream.ts", import.meta.url))],
    },
    { name: "hostile", maxAnswerBytes: 1024 * 1024 },
  );
  afterAll(() => hostile.close());
  it("maxAnswerBytes bounds an answer: a larger one fails its call, with the limit in the hint", async () => {
    expect(await hostile.call("big", { bytes: 1000 }, CALL_CONTEXT)).toBe("x".repeat(1000));
    const pid = hostile.pid;
    await expect(
      hostile.call("big", { bytes: 2 * 1024 * 1024 }, CALL_CONTEXT),
    ).rejects.toMatchObject({
      name: "ToolError",
      code: "upstream_too_large",
      message:
        "hostile answered more than 1048576 bytes (maxAnswerBytes) to tools/call; the answer was dropped",
    });
    expect(await hostile.call("echo", { text: "next" }, CALL_CONTEXT)).toBe("next");
    expect(hostile.pid).toBe(pid);
  });

  it("an error answer with the SDK's 'Connection closed' code is the upstream's error: no restart", async () => {
    expect(await hostile.call("echo", { text: "up" }, CALL_CONTEXT)).toBe("up");
    const pid = hostile.pid;
    await expect(hostile.call("closed_error", {}, CALL_CONTEXT)).rejects.toMatchObject({
      code: "upstream_error",
      message: "Connection closed",
    });
    expect(await hostile.call("echo", { text: "next" }, CALL_CONTEXT)).toBe("next");
    expect(hostile.pid).toBe(pid);
  });
});

describe("idOfLine: the id of an answer from the ends of its line", () => {
  it("finds it first or last (the SDK's order), at the top level only", () => {
    expect(idOfLine('{"jsonrpc":"2.0","id":3,"result":{"content":[', "")).toBe(3);
    expect(idOfLine('{"result":{"content":[', 'xx"}]},"jsonrpc":"2.0","id":12}')).toBe(12);
    expect(idOfLine("{", 'x"}],"id":"a-1","jsonrpc":"2.0"}\r')).toBe("a-1");
    // Inside a string, or a member of a nested object: no id.
    expect(idOfLine("{", 'x\\"id\\":5}"}')).toBeUndefined();
    expect(idOfLine("{", '"text":"x\\"id\\":5}"}')).toBeUndefined();
    expect(idOfLine("{", ',"meta":{"id":5}}')).toBeUndefined();
    // An invalid escape in a string id tells nothing (and throws nothing).
    expect(idOfLine("{", ',"id":"\\q"}')).toBeUndefined();
    expect(idOfLine("garbage", "garbage")).toBeUndefined();
  });
});

describe("${NAME} in an upstream's description", () => {
  it("is replaced from the environment; a missing variable is an error naming it", () => {
    const server = {
      command: "node",
      args: ["--token=${TOKEN}"],
      env: { KEY: "k-${TOKEN}" },
    };
    expect(expandServer(server, { TOKEN: "s3" })).toEqual({
      command: "node",
      args: ["--token=s3"],
      env: { KEY: "k-s3" },
    });
    expect(
      expandServer(
        { url: "https://${HOST}/mcp", headers: { authorization: "Bearer ${T}" } },
        {
          HOST: "h",
          T: "t",
        },
      ),
    ).toEqual({ url: "https://h/mcp", headers: { authorization: "Bearer t" } });
    expect(() => expandServer(server, {})).toThrow("the environment variable TOKEN is not set");
  });
});

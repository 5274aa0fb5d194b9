/**
 * The native client against real transports: a spawned stdio server (test/native-stdio-server.ts)
 * and the HTTP handler on a bare `http.createServer` (127.0.0.1, port 0), both serving the
 * kitchen-sink fixture. The same checks run over both; raw requests cover what a client never sends.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createRuntime } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import type { ToolArgs, ToolResults } from "../../../fixtures/kitchen-sink/src/zcp.gen/types.js";
import { connectHttp, connectStdio, ZcpRpcError, type ZcpClient } from "@zcp/client";
import { createNativeHttpHandler, type NativeHttpHandler } from "../src/node/index.js";

type Client = ZcpClient<ToolArgs, ToolResults>;

const SERVER = fileURLToPath(new URL("./native-stdio-server.ts", import.meta.url));

async function checkClient(client: Client): Promise<void> {
  const info = await client.initialize();
  expect(info.protocolVersion).toBe("zcp/1");
  expect(info.registryHash).toBe(kitchenSink.registry.hash);

  const compact = await client.listTools();
  expect(compact.format).toBe("compact");
  expect(compact.hash).toBe(info.viewHash);
  expect(compact.tools).toContain("TOOL @2l5azj orders.add(sku:str, qty:num) -> scalar");
  // The second listing is answered `unchanged` and served from the cache: the same object.
  expect(await client.listTools()).toBe(compact);
  const json = await client.listTools({ format: "json", groups: ["tables"] });
  expect(json.tools.map((tool) => tool.alias)).toContain("tables.load");
  const openai = await client.listTools({ format: "openai", groups: ["geometry"] });
  expect(openai.tools).toHaveLength(2);
  expect(openai.tools[0]).toMatchObject({ type: "function", name: "shapes_area" });

  expect(await client.call("orders.add", { sku: "A1", qty: 2 })).toEqual({
    ok: true,
    value: "2 x A1",
  });
  const pinged = await client.call("ping_server", { echo: "hey", times: 2 });
  if (!pinged.ok || !("value" in pinged)) throw new Error("expected a value");
  const echoed: string = pinged.value;
  expect(echoed).toBe("heyhey");
  expect(await client.call("ping_server", { echo: "UPPER" })).toMatchObject({
    ok: false,
    error: "invalid:$.echo",
  });

  const loaded = await client.call("tables.load", { name: "orders" });
  expect(loaded).toMatchObject({
    ok: true,
    handle: "#T1",
    summary: "3 records; fields: sku, qty",
    meta: { kind: "table", count: 3 },
  });
  expect(await client.handles.count("#T1")).toEqual({ ok: true, count: 3 });
  expect(await client.handles.read("#T1", { item: 2 })).toEqual({
    ok: true,
    value: { sku: "orders-2", qty: 2 },
  });
  expect(await client.handles.view("#T1", { columns: ["qty"], limit: 2 })).toEqual({
    ok: true,
    rows: [{ qty: 0 }, { qty: 1 }],
    offset: 0,
    limit: 2,
    total: 3,
  });
  expect(await client.call("tables.sum", { rows: "#T1", column: "qty" })).toEqual({
    ok: true,
    value: 3,
  });
  expect(await client.handles.release("#T1")).toEqual({ ok: true });
  expect(await client.handles.read("#T1")).toMatchObject({ ok: false, error: "expired:#T1" });

  const staged = await client.setStage("discover");
  expect(staged.stage).toBe("discover");
  const listed = await client.listTools();
  expect(listed.hash).toBe(staged.hash);
  expect(listed.tools).not.toContain("tables.sum");
  expect(await client.call("tables.sum", { rows: "#T1", column: "qty" })).toMatchObject({
    ok: false,
    error: "forbidden:tables.sum",
  });

  await expect(client.request("tools/list", { format: "yaml" })).rejects.toMatchObject({
    name: "ZcpRpcError",
    code: -32602,
  });
  await expect(client.request("no/such")).rejects.toBeInstanceOf(ZcpRpcError);
  await client.ping();
}

/** Type-level checks only (never run): the generated maps type `call`. */
export async function typeChecks(client: Client): Promise<void> {
  // @ts-expect-error qty is a number
  await client.call("orders.add", { sku: "A1", qty: "2" });
  // @ts-expect-error sku is required
  await client.call("orders.add", { qty: 2 });
  // @ts-expect-error no tool by that alias
  await client.call("orders.remove", { sku: "A1" });
  const result = await client.call("orders.add", { sku: "A1", qty: 2 });
  if (result.ok && "value" in result) {
    // @ts-expect-error orders.add returns a string
    const wrong: number = result.value;
    void wrong;
  }
}

describe("native client over stdio", () => {
  it("initializes, lists, calls, reads handles and moves the stage", async () => {
    const client = connectStdio<ToolArgs, ToolResults>(
      process.execPath,
      ["--import", "tsx", SERVER],
      { stderr: "ignore" },
    );
    try {
      await checkClient(client);
    } finally {
      await client.close();
    }
  });

  it("answers malformed and oversized lines and writes only responses to stdout", async () => {
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, ["--import", "tsx", SERVER], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.stdin.write("{not json\n");
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })}\r\n`);
    child.stdin.write(`"${"x".repeat(1024 * 1024 + 10)}"\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "ping" })}\n`);
    child.stdin.write(`[]\n`);
    child.stdin.end(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "initialize" }));
    expect(await exited).toBe(0);
    const lines = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(5);
    expect(lines).toContainEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: the line is not JSON" },
    });
    expect(lines).toContainEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(lines).toContainEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: the line is longer than 1048576 bytes" },
    });
    expect(lines).toContainEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: empty batch" },
    });
    expect(lines.find((line) => line.id === 2)?.result.protocolVersion).toBe("zcp/1");
  });
});

describe("native client over HTTP", () => {
  let server: http.Server;
  let handler: NativeHttpHandler;
  let url: string;
  beforeAll(async () => {
    const runtime = createRuntime(kitchenSink, { approve: () => true });
    handler = createNativeHttpHandler(runtime, {
      identity: (req) =>
        typeof req.headers.authorization === "string" ? req.headers.authorization : null,
    });
    server = http.createServer((req, res) => {
      if (new URL(req.url ?? "/", "http://localhost").pathname === "/zcp") handler(req, res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/zcp`;
  });
  afterAll(async () => {
    await handler.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = async (body: unknown, headers: Record<string, string> = {}, method = "POST") => {
    const response = await fetch(url, {
      method,
      headers: { "content-type": "application/json", authorization: "alice", ...headers },
      ...(method === "POST"
        ? { body: typeof body === "string" ? body : JSON.stringify(body) }
        : {}),
    });
    const text = await response.text();
    return {
      status: response.status,
      session: response.headers.get("zcp-session-id"),
      allow: response.headers.get("allow"),
      body: text === "" ? undefined : JSON.parse(text),
    };
  };

  it("initializes, lists, calls, reads handles and moves the stage; close ends the session", async () => {
    const client = connectHttp<ToolArgs, ToolResults>(url, { headers: { authorization: "alice" } });
    await checkClient(client);
    const before = handler.sessionCount;
    await client.close();
    expect(handler.sessionCount).toBe(before - 1);
  });

  it("sessions come from the server, belong to their identity, and refuse what they should", async () => {
    const init = await post(
      { jsonrpc: "2.0", id: 1, method: "initialize" },
      { "zcp-session-id": "chosen-by-client" },
    );
    expect(init.status).toBe(404);
    const opened = await post({ jsonrpc: "2.0", id: 1, method: "initialize" });
    expect(opened.status).toBe(200);
    // A signed token (native/token.ts): `z1.<payload>.<HMAC-SHA-256>`.
    expect(opened.session).toMatch(/^z1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const session = { "zcp-session-id": opened.session! };

    const loaded = await post(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "tables.load", arguments: { name: "x" } },
      },
      session,
    );
    expect(loaded.body.result).toMatchObject({ ok: true, handle: "#T1" });
    // Bob cannot reach Alice's session (the same 404 as an unknown one), nor can nobody.
    const bob = await post(
      { jsonrpc: "2.0", id: 3, method: "handles/read", params: { handle: "#T1" } },
      { ...session, authorization: "bob" },
    );
    expect(bob).toMatchObject({ status: 404, body: { error: { code: -32001 } } });
    const anonymous = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...session },
      body: "{}",
    });
    expect(anonymous.status).toBe(401);
    // Another session of Alice's has its own #T1.
    const other = await post({ jsonrpc: "2.0", id: 1, method: "initialize" });
    const foreign = await post(
      { jsonrpc: "2.0", id: 4, method: "handles/read", params: { handle: "#T1" } },
      { "zcp-session-id": other.session! },
    );
    expect(foreign.body.result).toMatchObject({ ok: false, error: "expired:#T1" });

    const batch = await post(
      [
        { jsonrpc: "2.0", id: 5, method: "handles/count", params: { handle: "#T1" } },
        { jsonrpc: "2.0", method: "ping" },
        { jsonrpc: "2.0", id: 6, method: "ping" },
      ],
      session,
    );
    expect(batch.body).toEqual([
      { jsonrpc: "2.0", id: 5, result: { ok: true, count: 3 } },
      { jsonrpc: "2.0", id: 6, result: {} },
    ]);
    expect(await post({ jsonrpc: "2.0", method: "ping" }, session)).toMatchObject({
      status: 202,
      body: undefined,
    });
    expect(await post("{oops", session)).toMatchObject({
      status: 400,
      body: { id: null, error: { code: -32700 } },
    });
    expect(await post([], session)).toMatchObject({
      status: 200,
      body: { error: { code: -32600 } },
    });
    expect(await post({ jsonrpc: "2.0", id: 7, method: "ping" })).toMatchObject({ status: 400 });
    expect(await post(undefined, session, "GET")).toMatchObject({ status: 405, allow: "POST" });
    expect(await post(`"${"x".repeat(1024 * 1024)}"`, session)).toMatchObject({ status: 413 });
    // Still serving after all of that.
    expect(
      (
        await post(
          { jsonrpc: "2.0", id: 8, method: "handles/count", params: { handle: "#T1" } },
          session,
        )
      ).body.result,
    ).toEqual({ ok: true, count: 3 });

    expect(
      (await post({ jsonrpc: "2.0", id: 9, method: "session/close" }, session)).body.result,
    ).toEqual({});
    // Closing drops the handles; the token, good until it expires, opens the session again
    // without them (native/http.ts).
    expect(
      (
        await post(
          { jsonrpc: "2.0", id: 10, method: "handles/count", params: { handle: "#T1" } },
          session,
        )
      ).body.result,
    ).toMatchObject({ ok: false, error: "expired:#T1" });
    await post(
      { jsonrpc: "2.0", id: 11, method: "session/close" },
      { "zcp-session-id": other.session! },
    );
  });
});

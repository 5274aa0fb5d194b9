/**
 * The MCP surface over stdio, with the official SDK client spawning the real server script
 * (test/stdio-server.ts) under `node --import tsx`.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { checkHandle, checkRelease, checkWeather, expectRpcError, PAGE_SIZE } from "./checks.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SCRIPT = fileURLToPath(new URL("./stdio-server.ts", import.meta.url));
const ARGS = ["--import", "tsx", SCRIPT];

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(fixture: string): Promise<Client> {
  const client = new Client({ name: "zcp-test", version: "0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...ARGS, fixture, String(PAGE_SIZE)],
    cwd: ROOT,
    stderr: "pipe",
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

describe("MCP over stdio", () => {
  it("serves the weather fixture: paginated list, every tool, tool errors, unknown tools, ping", async () => {
    const client = await connect("weather");
    expect(client.getServerVersion()).toEqual({ name: "zcp-weather", version: "0.1.0" });
    await checkWeather(client);
  });

  it("turns a handle into a resource_link that resources/read answers", async () => {
    const client = await connect("kitchen-sink");
    const uri = await checkHandle(client);
    // Another process (another session) does not know the handle.
    const other = await connect("kitchen-sink");
    await expectRpcError(other.readResource({ uri }), -32602, /Resource not found/);
    await checkRelease(client, uri);
  });

  it("writes only protocol messages to stdout, answers malformed lines with JSON-RPC errors and keeps serving", async () => {
    const child = spawn(process.execPath, [...ARGS, "weather"], {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const lines: string[] = [];
    let buffered = "";
    const waiters: (() => void)[] = [];
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf("\n")) !== -1) {
        lines.push(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
      }
      waiters.splice(0).forEach((wake) => wake());
    });
    const until = async (count: number) => {
      while (lines.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    };
    const send = (line: string) => child.stdin.write(`${line}\n`);

    send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "0" },
        },
      }),
    );
    await until(1);
    send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    send("{not json");
    await until(2);
    send('{"hello":"world"}');
    await until(3);
    send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }));
    await until(4);
    send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "math_subtract", arguments: { a: 3, b: 1 } },
      }),
    );
    await until(5);
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));

    const messages = lines.map(
      (line) => JSON.parse(line) as { id?: unknown; result?: unknown; error?: { code: number } },
    );
    expect(messages.every((message) => (message as { jsonrpc?: string }).jsonrpc === "2.0")).toBe(
      true,
    );
    expect(messages[0]).toMatchObject({ id: 1, result: { serverInfo: { name: "zcp-weather" } } });
    expect(messages[1]).toMatchObject({ id: null, error: { code: -32700 } });
    expect(messages[2]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(messages[3]).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(messages[4]).toMatchObject({
      id: 3,
      result: { content: [{ type: "text", text: "2" }] },
    });
    expect(buffered).toBe("");
    expect(code).toBe(0); // stdin ended: the server closed its session and exited
    expect(stderr).toContain("serving weather on stdio");
  });
});

/**
 * Result budgets on the server's surfaces: over MCP (the official v2 client, both eras) a result
 * over the budget is its first page as plain text, then the handle's line and its resource link;
 * a client lowers the budget with `_meta["zcp/maxResultTokens"]` (a bad one is -32602); text
 * handles page and search through `zcp_handle`. The native client does the same with
 * `maxResultTokens` and `handles.grep`, and `zcp-serve --max-result-tokens` sets the server's.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { connectHttp, ZcpRpcError } from "@zcp/client";
import { createRuntime, estimateTokens, type GeneratedModule } from "@zcp/runtime";
import { afterAll, describe, expect, it } from "vitest";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import {
  createFetchHandler,
  createNativeFetchHandler,
  type ZcpFetchHandler,
} from "../src/index.js";
import { ROOT } from "./faults/harness.js";

const ORIGIN = "http://127.0.0.1:8787";
const BIN = `${ROOT}packages/server/dist/bin/zcp-serve.js`;
const KITCHEN = "fixtures/kitchen-sink/src/zcp.gen/index.ts";

/** 2,000 lines of a log: some 20,000 tokens. */
const LOG = Array.from(
  { length: 2000 },
  (_, i) => `${i} GET /api/items/${i} 200 ok in ${i % 97} ms`,
).join("\n");
const SEARCH = kitchen.registry.tools.find((tool) => tool.alias === "search.run")!;
/** The kitchen sink with `search.run` (an `auto` tool) answering the log. */
const LOGS: GeneratedModule = {
  ...kitchen,
  dispatch: { ...kitchen.dispatch, [SEARCH.id]: () => LOG },
};

const handlers: ZcpFetchHandler[] = [];
afterAll(async () => {
  await Promise.all(handlers.map((handler) => handler.close()));
});

/** A fetch that hands each request to `handler`, with the Host header of its URL. */
function through(handler: { fetch(request: Request): Promise<Response> }) {
  return (url: string | URL, init?: RequestInit) => {
    const sent = new Request(url, init);
    sent.headers.set("host", new URL(url).host);
    return handler.fetch(sent);
  };
}

async function mcpClient(mode: "legacy" | { pin: "2026-07-28" }): Promise<Client> {
  const handler = createFetchHandler(createRuntime(LOGS));
  handlers.push(handler);
  const client = new Client(
    { name: "budget-test", version: "1.0.0" },
    { versionNegotiation: { mode: mode as never } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", ORIGIN), { fetch: through(handler) }),
  );
  return client;
}

type Text = { type: "text"; text: string };

describe.each([
  ["2025 (legacy)", "legacy" as const],
  ["2026-07-28", { pin: "2026-07-28" as const }],
])("MCP, %s", (_label, mode) => {
  it("sends a result over the budget as its first lines, plain, then the handle and its link", async () => {
    const client = await mcpClient(mode);
    try {
      const result = await client.callTool({ name: "search_run", arguments: { text: "xx" } });
      const [head, handle, link] = result.content as [Text, Text, { type: string; uri: string }];
      expect(head.type).toBe("text");
      expect(LOG.startsWith(`${head.text}\n`)).toBe(true);
      const shown = head.text.split("\n").length;
      const line = JSON.parse(handle.text) as { handle: string; meta: object };
      expect(line).toMatchObject({
        ok: true,
        meta: { lines: 2000, chars: LOG.length, next: { op: "view", offset: shown } },
      });
      expect("head" in line).toBe(false);
      expect(link).toMatchObject({
        type: "resource_link",
        uri: expect.stringMatching(/^zcp:\/\/handle\//),
      });
      expect(estimateTokens(head.text) + estimateTokens(handle.text)).toBeLessThanOrEqual(8000);

      // The client's own limit lowers the budget.
      const small = await client.callTool({
        name: "search_run",
        arguments: { text: "xx" },
        _meta: { "zcp/maxResultTokens": 300 },
      });
      const [smallHead, smallHandle] = small.content as [Text, Text];
      expect(smallHead.text.split("\n").length).toBeLessThan(shown);
      expect(estimateTokens(smallHead.text) + estimateTokens(smallHandle.text)).toBeLessThanOrEqual(
        300,
      );

      // The text pages on and is searched through zcp_handle.
      const next = await client.callTool({
        name: "zcp_handle",
        arguments: { op: "view", handle: line.handle, offset: shown, limit: 1 },
      });
      expect(JSON.parse((next.content as Text[])[0]!.text)).toEqual({
        text: LOG.split("\n")[shown],
        offset: shown,
        lines: 1,
        total: 2000,
      });
      const grep = await client.callTool({
        name: "zcp_handle",
        arguments: { op: "grep", handle: line.handle, text: "/api/items/1234 " },
      });
      expect(JSON.parse((grep.content as Text[])[0]!.text)).toEqual({
        matches: [{ line: 1234, text: LOG.split("\n")[1234] }],
        total: 1,
      });
    } finally {
      await client.close();
    }
  });

  it("refuses a bad client budget with -32602", async () => {
    const client = await mcpClient(mode);
    try {
      for (const bad of [0, 1.5, "100"])
        await expect(
          client.callTool({
            name: "search_run",
            arguments: { text: "xx" },
            _meta: { "zcp/maxResultTokens": bad },
          }),
        ).rejects.toThrow(
          `Invalid params: _meta["zcp/maxResultTokens"] must be a whole number from 1, got ${JSON.stringify(bad)}`,
        );
    } finally {
      await client.close();
    }
  });
});

describe("the native client", () => {
  it("gets the first page with the handle, lowers the budget, counts, views and greps the text", async () => {
    const handler = createNativeFetchHandler(createRuntime(LOGS));
    const client = connectHttp(new URL("/zcp", ORIGIN), { fetch: through(handler) });
    try {
      await client.initialize();
      const result = await client.call("search.run", { text: "xx" }, { maxResultTokens: 500 });
      if (!result.ok || !("handle" in result)) throw new Error("expected a handle");
      expect(LOG.startsWith(result.head as string)).toBe(true);
      expect(result.meta).toMatchObject({ lines: 2000, next: { op: "view" } });
      expect(await client.handles.count(result.handle)).toEqual({
        ok: true,
        lines: 2000,
        chars: LOG.length,
      });
      expect(await client.handles.view(result.handle, { start: 0, length: 5 })).toEqual({
        ok: true,
        text: "0 GET",
        start: 0,
        length: 5,
        chars: LOG.length,
      });
      expect(await client.handles.grep(result.handle, { text: "/api/items/7 " })).toEqual({
        ok: true,
        matches: [{ line: 7, text: LOG.split("\n")[7] }],
        total: 1,
      });
      expect(await client.handles.grep(result.handle, { text: "" })).toEqual({
        ok: false,
        error: "invalid:text",
        hint: "text must be the text to find, 1 to 200 characters",
      });
      await expect(
        client.call("search.run", { text: "xx" }, { maxResultTokens: 0 }),
      ).rejects.toThrow(
        new ZcpRpcError({
          code: -32602,
          message: "Invalid params: maxResultTokens must be a whole number from 1",
        }),
      );
    } finally {
      await client.close();
    }
  });
});

describe("zcp-serve --max-result-tokens", () => {
  it("sets the server's budget: a small result over it is a handle", async () => {
    const client = new Client({ name: "budget-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          "--import",
          "tsx",
          BIN,
          "--registry",
          KITCHEN,
          "--isolation",
          "none",
          "--max-result-tokens",
          "1",
        ],
        cwd: ROOT,
        stderr: "ignore",
      }),
    );
    try {
      const result = await client.callTool({ name: "search_run", arguments: { text: "hello" } });
      const [line] = result.content as Text[];
      expect(JSON.parse(line!.text)).toMatchObject({
        ok: true,
        handle: "#G1",
        summary: "object with 1 key: hits",
      });
    } finally {
      await client.close();
    }
  });
});

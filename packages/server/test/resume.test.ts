/**
 * Replicas in one process: two (or three) fetch handlers over runtimes that share one
 * `MemorySessionStore` and one `MemoryHandleStorage`, requests alternating between them. What
 * the real replicas over Redis prove (replicas.test.ts, faults/redis.test.ts), here fast and
 * exactly: MCP resumption, refresh, identity, ending on DELETE, and an unreachable store; the
 * surfaces kept apart; native sessions (their state a token, native/token.ts, nothing of them
 * stored) unloaded on eviction and shutdown and served on by another replica.
 */
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  createRuntime,
  MemoryHandleStorage,
  MemorySessionStore,
  type SessionState,
  type SessionStore,
} from "@zcp/runtime";
import { afterEach, describe, expect, it } from "vitest";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import {
  createFetchHandler,
  type FetchHandlerOptions,
  type ZcpFetchHandler,
} from "../src/index.js";
import { INITIALIZE, POST_HEADERS } from "./checks.js";
import { find, linkOf, load, rpc } from "./replicas.js";

const ORIGIN = "http://127.0.0.1:8787";
const SECRET = randomBytes(32).toString("base64");
const STORE_DOWN = {
  jsonrpc: "2.0",
  error: { code: -32000, message: "Service Unavailable: the session store is unreachable" },
  id: null,
};

/** A session store that can be made unreachable: every method rejects while `down` (`save` alone while `savesFail`). */
class FlakyStore implements SessionStore {
  readonly inner = new MemorySessionStore();
  down = false;
  savesFail = false;
  #check(): void {
    if (this.down) throw new Error("connection refused");
  }
  async load(id: string) {
    this.#check();
    return this.inner.load(id);
  }
  async save(id: string, state: SessionState, base: string | undefined) {
    this.#check();
    if (this.savesFail) throw new Error("connection reset");
    return this.inner.save(id, state, base);
  }
  async delete(id: string) {
    this.#check();
    return this.inner.delete(id);
  }
  async ping() {
    this.#check();
  }
}

const handlers: ZcpFetchHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

/** A runtime of the kitchen sink (discover profile) keeping its state in `store` and `storage`. */
const runtimeOn = (store: SessionStore, storage: MemoryHandleStorage) =>
  createRuntime(kitchenSink, {
    approve: () => true,
    sessions: store,
    handles: { storage },
    exposure: { defaults: { "*": { profile: "discover" } } },
  });

/** `count` handlers sharing one session store and one handle storage. */
function replicas(count: number, options: FetchHandlerOptions = {}) {
  const store = new FlakyStore();
  const storage = new MemoryHandleStorage();
  const made = Array.from({ length: count }, () => {
    // Native sessions are tokens under one secret (native/token.ts): nothing of them is stored.
    const handler = createFetchHandler(runtimeOn(store, storage), {
      native: { secret: SECRET },
      ...options,
    });
    handlers.push(handler);
    return handler;
  });
  let next = 0;
  /** Each request to the next replica, round robin (`to` pins one). */
  const fetch = (input: string | URL | Request, init?: RequestInit, to?: number) => {
    const request = new Request(input, init);
    request.headers.set("host", new URL(ORIGIN).host);
    return made[to ?? next++ % count]!.fetch(request);
  };
  return { store, handlers: made, fetch };
}

/** One native JSON-RPC POST through `fetch` (to replica `to`, or the next). */
async function native(
  fetch: ReturnType<typeof replicas>["fetch"],
  body: unknown,
  session?: string,
  to?: number,
) {
  const response = await fetch(
    `${ORIGIN}/zcp`,
    {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(session ? { "zcp-session-id": session } : {}),
      },
      body: JSON.stringify(body),
    },
    to,
  );
  return {
    status: response.status,
    id: response.headers.get("zcp-session-id"),
    body: (await response.json()) as any,
  };
}

const NATIVE_INIT = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "zcp/1", clientInfo: { name: "t", version: "0" } },
};

describe("MCP sessions across replicas sharing a store", () => {
  it("serves one session on alternating replicas: found tools, handles, DELETE ends it everywhere", async () => {
    const { fetch } = replicas(2);
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", ORIGIN), {
      fetch: (url, init) => fetch(url, init),
    });
    const client = new Client({ name: "t", version: "0" });
    await client.connect(transport);
    const id = transport.sessionId!;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["zcp_find_tools"]);
    await client.callTool({ name: "zcp_find_tools", arguments: { query: "load a table of rows" } });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("tables_load");
    const loaded = await client.callTool({ name: "tables_load", arguments: { name: "t" } });
    const uri = linkOf(loaded.content);
    const read = await client.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri, mimeType: "application/json" });
    await transport.terminateSession();
    await client.close();
    for (const to of [0, 1]) {
      const after = await fetch(
        `${ORIGIN}/mcp`,
        {
          method: "POST",
          headers: { ...POST_HEADERS, "mcp-session-id": id },
          body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
        },
        to,
      );
      expect(after.status).toBe(404);
      expect(await after.json()).toEqual({
        jsonrpc: "2.0",
        error: { code: -32001, message: "Session not found" },
        id: null,
      });
    }
  });

  it("keeps only what resuming needs of initialize, and refuses one whose kept part is over 4 KiB", async () => {
    const { fetch, store } = replicas(2);
    const initialize = (params: object, to: number) =>
      fetch(
        `${ORIGIN}/mcp`,
        {
          method: "POST",
          headers: POST_HEADERS,
          body: JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, ...params } }),
        },
        to,
      );
    const pad = "x".repeat(200_000);
    const padded = await initialize(
      {
        _meta: { pad },
        extra: pad,
        capabilities: { roots: { listChanged: true } },
        clientInfo: { name: "raw", title: "Raw", version: "0", description: pad, icons: [] },
      },
      0,
    );
    expect(padded.status).toBe(200);
    await padded.text();
    const id = padded.headers.get("mcp-session-id")!;
    expect((await store.inner.load(id))!.data).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { roots: { listChanged: true } },
        clientInfo: { name: "raw", title: "Raw", version: "0" },
      },
    });
    // What was kept is enough: the other replica resumes the session from it.
    const listed = await fetch(
      `${ORIGIN}/mcp`,
      {
        method: "POST",
        headers: { ...POST_HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      },
      1,
    );
    expect(listed.status).toBe(200);
    expect(await listed.text()).toContain("zcp_find_tools");

    const refused = await initialize({ capabilities: { experimental: { pad: { pad } } } }, 0);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32602,
        message:
          "Invalid params: the initialize request's id, protocolVersion, capabilities and clientInfo take 200181 bytes as JSON; a session shared by replicas keeps at most 4096",
      },
      id: null,
    });
  });

  it("answers 503 while the store is unreachable and serves again once it is back", async () => {
    const { fetch, store } = replicas(2);
    const opened = await fetch(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: POST_HEADERS,
      body: JSON.stringify(INITIALIZE),
    });
    await opened.text();
    const id = opened.headers.get("mcp-session-id")!;
    const list = (to: number) =>
      fetch(
        `${ORIGIN}/mcp`,
        {
          method: "POST",
          headers: { ...POST_HEADERS, "mcp-session-id": id },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        },
        to,
      );
    store.down = true;
    for (const to of [0, 1]) {
      const refused = await list(to);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual(STORE_DOWN);
    }
    const init = await fetch(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: POST_HEADERS,
      body: JSON.stringify(INITIALIZE),
    });
    expect(init.status).toBe(503);
    expect(await init.json()).toEqual(STORE_DOWN);
    const ready = await fetch(`${ORIGIN}/readyz`, { method: "GET" });
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      status: "not ready",
      reason: "the session store is unreachable",
    });
    expect((await fetch(`${ORIGIN}/healthz`, { method: "GET" })).status).toBe(200);
    store.down = false;
    for (const to of [0, 1]) {
      const served = await list(to);
      expect(served.status).toBe(200);
      expect(await served.text()).toContain("zcp_find_tools");
    }
    expect((await fetch(`${ORIGIN}/readyz`, { method: "GET" })).status).toBe(200);
  });
});

describe("a state the store cannot save is never acknowledged", () => {
  it("MCP: the tools/call that changed it answers unavailable:store; native: nothing is saved", async () => {
    const { fetch, store } = replicas(2);
    const transport = new StreamableHTTPClientTransport(new URL("/mcp", ORIGIN), {
      fetch: (url, init) => fetch(url, init),
    });
    const client = new Client({ name: "t", version: "0" });
    await client.connect(transport);
    const nativeId = (await native(fetch, NATIVE_INIT)).id!;
    store.savesFail = true;
    const mcpFind = { name: "zcp_find_tools", arguments: { query: "load a table of rows" } };
    expect(await client.callTool(mcpFind)).toEqual({
      content: [
        {
          type: "text",
          text: '{"ok":false,"error":"unavailable:store","hint":"the shared store is unreachable; try again shortly"}',
        },
      ],
      isError: true,
    });
    // A native session's state is its token: its find answers, with the new token.
    const found = await native(fetch, find(1, "load a table of rows"), nativeId);
    expect([found.status, found.body.result.ok]).toEqual([200, true]);
    expect(found.id).not.toBe(nativeId);
    const listed = await native(fetch, rpc(2, "tools/list", { format: "json" }), nativeId);
    expect(listed.status).toBe(200);
    store.savesFail = false;
    expect((await client.callTool(mcpFind)).isError).toBeUndefined();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("tables_load");
    await client.close();
  });
});

// What a native session's token carries from replica to replica, and its identity: native-token.test.ts.
describe("native sessions across replicas", () => {
  it("keeps MCP and native sessions apart: one surface's id is unknown on the other", async () => {
    const { fetch } = replicas(2);
    const nativeId = (await native(fetch, NATIVE_INIT, undefined, 0)).id!;
    const mcp = await fetch(
      `${ORIGIN}/mcp`,
      {
        method: "POST",
        headers: POST_HEADERS,
        body: JSON.stringify(INITIALIZE),
      },
      0,
    );
    await mcp.text();
    const mcpId = mcp.headers.get("mcp-session-id")!;
    const onMcp = await fetch(
      `${ORIGIN}/mcp`,
      {
        method: "POST",
        headers: { ...POST_HEADERS, "mcp-session-id": nativeId },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      },
      1,
    );
    expect(onMcp.status).toBe(404);
    expect((await native(fetch, rpc(1, "ping"), mcpId, 1)).status).toBe(404);
  });

  it("unloads sessions evicted for room or on shutdown: another replica serves them on", async () => {
    const {
      fetch,
      handlers: [first],
    } = replicas(2, { maxSessions: 1 });
    const opened = (await native(fetch, NATIVE_INIT, undefined, 0)).id!;
    const loaded = await native(fetch, find(1, "load a table of rows"), opened, 0);
    expect(loaded.body.result.ok).toBe(true);
    // The token of the state with the found tools.
    const a = loaded.id!;
    const { handle } = (await native(fetch, load(4), a, 0)).body.result;
    const mcp = await fetch(
      `${ORIGIN}/mcp`,
      { method: "POST", headers: POST_HEADERS, body: JSON.stringify(INITIALIZE) },
      0,
    );
    await mcp.text();
    // A second session on replica 0 evicts the first there (maxSessions 1); it is only unloaded.
    await native(fetch, NATIVE_INIT, undefined, 0);
    const back = await native(fetch, rpc(2, "tools/list", { format: "json" }), a, 0);
    expect(back.status).toBe(200);
    expect(back.body.result.tools.map((tool: { name: string }) => tool.name)).toContain(
      "tables_load",
    );
    // Shutting replica 0 down unloads its sessions: their tokens stay good, their handles stay in the store.
    await first!.close();
    const after = await native(fetch, rpc(3, "handles/count", { handle }), a, 1);
    expect(after.body.result).toMatchObject({ ok: true });
    const listed = await fetch(
      `${ORIGIN}/mcp`,
      {
        method: "POST",
        headers: { ...POST_HEADERS, "mcp-session-id": mcp.headers.get("mcp-session-id")! },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      },
      1,
    );
    expect(listed.status).toBe(200);
    await listed.text();
  });
});

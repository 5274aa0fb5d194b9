/**
 * The native dispatcher, without a transport: every method, every error code, batches,
 * notifications, the knownHash short-circuit and handle isolation between sessions.
 */
import { createRuntime, renderDeclarations, type Runtime } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import faulty from "../../../fixtures/faulty/src/zcp.gen/index.js";
import { createNativeSession, type NativeSession, type RpcResponse } from "../src/index.js";

const runtime = (): Runtime => createRuntime(kitchenSink, { approve: () => true });
const req = (id: number | string | null, method: string, params?: object) => ({
  jsonrpc: "2.0",
  id,
  method,
  ...(params ? { params } : {}),
});

async function result(native: NativeSession, method: string, params?: object): Promise<any> {
  const response = (await native.handle(req(1, method, params))) as RpcResponse;
  if ("error" in response) throw new Error(`unexpected error ${JSON.stringify(response.error)}`);
  return response.result;
}

async function errorOf(
  native: NativeSession,
  message: unknown,
): Promise<{ id: unknown; code: number; message: string }> {
  const response = (await native.handle(message)) as RpcResponse;
  expect(response).toHaveProperty("error");
  const { error, id } = response as Extract<RpcResponse, { error: unknown }>;
  return { id, code: error.code, message: error.message };
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe("native dispatcher", () => {
  it("initialize: protocol version, registry and view hashes, capabilities", async () => {
    const rt = runtime();
    const native = createNativeSession(rt, { name: "sink", version: "9.9.9", instructions: "hi" });
    const info = await result(native, "initialize", { protocolVersion: "zcp/1" });
    expect(info).toMatchObject({
      protocolVersion: "zcp/1",
      serverInfo: { name: "sink", version: "9.9.9" },
      instructions: "hi",
      registryHash: rt.registry.hash,
      viewHash: native.session.exposed.hash,
      stage: null,
      capabilities: {
        tools: { knownHash: true, clientFilters: true, docs: true, lean: true },
        handles: { ops: ["count", "read", "view", "grep", "summary", "release"] },
        batch: { maxSize: 50 },
      },
    });
    expect(info.capabilities.tools.formats).toEqual([
      "compact",
      "typescript",
      "json",
      "openai",
      "openai-chat",
      "anthropic",
      "gemini",
    ]);
    expect(await result(native, "ping")).toEqual({});
  });

  it("tools/list: compact, json, provider formats, filters and the knownHash short-circuit", async () => {
    const native = createNativeSession(runtime());
    const compact = await result(native, "tools/list");
    expect(compact.format).toBe("compact");
    expect(compact.tools).toBe(native.session.exposed.planner);
    expect(compact.hash).toBe(native.session.exposed.hash);
    expect(compact.tools).toContain(
      'TOOL @tload tables.load(name:str "Table name.", limit:int=100 "Maximum number of rows.") -> handle:table -- "Load a table of rows; large results stay in the runtime as a handle."',
    );

    const json = await result(native, "tools/list", { format: "json", groups: ["tables"] });
    expect(json.tools.map((tool: { alias: string }) => tool.alias)).toEqual([
      "orders.add",
      "reports.export",
      "tables.drop",
      "tables.load",
      "tables.sum",
      "zcp.handle",
    ]);
    expect(json.tools[0]).not.toHaveProperty("source");
    expect(json.tools[0]).toHaveProperty("inputSchema");

    const openai = await result(native, "tools/list", {
      format: "openai",
      groups: ["tables"],
      excludeGroups: ["admin"],
    });
    expect(openai.tools.map((tool: { name: string }) => tool.name)).toEqual([
      "orders_add",
      "reports_export",
      "tables_load",
      "tables_sum",
      "zcp_handle",
    ]);
    expect(openai.tools[0]).toMatchObject({ type: "function", strict: expect.any(Boolean) });
    const anthropic = await result(native, "tools/list", {
      format: "anthropic",
      groups: ["geometry"],
    });
    expect(anthropic.tools[0]).toHaveProperty("input_schema");
    const gemini = await result(native, "tools/list", { format: "gemini", groups: ["geometry"] });
    expect(gemini.tools[0]).toHaveProperty("parameters");
    const staged = await result(native, "tools/list", {
      format: "json",
      groups: ["tables"],
      stages: ["discover"],
    });
    expect(staged.tools.map((tool: { alias: string }) => tool.alias)).toEqual([
      "orders.add",
      "reports.export",
      "tables.load",
      "zcp.handle",
    ]);
    const profiled = await result(native, "tools/list", { profile: "semantic-workflow" });
    expect(profiled.hash).toBe(compact.hash); // no workflow tools: every tool

    expect(await result(native, "tools/list", { knownHash: compact.hash })).toEqual({
      unchanged: true,
      hash: compact.hash,
    });
    expect(
      await result(native, "tools/list", {
        format: "json",
        groups: ["tables"],
        knownHash: json.hash,
      }),
    ).toEqual({ unchanged: true, hash: json.hash });
    const changed = await result(native, "tools/list", {
      groups: ["geometry"],
      knownHash: compact.hash,
    });
    expect(changed.unchanged).toBeUndefined();
    expect(changed.tools.split("\n")).toHaveLength(2);
  });

  it("tools/list: docs: false lists the bare signatures, under a hash of their own", async () => {
    const native = createNativeSession(runtime());
    const docs = await result(native, "tools/list");
    const bare = await result(native, "tools/list", { docs: false });
    expect(bare).toMatchObject({
      format: "compact",
      count: docs.count,
      tools: native.session.exposed.plannerText({ docs: false }),
    });
    expect(bare.tools).toContain(
      "TOOL @tload tables.load(name:str, limit:int=100) -> handle:table\n",
    );
    expect(bare.tools).not.toContain(" -- ");
    expect(bare.tools.split("\n")).toEqual(
      native.session.exposed.tools.map((tool) => tool.plannerBare),
    );
    expect(await result(native, "tools/list", { docs: true })).toEqual(docs);
    // The short-circuit tells the two forms apart.
    expect(bare.hash).not.toBe(docs.hash);
    expect(bare.hash).toMatch(/^[0-9a-f]{12}$/);
    expect(await result(native, "tools/list", { docs: false, knownHash: bare.hash })).toEqual({
      unchanged: true,
      hash: bare.hash,
    });
    expect(await result(native, "tools/list", { docs: false, knownHash: docs.hash })).toEqual(bare);
    expect(await result(native, "tools/list", { knownHash: bare.hash })).toEqual(docs);
    // A view of other tools has another bare hash too.
    const geometry = await result(native, "tools/list", { docs: false, groups: ["geometry"] });
    expect(geometry.hash).not.toBe(bare.hash);
    expect(await errorOf(native, req(2, "tools/list", { docs: "no" }))).toMatchObject({
      code: -32602,
      message: "Invalid params: docs must be a boolean",
    });
    expect(
      await errorOf(native, req(3, "tools/list", { format: "openai", docs: false })),
    ).toMatchObject({
      code: -32602,
      message:
        "Invalid params: docs: false applies to the compact and typescript formats only, not openai",
    });
  });

  it("tools/list: typescript lists the API text, docs: false without comments, lean refused", async () => {
    const native = createNativeSession(runtime());
    const view = native.session.exposed;
    const listing = await result(native, "tools/list", { format: "typescript" });
    expect(listing).toEqual({
      format: "typescript",
      hash: view.hash,
      count: view.tools.length,
      tools: view.declarations(),
    });
    expect(listing.tools).toContain(
      [
        "    /** Load a table of rows; large results stay in the runtime as a handle. */",
        "    load(args: {",
        "      name: string; // Table name.",
        "      limit?: number; // default 100. Maximum number of rows.",
        "    }): Promise<Handle>;",
      ].join("\n"),
    );
    expect(
      await result(native, "tools/list", { format: "typescript", knownHash: listing.hash }),
    ).toEqual({ unchanged: true, hash: listing.hash });
    // A client renders the same text from a json listing (definitions without their source).
    const json = await result(native, "tools/list", { format: "json" });
    expect(renderDeclarations(json.tools)).toBe(listing.tools);

    const bare = await result(native, "tools/list", { format: "typescript", docs: false });
    expect(bare).toMatchObject({ format: "typescript", count: listing.count });
    expect(bare.tools).toBe(view.declarations({ docs: false }));
    expect(bare.tools).not.toMatch(/\/\/|\/\*/);
    expect(bare.tools).toContain(
      "    load(args: { name: string; limit?: number }): Promise<Handle>;\n",
    );
    // The bare form has the compact bare listing's hash: one per view and form.
    expect(bare.hash).toBe((await result(native, "tools/list", { docs: false })).hash);
    expect(bare.hash).not.toBe(listing.hash);

    const geometry = await result(native, "tools/list", {
      format: "typescript",
      groups: ["geometry"],
    });
    expect(geometry.count).toBe(2);
    expect(geometry.tools).toBe(native.session.select({ groups: ["geometry"] }).declarations());
    expect(geometry.tools).not.toContain("interface Handle");

    expect(
      await errorOf(native, req(2, "tools/list", { format: "typescript", lean: true })),
    ).toMatchObject({
      code: -32602,
      message:
        "Invalid params: lean: true applies to the provider formats (openai, openai-chat, anthropic, gemini), not typescript",
    });
    expect(await errorOf(native, req(3, "initialize", { findFormat: "json" }))).toMatchObject({
      code: -32602,
    });
  });

  it("tools/list: lean: true lists the lean artifacts, under a hash of their own", async () => {
    const native = createNativeSession(runtime());
    expect((await result(native, "initialize")).capabilities.tools).toMatchObject({
      docs: true,
      lean: true,
    });
    for (const format of ["openai", "openai-chat", "anthropic", "gemini"] as const) {
      const provider = format === "openai" ? "openai-responses" : format;
      const full = await result(native, "tools/list", { format });
      const lean = await result(native, "tools/list", { format, lean: true });
      expect(full.tools).toEqual(native.session.exposed.artifacts(provider));
      expect(lean.tools).toEqual(native.session.exposed.artifacts(provider, { lean: true }));
      expect(lean.count).toBe(full.count);
      expect(JSON.stringify(lean.tools).length).toBeLessThan(JSON.stringify(full.tools).length);
      expect(full.hash).toBe(native.session.exposed.hash);
      expect(lean.hash).not.toBe(full.hash);
      expect(
        await result(native, "tools/list", { format, lean: true, knownHash: lean.hash }),
      ).toEqual({ unchanged: true, hash: lean.hash });
      expect(
        await result(native, "tools/list", { format, lean: true, knownHash: full.hash }),
      ).toEqual(lean);
      expect(await result(native, "tools/list", { format, knownHash: lean.hash })).toEqual(full);
    }
    // Constraint keywords (a property may be named "format"; tuples keep their length bounds).
    const constraint =
      /"(pattern|minLength|maxLength|minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf|uniqueItems)":|"format":"/;
    expect(
      JSON.stringify((await result(native, "tools/list", { format: "openai" })).tools),
    ).toMatch(constraint);
    expect(
      JSON.stringify((await result(native, "tools/list", { format: "openai", lean: true })).tools),
    ).not.toMatch(constraint);
    expect(await errorOf(native, req(2, "tools/list", { lean: true }))).toMatchObject({
      code: -32602,
      message:
        "Invalid params: lean: true applies to the provider formats (openai, openai-chat, anthropic, gemini), not compact",
    });
    expect(
      await errorOf(native, req(3, "tools/list", { format: "json", lean: true })),
    ).toMatchObject({ code: -32602 });
    expect(
      await errorOf(native, req(4, "tools/list", { format: "openai", lean: 1 })),
    ).toMatchObject({ code: -32602, message: "Invalid params: lean must be a boolean" });
  });

  it("tools/call: values, handles, tool errors and unknown tools are results", async () => {
    const native = createNativeSession(runtime());
    expect(
      await result(native, "tools/call", { name: "orders.add", arguments: { sku: "A1", qty: 3 } }),
    ).toEqual({ ok: true, value: "3 x A1" });
    expect(
      await result(native, "tools/call", {
        name: "ping_server",
        arguments: { echo: "ab", times: 2 },
      }),
    ).toEqual({ ok: true, value: "abab" });
    const loaded = await result(native, "tools/call", {
      name: "tables.load",
      arguments: { name: "orders" },
    });
    expect(loaded).toMatchObject({
      ok: true,
      handle: "#T1",
      summary: "3 records; fields: sku, qty",
      meta: { kind: "table", count: 3 },
    });
    expect(
      await result(native, "tools/call", {
        name: "tables.sum",
        arguments: { rows: "#T1", column: "qty" },
      }),
    ).toEqual({ ok: true, value: 3 });
    const invalid = await result(native, "tools/call", {
      name: "ping_server",
      arguments: { echo: "AB" },
    });
    expect(invalid).toMatchObject({ ok: false, error: "invalid:$.echo" });
    expect(
      await result(native, "tools/call", { name: "nope.nothing", arguments: {} }),
    ).toMatchObject({ ok: false, error: "unknown:nope.nothing" });
    expect(await result(native, "tools/call", { name: "ping_server" })).toMatchObject({
      ok: false,
      error: "missing:$.echo",
    });
  });

  it("handles/*: count, read, view, summary, release; errors are results", async () => {
    const native = createNativeSession(runtime());
    await result(native, "tools/call", { name: "tables.load", arguments: { name: "t" } });
    expect(await result(native, "handles/count", { handle: "#T1" })).toEqual({
      ok: true,
      count: 3,
    });
    expect(await result(native, "handles/read", { handle: "#T1", item: 1 })).toEqual({
      ok: true,
      value: { sku: "t-1", qty: 1 },
    });
    expect(
      await result(native, "handles/read", { handle: "#T1", item: 1, fields: ["qty"] }),
    ).toEqual({ ok: true, value: { qty: 1 } });
    expect(
      await result(native, "handles/view", {
        handle: "#T1",
        columns: ["sku"],
        offset: 1,
        limit: 1,
      }),
    ).toEqual({ ok: true, rows: [{ sku: "t-1" }], offset: 1, limit: 1, total: 3 });
    expect(await result(native, "handles/summary", { handle: "#T1" })).toMatchObject({
      ok: true,
      id: "#T1",
      kind: "table",
    });
    expect(await result(native, "handles/read", { handle: "#T1", item: 7 })).toMatchObject({
      ok: false,
      error: "invalid:item",
      hint: expect.stringContaining("out of range"),
    });
    expect(await result(native, "handles/view", { handle: "#T1", limit: "x" })).toMatchObject({
      ok: false,
      error: "invalid:limit",
    });
    expect(await result(native, "handles/release", { handle: "#T1" })).toEqual({ ok: true });
    expect(await result(native, "handles/read", { handle: "#T1" })).toMatchObject({
      ok: false,
      error: "expired:#T1",
    });
    expect((await errorOf(native, req(3, "handles/read", {}))).code).toBe(-32602);
    expect((await errorOf(native, req(3, "handles/count", { handle: 1 }))).code).toBe(-32602);
  });

  it("keeps handles apart between sessions", async () => {
    const rt = runtime();
    const a = createNativeSession(rt);
    const b = createNativeSession(rt);
    await result(a, "tools/call", { name: "tables.load", arguments: { name: "secret" } });
    expect(await result(b, "handles/read", { handle: "#T1" })).toMatchObject({
      ok: false,
      error: "expired:#T1",
    });
    expect(
      await result(b, "tools/call", {
        name: "tables.sum",
        arguments: { rows: "#T1", column: "qty" },
      }),
    ).toMatchObject({ ok: false, error: "expired:#T1" });
    expect(await result(a, "handles/count", { handle: "#T1" })).toEqual({ ok: true, count: 3 });
    await a.close();
    expect(await result(a, "ping")).toEqual({});
    expect((await errorOf(a, req(4, "handles/count", { handle: "#T1" }))).code).toBe(-32000);
  });

  it("session/stage moves the view and answers its hash; the old view's tools are forbidden", async () => {
    const native = createNativeSession(runtime());
    const moved = await result(native, "session/stage", { stage: "discover" });
    expect(moved).toEqual({ stage: "discover", hash: native.session.exposed.hash });
    expect(
      await result(native, "tools/call", {
        name: "tables.sum",
        arguments: { rows: "#T1", column: "qty" },
      }),
    ).toMatchObject({ ok: false, error: "forbidden:tables.sum" });
    const back = await result(native, "session/stage", { stage: null });
    expect(back.hash).not.toBe(moved.hash);
    expect((await errorOf(native, req(2, "session/stage", { stage: 3 }))).code).toBe(-32602);
    expect((await errorOf(native, req(2, "session/stage", {}))).code).toBe(-32602);
    const fixed = createNativeSession(runtime(), { stage: "discover", clientStages: false });
    expect((await errorOf(fixed, req(2, "session/stage", { stage: null }))).code).toBe(-32602);
  });

  it("answers every error code and keeps serving", async () => {
    const native = createNativeSession(runtime());
    expect(await errorOf(native, "hello")).toMatchObject({ id: null, code: -32600 });
    expect(await errorOf(native, 42)).toMatchObject({ id: null, code: -32600 });
    expect(await errorOf(native, null)).toMatchObject({ id: null, code: -32600 });
    expect(await errorOf(native, { jsonrpc: "1.0", id: 1, method: "ping" })).toMatchObject({
      id: 1,
      code: -32600,
    });
    expect(await errorOf(native, { id: 1, method: "ping" })).toMatchObject({ id: 1, code: -32600 });
    expect(await errorOf(native, { jsonrpc: "2.0", id: { a: 1 }, method: "ping" })).toMatchObject({
      id: null,
      code: -32600,
    });
    expect(await errorOf(native, { jsonrpc: "2.0", id: true, method: "ping" })).toMatchObject({
      id: null,
      code: -32600,
    });
    expect(await errorOf(native, { jsonrpc: "2.0", id: 2, method: 7 })).toMatchObject({
      id: 2,
      code: -32600,
    });
    expect(await errorOf(native, req(3, "tools/destroy"))).toMatchObject({
      id: 3,
      code: -32601,
      message: "Method not found: tools/destroy",
    });
    expect(await errorOf(native, req(3, "toString"))).toMatchObject({ code: -32601 });
    expect(await errorOf(native, req(3, "__proto__"))).toMatchObject({ code: -32601 });
    expect(
      await errorOf(native, { jsonrpc: "2.0", id: 4, method: "ping", params: [1] }),
    ).toMatchObject({ id: 4, code: -32602 });
    expect(await errorOf(native, req("s", "tools/list", { format: "yaml" }))).toMatchObject({
      id: "s",
      code: -32602,
    });
    expect(await errorOf(native, req(5, "tools/list", { profile: "everything" }))).toMatchObject({
      code: -32602,
      message: expect.stringContaining("unknown profile"),
    });
    expect(await errorOf(native, req(5, "tools/list", { groups: "tables" }))).toMatchObject({
      code: -32602,
    });
    expect(await errorOf(native, req(5, "tools/list", { knownHash: 1 }))).toMatchObject({
      code: -32602,
    });
    expect(await errorOf(native, req(6, "tools/call", { arguments: {} }))).toMatchObject({
      code: -32602,
    });
    expect(
      await errorOf(native, req(6, "tools/call", { name: "orders.add", arguments: [1] })),
    ).toMatchObject({ code: -32602 });
    expect(
      await errorOf(native, {
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "json.store", arguments: { key: "k", document: nested(62) } },
      }),
    ).toMatchObject({ id: 7, code: -32600, message: expect.stringContaining("deeper than 64") });
    // 64 levels: the message, params, arguments and 61 arrays.
    expect(
      await result(native, "tools/call", {
        name: "json.store",
        arguments: { key: "k", document: nested(61) },
      }),
    ).toMatchObject({ ok: true });
    expect(await result(native, "ping")).toEqual({});
  });

  it("cancels a running tools/call by its id or by the message's signal; Method not found is clipped", async () => {
    const native = createNativeSession(createRuntime(faulty, { approve: () => true }));
    const cancelled = { ok: false, error: "cancelled", hint: "the call was cancelled" };
    // `hang` never settles: only a cancel answers it.
    const byNumber = native.handle(req(1, "tools/call", { name: "hang" }));
    const byString = native.handle(req("1", "tools/call", { name: "hang" }));
    const notice = { jsonrpc: "2.0", method: "notifications/cancelled" };
    expect(await native.handle({ ...notice, params: { requestId: 1, reason: "no" } })).toBe(
      undefined,
    );
    expect(await byNumber).toEqual({ jsonrpc: "2.0", id: 1, result: cancelled });
    // 1 and "1" are different ids: the other call still runs.
    expect(native.session.running).toBe(2); // both tools hang on (their slots stay taken)
    await native.handle({ ...notice, params: { requestId: "1" } });
    expect(await byString).toEqual({ jsonrpc: "2.0", id: "1", result: cancelled });

    const gone = new AbortController();
    const batch = native.handle([req(2, "ping"), req(3, "tools/call", { name: "hang" })], {
      signal: gone.signal,
    });
    setTimeout(() => gone.abort(), 20);
    expect(await batch).toEqual([
      { jsonrpc: "2.0", id: 2, result: {} },
      { jsonrpc: "2.0", id: 3, result: cancelled },
    ]);
    expect(
      await native.handle(req(4, "tools/call", { name: "echo" }), { signal: gone.signal }),
    ).toEqual({ jsonrpc: "2.0", id: 4, result: cancelled });

    expect(await errorOf(native, req(5, "m".repeat(65)))).toEqual({
      id: 5,
      code: -32601,
      message: `Method not found: ${"m".repeat(64)}…`,
    });
  });

  it("notifications get no answer, batches are answered element by element", async () => {
    const native = createNativeSession(runtime());
    expect(await native.handle({ jsonrpc: "2.0", method: "ping" })).toBeUndefined();
    expect(await native.handle({ jsonrpc: "2.0", method: "no/such" })).toBeUndefined();
    expect(
      await native.handle({
        jsonrpc: "2.0",
        method: "tools/call",
        params: { name: "tables.load", arguments: { name: "n" } },
      }),
    ).toBeUndefined();
    expect(await result(native, "handles/count", { handle: "#T1" })).toEqual({
      ok: true,
      count: 3,
    }); // the notification ran

    const batch = (await native.handle([
      req(1, "initialize"),
      { jsonrpc: "2.0", method: "ping" },
      req(2, "tools/call", { name: "tables.load", arguments: { name: "b" } }),
      req(3, "handles/read", { handle: "#T2", item: 0 }),
      req(4, "nope"),
      "junk",
      [req(5, "ping")],
    ])) as RpcResponse[];
    expect(batch.map((response) => response.id)).toEqual([1, 2, 3, 4, null, null]);
    expect(batch[2]).toMatchObject({ result: { ok: true, value: { sku: "b-0", qty: 0 } } });
    expect(batch[3]).toMatchObject({ error: { code: -32601 } });
    expect(batch[4]).toMatchObject({ error: { code: -32600 } });
    expect(batch[5]).toMatchObject({ error: { code: -32600 } });

    expect(await native.handle([{ jsonrpc: "2.0", method: "ping" }])).toBeUndefined();
    expect(await errorOf(native, [])).toMatchObject({
      id: null,
      code: -32600,
      message: "Invalid Request: empty batch",
    });
    const big = Array.from({ length: 51 }, (_, i) => req(i, "ping"));
    expect(await errorOf(native, big)).toMatchObject({
      id: null,
      code: -32600,
      message: expect.stringContaining("batch too large"),
    });
    expect(await native.handle(big.slice(0, 50))).toHaveLength(50);
    const small = createNativeSession(runtime(), { maxBatch: 2 });
    expect(await errorOf(small, big.slice(0, 3))).toMatchObject({ code: -32600 });
  });
});

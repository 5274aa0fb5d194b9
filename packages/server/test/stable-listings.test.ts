/**
 * On the 2026-07-28 era a listing depends on its address and authorization only: 100 rounds of
 * `tools/list` on three views of one real `zcp-serve` (the workbench: the full view, a discover
 * view and a stage's view), interleaved with finds, calls of found tools, stage moves and calls
 * from other clients of both eras and both surfaces, and every listing of one view is the same
 * bytes as its first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MCP_INITIALIZE,
  mcpSession,
  nativeSession,
  Processes,
  WORKBENCH,
  type HttpServed,
} from "./faults/harness.js";
import { modern, modernCall } from "./modern-wire.js";

const processes = new Processes();
let served: HttpServed;
let views: { readonly all: URL; readonly search: URL; readonly verify: URL };

beforeAll(async () => {
  served = await processes.http(
    [
      "--registry",
      WORKBENCH,
      "--isolation",
      "none",
      "--view",
      "search?profile=discover",
      "--view",
      "verify?stage=verify",
    ],
    { env: { ZCP_WORKBENCH_DIR: processes.tempDir("stable-listings") } },
  );
  views = {
    all: served.mcp,
    search: new URL("/mcp/search", served.mcp),
    verify: new URL("/mcp/verify", served.mcp),
  };
}, 60_000);
afterAll(() => processes.cleanup());

/** The raw body of a 2026-07-28 `tools/list` (id 1) on `url`. */
async function listing(url: URL): Promise<string> {
  const answer = await modern(url, "tools/list");
  expect(answer.status).toBe(200);
  return answer.text;
}

describe("2026-07-28 listings", () => {
  it("name their cache lifetime and scope; a discover view lists find, call and handle only", async () => {
    const all = JSON.parse(await listing(views.all)).result;
    expect(all.ttlMs).toBe(300_000);
    expect(all.cacheScope).toBe("public");
    expect(all.resultType).toBe("complete");
    const search = JSON.parse(await listing(views.search)).result;
    expect(search.tools.map((tool: { name: string }) => tool.name)).toEqual([
      "zcp_find_tools",
      "zcp_call_tool",
      "zcp_handle",
    ]);
    const verify = JSON.parse(await listing(views.verify)).result;
    expect(verify.tools.length).toBeGreaterThan(0);
    expect(verify.tools.length).toBeLessThan(all.tools.length);
  });

  it("are byte-identical per view across 100 rounds of finds, stage moves and calls of others", async () => {
    const first = {
      all: await listing(views.all),
      search: await listing(views.search),
      verify: await listing(views.verify),
    };
    // Clients of the 2025 era and of the native surface, changing their own state meanwhile.
    const legacy = await mcpSession(views.search);
    const native = await nativeSession(served.native);
    const stages = ["setup", "operate", "calculate", "verify", "polish"];
    for (let round = 0; round < 100; round++) {
      const found = await modernCall(views.search, "zcp_find_tools", {
        query: round % 2 === 0 ? "chart" : "sum a range",
      });
      expect(found.isError).toBeFalsy();
      await modernCall(views.search, "zcp_call_tool", {
        name: "excel.get_workbook_metadata",
        arguments: { path: `round-${round}.xlsx` },
      });
      await legacy.send({
        jsonrpc: "2.0",
        id: round + 10,
        method: "tools/call",
        params: { name: "zcp_find_tools", arguments: { query: `format cells ${round}` } },
      });
      await native.send({
        jsonrpc: "2.0",
        id: round,
        method: "session/stage",
        params: { stage: stages[round % stages.length] },
      });
      await modernCall(views.verify, "excel_get_workbook_metadata", { path: "missing.xlsx" });
      const [all, search, verify] = await Promise.all([
        listing(views.all),
        listing(views.search),
        listing(views.verify),
      ]);
      expect(all).toBe(first.all);
      expect(search).toBe(first.search);
      expect(verify).toBe(first.verify);
    }
    // The 2025 session's own view grew meanwhile: that era keeps its sessions.
    const grown = await legacy.send({ jsonrpc: "2.0", id: 999, method: "tools/list" });
    expect(grown.messages[0].result.tools.length).toBeGreaterThan(1);
    expect(MCP_INITIALIZE.method).toBe("initialize");
  }, 120_000);
});

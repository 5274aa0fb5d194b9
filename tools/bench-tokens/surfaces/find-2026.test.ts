/** `mcp-find-2026`: tool search on MCP 2026-07-28, a fixed listing of find + call (surfaces/mcp.ts). */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCase } from "../plans/case.ts";
import { TIER_B_CASES } from "../plans/tier-b.ts";
import { workbench } from "../plans/registries.ts";
import { listAllTools, mcpFunction } from "./mcp-listing.ts";
import { connectLegacy, connectModern, mcpRuntime } from "./mcp.ts";
import { closeSurfaces, openSurface } from "./open.ts";
import { CATALOGS, FIND_ALIAS } from "./spec.ts";
import { NotListed } from "./turn.ts";

afterAll(closeSurfaces);

const SPEC = { protocol: "mcp-find-2026", catalog: "primitive" } as const;

describe("bench:tokens mcp-find-2026", () => {
  it("lists zcp_find_tools and zcp_call_tool, and calls a found tool through zcp_call_tool", async () => {
    const workspace = await mkdtemp(path.join(os.tmpdir(), "zcp-find-2026-"));
    process.env.ZCP_WORKBENCH_DIR = workspace;
    const surface = await openSurface(SPEC, workbench);
    try {
      expect(
        (surface.tools as { function: { name: string } }[]).map((tool) => tool.function.name),
      ).toEqual(["zcp_find_tools", "zcp_call_tool"]);
      expect([...surface.listed]).toEqual(["zcp.find_tools", "zcp.call_tool"]);
      await expect(
        surface.turn([{ alias: "excel.create_workbook", args: { path: "a.xlsx" } }]),
      ).rejects.toThrow(NotListed);
      const find = await surface.turn([
        { alias: FIND_ALIAS, args: { query: "Create a new .xlsx workbook" } },
      ]);
      expect(find.errors).toEqual([]);
      // The find's text is the tool result as the server sent it: MCP definitions, not functions.
      const [result] = find.results;
      const found = JSON.parse(result?.role === "tool" ? result.content : "");
      expect(found.tools[0]).toMatchObject({ name: "excel_create_workbook" });
      expect(found.tools[0].inputSchema).toBeDefined();
      expect(surface.listed.has("excel.create_workbook")).toBe(true);
      const call = await surface.turn([
        { alias: "excel.create_workbook", args: { path: "a.xlsx", overwrite: true } },
      ]);
      expect(call.assistant).toEqual({
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_2",
            type: "function",
            function: {
              name: "zcp_call_tool",
              arguments: JSON.stringify({
                name: "excel_create_workbook",
                arguments: { path: "a.xlsx", overwrite: true },
              }),
            },
          },
        ],
      });
    } finally {
      await surface.close();
      delete process.env.ZCP_WORKBENCH_DIR;
      await rm(workspace, { recursive: true, force: true });
    }
  });

  it("the plain server lists the same definitions on both eras, so mcp's figures hold for either", async () => {
    /** JSON with every object's keys sorted (the v2 client orders outputSchema's keys per era). */
    const canonical = (value: unknown): string =>
      JSON.stringify(value, (_key, inner: unknown) =>
        inner !== null && typeof inner === "object" && !Array.isArray(inner)
          ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1)))
          : inner,
      );
    for (const catalog of CATALOGS) {
      const legacy = await connectLegacy(mcpRuntime(workbench, catalog, "plain"));
      const modern = await connectModern(mcpRuntime(workbench, catalog, "plain"));
      try {
        const [old, now] = [await listAllTools(legacy.client), await listAllTools(modern.client)];
        // What a request carries (the functions) is the same bytes; the definitions the same.
        expect(JSON.stringify(now.map(mcpFunction)), catalog).toBe(
          JSON.stringify(old.map(mcpFunction)),
        );
        expect(canonical(now), catalog).toBe(canonical(old));
      } finally {
        await Promise.all([legacy.close(), modern.close()]);
      }
    }
  });

  it("runs a case after blind finds, with the searches the 2025 surface makes", async () => {
    const bench = TIER_B_CASES[0]!;
    const [modern, legacy] = [
      await runCase(bench, SPEC),
      await runCase(bench, { protocol: "mcp-search", catalog: "primitive" }),
    ];
    expect([modern.errors, modern.problems, modern.verified]).toEqual([[], [], true]);
    expect(modern.searches).toEqual(legacy.searches);
    expect(modern.turns.length).toBe(legacy.turns.length);
  });
});

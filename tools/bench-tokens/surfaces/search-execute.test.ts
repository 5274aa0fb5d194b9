/** `mcp-search-execute`: Cloudflare's search + execute design over the benchmark's catalogs (search-execute.ts). */
import { createRuntime } from "@zcp/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { runCase } from "../plans/case.ts";
import { largeCatalog } from "../plans/catalog-large.ts";
import { HANDLE_CASES } from "../plans/handles.ts";
import { workbench } from "../plans/registries.ts";
import { catalogSpec, foundNames, searchCalls, toolRequest } from "./search-execute.ts";
import { closeSurfaces, openSurface } from "./open.ts";
import { TIER_A_CASES } from "../plans/tier-a.ts";
import { TIER_B_CASES } from "../plans/tier-b.ts";
import { TIER_C_CASES } from "../plans/tier-c.ts";
import { TIER_D_CASES } from "../plans/tier-d.ts";

afterAll(closeSurfaces);

const SPEC = { protocol: "mcp-search-execute", catalog: "primitive" } as const;
const large = largeCatalog(workbench);

describe("bench:tokens mcp-search-execute: the spec and the calls", () => {
  const runtime = createRuntime(workbench);
  const tool = {
    name: "excel_merge_cells",
    description: "Merge a range into one cell. The top-left value is kept.",
    inputSchema: {
      type: "object" as const,
      properties: { range: { type: "string" }, again: { $ref: "#/properties/range" } },
    },
  };

  it("serves each MCP tool as one POST operation, its local $refs rebased into the document", () => {
    const spec = catalogSpec([tool], runtime) as { paths: Record<string, { post: unknown }> };
    expect(spec.paths).toEqual({
      "/tools/excel_merge_cells": {
        post: {
          operationId: "excel_merge_cells",
          summary: "Merge a range into one cell.",
          description: "Merge a range into one cell. The top-left value is kept.",
          tags: ["excel"],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    range: { type: "string" },
                    again: {
                      $ref: "#/paths/~1tools~1excel_merge_cells/post/requestBody/content/application~1json/schema/properties/range",
                    },
                  },
                },
              },
            },
          },
          responses: { "200": { description: "The tool's result." } },
        },
      },
    });
  });

  it("calls a tool for a POST of its operation, unwrapping the result as codeMcpServer does", async () => {
    const calls: unknown[] = [];
    const request = toolRequest(async (params) => {
      calls.push(params);
      return params.name === "bad"
        ? { isError: true, content: [{ type: "text", text: "invalid:range" }] }
        : params.name === "typed"
          ? { structuredContent: { n: 1 }, content: [{ type: "text", text: "{}" }] }
          : { content: [{ type: "text", text: '{"ok":true}' }] };
    });
    expect(await request({ method: "POST", path: "/tools/plain", body: { a: 1 } })).toEqual({
      ok: true,
    });
    expect(await request({ method: "POST", path: "/tools/typed" })).toEqual({ n: 1 });
    await expect(request({ method: "POST", path: "/tools/bad" })).rejects.toThrow(
      /^invalid:range$/,
    );
    await expect(request({ method: "GET", path: "/tools/plain" })).rejects.toThrow(
      /^no operation GET \/tools\/plain: tools are POST \/tools\/<name>$/,
    );
    expect(calls).toEqual([
      { name: "plain", arguments: { a: 1 } },
      { name: "typed", arguments: {} },
      { name: "bad", arguments: {} },
    ]);
  });

  it("reads the tools a search answered from the paths it lists", () => {
    expect(
      foundNames([[{ method: "POST", path: "/tools/a_b", summary: "x" }], [{ path: "/tools/c" }]]),
    ).toEqual(["a_b", "c"]);
    expect(foundNames(null)).toEqual([]);
  });
});

describe("bench:tokens mcp-search-execute: the surface", () => {
  it("lists Cloudflare's search and execute, the same definitions over 19 tools and over 1,083", async () => {
    const small = await openSurface(SPEC, workbench);
    const big = await openSurface(SPEC, large);
    try {
      const functions = (small.tools as { function: { name: string; description: string } }[]).map(
        (entry) => entry.function,
      );
      expect(functions.map((entry) => entry.name)).toEqual(["search", "execute"]);
      expect(functions[0]!.description).toMatch(
        /^Search the OpenAPI spec\. codemode\.spec\(\) returns \$refs resolved inline\./,
      );
      expect(functions[1]!.description).toMatch(
        /^Execute API calls using JavaScript code\. First use 'search' to find the right endpoints\./,
      );
      expect(big.tools).toEqual(small.tools);
    } finally {
      await Promise.all([small.close(), big.close()]);
    }
  });

  it("makes callable only what a search answered", async () => {
    const surface = await openSurface(SPEC, large);
    try {
      expect([...surface.listed]).toEqual(["search", "execute"]);
      const outcome = await surface.turn(
        searchCalls(["Create a new .xlsx workbook with one empty, active worksheet."]),
      );
      expect(outcome.errors).toEqual([]);
      expect(surface.listed.has("excel.create_workbook")).toBe(true);
      expect(surface.listed.size).toBe(2 + 5);
    } finally {
      await surface.close();
    }
  });

  it("large catalog: every case's program passes its verifier after blind searches, none cut short", async () => {
    const cases = [
      ...TIER_A_CASES,
      ...TIER_B_CASES,
      ...TIER_C_CASES,
      ...TIER_D_CASES,
      ...HANDLE_CASES,
    ];
    for (const bench of cases) {
      const run = await runCase({ ...bench, registry: large }, SPEC);
      const where = `${bench.id} on mcp-search-execute (large)`;
      expect([run.errors, run.problems, run.verified, run.plan], where).toEqual([
        [],
        [],
        true,
        "program",
      ]);
      expect(run.searches.length, where).toBeGreaterThan(0);
      expect(run.searches.filter((search) => search.found).length, where).toBe(
        new Set(run.searches.map((search) => search.for)).size,
      );
      // Search rounds, the read of the chosen operations, the program, the answer.
      const rounds = run.calls - 2;
      expect(run.turns, where).toHaveLength(rounds + 3);
      for (const message of run.messages)
        if (message.role === "tool") expect(message.content, where).not.toContain("TRUNCATED");
    }
  }, 240_000);
});

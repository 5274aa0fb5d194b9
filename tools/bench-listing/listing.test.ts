/** The corpus loader and the JSON Schema → planner line and lean JSON conversions behind `pnpm bench:listing`. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { firstSentence, parsePlannerLine } from "@zcp/runtime/definition";
import { describe, expect, it } from "vitest";
import { bfclToJsonSchema, loadCorpus, type JsonSchema } from "./corpus.ts";
import { leanTool, parsesBack, plannerLine } from "./listing.ts";
import { listingTable, measureCorpus } from "./measure.ts";

const corpus = loadCorpus(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/corpus"),
);
const tools = corpus.flatMap((registry) => registry.listings.flat());

describe("bench:listing", () => {
  it("reads every registry of the corpus: 1,064 tools", () => {
    expect(
      corpus.map((r) => r.listings.reduce((n, l) => n + l.length, 0)).reduce((a, b) => a + b),
    ).toBe(1064);
    expect(corpus[0]).toMatchObject({ name: "github-mcp-server", listings: [expect.any(Array)] });
    expect(corpus[0]!.listings[0]).toHaveLength(117);
  });

  it("maps BFCL's Python-flavoured types to JSON Schema, recursively", () => {
    const mapped = bfclToJsonSchema({
      type: "dict",
      properties: {
        ratio: { type: "float" },
        pair: { type: "tuple", items: { type: "dict", properties: {} } },
        anything: { type: "any", description: "x" },
      },
    });
    expect(mapped).toEqual({
      type: "object",
      properties: {
        ratio: { type: "number" },
        pair: { type: "array", items: { type: "object", properties: {} } },
        anything: { description: "x" },
      },
    });
  });

  it("turns every listed tool into a planner line that keeps its parameters, required ones and defaults", () => {
    const unparsed: string[] = [];
    for (const tool of tools) {
      const line = plannerLine(tool);
      if (!parsesBack(line)) {
        unparsed.push(line);
        continue;
      }
      const parsed = parsePlannerLine(line);
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((tool.inputSchema.required ?? []) as string[]);
      expect(parsed.alias).toBe(tool.name);
      expect(parsed.params.map((p) => p.name)).toEqual(
        Object.keys(properties).concat(parsed.params.some((p) => p.name === "*") ? ["*"] : []),
      );
      for (const param of parsed.params.filter((p) => p.name !== "*")) {
        const hasDefault = properties[param.name]!.default !== undefined;
        expect(param.default !== null).toBe(hasDefault);
        if (!hasDefault) expect(param.optional).toBe(!required.has(param.name));
      }
    }
    // The one line outside the grammar: a BFCL parameter named in Spanish with a non-ASCII letter.
    expect(unparsed).toHaveLength(1);
    expect(unparsed[0]).toContain("año_vehiculo");
  });

  it("documents the lines with first sentences that read back, and leaves them out of the bare and tool-only forms", () => {
    const docOf = (text: unknown) =>
      typeof text === "string" && firstSentence(text) !== "" ? firstSentence(text) : null;
    for (const tool of tools) {
      const line = plannerLine(tool);
      if (!parsesBack(line)) continue;
      const parsed = parsePlannerLine(line);
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
      expect(parsed.description, tool.name).toBe(docOf(tool.description));
      expect(
        parsed.params.filter((p) => p.name !== "*").map((p) => p.description),
        tool.name,
      ).toEqual(Object.values(properties).map((property) => docOf(property.description)));
      const bare = parsePlannerLine(plannerLine(tool, "none"));
      const toolOnly = parsePlannerLine(plannerLine(tool, "tool"));
      expect(bare).toEqual({
        ...parsed,
        description: null,
        params: parsed.params.map((p) => ({ ...p, description: null })),
      });
      expect(toolOnly).toEqual({ ...bare, description: parsed.description });
    }
  });

  it("makes lean JSON of first sentences without validator constraints, keeping names, types, enums and required-ness", () => {
    const lean = leanTool({
      name: "t",
      description: "Find files. Slowly.",
      inputSchema: {
        type: "object",
        properties: {
          glob: {
            type: "string",
            description: "A glob, e.g. *.ts. Relative.",
            pattern: "^[^/]",
            minLength: 1,
          },
          n: { type: "integer", minimum: 1, default: 5 },
          kind: { enum: ["a", "b"] },
        },
        required: ["glob"],
        additionalProperties: false,
      },
    });
    expect(lean).toEqual({
      name: "t",
      description: "Find files.",
      inputSchema: {
        type: "object",
        properties: {
          glob: { type: "string", description: "A glob, e.g. *.ts." },
          n: { type: "integer", default: 5 },
          kind: { enum: ["a", "b"] },
        },
        required: ["glob"],
        additionalProperties: false,
      },
    });
  });

  it("measures five forms: lean JSON and documented lines smaller than MCP JSON, bare lines smallest", () => {
    const { rows, total } = measureCorpus();
    expect(rows).toHaveLength(15);
    for (const row of [...rows, total]) {
      const t = row.tokens;
      expect(t.lean, row.registry).toBeLessThan(t.mcp);
      expect(t.plannerDocs, row.registry).toBeLessThan(t.lean);
      expect(t.plannerTool, row.registry).toBeLessThanOrEqual(t.plannerDocs);
      expect(t.plannerBare, row.registry).toBeLessThan(t.plannerTool);
      expect(row.ratios.lean).toBeCloseTo(t.mcp / t.lean);
    }
    const table = listingTable(rows, total, ["github-mcp-server"]).split("\n");
    expect(table).toHaveLength(4);
    expect(table[2]).toMatch(/^\| github-mcp-server \| 1 \| 117 \| 25,103 \| /);
    expect(table[3]).toMatch(/^\| \*\*all\*\* \| 341 \| 1,064 \| 168,610 \| /);
  });
});

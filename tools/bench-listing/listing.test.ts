/** The corpus loader and the JSON Schema → planner line conversion behind `pnpm bench:listing`. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parsePlannerLine } from "@zcp/runtime/codegen";
import { describe, expect, it } from "vitest";
import { bfclToJsonSchema, loadCorpus, type JsonSchema } from "./corpus.ts";
import { parsesBack, plannerLine } from "./listing.ts";

const corpus = loadCorpus(path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/corpus"));
const tools = corpus.flatMap((registry) => registry.listings.flat());

describe("bench:listing", () => {
  it("reads every registry of the corpus: 1,064 tools", () => {
    expect(corpus.map((r) => r.listings.reduce((n, l) => n + l.length, 0)).reduce((a, b) => a + b)).toBe(1064);
    expect(corpus[0]).toMatchObject({ name: "github-mcp-server", listings: [expect.any(Array)] });
    expect(corpus[0]!.listings[0]).toHaveLength(117);
  });

  it("maps BFCL's Python-flavoured types to JSON Schema, recursively", () => {
    const mapped = bfclToJsonSchema({
      type: "dict",
      properties: { ratio: { type: "float" }, pair: { type: "tuple", items: { type: "dict", properties: {} } }, anything: { type: "any", description: "x" } },
    });
    expect(mapped).toEqual({
      type: "object",
      properties: { ratio: { type: "number" }, pair: { type: "array", items: { type: "object", properties: {} } }, anything: { description: "x" } },
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
      expect(parsed.params.map((p) => p.name)).toEqual(Object.keys(properties).concat(parsed.params.some((p) => p.name === "*") ? ["*"] : []));
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
});

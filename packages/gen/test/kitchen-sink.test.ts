/**
 * The kitchen-sink fixture's schemas against an oracle (Ajv, draft 2020-12): every schema
 * compiles in strict mode, and sample arguments that tsc accepts or rejects for the real
 * function signatures (fixtures/kitchen-sink/src/kitchen-sink.samples.ts) are accepted or
 * rejected by the schema the same way.
 */
import path from "node:path";
import type { ToolDefinition } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import { samples } from "../../../fixtures/kitchen-sink/src/kitchen-sink.samples.js";
import { ajv, FIXTURES, generatedRegistry } from "./helpers.js";

const registry = generatedRegistry(path.join(FIXTURES, "kitchen-sink/src/zcp.gen"));

/** Positional sample → the JSON arguments object a model would send. */
function toArguments(tool: ToolDefinition, args: unknown[]): unknown {
  const wire = (value: unknown) => JSON.parse(JSON.stringify(value ?? null));
  if (tool.call.kind === "object") return wire(args[0] ?? {});
  const object: Record<string, unknown> = {};
  tool.call.params.forEach((name, index) => {
    const position = tool.call.context !== null && index >= tool.call.context ? index + 1 : index;
    if (args[position] !== undefined) object[name] = args[position];
  });
  return wire(object);
}

describe("kitchen-sink schemas", () => {
  it("carry every tool option as written", () => {
    const byAlias = new Map(registry.tools.map((tool) => [tool.alias, tool]));
    expect(byAlias.get("tables.load")).toMatchObject({
      id: "tload",
      title: "Load table",
      outputMode: "handle",
      handleKind: "table",
      groups: ["tables"],
      stages: ["discover"],
      flags: ["idempotent", "readonly"],
      scopes: ["tables:read"],
      defaults: { limit: 100 },
      call: { kind: "positional", params: ["name", "limit"], context: 1 },
      source: { file: "src/options.ts", export: "loadTable" },
    });
    expect(byAlias.get("tables.sum")).toMatchObject({
      handleParams: { rows: "table", anything: "*" },
    });
    expect(byAlias.get("tables.drop")).toMatchObject({
      flags: ["approval", "destructive"],
      scopes: ["admin", "tables:write"],
      groups: ["admin", "tables"],
      outputSchema: null,
    });
    expect(byAlias.get("reports.export")).toMatchObject({
      outputMode: "auto",
      handleKind: "report",
      deprecated: "Use tables.load and a view instead.",
      call: { kind: "object", context: null },
      defaults: {
        format: "csv",
        pageSize: 50,
        offset: -1,
        draft: false,
        columns: ["sku", "qty"],
        style: { bold: true },
        color: "blue",
        note: null,
      },
    });
    expect(byAlias.get("search.run")).toMatchObject({
      call: { kind: "object", context: null },
      outputMode: "auto",
      handleKind: "generic",
    });
    expect(byAlias.get("people.find")).toMatchObject({
      outputMode: "handle",
      handleKind: "page",
      stages: ["discover", "operate"],
    });
    // A bare @tool names the tool after the function, in snake_case.
    expect(byAlias.get("ping_server")).toMatchObject({ source: { export: "pingServer" } });
  });

  it("cover every construct with a sample set per tool", () => {
    expect(Object.keys(samples).sort()).toEqual(registry.tools.map((tool) => tool.alias).sort());
  });

  for (const tool of registry.tools) {
    describe(tool.alias, () => {
      const set = samples[tool.alias]!;
      it("accepts what TypeScript accepts and rejects what it rejects", () => {
        const validate = ajv().compile(tool.inputSchema);
        for (const sample of set.valid) {
          const args = toArguments(tool, sample);
          expect(validate(args), `${JSON.stringify(args)} ${JSON.stringify(validate.errors)}`).toBe(
            true,
          );
        }
        for (const sample of set.invalid) {
          const args = toArguments(tool, sample);
          expect(validate(args), `should reject ${JSON.stringify(args)}`).toBe(false);
        }
        for (const args of set.json?.valid ?? [])
          expect(validate(args), JSON.stringify(args)).toBe(true);
        for (const args of set.json?.invalid ?? [])
          expect(validate(args), `should reject ${JSON.stringify(args)}`).toBe(false);
        expect(set.valid.length + (set.json?.valid.length ?? 0)).toBeGreaterThan(0);
        expect(set.invalid.length + (set.json?.invalid.length ?? 0)).toBeGreaterThan(0);
      });

      if (set.constraint) {
        it("enforces the JSDoc constraints TypeScript cannot see", () => {
          const validate = ajv().compile(tool.inputSchema);
          const base = toArguments(tool, set.valid[0] ?? []) as Record<string, unknown>;
          for (const args of set.constraint!) {
            const merged = { ...base, ...args };
            expect(validate(merged), `should reject ${JSON.stringify(merged)}`).toBe(false);
          }
        });
      }
    });
  }
});

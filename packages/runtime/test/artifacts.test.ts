/**
 * Provider artifacts are derived from the registry by the runtime: each set must be exactly
 * (byte for byte, as `JSON.stringify(set, null, 2)`) what `zcp gen` wrote into
 * `artifacts/<provider>.json` before the rules moved here, kept under `test/golden/` (weather's
 * `anthropic.json` since with the `input_examples` of its tool's `@example`; lean entries have none;
 * the MCP entries since without the repeated `annotations.title` and empty `_meta` fields).
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { registry as kitchenSink } from "../../../fixtures/kitchen-sink/src/zcp.gen/registry.js";
import { registry as weather } from "../../../fixtures/weather/src/zcp.gen/registry.js";
import { ARTIFACT_PROVIDERS, artifactSet, type Registry } from "@zcp/runtime";

const golden = (fixture: string, file: string) =>
  fs.readFileSync(new URL(`golden/${fixture}/${file}`, import.meta.url), "utf8");

describe("artifactSet: the provider rules applied to a registry", () => {
  for (const [fixture, registry] of [
    ["weather", weather],
    ["kitchen-sink", kitchenSink],
  ] as const) {
    for (const lean of [false, true]) {
      for (const provider of ARTIFACT_PROVIDERS) {
        const file = `${lean ? "lean/" : ""}${provider}.json`;
        it(`${fixture}: ${file} as zcp gen wrote it`, () => {
          const set = artifactSet(registry, provider, { lean });
          expect(`${JSON.stringify(set, null, 2)}\n`).toBe(golden(fixture, file));
        });
      }
    }
  }

  it("compiles a set once per registry object, for that registry's tools only", () => {
    expect(artifactSet(weather, "mcp")).toBe(artifactSet(weather, "mcp"));
    const one: Registry = { ...weather, tools: weather.tools.slice(0, 1) };
    expect(Object.keys(artifactSet(one, "mcp"))).toEqual([weather.tools[0]!.id]);
    expect(artifactSet(one, "mcp")[weather.tools[0]!.id]).toEqual(
      artifactSet(weather, "mcp")[weather.tools[0]!.id],
    );
  });

  it("refuses an unknown provider", () => {
    expect(() => artifactSet(weather, "cohere" as never)).toThrow(
      new RangeError('unknown artifact provider "cohere"'),
    );
  });
});

describe("a deprecated tool's MCP entry", () => {
  const tool = weather.tools[0]!;
  const entry = (deprecated: string | null) => {
    const registry: Registry = { ...weather, tools: [{ ...tool, deprecated }] };
    return artifactSet(registry, "mcp")[tool.id]!;
  };

  it("starts its description with the note and says deprecated: true in _meta", () => {
    expect(entry("Use weather.forecast instead.")).toMatchObject({
      description: `Deprecated: Use weather.forecast instead.\n\n${tool.description}`,
      _meta: { deprecated: true },
    });
    expect(entry("").description).toBe(`Deprecated.\n\n${tool.description}`);
  });

  it("is unchanged for a tool that is not deprecated, with no _meta for nothing", () => {
    const plain = entry(null);
    expect(plain.description).toBe(tool.description);
    expect(plain._meta?.deprecated).toBeUndefined();
    if (tool.groups.length + tool.stages.length === 0) expect(plain).not.toHaveProperty("_meta");
  });
});

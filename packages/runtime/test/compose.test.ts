/**
 * `composeGenerated`: several generated modules served as one, checked as `createRuntime`
 * checks one, collisions refused, a prefix renaming a module's tools consistently.
 */
import { describe, expect, it } from "vitest";
import conformance from "../../../fixtures/conformance/src/zcp.gen/index.js";
import kitchenSink from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { deriveId } from "../../gen/src/index.js";
import {
  ARTIFACT_PROVIDERS,
  artifactSet,
  composeGenerated,
  createRuntime,
  GeneratedModuleError,
  type ArtifactEntries,
  type GeneratedModule,
} from "@zcp/runtime";
import { canonicalJson, combineToolHashes, sha12, type JsonValue } from "@zcp/runtime/definition";

const failure = (compose: () => unknown): string => {
  try {
    compose();
  } catch (error) {
    expect(error).toBeInstanceOf(GeneratedModuleError);
    return (error as Error).message;
  }
  throw new Error("composeGenerated accepted it");
};

const entryName = (entry: ArtifactEntries[keyof ArtifactEntries]): string =>
  "function" in entry ? entry.function.name : entry.name;

describe("composeGenerated", () => {
  const composed = composeGenerated([weather, kitchenSink]);
  const tools = [...weather.registry.tools, ...kitchenSink.registry.tools];

  it("serves both modules' tools, each call routed to its own implementation", async () => {
    const session = createRuntime(composed).session();
    expect(await session.call("math.subtract", { a: 5, b: 2 })).toEqual({ ok: true, value: 3 });
    expect(
      await session.call("shapes.area", { shape: { kind: "square", side: 3 }, decimals: 0 }),
    ).toEqual({ ok: true, value: 9 });
    // By provider name and id too.
    expect(await session.call("math_subtract", { a: 1, b: 2 })).toEqual({ ok: true, value: -1 });
    const area = kitchenSink.registry.tools.find((tool) => tool.alias === "shapes.area")!;
    expect(
      await session.call(area.id, { shape: { kind: "square", side: 2 }, decimals: 0 }),
    ).toEqual({ ok: true, value: 4 });
  });

  it("lists both modules' tools, sorted by alias, with their names", () => {
    const aliases = tools.map((tool) => tool.alias).sort();
    expect(composed.registry.tools.map((tool) => tool.alias)).toEqual(aliases);
    expect(composed.registry.names).toEqual({
      ...weather.registry.names,
      ...kitchenSink.registry.names,
    });
    const listed = createRuntime(composed)
      .session()
      .exposed.tools.map((tool) => tool.alias);
    for (const alias of aliases) expect(listed).toContain(alias);
  });

  it("answers every provider, full and lean, with both modules' entries", () => {
    for (const lean of [false, true]) {
      for (const provider of ARTIFACT_PROVIDERS) {
        const set = artifactSet(composed.registry, provider, { lean });
        expect(Object.keys(set).sort()).toEqual(
          Object.keys({
            ...artifactSet(weather.registry, provider, { lean }),
            ...artifactSet(kitchenSink.registry, provider, { lean }),
          }).sort(),
        );
        for (const [id, entry] of Object.entries(set)) {
          const from = weather.registry.tools.some((tool) => tool.id === id)
            ? weather
            : kitchenSink;
          expect(entry).toEqual(artifactSet(from.registry, provider, { lean })[id]);
        }
        const view = createRuntime(composed).session().exposed;
        const names = view.artifacts(provider, { lean }).map(entryName);
        expect(names).toContain("weather_get_current");
        expect(names).toContain("shapes_area");
      }
    }
  });

  it("names the generators of the modules it composed", () => {
    expect(composed.registry.generator).toBe(weather.registry.generator);
    const other = { ...kitchenSink, registry: { ...kitchenSink.registry, generator: "0.0.9" } };
    expect(composeGenerated([weather, other]).registry.generator).toBe(
      `${weather.registry.generator}, 0.0.9`,
    );
  });

  it("hashes the tools' hashes: deterministic and order-independent", () => {
    expect(composed.registry.hash).toBe(combineToolHashes(tools));
    expect(composeGenerated([kitchenSink, weather]).registry.hash).toBe(composed.registry.hash);
    expect(composeGenerated([weather, kitchenSink]).registry.hash).toBe(composed.registry.hash);
    expect(composed.registry.hash).not.toBe(weather.registry.hash);
    // One module composed alone keeps its registry hash.
    expect(composeGenerated([weather]).registry.hash).toBe(weather.registry.hash);
  });

  it("refuses the same tool in two modules, naming it and both sources", () => {
    expect(failure(() => composeGenerated([weather, weather]))).toBe(
      'composeGenerated: alias "math.average" is in both module 1 and module 2: give one of them a prefix',
    );
    expect(
      failure(() =>
        composeGenerated([
          kitchenSink,
          { module: weather, source: "fixtures/weather" },
          { module: weather, source: "weather again" },
        ]),
      ),
    ).toBe(
      'composeGenerated: alias "math.average" is in both fixtures/weather and weather again: give one of them a prefix',
    );
  });

  it("refuses a provider name or id in two modules", () => {
    const [tool] = weather.registry.tools;
    const renamed = (patch: object): GeneratedModule => {
      const other = { ...tool!, alias: "other.tool", ...patch };
      return {
        ...weather,
        registry: { ...weather.registry, tools: [other], names: { [other.name]: other.alias } },
        validators: { [other.id]: weather.validators[tool!.id]! },
        dispatch: { [other.id]: weather.dispatch[tool!.id]! },
      };
    };
    expect(failure(() => composeGenerated([weather, renamed({})]))).toBe(
      `composeGenerated: id "${tool!.id}" is in both module 1 and module 2: give one of them a prefix`,
    );
    expect(failure(() => composeGenerated([weather, renamed({ id: "zzzzzz" })]))).toBe(
      `composeGenerated: provider name "${tool!.name}" is in both module 1 and module 2: give one of them a prefix`,
    );
  });

  it("renames a prefixed module's tools consistently, and serves them", async () => {
    const both = composeGenerated([weather, { module: weather, prefix: "billing" }]);
    expect(both.registry.tools).toHaveLength(8);
    const renamed = both.registry.tools.find((tool) => tool.alias === "billing.math.subtract")!;
    const original = weather.registry.tools.find((tool) => tool.alias === "math.subtract")!;
    expect(renamed.id).toBe(deriveId("billing.math.subtract"));
    expect(renamed.name).toBe("billing_math_subtract");
    expect(renamed.planner).toBe(
      original.planner.replace(
        `@${original.id} math.subtract(`,
        `@${renamed.id} billing.math.subtract(`,
      ),
    );
    expect(renamed.plannerBare.startsWith(`TOOL @${renamed.id} billing.math.subtract(`)).toBe(true);
    // The hash as zcp gen computes one: the canonical JSON without `hash` and `source`.
    const { hash, source: _source, ...hashed } = renamed;
    expect(hash).toBe(sha12(canonicalJson(hashed as unknown as JsonValue)));
    const { hash: originalHash, source: _s, ...originalHashed } = original;
    expect(originalHash).toBe(sha12(canonicalJson(originalHashed as unknown as JsonValue)));
    expect(hash).not.toBe(originalHash);
    expect(both.registry.names["billing_math_subtract"]).toBe("billing.math.subtract");
    expect(both.registry.hash).toBe(combineToolHashes(both.registry.tools));
    // A trailing dot is not doubled.
    expect(
      composeGenerated([{ module: weather, prefix: "billing." }]).registry.tools.map(
        (tool) => tool.alias,
      ),
    ).toContain("billing.math.subtract");

    for (const provider of ARTIFACT_PROVIDERS) {
      const set = artifactSet(both.registry, provider);
      expect(Object.keys(set).sort()).toEqual(both.registry.tools.map((tool) => tool.id).sort());
      expect(entryName(set[renamed.id]!)).toBe("billing_math_subtract");
      expect(entryName(set[original.id]!)).toBe("math_subtract");
      const { name: _a, ...renamedRest } = set[renamed.id] as { name?: string };
      const { name: _b, ...originalRest } = set[original.id] as { name?: string };
      if (provider !== "openai-chat") expect(renamedRest).toEqual(originalRest);
    }

    const session = createRuntime(both).session();
    expect(await session.call("billing.math.subtract", { a: 7, b: 2 })).toEqual({
      ok: true,
      value: 5,
    });
    expect(await session.call("billing_math_subtract", { a: 1, b: 1 })).toEqual({
      ok: true,
      value: 0,
    });
    expect(await session.call("math.subtract", { a: 7, b: 3 })).toEqual({ ok: true, value: 4 });
    expect(session.exposed.planner).toContain(renamed.planner);
  });

  it("refuses an invalid prefix", () => {
    expect(failure(() => composeGenerated([{ module: weather, prefix: "9 lives" }]))).toBe(
      'module 1: prefix "9 lives" is not a dotted name (letters, digits, _ and -, e.g. "billing")',
    );
  });

  it("refuses a module of another registry format, naming both versions and the source", () => {
    const old = {
      ...weather,
      registry: { ...weather.registry, version: 1 },
    } as unknown as GeneratedModule;
    expect(failure(() => composeGenerated([kitchenSink, old]))).toBe(
      "module 2: the generated module has registry format 1 (written by zcp gen 0.1.0); this @zcp/runtime 0.1.0 reads format 3: run zcp gen with a matching @zcp/gen",
    );
    expect(
      failure(() => composeGenerated([{ module: old, source: "fixtures/old/zcp.gen/index.ts" }])),
    ).toBe(
      "fixtures/old/zcp.gen/index.ts: the generated module has registry format 1 (written by zcp gen 0.1.0); this @zcp/runtime 0.1.0 reads format 3: run zcp gen with a matching @zcp/gen",
    );
  });

  it("refuses what createRuntime refuses, and an empty list", () => {
    expect(failure(() => composeGenerated([{} as GeneratedModule]))).toBe(
      "module 1: not a generated module: pass the default export of the zcp.gen/index.js that zcp gen wrote",
    );
    expect(failure(() => composeGenerated([]))).toBe("composeGenerated: no modules to compose");
  });

  it("serves the modules' prompts and resources, refusing one name or URI in two", async () => {
    const composed = createRuntime(
      composeGenerated([weather, { module: conformance, prefix: "conf" }]),
    );
    expect(composed.features.prompts).toHaveLength(5);
    expect(await composed.features.read("test://static-text")).toMatchObject({ ok: true });
    expect(createRuntime(composeGenerated([weather, kitchenSink])).features.prompts).toEqual([]);
    expect(
      failure(() =>
        composeGenerated([
          { module: conformance, source: "a" },
          { module: conformance, prefix: "b", source: "b" },
        ]),
      ),
    ).toBe('composeGenerated: prompt "test_input_required_result_prompt" is in both a and b');
  });
});

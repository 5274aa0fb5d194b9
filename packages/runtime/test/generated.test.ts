/**
 * `createRuntime` checks the generated module before anything is served: a module that is not
 * one, another registry format, or files of different `zcp gen` runs fail at start-up with
 * `GeneratedModuleError`, never on a client's first request.
 */
import { describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { createRuntime, GeneratedModuleError, type GeneratedModule } from "@zcp/runtime";
import { artifactLoader, withLeanArtifacts } from "@zcp/runtime/codegen";

const failure = (generated: unknown) => {
  try {
    createRuntime(generated as GeneratedModule);
  } catch (error) {
    expect(error).toBeInstanceOf(GeneratedModuleError);
    return (error as Error).message;
  }
  throw new Error("createRuntime accepted it");
};

describe("createRuntime: the generated module is checked at start-up", () => {
  it("accepts the module zcp gen wrote", () => {
    expect(createRuntime(weather).registry.tools).toHaveLength(4);
  });

  it("refuses what is not a generated module", () => {
    expect(failure({ default: weather })).toBe(
      "not a generated module: pass the default export of the zcp.gen/index.js that zcp gen wrote",
    );
    expect(failure(undefined)).toMatch(/^not a generated module/);
  });

  it("refuses another registry format", () => {
    expect(failure({ ...weather, registry: { ...weather.registry, version: 99 } })).toBe(
      "the generated module has registry format 99; this @zcp/runtime reads format 2: run zcp gen with a matching @zcp/gen",
    );
  });

  it("refuses artifacts of another run", () => {
    const stale = artifactLoader("000000000000", {
      "openai-responses": "{}",
      "openai-chat": "{}",
      anthropic: "{}",
      gemini: "{}",
      mcp: "{}",
    });
    expect(failure({ ...weather, artifacts: stale })).toBe(
      `artifacts.ts was generated for registry 000000000000, registry.ts is ${weather.registry.hash}: the generated files come from different runs, run zcp gen`,
    );
  });

  it("refuses lean artifacts of another run, when lean.ts is imported", () => {
    const texts = {
      "openai-responses": "{}",
      "openai-chat": "{}",
      anthropic: "{}",
      gemini: "{}",
      mcp: "{}",
    };
    expect(() => withLeanArtifacts(weather.artifacts, "000000000000", texts)).toThrow(
      `lean.ts was generated for registry 000000000000, artifacts.ts for ${weather.registry.hash}: the generated files come from different runs, run zcp gen`,
    );
    const loader = withLeanArtifacts(weather.artifacts, weather.registry.hash, texts);
    expect(loader.hasLean).toBe(true);
    expect(loader.load("mcp", { lean: true })).toEqual({});
    expect(loader.load("mcp")).toBe(weather.artifacts.load("mcp"));
    expect(weather.artifacts.hasLean).toBe(false);
    expect(() => weather.artifacts.load("mcp", { lean: true })).toThrow(RangeError);
  });

  it("refuses a tool without its validator or dispatcher", () => {
    const [first] = weather.registry.tools;
    const { [first!.id]: _validator, ...validators } = weather.validators;
    expect(failure({ ...weather, validators })).toBe(
      `tool ${first!.alias} (${first!.id}) has no validator: the generated files come from different runs, run zcp gen`,
    );
    const { [first!.id]: _dispatcher, ...dispatch } = weather.dispatch;
    expect(failure({ ...weather, dispatch })).toBe(
      `tool ${first!.alias} (${first!.id}) has no dispatcher: the generated files come from different runs, run zcp gen`,
    );
  });
});

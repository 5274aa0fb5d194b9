/**
 * `createRuntime` checks the generated module before anything is served: a module that is not
 * one, another registry format, or files of different `zcp gen` runs fail at start-up with
 * `GeneratedModuleError`, never on a client's first request.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import {
  createRuntime,
  GeneratedModuleError,
  RUNTIME_VERSION,
  type GeneratedModule,
} from "@zcp/runtime";

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

  it("refuses another registry format, naming both versions and the writer", () => {
    const { generator: _generator, ...unsigned } = weather.registry;
    expect(failure({ ...weather, registry: { ...unsigned, version: 2 } })).toBe(
      "the generated module has registry format 2; this @zcp/runtime 0.1.0 reads format 3: run zcp gen with a matching @zcp/gen",
    );
    expect(
      failure({ ...weather, registry: { ...weather.registry, version: 4, generator: "0.9.0" } }),
    ).toBe(
      "the generated module has registry format 4 (written by zcp gen 0.9.0); this @zcp/runtime 0.1.0 reads format 3: run zcp gen with a matching @zcp/gen",
    );
  });

  it("knows its own version", () => {
    const manifest = JSON.parse(
      fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"),
    ) as { version: string };
    expect(RUNTIME_VERSION).toBe(manifest.version);
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

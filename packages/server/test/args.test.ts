/**
 * `zcp-serve`'s command line beyond isolation (whose options isolation.test.ts checks): `--find`,
 * parsed and carried to the runtime's `exposure.find`.
 */
import { describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { parseServeArgs, USAGE, type ServeArgs } from "../src/cli/args.js";
import { serveRuntime } from "../src/cli/registry.js";
import { serveRuntimeOptions } from "../src/cli/runtime-options.js";

describe("zcp-serve's --find", () => {
  const parse = (...argv: string[]) => parseServeArgs(["--registry", "r.js", ...argv], {});

  it("is off by default and on with --find; it takes no value", () => {
    expect(parse()).toMatchObject({ kind: "serve", args: { find: false } });
    expect(parse("--find")).toMatchObject({ kind: "serve", args: { find: true } });
    expect(parse("--find=yes")).toMatchObject({ kind: "usage" });
    expect(USAGE).toMatch(/--find {16}every listing but a discover one lists zcp\.find_tools/);
  });

  it("sets exposure.find, keeping the surfaces' defaults", () => {
    const tools = weather.registry.tools;
    const options = serveRuntimeOptions(tools, {
      surface: "native",
      find: true,
      profile: "discover",
    });
    expect(options.exposure).toEqual({ find: true, defaults: { native: { profile: "discover" } } });
    expect(serveRuntimeOptions(tools, { surface: "mcp" }).exposure).not.toHaveProperty("find");
  });

  it("lists zcp.find_tools last in the served runtime's views", async () => {
    const served = async (...argv: string[]) => {
      const parsed = parseServeArgs(["--registry", "w.ts", "--isolation", "none", ...argv], {});
      const result = await serveRuntime(weather, (parsed as { args: ServeArgs }).args, ["w.ts"]);
      if (!("runtime" in result)) throw new Error(JSON.stringify(result));
      return result.runtime;
    };
    const found = (await served("--find")).session({ surface: "mcp" }).exposed.tools;
    expect(found.at(-1)!.alias).toBe("zcp.find_tools");
    const plain = (await served()).session({ surface: "mcp" }).exposed.tools;
    expect(plain.map((tool) => tool.alias)).not.toContain("zcp.find_tools");
  });
});

describe("zcp-serve's --store", () => {
  const parse = (...argv: string[]) =>
    parseServeArgs(["--registry", "r.js", "--transport", "http", ...argv], {});

  it("is memory by default, else a redis:// or rediss:// URL, over HTTP only", () => {
    expect(parse()).toMatchObject({ kind: "serve" });
    expect(parse()).not.toHaveProperty("args.store");
    expect(parse("--store", "memory")).not.toHaveProperty("args.store");
    expect(parse("--store", "redis://h:6379/2")).toMatchObject({
      args: { store: "redis://h:6379/2" },
    });
    expect(parse("--store", "rediss://u:p@h")).toMatchObject({ args: { store: "rediss://u:p@h" } });
    expect(parse("--store", "postgres://h")).toEqual({
      kind: "usage",
      message: '--store must be memory or a redis:// or rediss:// URL, got "postgres://h"',
    });
    expect(parseServeArgs(["--registry", "r.js", "--store", "redis://h"], {})).toEqual({
      kind: "usage",
      message:
        "--store applies to --transport http only (a stdio server has one session, its host's)",
    });
    expect(USAGE).toMatch(/--store <s> {11}http: where handles and session state live/);
  });
});

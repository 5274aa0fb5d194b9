/**
 * `zcp-serve`'s command line, parsed: `--find` (carried to the runtime's `exposure.find`),
 * `--store`, the wire bounds, the response budgets, the views and the isolation options.
 */
import { describe, expect, it } from "vitest";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { parseServeArgs, USAGE, type Parsed, type ServeArgs } from "../src/cli/args.js";
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
    expect(USAGE).toMatch(/--store <s> {11}http: where handles and 2025 MCP sessions live/);
  });

  it("is read from ZCP_SERVE_STORE too (the password out of the process list), over HTTP only", () => {
    const env = { ZCP_SERVE_STORE: "redis://:s3cret@h:6379" };
    const http = ["--registry", "r.js", "--transport", "http"];
    expect(parseServeArgs(http, env)).toMatchObject({ args: { store: "redis://:s3cret@h:6379" } });
    // The flag wins; a stdio server ignores the variable, as it does ZCP_SERVE_TOKEN.
    expect(parseServeArgs([...http, "--store", "memory"], env)).not.toHaveProperty("args.store");
    expect(parseServeArgs(["--registry", "r.js"], env)).toMatchObject({ kind: "serve" });
    expect(parseServeArgs(http, { ZCP_SERVE_STORE: "" })).not.toHaveProperty("args.store");
    // A bad value is named by where it came from, its password left out.
    expect(parseServeArgs(http, { ZCP_SERVE_STORE: "postgres://u:s3cret@h" })).toEqual({
      kind: "usage",
      message:
        'ZCP_SERVE_STORE must be memory or a redis:// or rediss:// URL, got "postgres://u:***@h"',
    });
    expect(USAGE).toContain("ZCP_SERVE_STORE");
  });
});

describe("zcp-serve's wire bounds (issue 27)", () => {
  const parse = (...argv: string[]) => parseServeArgs(["--registry", "r.js", ...argv], {});
  const http = (...argv: string[]) => parse("--transport", "http", ...argv);

  it("--max-line-bytes over stdio; --max-bodies-per-address and --body-timeout-ms over HTTP", () => {
    expect(parse("--max-line-bytes", "4096")).toMatchObject({ args: { maxLineBytes: 4096 } });
    expect(http("--max-bodies-per-address", "4", "--body-timeout-ms", "500")).toMatchObject({
      args: { maxBodiesPerAddress: 4, bodyTimeoutMs: 500 },
    });
    const defaults = (http() as { args: ServeArgs }).args;
    expect(defaults).not.toHaveProperty("maxBodiesPerAddress");
    expect(defaults).not.toHaveProperty("bodyTimeoutMs");
    const refused: [Parsed, string][] = [
      [
        parse("--max-line-bytes", "0"),
        '--max-line-bytes must be an integer of at least 1, got "0"',
      ],
      [http("--max-line-bytes", "10"), "--max-line-bytes applies to --transport stdio only"],
      [parse("--body-timeout-ms", "10"), "--body-timeout-ms applies to --transport http only"],
      [
        http("--max-bodies-per-address", "x"),
        '--max-bodies-per-address must be an integer of at least 1, got "x"',
      ],
    ];
    for (const [parsed, message] of refused) expect(parsed).toEqual({ kind: "usage", message });
    for (const flag of ["--max-line-bytes", "--max-bodies-per-address", "--body-timeout-ms"])
      expect(USAGE).toContain(flag);
  });
});

describe("zcp-serve's response budgets (issue 27)", () => {
  const parse = (...argv: string[]) => parseServeArgs(["--registry", "r.js", ...argv], {});

  it("--max-response-bytes and --max-session-response-bytes, over either transport", () => {
    expect(
      parse("--max-response-bytes", "1024", "--max-session-response-bytes", "4096"),
    ).toMatchObject({ args: { maxResponseBytes: 1024, maxSessionResponseBytes: 4096 } });
    expect(parse("--transport", "http", "--max-response-bytes", "1")).toMatchObject({
      args: { maxResponseBytes: 1 },
    });
    const defaults = (parse() as { args: ServeArgs }).args;
    expect(defaults).not.toHaveProperty("maxResponseBytes");
    expect(defaults).not.toHaveProperty("maxSessionResponseBytes");
    expect(parse("--max-session-response-bytes", "0")).toEqual({
      kind: "usage",
      message: '--max-session-response-bytes must be an integer of at least 1, got "0"',
    });
    for (const flag of ["--max-response-bytes", "--max-session-response-bytes"])
      expect(USAGE).toContain(flag);
  });
});

describe("zcp-serve's views: --stage, --groups, --exclude-groups and --view", () => {
  const parse = (...argv: string[]) => parseServeArgs(["--registry", "r.js", ...argv], {});
  const served = async (...argv: string[]) => {
    const parsed = parseServeArgs(
      ["--registry", "w.ts", "--isolation", "none", "--transport", "http", ...argv],
      {},
    );
    if (parsed.kind !== "serve") throw new Error(JSON.stringify(parsed));
    return serveRuntime(weather, parsed.args, ["w.ts"]);
  };
  const aliases = (result: Awaited<ReturnType<typeof served>>, surface: string) => {
    if (!("runtime" in result)) throw new Error(JSON.stringify(result));
    return result.runtime.exposedFor(surface).map((tool) => tool.alias);
  };

  it("parses them, and refuses what is malformed with the option's name", () => {
    expect(parse("--stage", "operate", "--groups", "math, weather")).toMatchObject({
      kind: "serve",
      args: { stage: "operate", groups: ["math", "weather"], views: [] },
    });
    expect(
      parse("--transport", "http", "--view", "calc?groups=math&stage=operate&profile=discover"),
    ).toMatchObject({
      args: {
        views: [{ name: "calc", groups: ["math"], stage: "operate", profile: "discover" }],
      },
    });
    const usages: [string[], string][] = [
      [["--stage", ""], "--stage must not be empty"],
      [["--groups", "math,,unit"], "--groups has an empty name"],
      [["--exclude-groups", ""], "--exclude-groups has an empty name"],
      [["--view", "x"], "--view applies to --transport http only (a stdio server serves one view)"],
      [
        ["--transport", "http", "--view", "a b"],
        '--view: the name "a b" must be 1 to 64 letters, digits, - or _',
      ],
      [
        ["--transport", "http", "--view", "x?color=red"],
        '--view x: unknown field "color" (known: profile, groups, exclude-groups, stage)',
      ],
      [["--transport", "http", "--view", "x?stage=a&stage=b"], "--view x: stage is given twice"],
      [["--transport", "http", "--view", "x", "--view", "x"], "--view x is given twice"],
    ];
    for (const [argv, message] of usages)
      expect(parse(...argv), argv.join(" ")).toEqual({ kind: "usage", message });
  });

  it("narrows each view's surface, and refuses stages and groups the registry does not have", async () => {
    const result = await served("--groups", "math", "--view", "weather?groups=weather");
    expect(aliases(result, "mcp")).toEqual(["math.average", "math.subtract"]);
    expect(aliases(result, "mcp/weather")).toEqual(["weather.get_current"]);
    expect(await served("--stage", "nope")).toEqual({
      usage: '--stage: unknown stage "nope" (the registry\'s stages: operate)',
    });
    expect(await served("--view", "x?groups=nope")).toEqual({
      usage: '--view x: groups: unknown group "nope" (the registry\'s groups: math, unit, weather)',
    });
    expect(await served("--exclude-groups", "maths")).toEqual({
      usage:
        '--exclude-groups: unknown group "maths" (the registry\'s groups: math, unit, weather)',
    });
  });
});

describe("zcp-serve's isolation options", () => {
  const parse = (...argv: string[]) => parseServeArgs(["--registry", "r.js", ...argv], {});

  it("defaults to worker isolation, 512 MiB, 30 s and 8 calls per session", () => {
    expect(parse()).toMatchObject({
      kind: "serve",
      args: { isolation: "worker", toolMemoryMb: 512, timeoutMs: 30000, maxConcurrent: 8 },
    });
    expect(parse()).not.toHaveProperty("args.workers");
    expect(
      parse("--isolation", "none", "--timeout-ms", "100", "--max-concurrent", "2"),
    ).toMatchObject({ args: { isolation: "none", timeoutMs: 100, maxConcurrent: 2 } });
    expect(parse("--workers", "3", "--tool-memory-mb", "64")).toMatchObject({
      args: { workers: 3, toolMemoryMb: 64 },
    });
  });

  it("refuses what it cannot use", () => {
    const message = (...argv: string[]) => (parse(...argv) as { message?: string }).message;
    expect(message("--isolation", "process")).toBe(
      '--isolation must be worker or none, got "process"',
    );
    expect(message("--isolation", "none", "--workers", "2")).toBe(
      "--workers and --tool-memory-mb apply to --isolation worker only",
    );
    expect(message("--workers", "0")).toBe('--workers must be an integer of at least 1, got "0"');
    expect(message("--tool-memory-mb", "32")).toBe(
      '--tool-memory-mb must be an integer of at least 64, got "32"',
    );
    expect(message("--timeout-ms", "1.5")).toBe(
      '--timeout-ms must be an integer of at least 1, got "1.5"',
    );
    expect(message("--max-concurrent", "0")).toBe(
      '--max-concurrent must be an integer of at least 1, got "0"',
    );
    expect(message("--max-result-tokens", "0")).toBe(
      '--max-result-tokens must be an integer of at least 1, got "0"',
    );
    expect(message("--max-result-tokens", "lots")).toBe(
      '--max-result-tokens must be an integer of at least 1, got "lots"',
    );
  });

  it("takes the result budget, and leaves it to the runtime's default without the flag", () => {
    expect(parse("--max-result-tokens", "4000")).toMatchObject({ args: { maxResultTokens: 4000 } });
    expect(parse()).not.toHaveProperty("args.maxResultTokens");
  });
});

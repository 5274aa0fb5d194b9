/**
 * `zcp-serve --code`: the options, and a real server (spawned, HTTP, both surfaces, on the
 * weather fixture) that lists zcp.run on MCP and native, runs programs, and keeps /healthz
 * answering within 100 ms while a program spins, then serves the next program.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { parseServeArgs, USAGE } from "../src/cli/args.js";
import { whilePolling } from "./checks.js";
import { serveHttp } from "./serve-http.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const WEATHER = path.join(ROOT, "fixtures/weather/src/zcp.gen/index.ts");

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe("zcp-serve's code options", () => {
  const parse = (...argv: string[]) => parseServeArgs(["--registry", "r.js", ...argv], {});
  const message = (...argv: string[]) => (parse(...argv) as { message?: string }).message;

  it("are off by default; --code turns code mode on, --code-timeout sets a program's limit", () => {
    expect(parse()).toMatchObject({ args: { code: false } });
    expect(parse()).not.toHaveProperty("args.codeTimeoutMs");
    expect(parse("--code")).toMatchObject({ args: { code: true } });
    expect(parse("--code", "--code-timeout", "1500")).toMatchObject({
      args: { code: true, codeTimeoutMs: 1500 },
    });
    expect(USAGE).toContain("--code-timeout <ms>");
  });

  it("refuse a timeout without --code, or one that is not a positive integer", () => {
    expect(message("--code-timeout", "100")).toBe("--code-timeout applies to --code only");
    expect(message("--code", "--code-timeout", "0")).toBe(
      '--code-timeout must be an integer of at least 1, got "0"',
    );
  });

  it("keep a program's limit within --timeout-ms: a program is one call (issue 27, item 6)", () => {
    expect(message("--code", "--timeout-ms", "1000", "--code-timeout", "1001")).toBe(
      "--code-timeout must not exceed --timeout-ms (1000): a program is one call",
    );
    expect(parse("--code", "--timeout-ms", "1000", "--code-timeout", "1000")).toMatchObject({
      args: { codeTimeoutMs: 1000 },
    });
    expect(USAGE).toContain("--timeout-ms when that is lower");
  });
});

describe("zcp-serve --code", () => {
  const serve = (...extra: string[]) =>
    serveHttp(["--registry", WEATHER, "--surface", "both", "--code", ...extra], cleanup);

  it("lists zcp.run on both surfaces and runs programs against the session's tools", async () => {
    const server = await serve("--code-timeout", "1500");
    expect(server.stderr()).toContain(
      "programs (zcp.run) run in a QuickJS sandbox in their own worker threads, 1500 ms each at most",
    );
    const listing = await server.native.listTools({ format: "compact" });
    expect(String(listing.tools).split("\n").at(-1)).toMatch(/^TOOL @zr zcp\.run\(code:str /);
    const program =
      'const w = await tools.weather.get_current({ city: "Beijing" }); console.log(w.condition); return w.temperature';
    expect(await server.native.call("zcp.run", { code: program })).toEqual({
      ok: true,
      value: { value: 18, logs: ["sunny"] },
    });

    const mcp = new Client({ name: "zcp-test", version: "0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL("/mcp", server.url)));
    cleanup.push(() => mcp.close());
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "math_average",
      "math_subtract",
      "unit_celsius_to_fahrenheit",
      "weather_get_current",
      "zcp_run",
    ]);
    expect(
      await mcp.callTool({ name: "zcp_run", arguments: { code: "return 6 * 7" } }),
    ).toMatchObject({ structuredContent: { value: 42 } });
    // The host shows MCP names; zcp_run's entry says what a program writes for each.
    expect(tools.at(-1)!.description).toBe(
      "Run a short JavaScript program against this session's tools and return its result. Call a tool as `await tools.<alias>(args)` (alias `a.b` is `tools.a.b`); only the program's return value and its console output come back. In a program: math_average is tools.math.average, math_subtract is tools.math.subtract, unit_celsius_to_fahrenheit is tools.unit.celsius_to_fahrenheit, weather_get_current is tools.weather.get_current.",
    );
    expect(
      await mcp.callTool({
        name: "zcp_run",
        arguments: { code: "return await tools.math.subtract({ a: 5, b: 3 })" },
      }),
    ).toMatchObject({ structuredContent: { value: 2 } });
  });

  it("keeps /healthz answering within 100 ms while a program spins, then serves the next program", async () => {
    const server = await serve("--code-timeout", "1500");
    const healthz = new URL("/healthz", server.url);
    // Warm up: the program worker started (a program answered), this process's first fetch made.
    const run = (code: string) => server.native.call("zcp.run", { code });
    expect(await run("return 1")).toEqual({ ok: true, value: { value: 1 } });
    await (await fetch(healthz)).text();
    const { answer, latencies } = await whilePolling(healthz, () => run("while (true) {}"));
    expect(answer).toEqual({
      ok: false,
      error: "timeout",
      hint: "the program ran longer than 1500 ms",
    });
    expect(latencies.length).toBeGreaterThanOrEqual(15);
    expect(Math.max(...latencies), latencies.map(Math.round).join(" ")).toBeLessThan(100);
    expect(await run("return 2")).toEqual({ ok: true, value: { value: 2 } });
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  it("limits a program by --timeout-ms when that is lower, and its tool calls' arguments by the message limit (issue 27, items 5 and 6)", async () => {
    const server = await serve("--timeout-ms", "800");
    expect(server.stderr()).toContain(
      "programs (zcp.run) run in a QuickJS sandbox in their own worker threads, 800 ms each at most",
    );
    const run = (code: string) => server.native.call("zcp.run", { code });
    expect(await run("while (true) {}")).toEqual({
      ok: false,
      error: "timeout",
      hint: "the program ran longer than 800 ms",
    });
    // 2 MB of arguments: refused in the program's worker, before the server's thread parses them.
    expect(
      await run(
        'try { await tools.math.average({ numbers: [], pad: "x".repeat(2e6) }) } catch (e) { return [e.code, e.hint] }',
      ),
    ).toEqual({
      ok: true,
      value: {
        value: [
          "invalid:$",
          `the arguments are ${2e6 + '{"numbers":[],"pad":""}'.length} bytes of JSON; at most 1048576`,
        ],
      },
    });
  });
});

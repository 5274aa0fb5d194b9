/**
 * The MCP Inspector's CLI mode (`@modelcontextprotocol/inspector` 0.15.0, the last release that
 * runs on Node 20; later ones require Node >= 22.7.5) against `zcp-serve` on the weather fixture,
 * over stdio: a third-party client, not the SDK `Client` our other tests use.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { WEATHER_TOOLS } from "./checks.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const INSPECTOR = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/inspector/cli/build/cli.js", import.meta.url),
);
const SERVE = [
  process.execPath,
  "--import",
  "tsx",
  fileURLToPath(new URL("../dist/bin/zcp-serve.js", import.meta.url)),
  "--registry",
  "fixtures/weather/src/zcp.gen/index.ts",
];

async function inspect(...args: string[]): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [INSPECTOR, "--cli", ...SERVE, ...args],
    { cwd: ROOT, timeout: 30_000 },
  );
  return JSON.parse(stdout);
}

describe("MCP Inspector CLI against zcp-serve (stdio)", () => {
  it("lists the weather tools", async () => {
    const listed = (await inspect("--method", "tools/list")) as {
      tools: { name: string; inputSchema: unknown }[];
    };
    expect(listed.tools.map((tool) => tool.name)).toEqual(WEATHER_TOOLS);
    expect(listed.tools.every((tool) => typeof tool.inputSchema === "object")).toBe(true);
  });

  it("calls tools with --tool-arg (values arrive as strings; the runtime's coercion makes numbers of them)", async () => {
    const [subtract, current] = await Promise.all([
      inspect(
        "--method",
        "tools/call",
        "--tool-name",
        "math_subtract",
        "--tool-arg",
        "a=10",
        "b=4",
      ),
      inspect(
        "--method",
        "tools/call",
        "--tool-name",
        "weather_get_current",
        "--tool-arg",
        "city=Shanghai",
      ),
    ]);
    expect(subtract).toEqual({ content: [{ type: "text", text: "6" }] });
    expect(current).toMatchObject({
      structuredContent: { city: "Shanghai", temperature: 22, unit: "celsius" },
    });
    expect(
      await inspect(
        "--method",
        "tools/call",
        "--tool-name",
        "weather_get_current",
        "--tool-arg",
        "city=Paris",
      ),
    ).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringContaining('"error":"invalid:$.city"') }],
    });
  });
});

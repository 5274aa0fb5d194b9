/**
 * `@maxResultTokens` (issue 30, item 2): the tool's budget for an `auto` result reaches its
 * definition (only when set, so that other definitions hash as before), and its MCP entry states
 * `anthropic/maxResultSizeChars` where the budget passes Claude Code's 50,000 characters; a bad
 * number, a second tag and a budget on a scalar or handle tool are refused (ZCP1301).
 */
import path from "node:path";
import { artifactSet, type Registry } from "@zcp/runtime";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type CliResult,
  generatedRegistry,
  runZcpAsync,
  STRICT_TSCONFIG,
  temporaryProjects,
} from "./helpers.js";

const tool = (alias: string, tags: string) => `
/**
 * Tool ${alias}.
 * @tool ${alias}
${tags
  .split("\n")
  .map((tag) => ` * ${tag}`)
  .join("\n")}
 */
export function ${alias.replace(".", "_")}(text: string): string[] {
  return [text];
}
`;

const GOOD = [
  tool("logs.small", "@maxResultTokens 4000"),
  tool("logs.large", "@maxResultTokens 30000"),
  tool("logs.plain", "@output auto"),
].join("");

const BAD = [
  tool("bad.zero", "@maxResultTokens 0"),
  tool("bad.word", "@maxResultTokens lots"),
  tool("bad.huge", "@maxResultTokens 1000001"),
  tool("bad.twice", "@maxResultTokens 10\n@maxResultTokens 20"),
  tool("bad.scalar", "@output scalar\n@maxResultTokens 100"),
  tool("bad.handle", "@maxResultTokens 100\n@output handle"),
].join("");

const { scratch } = temporaryProjects();
let registry: Registry;
let bad: CliResult;

beforeAll(async () => {
  const project = (source: string) =>
    scratch({ "zcp.config.json": "{}", "tsconfig.json": STRICT_TSCONFIG, "src/tools.ts": source });
  const good = project(GOOD);
  const [ok, refused] = await Promise.all([
    runZcpAsync(good, ["gen"]),
    runZcpAsync(project(BAD), ["gen"]),
  ]);
  expect(ok.status, ok.stderr).toBe(0);
  registry = generatedRegistry(path.join(good, "src/zcp.gen"));
  bad = refused;
});

const byAlias = (alias: string) => registry.tools.find((t) => t.alias === alias)!;

describe("@maxResultTokens", () => {
  it("records the budget in the definition, and nothing for a tool without one", () => {
    expect(byAlias("logs.small").maxResultTokens).toBe(4000);
    expect(byAlias("logs.large").maxResultTokens).toBe(30000);
    expect("maxResultTokens" in byAlias("logs.plain")).toBe(false);
  });

  it("states anthropic/maxResultSizeChars in the MCP entry when the budget passes 50,000 characters", () => {
    const mcp = artifactSet(registry, "mcp");
    expect(mcp[byAlias("logs.large").id]!._meta).toEqual({
      "anthropic/maxResultSizeChars": 180000,
    });
    expect(mcp[byAlias("logs.small").id]!._meta).toBeUndefined();
    expect(mcp[byAlias("logs.plain").id]!._meta).toBeUndefined();
  });

  it("refuses a bad number, a second tag and a budget on a scalar or handle tool", () => {
    const errors = bad.stderr
      .split("\n")
      .filter((line) => line.includes("ZCP1301"))
      .map((line) => line.replace(/^.*ZCP1301: /, ""));
    expect(errors).toEqual([
      '@maxResultTokens: expected a whole number of tokens from 1 to 1000000, got "0"',
      '@maxResultTokens: expected a whole number of tokens from 1 to 1000000, got "lots"',
      '@maxResultTokens: expected a whole number of tokens from 1 to 1000000, got "1000001"',
      "@maxResultTokens is given more than once",
      "@maxResultTokens: applies to @output auto results, not scalar",
      "@maxResultTokens: applies to @output auto results, not handle",
    ]);
    expect(bad.status).not.toBe(0);
  });
});

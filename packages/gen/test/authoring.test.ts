/**
 * Authoring details (issue 30, item 6). `@flags`: every MCP annotation hint, true (`readonly`)
 * or false (`!readonly`), reaches the tool's definition and its MCP entry; a hint both stated
 * and denied is refused (ZCP1301). The end of a comment, which JSDoc text writes with a
 * backslash (`*\/`), reaches the model without it.
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

const TOOLS = `
/**
 * Read a page of the web.
 * @tool web.read
 * @flags readonly !destructive idempotent openworld
 */
export function read(url: string): string {
  return url;
}

/**
 * Count local rows.
 * @tool rows.count
 * @flags !openworld !readonly
 */
export function count(rows: number[]): number {
  return rows.length;
}

/**
 * Find files by a glob such as \`src/**\\/*.ts\`.
 * @tool files.find
 * @param glob A glob, e.g. "**\\/*.md".
 */
export function find(glob: string): string[] {
  return [glob];
}

/**
 * Both ways.
 * @tool rows.drop
 * @flags destructive !destructive
 */
export function drop(rows: number[]): number {
  return rows.length;
}
`;

const { scratch } = temporaryProjects();
let gen: CliResult;
let registry: Registry;

beforeAll(async () => {
  const dir = scratch({
    "zcp.config.json": "{}",
    "tsconfig.json": STRICT_TSCONFIG,
    "src/tools.ts": TOOLS,
  });
  gen = await runZcpAsync(dir, ["gen"]);
  registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
});

describe("@flags", () => {
  it("states each hint true or false in the MCP entry, and none the tool does not state", () => {
    const mcp = artifactSet(registry, "mcp");
    const annotations = (alias: string) =>
      mcp[registry.tools.find((tool) => tool.alias === alias)!.id]!.annotations;
    expect(annotations("web.read")).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(annotations("rows.count")).toEqual({ readOnlyHint: false, openWorldHint: false });
    expect(registry.tools.find((tool) => tool.alias === "rows.count")!.flags).toEqual([
      "!openworld",
      "!readonly",
    ]);
  });

  it("refuses a hint both stated and denied", () => {
    expect(gen.stderr).toMatch(
      /tools\.ts:\d+:\d+ - error ZCP1301: @flags: destructive and !destructive contradict each other/,
    );
    expect(registry.tools.map((tool) => tool.alias).sort()).toEqual([
      "files.find",
      "rows.count",
      "web.read",
    ]);
  });
});

describe("a comment's end in JSDoc text", () => {
  it("is written with a backslash and read without it, in descriptions and @param texts", () => {
    const find = registry.tools.find((tool) => tool.alias === "files.find")!;
    expect(find.description).toBe("Find files by a glob such as `src/**/*.ts`.");
    expect(
      (find.inputSchema as { properties: { glob: { description: string } } }).properties.glob
        .description,
    ).toBe('A glob, e.g. "**/*.md".');
  });
});

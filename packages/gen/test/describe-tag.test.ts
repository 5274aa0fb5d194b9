/**
 * Full or first-sentence descriptions (issue 30, item 6): `@describe full|first` per tool, and
 * `"describe"` in zcp.config.json for the tools that do not say. Under `full`, planner lines
 * and provider entries carry the whole description (the tool's and its parameters'); under
 * `first` (the default) their first sentences, as before. MCP entries carry the whole
 * description either way. A bad value is refused with an exact message.
 */
import path from "node:path";
import { artifactSet, type Registry } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import { generatedRegistry, runZcpAsync, STRICT_TSCONFIG, temporaryProjects } from "./helpers.js";

const TEXT =
  "Read the complete contents of a file. Handles many encodings. Only works within allowed directories.";
const PATH_DOC = "The file's path. Relative to the first allowed directory.";

/** A tool `name` whose JSDoc has `tag` (or none) and a documented parameter. */
const tool = (name: string, tag: string) => `
/**
 * ${TEXT}
 * @tool files.${name}${tag ? `\n * ${tag}` : ""}
 * @param path ${PATH_DOC}
 */
export function ${name}(path: string): string {
  return path;
}
`;

const { scratch } = temporaryProjects();

async function generate(config: object, tools: string) {
  const dir = scratch({
    "zcp.config.json": JSON.stringify(config),
    "tsconfig.json": STRICT_TSCONFIG,
    "src/tools.ts": tools,
  });
  const result = await runZcpAsync(dir, ["gen"]);
  return { result, dir };
}

/** What the model reads of each tool: its planner line, Anthropic and MCP descriptions. */
function reads(registry: Registry, alias: string) {
  const definition = registry.tools.find((entry) => entry.alias === alias)!;
  return {
    planner: definition.planner,
    anthropic: artifactSet(registry, "anthropic")[definition.id]!.description,
    mcp: artifactSet(registry, "mcp")[definition.id]!.description,
    prefix: `TOOL @${definition.id} ${alias}(path:str `,
  };
}

describe("@describe", () => {
  it("full: the whole text in planner lines and provider entries; first (the default): the first sentence", async () => {
    const { result, dir } = await generate(
      {},
      tool("readFull", "@describe full") +
        tool("readFirst", "") +
        tool("readSaid", "@describe first"),
    );
    expect(result.status).toBe(0);
    const registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
    const full = reads(registry, "files.readFull");
    expect(full.planner).toBe(
      `${full.prefix}${JSON.stringify(PATH_DOC)}) -> auto -- ${JSON.stringify(TEXT)}`,
    );
    expect(full.anthropic).toBe(TEXT);
    expect(full.mcp).toBe(TEXT);
    for (const alias of ["files.readFirst", "files.readSaid"]) {
      const first = reads(registry, alias);
      expect(first.planner).toBe(
        `${first.prefix}"The file's path.") -> auto -- "Read the complete contents of a file."`,
      );
      // The first paragraph is short enough (300 characters) to be the provider description.
      expect(first.anthropic).toBe(TEXT);
      expect(first.mcp).toBe(TEXT);
    }
  });

  it('"describe": "full" in zcp.config.json is the default; a tool says @describe first', async () => {
    const { result, dir } = await generate(
      { describe: "full" },
      tool("readAll", "") + tool("readShort", "@describe first"),
    );
    expect(result.status).toBe(0);
    const registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
    expect(reads(registry, "files.readAll").planner).toContain(`-- ${JSON.stringify(TEXT)}`);
    expect(reads(registry, "files.readShort").planner).toContain(
      `-- "Read the complete contents of a file."`,
    );
  });

  it("a long first paragraph: first cuts provider entries to the sentence, full keeps it", async () => {
    const long = `${"Lists every entry of a directory, recursively, with sizes and times. ".repeat(5)}Only works within allowed directories.`;
    const tools = [
      ["listFull", "@describe full"],
      ["listFirst", ""],
    ]
      .map(
        ([name, tag]) =>
          `/**\n * ${long}\n * @tool files.${name}${tag ? `\n * ${tag}` : ""}\n */\nexport function ${name}(): string[] {\n  return [];\n}\n`,
      )
      .join("\n");
    const { dir } = await generate({}, tools);
    const registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
    const byAlias = (alias: string) => registry.tools.find((entry) => entry.alias === alias)!;
    expect(byAlias("files.listFull").descriptionShort).toBe(long);
    expect(byAlias("files.listFirst").descriptionShort).toBe(
      "Lists every entry of a directory, recursively, with sizes and times.",
    );
  });

  it("refuses a value other than first or full, in a tag and in the configuration", async () => {
    const tagged = await generate({}, tool("readAll", "@describe whole"));
    expect(tagged.result.status).toBe(1);
    expect(tagged.result.stderr).toContain(
      'error ZCP1301: @describe: expected first or full, got "whole"',
    );
    const configured = await generate({ describe: "all" }, tool("readAll", ""));
    expect(configured.result.status).toBe(1);
    expect(configured.result.stderr).toContain(
      'error ZCP1001: "describe" must be "first" or "full"',
    );
  });
});

/**
 * Generated code a person can read and trace: line 2 of every TS file names the generator's
 * version and the configuration; functions, constants and module namespaces are named after the
 * tool and its file (not hash ids); and no output depends on where a tool sits in its file, so
 * moving one leaves every generated file byte-identical while diagnostics still point at it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ToolDefinition } from "@zcp/runtime";
import * as prettier from "prettier";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identifier, moduleNames } from "../src/emit/names.js";
import { toolNames } from "../src/model/index.js";
import { PRETTIER_STYLE } from "../src/emit/print.js";
import { emitContext } from "../src/emit/ts-file.js";
import {
  copyFixture,
  GENERATED_FILES,
  generatedRegistry,
  REPO,
  runsTogether,
  runZcpAsync,
  scratchProject,
  STRICT_TSCONFIG,
  strictTsc,
  type CliResult,
} from "./helpers.js";

const runs = runsTogether();
const VERSION = (
  JSON.parse(fs.readFileSync(path.join(REPO, "packages/gen/package.json"), "utf8")) as {
    version: string;
  }
).version;
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function outputOf(dir: string): Map<string, string> {
  return new Map(
    GENERATED_FILES.map((file) => [
      file,
      fs.readFileSync(path.join(dir, "src/zcp.gen", file), "utf8"),
    ]),
  );
}

/** Moves every tool of `file` down: lines above the first one, and between each pair. */
function moveToolsDown(file: string): void {
  const text = fs.readFileSync(file, "utf8");
  fs.writeFileSync(
    file,
    `// A comment above everything.\n\n\n${text.replaceAll("\n/**\n", "\n\n// spacer\n\n/**\n")}`,
  );
}

describe("moving a tool within its file", () => {
  let dir: string;
  let before: Map<string, string>;
  let after: Map<string, string>;
  let check: CliResult;
  const started = runs(async () => {
    const copy = copyFixture("weather");
    dirs.push(path.resolve(copy, "../../../../..")); // copyFixture's temporary folder
    const first = await runZcpAsync(copy, ["gen", "--force"]);
    expect(first.status, first.stderr).toBe(0);
    const generated = outputOf(copy);
    for (const file of ["math.ts", "unit.ts", "weather.ts"])
      moveToolsDown(path.join(copy, "src", file));
    const second = await runZcpAsync(copy, ["gen", "--force", "--reporter", "json"]);
    const result = await runZcpAsync(copy, ["gen", "--check"]);
    return { copy, generated, second, result };
  });

  let written: string[];
  beforeAll(async () => {
    const { copy, generated, second, result } = await started();
    dir = copy;
    before = generated;
    after = outputOf(copy);
    written = (JSON.parse(second.stdout) as { written: string[] }).written;
    check = result;
  });

  it("leaves every generated file byte-identical", () => {
    const source = fs.readFileSync(path.join(dir, "src/math.ts"), "utf8");
    expect(source).toContain("// spacer");
    expect(written).toEqual([]);
    for (const file of GENERATED_FILES) expect(after.get(file), file).toBe(before.get(file));
    expect(check.status, check.stdout).toBe(0);
  });

  it("emits no line numbers: a tool's source is its file and export", () => {
    const registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
    expect(registry.tools.map((tool) => tool.source)).toEqual([
      { file: "src/math.ts", export: "average" },
      { file: "src/math.ts", export: "subtract" },
      { file: "src/unit.ts", export: "celsiusToFahrenheit" },
      { file: "src/weather.ts", export: "getCurrentWeather" },
    ]);
    expect(after.get("registry.ts")).toContain(
      `"source":{"file":"src/weather.ts","export":"getCurrentWeather"},`,
    );
    expect(after.get("registry.ts")).not.toMatch(/\bline:/);
  });
});

describe("diagnostics after a move", () => {
  // ZCP1305 comes from extract, ZCP1501 from the provider artifacts (after the model): both
  // follow the tool, from positions kept in memory.
  const TOOLS = `/**\n * @tool notes.tally\n */\nexport function tally(counts: Record<string, number>): number {\n  return Object.keys(counts).length;\n}\n`;
  const started = runs(async () => {
    const dir = scratchProject({
      "zcp.config.json": "{}",
      "tsconfig.json": STRICT_TSCONFIG,
      "src/notes.ts": TOOLS,
    });
    dirs.push(dir);
    const first = await runZcpAsync(dir, ["gen", "--force"]);
    const generated = outputOf(dir);
    fs.writeFileSync(path.join(dir, "src/notes.ts"), `\n\n// three lines down\n${TOOLS}`);
    const second = await runZcpAsync(dir, ["gen", "--force"]);
    return { first, second, generated, moved: outputOf(dir) };
  });

  it("point at the tool's new lines while the output stays the same", async () => {
    const { first, second, generated, moved } = await started();
    const lines = (result: CliResult) =>
      result.stderr
        .split("\n")
        .filter(Boolean)
        .map((line) => line.replace(/ - .*?(ZCP\d+).*/, " $1"));
    expect(lines(first)).toEqual(["src/notes.ts:1:1 ZCP1305", "src/notes.ts:4:1 ZCP1501"]);
    expect(lines(second)).toEqual(["src/notes.ts:4:1 ZCP1305", "src/notes.ts:7:1 ZCP1501"]);
    expect(moved).toEqual(generated);
  });
});

describe("names in generated code", () => {
  const TOOL = (alias: string, fn: string) =>
    `/**\n * Echo a value.\n * @tool ${alias}\n */\nexport function ${fn}(value: string): string {\n  return value;\n}\n`;
  const FILES = {
    "zcp.config.json": "{}",
    "tsconfig.json": STRICT_TSCONFIG,
    "src/weather.ts": TOOL("weather.get_current", "getCurrent"),
    // Two files named tools.ts: their folders tell them apart.
    "src/api/tools.ts": TOOL("api.list", "listItems"),
    "src/db/tools.ts": TOOL("db.list", "listRows"),
    // File names that are not identifiers as they are.
    "src/class.ts": TOOL("klass.make", "make"),
    "src/2024-report.ts": TOOL("report.yearly", "yearly"),
    // A file named like a name the dispatch file declares.
    "src/dispatch.ts": TOOL("outbox.send", "send"),
    // Two aliases that differ only in "-" and "_" (distinct provider names: a-b_c, a_b_c).
    "src/dash.ts": `${TOOL("a-b.c", "dashed")}\n${TOOL("a_b.c", "underscored")}`,
    // Long names: signatures and casts that no longer fit on a line break as prettier breaks them.
    "src/weather_service_implementation_module.ts": `/**\n * Long names.\n * @tool weather_service.get_the_current_conditions_for_a_city\n */\nexport function getTheCurrentWeatherConditionsForTheGivenCityAndUnit(city: string, since: Date): string {\n  return city + since.toISOString();\n}\n`,
  };
  let dir: string;
  let out: Map<string, string>;
  const started = runs(async () => {
    const project = scratchProject(FILES);
    dirs.push(project);
    return { project, result: await runZcpAsync(project, ["gen", "--force"]) };
  });

  beforeAll(async () => {
    const { project, result } = await started();
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    dir = project;
    out = outputOf(project);
  });

  it("line 2 of every TS file names the zcp version and the configuration, relative to its folder", () => {
    for (const [file, content] of out) {
      if (!file.endsWith(".ts")) continue;
      expect(content.split("\n").slice(0, 3), file).toEqual([
        "// Code generated by zcp gen. DO NOT EDIT.",
        `// zcp gen ${VERSION} from zcp.config.json`,
        "",
      ]);
    }
    for (const [file, content] of out) {
      expect(content, file).not.toContain(dir);
      expect(content, file).not.toContain(os.tmpdir());
    }
    expect(emitContext(path.join(dir, "package.json"))).toEqual({
      version: VERSION,
      config: "package.json",
    });
    expect(emitContext(path.join(dir, "configs", "zcp.json"))).toEqual({
      version: VERSION,
      config: "zcp.json",
    });
  });

  it("imports each module under its file's name, with folders where two files share one", () => {
    expect(out.get("dispatch.ts")).toContain(
      [
        `import * as _2024_report from "../2024-report.js";`,
        `import * as api_tools from "../api/tools.js";`,
        `import * as class_ from "../class.js";`,
        `import * as dash from "../dash.js";`,
        `import * as db_tools from "../db/tools.js";`,
        `import * as dispatch_2 from "../dispatch.js";`,
        `import * as weather from "../weather.js";`,
        `import * as weather_service_implementation_module from "../weather_service_implementation_module.js";`,
      ].join("\n"),
    );
  });

  it("names each tool's functions and constant after its alias", () => {
    const dispatch = out.get("dispatch.ts")!;
    expect(dispatch).toContain(
      `/** weather.get_current */\nfunction call_weather_get_current(\n  args: ToolArgs["weather.get_current"],\n  _context: ToolContext,\n): unknown {\n  return weather.getCurrent(args.value);\n}\n`,
    );
    expect(dispatch).toContain("function call_api_list(");
    expect(dispatch).toContain("return api_tools.listItems(");
    expect(dispatch).toContain("return class_.make(");
    expect(dispatch).toContain("return dispatch_2.send(");
    // The alias without "-" keeps the plain name.
    expect(dispatch).toContain(`/** a_b.c */\nfunction call_a_b_c(`);
    expect(dispatch).toContain(`/** a-b.c */\nfunction call_a_b_c_2(`);
    expect(out.get("validators.ts")).toContain(
      `/** weather.get_current */\nfunction validate_weather_get_current(input: unknown): ValidationResult {`,
    );
    expect(out.get("validators.ts")).toContain("function validate_a_b_c_2(");
    expect(out.get("registry.ts")).toContain(
      `const tool_weather_get_current: ToolDefinition = JSON.parse(`,
    );
    expect(out.get("registry.ts")).toContain(`const tool_a_b_c_2: ToolDefinition = JSON.parse(`);
    // No name is a tool id.
    const registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
    for (const tool of registry.tools)
      for (const file of ["dispatch.ts", "validators.ts", "registry.ts"])
        expect(out.get(file)).not.toMatch(new RegExp(`_${tool.id}\\b`));
  });

  it("is formatted as prettier formats it, long names included", async () => {
    expect(out.get("dispatch.ts")).toContain(
      'function call_weather_service_get_the_current_conditions_for_a_city(\n  args: ToolArgs["weather_service.get_the_current_conditions_for_a_city"],\n',
    );
    for (const [file, content] of out)
      if (file.endsWith(".ts"))
        expect(await prettier.format(content, PRETTIER_STYLE), file).toBe(content);
  });

  it("type-checks under the strictest flags", () => {
    const result = strictTsc(
      [path.join(dir, "src/zcp.gen/index.ts"), path.join(dir, "src/zcp.gen/types.ts")],
      "nodenext",
    );
    expect(result.errors).toEqual([]);
  });
});

describe("name resolution", () => {
  const tool = (alias: string) => ({ alias }) as ToolDefinition;

  it("makes identifiers of any text", () => {
    expect(identifier("weather")).toBe("weather");
    expect(identifier("2024-report")).toBe("_2024_report");
    expect(identifier("default")).toBe("default_");
    expect(identifier("await")).toBe("await_");
    expect(identifier("naïve")).toBe("na_ve");
    expect(identifier("")).toBe("_");
  });

  it("tells tools apart deterministically, whatever their order", () => {
    const tools = [tool("a-b.c"), tool("a_b.c"), tool("a_b-c"), tool("a_b_c_2"), tool("x.y")];
    const names = (list: ToolDefinition[]) =>
      Object.fromEntries([...toolNames(list)].map(([t, name]) => [t.alias, name]));
    const expected = {
      "a_b.c": "a_b_c",
      "a-b.c": "a_b_c_3",
      "a_b-c": "a_b_c_4",
      a_b_c_2: "a_b_c_2",
      "x.y": "x_y",
    };
    expect(names(tools)).toEqual(expected);
    expect(names([...tools].reverse())).toEqual(expected);
  });

  it("names modules after their files, with as many folders as tell them apart", () => {
    const names = (files: string[], taken: string[] = []) =>
      Object.fromEntries(moduleNames(files, new Set(taken)));
    expect(
      names(["src/api/tools.ts", "src/db/tools.ts", "src/tools.ts", "src/weather.ts"]),
    ).toEqual({
      "src/api/tools.ts": "api_tools",
      "src/db/tools.ts": "db_tools",
      "src/tools.ts": "src_tools",
      "src/weather.ts": "weather",
    });
    // Whole paths alike as identifiers: numbered in path order. Taken names are avoided.
    expect(names(["src/a-b.ts", "src/a_b.ts", "src/dispatch.ts"], ["dispatch"])).toEqual({
      "src/a-b.ts": "src_a_b",
      "src/a_b.ts": "src_a_b_2",
      "src/dispatch.ts": "dispatch_2",
    });
    expect(names(["lib/x/c.ts", "lib/y/c.ts", "b_c.ts"])).toEqual({
      "lib/x/c.ts": "x_c",
      "lib/y/c.ts": "y_c",
      "b_c.ts": "b_c",
    });
  });
});

/**
 * The `zcp diff` command: its output and exit codes, the inputs it reads (registry.ts, compiled
 * JavaScript, JSON, folders, packages), and changes behind `$ref`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Registry } from "@zcp/runtime";
import { beforeAll, describe, expect, it } from "vitest";
import { ts } from "ts-morph";
import { diffRegistries } from "../../src/diff/index.js";
import { FIXTURES, REPO, runZcp } from "../helpers.js";
import { AVG, city, edited, SUB, type Tool, WEATHER } from "./helpers.js";

describe("zcp diff command", () => {
  let dir: string;
  let broken: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-diff-"));
    broken = path.join(dir, "broken.json");
    fs.writeFileSync(
      broken,
      JSON.stringify(
        edited((t, r) => {
          city(t).enum.pop();
          t[AVG]!.description = "Mean.";
          r.tools.splice(1, 1);
        }),
      ),
    );
  });

  it("prints one line per change and exits 1 on a breaking change", () => {
    const result = runZcp(REPO, ["diff", WEATHER, broken]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe(
      [
        'ok math.average: description-changed: description "Average of a list of numbers." -> "Mean." (description)',
        "BREAKING math.subtract: tool-removed: tool removed",
        'BREAKING weather.get_current: enum-member-removed: enum member "Hangzhou" removed (inputSchema.properties.city)',
        "2 breaking, 1 not breaking",
        "",
      ].join("\n"),
    );
  });

  it("prints one JSON object with --reporter json, and exits 0 with --allow-breaking", () => {
    const result = runZcp(REPO, [
      "diff",
      WEATHER,
      broken,
      "--reporter",
      "json",
      "--allow-breaking",
    ]);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as { breaking: number; changes: unknown[] };
    expect(report.breaking).toBe(2);
    expect(report.changes).toContainEqual({
      tool: SUB,
      rule: "tool-removed",
      breaking: true,
      detail: "tool removed",
      path: "",
    });
    expect(report.changes).toHaveLength(3);
  });

  it("exits 0 on changes that do not break", () => {
    const fine = path.join(dir, "fine.json");
    fs.writeFileSync(fine, JSON.stringify(edited((t) => city(t).enum.push("Chengdu"))));
    const result = runZcp(REPO, ["diff", WEATHER, fine]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("ok weather.get_current: enum-member-added:");
  });

  it("reads a git ref and a zcp.gen folder", () => {
    const result = runZcp(REPO, [
      "diff",
      "HEAD:fixtures/weather/src/zcp.gen/registry.ts",
      "fixtures/weather/src/zcp.gen",
      "--reporter",
      "json",
    ]);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ breaking: 0, changes: [] });
    expect(result.status).toBe(0);
    // A path relative to the folder it runs in, as in a package's CI.
    const local = runZcp(path.join(FIXTURES, "weather"), [
      "diff",
      "HEAD:src/zcp.gen/registry.ts",
      "src/zcp.gen/registry.ts",
    ]);
    expect([local.status, local.stdout]).toEqual([0, "no changes\n"]);
  });

  it("exits 2 on usage errors", () => {
    const notRegistry = path.join(dir, "package.json");
    fs.writeFileSync(notRegistry, "{}");
    const cases: [string[], RegExp][] = [
      [["diff", WEATHER], /takes OLD and NEW/],
      [["diff", WEATHER, path.join(dir, "missing.json")], /no such file/],
      [["diff", WEATHER, notRegistry], /not a zcp registry/],
      [["diff", WEATHER, dir], /no registry.ts, registry.js, registry.json in this folder/],
      [["diff", WEATHER, "@t/not-installed"], /no package "@t\/not-installed" installed/],
      [["diff", "HEAD:no/such/registry.json", WEATHER], /HEAD:no\/such\/registry.json/],
      [["diff", WEATHER, WEATHER, "--reporter", "xml"], /--reporter must be text or json/],
      [["diff", WEATHER, WEATHER, "--bogus"], /Unknown option/],
    ];
    for (const [args, message] of cases) {
      const result = runZcp(REPO, args);
      expect([args, result.status]).toEqual([args, 2]);
      expect(result.stderr).toMatch(message);
    }
  });
});

describe("zcp diff inputs", () => {
  let dir: string;
  /** The weather registry as tsc compiles registry.ts. */
  const compiledJs = () =>
    ts.transpileModule(fs.readFileSync(WEATHER, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
    }).outputText;
  /** A changed copy: `math.subtract` takes a new required parameter. */
  const changed = edited((t) => {
    t[SUB]!.inputSchema.properties.c = { type: "number" };
    t[SUB]!.inputSchema.required.push("c");
  });
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-diff-inputs-"));
    const write = (name: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    };
    write("compiled/registry.js", compiledJs());
    write("built/dist/zcp.gen/registry.js", compiledJs());
    write("changed.json", JSON.stringify(changed));
    write("manifest/registry.json", '{ "version": 3, "hash": "x", "index": {}, "files": [] }');
    write(
      "app/node_modules/@t/weather/package.json",
      JSON.stringify({
        name: "@t/weather",
        exports: {
          "./zcp": { types: "./dist/zcp.gen/index.d.ts", import: "./dist/zcp.gen/index.js" },
        },
      }),
    );
    write("app/node_modules/@t/weather/dist/zcp.gen/registry.js", compiledJs());
    write("app/node_modules/@t/no-zcp/package.json", JSON.stringify({ name: "@t/no-zcp" }));
  });

  const diff = (cwd: string, ...args: string[]) => {
    const result = runZcp(cwd, ["diff", ...args]);
    return [result.status, result.stdout, result.stderr];
  };

  it("reads a registry module, as .ts and as compiled .js, without running it", () => {
    expect(diff(dir, WEATHER, "compiled/registry.js")).toEqual([0, "no changes\n", ""]);
  });

  it("reads a folder: its own registry, or under zcp.gen/, src/zcp.gen/ or dist/zcp.gen/", () => {
    expect(diff(dir, "compiled", "built")).toEqual([0, "no changes\n", ""]);
    expect(diff(FIXTURES, "weather", "weather/src/zcp.gen")).toEqual([0, "no changes\n", ""]);
  });

  it("reads a full registry.json, and refuses a manifest without tools", () => {
    const [status, stdout] = diff(dir, "compiled", "changed.json");
    expect([status, stdout]).toEqual([
      1,
      'BREAKING math.subtract: required-added: required parameter "c" added (inputSchema.properties.c)\n1 breaking, 0 not breaking\n',
    ]);
    expect(diff(dir, "manifest", "compiled")).toEqual([
      2,
      "",
      `zcp: ${path.join("manifest", "registry.json")} is a registry manifest without "tools" (written without "jsonFiles": true): read the registry module (registry.ts or registry.js) beside it instead\n`,
    ]);
  });

  it("reads an installed package's published registry by its name", () => {
    const app = path.join(dir, "app");
    expect(diff(app, "@t/weather", WEATHER)).toEqual([0, "no changes\n", ""]);
    expect(diff(app, "@t/weather/zcp", "../changed.json", "--allow-breaking")[0]).toBe(0);
    expect(diff(app, "@t/weather", "../changed.json")[0]).toBe(1);
    expect(diff(app, "@t/no-zcp", WEATHER)).toEqual([
      2,
      "",
      'zcp: @t/no-zcp: the package declares no "./zcp" export in its package.json\n',
    ]);
  });

  it("reads a folder at a git revision", () => {
    const result = runZcp(REPO, ["diff", "HEAD:fixtures/weather/src/zcp.gen", WEATHER]);
    expect([result.status, result.stdout, result.stderr]).toEqual([0, "no changes\n", ""]);
  });
});

describe("zcp diff through $ref", () => {
  /** A tool taking a recursive `Category` tree, its definition edited by `edit`. */
  function tree(edit: (category: Tool) => void = () => {}, name = "Category"): Registry {
    const category: Tool = {
      type: "object",
      properties: {
        name: { type: "string" },
        children: { type: "array", items: { $ref: `#/$defs/${name}` } },
      },
      required: ["name", "children"],
      additionalProperties: false,
    };
    edit(category);
    return edited((t) => {
      t[SUB]!.inputSchema = {
        type: "object",
        properties: { root: { $ref: `#/$defs/${name}`, description: "The tree." } },
        required: ["root"],
        additionalProperties: false,
        $defs: { [name]: category },
      };
    });
  }
  const rules = (old: Registry, now: Registry) =>
    diffRegistries(old, now).map(({ rule, breaking, path }) => [rule, breaking, path]);

  it("compares a definition where it is used, once per recursion", () => {
    const required = tree((c) => {
      c.properties.id = { type: "string" };
      c.required.push("id");
    });
    expect(rules(tree(), required)).toEqual([
      ["required-added", true, "inputSchema.properties.root.properties.id"],
    ]);
    const narrowed = tree((c) => (c.properties.name.enum = ["a", "b"]));
    expect(rules(tree(), narrowed)).toEqual([
      ["enum-added", true, "inputSchema.properties.root.properties.name"],
    ]);
  });

  it("finds nothing when only the definition's name changed", () => {
    expect(rules(tree(), tree(undefined, "Node"))).toEqual([]);
  });
});

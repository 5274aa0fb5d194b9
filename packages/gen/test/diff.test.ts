import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Registry } from "@zcp/runtime";
import { beforeAll, describe, expect, it } from "vitest";
import { ts } from "ts-morph";
import { readRegistryFile } from "../src/compose/read.js";
import { diffRegistries } from "../src/diff/index.js";
import { FIXTURES, REPO, runZcp } from "./helpers.js";

const WEATHER = path.join(FIXTURES, "weather/src/zcp.gen/registry.ts");
const REAL: Registry = readRegistryFile(WEATHER).registry;

/** A mutable copy of the weather registry; tools by alias. */
type Tool = Record<string, any>;
type Edit = (tools: Record<string, Tool>, registry: { tools: Tool[] }) => void;

function edited(edit: Edit): Registry {
  const copy = structuredClone(REAL) as unknown as { tools: Tool[] };
  edit(Object.fromEntries(copy.tools.map((t) => [t.alias as string, t])), copy);
  return copy as unknown as Registry;
}

const AVG = "math.average";
const SUB = "math.subtract";
const WEATHER_TOOL = "weather.get_current";
const city = (t: Record<string, Tool>) => t[WEATHER_TOOL]!.inputSchema.properties.city;
const numbers = (t: Record<string, Tool>) => t[AVG]!.inputSchema.properties.numbers;
const outputOf = (t: Record<string, Tool>) => t[WEATHER_TOOL]!.outputSchema.properties;

interface Case {
  rule: string;
  edit: Edit;
  /** The one change expected: [tool, breaking, path]. */
  expect: [string, boolean, string];
  /** Edits the OLD registry instead (for rules about something removed). */
  old?: true;
}

const CASES: Case[] = [
  // tools
  {
    rule: "tool-removed",
    edit: (_, r) => r.tools.splice(0, 1),
    expect: [AVG, true, ""],
  },
  {
    rule: "tool-added",
    edit: (t, r) =>
      r.tools.push({ ...t[AVG], alias: "math.mean", id: "zzzzzz", name: "math_mean" }),
    expect: ["math.mean", false, ""],
  },
  {
    rule: "tool-renamed",
    edit: (t) => Object.assign(t[SUB]!, { alias: "math.minus", name: "math_subtract" }),
    expect: ["math.minus", true, "alias"],
  },
  {
    rule: "provider-name-changed",
    edit: (t) => (t[SUB]!.name = "math_minus"),
    expect: [SUB, true, "name"],
  },
  {
    rule: "output-mode-changed",
    edit: (t) => (t[WEATHER_TOOL]!.outputMode = "handle"),
    expect: [WEATHER_TOOL, true, "outputMode"],
  },
  {
    rule: "handle-kind-changed",
    edit: (t) => (t[WEATHER_TOOL]!.handleKind = "forecast"),
    expect: [WEATHER_TOOL, true, "handleKind"],
  },
  {
    rule: "handle-param-changed",
    edit: (t) => (t[WEATHER_TOOL]!.handleParams = { city: "place" }),
    expect: [WEATHER_TOOL, true, "handleParams.city"],
  },
  {
    rule: "scope-added",
    edit: (t) => (t[WEATHER_TOOL]!.scopes = ["weather:read"]),
    expect: [WEATHER_TOOL, true, "scopes"],
  },
  {
    rule: "scope-removed",
    edit: (t) => (t[WEATHER_TOOL]!.scopes = ["weather:read"]),
    old: true,
    expect: [WEATHER_TOOL, false, "scopes"],
  },
  {
    rule: "approval-added",
    edit: (t) => t[WEATHER_TOOL]!.flags.push("approval"),
    expect: [WEATHER_TOOL, true, "flags"],
  },
  {
    rule: "approval-removed",
    edit: (t) => t[WEATHER_TOOL]!.flags.push("approval"),
    old: true,
    expect: [WEATHER_TOOL, false, "flags"],
  },
  {
    rule: "flag-added",
    edit: (t) => t[WEATHER_TOOL]!.flags.push("destructive"),
    expect: [WEATHER_TOOL, false, "flags"],
  },
  {
    rule: "flag-removed",
    edit: (t) => t[WEATHER_TOOL]!.flags.pop(),
    expect: [WEATHER_TOOL, false, "flags"],
  },
  {
    rule: "output-schema-removed",
    edit: (t) => (t[AVG]!.outputSchema = null),
    expect: [AVG, true, "outputSchema"],
  },
  {
    rule: "output-schema-added",
    edit: (t) => (t[AVG]!.outputSchema = null),
    old: true,
    expect: [AVG, false, "outputSchema"],
  },
  {
    rule: "title-changed",
    edit: (t) => (t[AVG]!.title = "Average"),
    expect: [AVG, false, "title"],
  },
  {
    rule: "description-changed",
    edit: (t) => (t[AVG]!.description = "Mean of numbers."),
    expect: [AVG, false, "description"],
  },
  {
    rule: "deprecated-changed",
    edit: (t) => (t[AVG]!.deprecated = "Use math.mean."),
    expect: [AVG, false, "deprecated"],
  },
  {
    rule: "groups-changed",
    edit: (t) => t[AVG]!.groups.push("stats"),
    expect: [AVG, false, "groups"],
  },
  {
    rule: "stages-changed",
    edit: (t) => t[AVG]!.stages.push("plan"),
    expect: [AVG, false, "stages"],
  },
  // parameters
  {
    rule: "required-added",
    edit: (t) => {
      t[SUB]!.inputSchema.properties.c = { type: "number" };
      t[SUB]!.inputSchema.required.push("c");
    },
    expect: [SUB, true, "inputSchema.properties.c"],
  },
  {
    rule: "required-added",
    edit: (t) => t[WEATHER_TOOL]!.inputSchema.required.push("unit"),
    expect: [WEATHER_TOOL, true, "inputSchema.properties.unit"],
  },
  {
    rule: "required-removed",
    edit: (t) => (t[SUB]!.inputSchema.required = ["a"]),
    expect: [SUB, false, "inputSchema.properties.b"],
  },
  {
    rule: "required-removed",
    edit: (t) => t[WEATHER_TOOL]!.outputSchema.required.pop(),
    expect: [WEATHER_TOOL, true, "outputSchema.properties.humidity"],
  },
  {
    rule: "property-added",
    edit: (t) => (t[SUB]!.inputSchema.properties.c = { type: "number" }),
    expect: [SUB, false, "inputSchema.properties.c"],
  },
  {
    rule: "property-added",
    edit: (t) => (outputOf(t).wind = { type: "number" }),
    expect: [WEATHER_TOOL, false, "outputSchema.properties.wind"],
  },
  {
    rule: "property-removed",
    edit: (t) => {
      delete t[SUB]!.inputSchema.properties.b;
      t[SUB]!.inputSchema.required = ["a"];
    },
    expect: [SUB, true, "inputSchema.properties.b"],
  },
  {
    rule: "property-removed",
    edit: (t) => {
      delete outputOf(t).humidity;
      t[WEATHER_TOOL]!.outputSchema.required.pop();
    },
    expect: [WEATHER_TOOL, true, "outputSchema.properties.humidity"],
  },
  // types
  {
    rule: "type-narrowed",
    edit: (t) => (t[SUB]!.inputSchema.properties.a.type = "integer"),
    expect: [SUB, true, "inputSchema.properties.a"],
  },
  {
    rule: "type-widened",
    edit: (t) => (t[SUB]!.inputSchema.properties.a.type = ["number", "null"]),
    expect: [SUB, false, "inputSchema.properties.a"],
  },
  {
    rule: "type-widened",
    edit: (t) => (t[AVG]!.outputSchema = { type: ["number", "null"] }),
    expect: [AVG, true, "outputSchema"],
  },
  {
    rule: "type-narrowed",
    edit: (t) => (t[AVG]!.outputSchema = { type: "integer" }),
    expect: [AVG, false, "outputSchema"],
  },
  {
    rule: "type-changed",
    edit: (t) => (t[SUB]!.inputSchema.properties.a = { type: "string" }),
    expect: [SUB, true, "inputSchema.properties.a"],
  },
  // enums and consts
  {
    rule: "enum-member-removed",
    edit: (t) => city(t).enum.pop(),
    expect: [WEATHER_TOOL, true, "inputSchema.properties.city"],
  },
  {
    rule: "enum-member-added",
    edit: (t) => city(t).enum.push("Chengdu"),
    expect: [WEATHER_TOOL, false, "inputSchema.properties.city"],
  },
  {
    rule: "enum-member-added",
    edit: (t) => outputOf(t).condition.enum.push("fog"),
    expect: [WEATHER_TOOL, true, "outputSchema.properties.condition"],
  },
  {
    rule: "enum-added",
    edit: (t) => (t[SUB]!.inputSchema.properties.a.enum = [1, 2]),
    expect: [SUB, true, "inputSchema.properties.a"],
  },
  {
    rule: "enum-removed",
    edit: (t) => delete city(t).enum,
    expect: [WEATHER_TOOL, false, "inputSchema.properties.city"],
  },
  {
    rule: "const-added",
    edit: (t) => (t[SUB]!.inputSchema.properties.a.const = 1),
    expect: [SUB, true, "inputSchema.properties.a"],
  },
  {
    rule: "const-changed",
    edit: (t) => (t[SUB]!.inputSchema.properties.a.const = 2),
    expect: [SUB, true, "inputSchema.properties.a"],
  },
  {
    rule: "const-removed",
    edit: (t) => (t[SUB]!.inputSchema.properties.a.const = 1),
    old: true,
    expect: [SUB, false, "inputSchema.properties.a"],
  },
  // constraints
  {
    rule: "constraint-tightened",
    edit: (t) => (numbers(t).minItems = 2),
    expect: [AVG, true, "inputSchema.properties.numbers"],
  },
  {
    rule: "constraint-loosened",
    edit: (t) => (numbers(t).minItems = 0),
    expect: [AVG, false, "inputSchema.properties.numbers"],
  },
  {
    rule: "constraint-tightened",
    edit: (t) => (numbers(t).maxItems = 100),
    expect: [AVG, true, "inputSchema.properties.numbers"],
  },
  {
    rule: "constraint-tightened",
    edit: (t) => (numbers(t).items.minimum = 0),
    expect: [AVG, true, "inputSchema.properties.numbers.items"],
  },
  {
    rule: "constraint-tightened",
    edit: (t) => (t[SUB]!.inputSchema.properties.a.maximum = 10),
    expect: [SUB, true, "inputSchema.properties.a"],
  },
  {
    rule: "constraint-loosened",
    edit: (t) => (t[SUB]!.inputSchema.properties.a.maximum = 10),
    old: true,
    expect: [SUB, false, "inputSchema.properties.a"],
  },
  {
    rule: "constraint-tightened",
    edit: (t) => (city(t).minLength = 2),
    expect: [WEATHER_TOOL, true, "inputSchema.properties.city"],
  },
  {
    rule: "constraint-tightened",
    edit: (t) => (city(t).maxLength = 20),
    expect: [WEATHER_TOOL, true, "inputSchema.properties.city"],
  },
  {
    rule: "constraint-changed",
    edit: (t) => (t[SUB]!.inputSchema.properties.a.multipleOf = 3),
    expect: [SUB, true, "inputSchema.properties.a"],
  },
  {
    rule: "pattern-added",
    edit: (t) => (city(t).pattern = "^[A-Z]"),
    expect: [WEATHER_TOOL, true, "inputSchema.properties.city"],
  },
  {
    rule: "pattern-changed",
    edit: (t) => (city(t).pattern = "^[A-Z]"),
    expect: [WEATHER_TOOL, true, "inputSchema.properties.city"],
  },
  {
    rule: "pattern-removed",
    edit: (t) => (city(t).pattern = "^[A-Z]"),
    old: true,
    expect: [WEATHER_TOOL, false, "inputSchema.properties.city"],
  },
  {
    rule: "format-added",
    edit: (t) => (city(t).format = "email"),
    expect: [WEATHER_TOOL, true, "inputSchema.properties.city"],
  },
  {
    rule: "format-changed",
    edit: (t) => (city(t).format = "uri"),
    expect: [WEATHER_TOOL, true, "inputSchema.properties.city"],
  },
  {
    rule: "format-removed",
    edit: (t) => (city(t).format = "email"),
    old: true,
    expect: [WEATHER_TOOL, false, "inputSchema.properties.city"],
  },
  {
    rule: "additional-properties-closed",
    edit: (t) => (t[SUB]!.inputSchema.additionalProperties = true),
    old: true,
    expect: [SUB, true, "inputSchema.additionalProperties"],
  },
  {
    rule: "additional-properties-opened",
    edit: (t) => (t[SUB]!.inputSchema.additionalProperties = true),
    expect: [SUB, false, "inputSchema.additionalProperties"],
  },
  {
    rule: "additional-properties-opened",
    edit: (t) => delete t[WEATHER_TOOL]!.outputSchema.additionalProperties,
    expect: [WEATHER_TOOL, true, "outputSchema.additionalProperties"],
  },
  {
    rule: "items-closed",
    edit: (t) => (numbers(t).items = false),
    expect: [AVG, true, "inputSchema.properties.numbers.items"],
  },
  {
    rule: "any-of-widened",
    edit: (t) =>
      (t[SUB]!.inputSchema.properties.a = { anyOf: [{ type: "number" }, { type: "string" }] }),
    expect: [SUB, false, "inputSchema.properties.a.anyOf"],
  },
  {
    rule: "schema-changed",
    edit: (t) => (t[SUB]!.inputSchema.properties.a = { $ref: "#/$defs/A" }),
    expect: [SUB, true, "inputSchema.properties.a"],
  },
  // annotations
  {
    rule: "description-changed",
    edit: (t) => (city(t).description = "A city."),
    expect: [WEATHER_TOOL, false, "inputSchema.properties.city"],
  },
  {
    rule: "title-changed",
    edit: (t) => (t[WEATHER_TOOL]!.outputSchema.title = "Conditions"),
    expect: [WEATHER_TOOL, false, "outputSchema"],
  },
  {
    rule: "examples-changed",
    edit: (t) => (city(t).examples = ["Shanghai"]),
    expect: [WEATHER_TOOL, false, "inputSchema.properties.city"],
  },
  {
    rule: "default-changed",
    edit: (t) => (t[WEATHER_TOOL]!.inputSchema.properties.unit.default = "fahrenheit"),
    expect: [WEATHER_TOOL, false, "inputSchema.properties.unit"],
  },
];

describe("zcp diff rules", () => {
  it("finds nothing between a registry and itself", () => {
    expect(diffRegistries(REAL, structuredClone(REAL))).toEqual([]);
  });

  it.each(CASES.map((c) => [`${c.rule} (${c.expect[2] || c.expect[0]})`, c] as const))(
    "%s",
    (_, c) => {
      // Cases on a removal mutate OLD; "-changed" cases that need a previous value get one too.
      let before: Registry = REAL;
      let after: Registry = edited(c.edit);
      if (c.old) [before, after] = [after, REAL];
      else if (c.rule === "pattern-changed") before = edited((t) => (city(t).pattern = "^[a-z]"));
      else if (c.rule === "format-changed") before = edited((t) => (city(t).format = "email"));
      else if (c.rule === "const-changed")
        before = edited((t) => (t[SUB]!.inputSchema.properties.a.const = 1));
      else if (c.rule === "any-of-widened")
        before = edited(
          (t) => (t[SUB]!.inputSchema.properties.a = { anyOf: [{ type: "number" }] }),
        );
      else if (c.rule === "schema-changed")
        before = edited((t) => (t[SUB]!.inputSchema.properties.a = { $ref: "#/$defs/B" }));
      else if (c.rule === "constraint-changed")
        before = edited((t) => (t[SUB]!.inputSchema.properties.a.multipleOf = 2));
      const changes = diffRegistries(before, after);
      const [tool, breaking, at] = c.expect;
      expect(
        changes.map(({ tool, rule, breaking, path }) => ({ tool, rule, breaking, path })),
      ).toEqual([{ tool, rule: c.rule, breaking, path: at }]);
      expect(changes[0]!.detail).not.toBe("");
    },
  );

  it("reports a tool whose alias and id changed as removed and added", () => {
    const after = edited((t) => Object.assign(t[SUB]!, { alias: "math.minus", id: "q1w2e3" }));
    expect(diffRegistries(REAL, after).map((c) => [c.tool, c.rule, c.breaking])).toEqual([
      ["math.minus", "tool-added", false],
      [SUB, "tool-removed", true],
    ]);
  });
});

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

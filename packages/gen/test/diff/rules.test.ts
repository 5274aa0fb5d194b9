/**
 * `zcp diff`'s rules (src/diff): each rule on one edit of the weather registry, reported as the
 * one change with its tool, path and whether it breaks callers.
 */
import type { Registry } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import { diffRegistries } from "../../src/diff/index.js";
import {
  AVG,
  city,
  type Edit,
  edited,
  numbers,
  outputOf,
  REAL,
  SUB,
  WEATHER_TOOL,
} from "./helpers.js";

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

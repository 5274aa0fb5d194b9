/**
 * A tool's own `@example` tags: each a JSON object of arguments, checked at gen time by the code
 * of the tool's generated validator; the ones that fit (at most five) go into the definition's
 * `examples` and the Anthropic entry's `input_examples`, the others are left out with a warning
 * (ZCP1301, ZCP1306). A tool without examples has no `examples` field (its definition and hash
 * are as before the field existed). The Anthropic entry with examples is the SDK's
 * `Anthropic.Messages.Tool` (checked by tsc here and in conformance/sdk-types.ts), and each
 * example fits its `input_schema` under Ajv.
 */
import fs from "node:fs";
import path from "node:path";
import type Anthropic from "@anthropic-ai/sdk";
import { artifactSet, type Registry } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registry as weather } from "../../../fixtures/weather/src/zcp.gen/registry.js";
import { validatorFunction } from "../src/emit/evaluate.js";
import {
  ajv,
  type CliResult,
  generatedRegistry,
  oneJsonLine,
  runZcp,
  scratchProject,
  STRICT_TSCONFIG,
} from "./helpers.js";

const SOURCE = `export interface Booking {
  /**
   * Flight number.
   * @pattern ^[A-Z]{2}[0-9]+$
   */
  flight: string;
  /**
   * Seats to book.
   * @type integer
   * @minimum 1
   */
  seats?: number;
}

/**
 * Books seats on a flight.
 *
 * @tool travel.book
 * @example {"flight": "LH400", "seats": 2}
 * @example <caption>One seat</caption> {"flight": "BA117"}
 * @example {"flight": "LH400", "seats": 0}
 * @example {"flight": "LH400", "seats": "2"}
 * @example {"flight": "LH400", "class": "first"}
 * @example ["LH400"]
 * @example the morning flight
 * @example {
 *   "flight": "AF1"
 * }
 * @example {"flight": "AF2"}
 * @example {"flight": "AF3"}
 * @example {"flight": "AF4"}
 */
export function book(booking: Booking): string {
  return booking.flight;
}

/**
 * Cancels a booking.
 *
 * @tool travel.cancel
 * @param flight Flight number.
 */
export function cancel(flight: string): string {
  return flight;
}
`;

interface JsonLine {
  diagnostics: { severity: string; code: string; message: string; line: number }[];
}

let dir: string;
let run: CliResult;
let registry: Registry;
beforeAll(() => {
  dir = scratchProject({
    "zcp.config.json": "{}",
    "tsconfig.json": STRICT_TSCONFIG,
    "src/travel.ts": SOURCE,
  });
  run = runZcp(dir, ["gen", "--reporter", "json"]);
  registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const tool = (alias: string) => registry.tools.find((each) => each.alias === alias)!;

describe("tool-level @example", () => {
  it("keeps the examples that fit, in order, at most five", () => {
    expect(run.status, run.stderr).toBe(0);
    expect(tool("travel.book").examples).toEqual([
      { flight: "LH400", seats: 2 },
      { flight: "BA117" },
      { flight: "AF1" },
      { flight: "AF2" },
      { flight: "AF3" },
    ]);
  });

  it("leaves out the others with a warning at their tag", () => {
    const left = "; the example is left out";
    expect(
      oneJsonLine<JsonLine>(run).diagnostics.map((d) => [d.line, d.severity, d.code, d.message]),
    ).toEqual([
      [
        21,
        "warning",
        "ZCP1306",
        `@example: {"flight":"LH400","seats":0} does not fit the parameters (invalid:$.seats: expected integer >= 1)${left}`,
      ],
      [
        22,
        "warning",
        "ZCP1306",
        `@example: {"flight":"LH400","seats":"2"} fits the parameters only after a string is read as a number or boolean; write the value itself${left}`,
      ],
      [
        23,
        "warning",
        "ZCP1306",
        `@example: {"flight":"LH400","class":"first"} does not fit the parameters (invalid:$.class: unknown property; expected: flight, seats)${left}`,
      ],
      [
        24,
        "warning",
        "ZCP1301",
        `@example: "["LH400"]" is not a JSON object of the tool's arguments${left}`,
      ],
      [
        25,
        "warning",
        "ZCP1301",
        `@example: "the morning flight" is not a JSON object of the tool's arguments${left}`,
      ],
      [31, "warning", "ZCP1301", `@example: a tool keeps at most 5 examples${left}`],
    ]);
  });

  it("a tool without examples has no examples field", () => {
    expect(tool("travel.cancel")).not.toHaveProperty("examples");
    expect(weather.tools.filter((each) => each.examples).map((each) => each.alias)).toEqual([
      "weather.get_current",
    ]);
  });

  it("the Anthropic entry carries them as input_examples, the SDK's Tool; lean entries do not", () => {
    const book = tool("travel.book");
    const entry: Anthropic.Messages.Tool = artifactSet(registry, "anthropic")[book.id]!;
    expect(entry.input_examples).toEqual(book.examples);
    expect(artifactSet(registry, "anthropic", { lean: true })[book.id]).not.toHaveProperty(
      "input_examples",
    );
    expect(artifactSet(registry, "anthropic")[tool("travel.cancel").id]).not.toHaveProperty(
      "input_examples",
    );
    for (const set of [registry, weather].map((each) => artifactSet(each, "anthropic"))) {
      for (const each of Object.values(set)) {
        const validate = ajv().compile(each.input_schema);
        for (const example of each.input_examples ?? [])
          expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      }
    }
    const weatherEntry: Anthropic.Messages.Tool = Object.values(artifactSet(weather, "anthropic"))
      .filter((each) => each.input_examples)
      .at(0)!;
    expect(weatherEntry.input_examples).toEqual([{ city: "Beijing", unit: "fahrenheit" }]);
  });
});

describe("validatorFunction: the generated validator in this process", () => {
  it("gives the generated code's verdicts, shared types and patterns included", () => {
    const validate = validatorFunction({
      type: "object",
      properties: {
        at: {
          type: "object",
          title: "Place",
          properties: { code: { type: "string", pattern: "^[A-Z]{3}$" } },
          required: ["code"],
          additionalProperties: false,
        },
      },
      required: ["at"],
      additionalProperties: false,
    });
    expect(validate({ at: { code: "FRA" } })).toEqual({ ok: true, value: { at: { code: "FRA" } } });
    expect(validate({ at: { code: "fra" } })).toEqual({
      ok: false,
      error: "invalid:$.at.code",
      hint: "expected string matching ^[A-Z]{3}$",
    });
    expect(validate({})).toMatchObject({ ok: false, error: "missing:$.at" });
  });
});

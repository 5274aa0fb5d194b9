/**
 * The literal printer against its oracle: for randomized data (nested objects and arrays,
 * quotes, escapes, wide characters, exponents, long number arrays, keys that need quotes),
 * prettier must leave the printed statement exactly as it is.
 */
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { Identifier, PRETTIER_STYLE, printStatement, type Printable } from "../src/emit/print.js";
import { typesFile } from "../src/emit/types.js";
import type { ToolDefinition } from "@zcp/runtime";
import { mulberry32 as random } from "../../../tools/test-random.js";

const WORDS = [
  "a",
  "id",
  "name",
  "description",
  "type",
  "$ref",
  "~zcp.handle",
  "content-type",
  "123",
  "x y",
  "it's",
  'say "hi"',
  "héllo",
  "天气预报",
  "emoji 🌤",
  "tab\there",
  "line\nbreak",
  "back\\slash",
  'a\'b"c"d',
];

function generate(next: () => number, depth: number): Printable {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const roll = next();
  if (depth > 3 || roll < 0.3) {
    const scalars: Printable[] = [
      pick(WORDS),
      pick(WORDS).repeat(1 + Math.floor(next() * 12)),
      Math.floor(next() * 2000) - 1000,
      next() * 1e6,
      1e21,
      1.5e-7,
      true,
      false,
      null,
      -0.25,
    ];
    return pick(scalars);
  }
  if (roll < 0.45)
    return Array.from({ length: Math.floor(next() * 70) }, () => Math.floor(next() * 100000) - 50);
  if (roll < 0.7)
    return Array.from({ length: Math.floor(next() * 6) }, () => generate(next, depth + 1));
  const object: Record<string, Printable> = {};
  for (let i = Math.floor(next() * 6); i > 0; i--)
    object[pick(WORDS) + (next() < 0.3 ? "Suffix" : "")] = generate(next, depth + 1);
  return object;
}

describe("printStatement", () => {
  it("prints 400 random values exactly as prettier formats them", async () => {
    const next = random(20261129);
    for (let i = 0; i < 400; i++) {
      // Statements in generated files always assign an object.
      const value = { value: generate(next, 0), [`k${i}`]: generate(next, 1) };
      const printed = printStatement(`const value${i}: unknown = `, value);
      expect(await prettier.format(printed, PRETTIER_STYLE), printed).toBe(printed);
    }
  });

  it("prints identifiers bare and breaks long string values after the colon", async () => {
    const printed = printStatement("export const registry = ", {
      tools: [new Identifier("tool_a"), new Identifier("tool_b")],
      descriptionShort: "x".repeat(90),
      desc: "short keys never break ".repeat(4),
      matrix: [
        [1, 2],
        [3, 4],
      ],
    });
    expect(printed).toContain("  tools: [tool_a, tool_b],\n");
    expect(printed).toContain(`  descriptionShort:\n    "${"x".repeat(90)}",\n`);
    expect(printed).toContain("  matrix: [\n    [1, 2],\n    [3, 4],\n  ],\n");
    expect(await prettier.format(printed, PRETTIER_STYLE)).toBe(printed);
  });

  it("refuses values that are not JSON", () => {
    expect(() => printStatement("const x = ", Number.NaN)).toThrow("cannot print NaN");
  });
});

describe("typesFile", () => {
  it("breaks an index-signature type that does not fit the way prettier does, as an alias and as a member", async () => {
    const values = { type: ["boolean", "number", "string", "null"] };
    const record = { type: "object", additionalProperties: values };
    const tool = {
      alias: "sheet.read_every_row_of_the_workbook",
      id: "abc123",
      inputSchema: {
        type: "object",
        properties: {
          rowsOfTheWorksheetAsRecordsKeyedByTheirColumnNames: { type: "array", items: record },
          options: record,
        },
        required: [],
      },
      outputSchema: { type: "array", items: record },
    } as unknown as ToolDefinition;
    const text = typesFile({ version: "0.0.0-test", config: "zcp.config.json" }, [tool]);
    expect(text).toContain("= {\n  [key: string]: boolean | number | string | null;\n}[];");
    expect(text).toContain(
      "rowsOfTheWorksheetAsRecordsKeyedByTheirColumnNames?: {\n    [key: string]: boolean | number | string | null;\n  }[];",
    );
    expect(await prettier.format(text, PRETTIER_STYLE)).toBe(text);
  });
});

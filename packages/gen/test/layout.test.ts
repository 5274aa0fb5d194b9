/**
 * The layout of validator code (src/emit/layout.ts) on its own: hand-built statements of every
 * kind the compiler produces, at widths on both sides of prettier's line, printed and then given
 * to prettier, which must leave them exactly as they are. (validators/generated-file.test.ts
 * checks the same on whole generated files.)
 */
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import type { FunctionCode, Statement } from "../src/compile/index.js";
import { printFunction, printImport, printPattern } from "../src/emit/layout.js";
import { PRETTIER_STYLE } from "../src/emit/print.js";

const fn = (
  body: Statement[],
  name = "validate_t",
  params: FunctionCode["params"] = "input",
): FunctionCode => ({ name, doc: "t.tool", params, body });

/** `body` as a function body, printed, after prettier has had its say. */
async function settled(body: Statement[]): Promise<{ text: string; formatted: string }> {
  const text = printFunction(fn(body));
  return { text, formatted: await prettier.format(text, PRETTIER_STYLE) };
}

/** Names of increasing length: the same statement just fitting, then not. */
const sizes = [8, 30, 60, 75, 85, 95, 120];
const name = (n: number) => `v${"x".repeat(n)}`;

describe("validator code layout", () => {
  it("prints calls flat, with one argument per line, or broken after `=` first", async () => {
    for (const n of sizes) {
      const { text, formatted } = await settled([
        { kind: "call", head: `const r1 = ${name(n)}`, args: ["input", { str: "$.a" }], tail: ";" },
        {
          kind: "call",
          head: "return invalid",
          args: [`\`\${path}[${name(n)}]\``, { str: `expected ${"word ".repeat(n / 5)}` }],
          tail: ";",
        },
        "return { ok: true, value: input };",
      ]);
      expect(text, `width ${n}`).toBe(formatted);
    }
  });

  it("prints condition lists flat or one operand per line, with their body", async () => {
    // Operands are short by construction (local names such as `v12`): each fits on its own line.
    for (const n of sizes.filter((size) => size <= 60)) {
      const conditions = [
        `typeof ${name(n)} !== "string"`,
        `codePoints(${name(n)}) < 2`,
        `!PATTERN_1.test(${name(n)})`,
      ];
      for (const operator of ["&&", "||"] as const) {
        const { text, formatted } = await settled([
          {
            kind: "if",
            conditions,
            operator,
            body: [
              {
                kind: "call",
                head: "return invalid",
                args: [{ str: "$" }, { str: "hint" }],
                tail: ";",
              },
            ],
          },
          "return { ok: true, value: input };",
        ]);
        expect(text, `width ${n} ${operator}`).toBe(formatted);
      }
    }
  });

  it("prints property reads flat, broken after `=`, or broken inside the brackets", async () => {
    for (const n of [...sizes, 150]) {
      const { text, formatted } = await settled([
        { kind: "read", name: "v1", object: "input", key: `k${"e".repeat(n)}y` },
        { kind: "read", name: "v2", object: name(n), key: "a b" },
        "return { ok: true, value: input };",
      ]);
      expect(text, `width ${n}`).toBe(formatted);
    }
  });

  it("tests one value with an if when it fits, else with a switch; several values always with a switch", async () => {
    const fail: Statement[] = [
      {
        kind: "call",
        head: "return invalid",
        args: [{ str: "$" }, { str: "expected one of them" }],
        tail: ";",
      },
    ];
    const outputs: string[] = [];
    for (const n of sizes) {
      const { text, formatted } = await settled([
        { kind: "enum", value: "input", values: [`value ${"v".repeat(n)}`], fail },
        { kind: "enum", value: "input", values: ["a", 1, true, null, 'it\'s "q"'], fail },
        "return { ok: true, value: input };",
      ]);
      expect(text, `width ${n}`).toBe(formatted);
      outputs.push(text);
    }
    expect(outputs[0]).toContain('if (input !== "value vvvvvvvv") {');
    expect(outputs.at(-1)).toContain("switch (input) {");
  });

  it("prints blocks, nested, lines of parts, and slots only once they are filled", async () => {
    const { text, formatted } = await settled([
      { kind: "slot", text: "let r1: unknown = input;" },
      { kind: "slot", text: null },
      {
        kind: "block",
        head: "if (isObject(input)) {",
        body: [
          {
            kind: "block",
            head: "for (const k2 in input) {",
            body: [
              {
                kind: "block",
                head: "switch (k2) {",
                body: [
                  ["case ", { str: 'say "hi"' }, ":"],
                  ["case ", { str: "plain" }, ":"],
                  "  continue;",
                ],
              },
              "r1 = k2;",
            ],
          },
        ],
      },
      "return { ok: true, value: r1 };",
    ]);
    expect(text).toBe(formatted);
    expect(text).toContain("case 'say \"hi\"':");
    expect(text).not.toMatch(/\n\s*\n/);
  });

  it("breaks long signatures, long imports and long assignments as prettier does", async () => {
    for (const n of sizes) {
      const signatures = [
        printFunction(fn(["return { ok: true, value: input };"], `validate_${"t".repeat(n)}`)),
        printFunction(
          fn(
            ["return { ok: true, value: value };"],
            `check$${"T".repeat(n)}$1a2b3c4d`,
            "value-path",
          ),
        ),
      ];
      for (const text of signatures)
        expect(text, `width ${n}`).toBe(await prettier.format(text, PRETTIER_STYLE));
      const names = Array.from({ length: Math.ceil(n / 8) }, (_, i) => `helper${i}`);
      const imports = printImport("import", names, "@zcp/runtime/codegen");
      expect(imports, `width ${n}`).toBe(await prettier.format(imports, PRETTIER_STYLE));
      const assignment = printPattern(`PATTERN_${"p".repeat(8)}`, `^${"[a-z]".repeat(n / 5)}$`);
      expect(assignment, `width ${n}`).toBe(await prettier.format(assignment, PRETTIER_STYLE));
    }
    // A pattern's real name (64 hex digits): literals either side of prettier's "short argument"
    // bound (a quarter of the width, quotes included), with quotes and wide characters.
    const name = `PATTERN_${"0123456789abcdef".repeat(4)}`;
    for (const source of [
      "a".repeat(22),
      "a".repeat(23),
      "a".repeat(24),
      'say "hi"',
      "日本語テキスト".repeat(4),
    ]) {
      const assignment = printPattern(name, source);
      expect(assignment, source).toBe(await prettier.format(assignment, PRETTIER_STYLE));
    }
  });
});

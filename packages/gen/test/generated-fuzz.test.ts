/**
 * Generated-code fuzz (issue 27, item 1): random hostile strings (quotes, backslashes, line
 * terminators, `*\/`, `${`, backticks, U+2028, `</`, lone surrogates, `__proto__`,
 * `constructor`, code that sets a sentinel, very long texts) in every field of an upstream
 * listing fed to `--from-mcp`'s model and emit stages, and in a TypeScript source (JSDoc texts,
 * `@title`, `@groups`, `@example`, `@pattern`, property names, literal types, enum members) fed
 * to the whole pipeline. Every generated module must parse, load without running anything (the
 * sentinel stays unset), and hold exactly the strings it was given. Bounded: RUNS listings of
 * TOOLS tools and one TypeScript project of STRINGS strings, seed SEED (printed; set FUZZ_SEED
 * to replay).
 */
import fs from "node:fs";
import fc from "fast-check";
import { member } from "@zcp/runtime/codegen";
import { type JsonValue } from "@zcp/runtime/definition";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { Generator } from "../src/pipeline.js";
import type { UpstreamTool } from "../src/upstream/tool.js";
import {
  gatewayOutput,
  importGenerated,
  importTypeScript,
  PAYLOADS,
  scratchWithServer,
  SENTINEL,
  sentinelIsUnset,
  syntaxErrors,
} from "./generated-modules.js";
import { scratchProject, STRICT_TSCONFIG } from "./helpers.js";

const SEED = Number(process.env.FUZZ_SEED ?? 2027);
const RUNS = 20;
const TOOLS = 12;
const STRINGS = 300;

afterAll(() => {
  Reflect.deleteProperty(globalThis, SENTINEL);
});

/** Pieces that break out of a literal, a comment, a template or a line when pasted unescaped. */
const PIECES = [
  '"',
  "'",
  "\\",
  "\n",
  "\r",
  "*/",
  "/*",
  "//",
  "${",
  "`",
  "\u2028",
  "\u2029",
  "</",
  "\ud800",
  "\udfff",
  "}",
  "{",
  "(",
  ")",
  ";",
  "$",
  "~",
  "/",
  "#",
  " ",
  "é",
  "🦀",
  "\u0000",
];

const hostile: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...PAYLOADS) },
  {
    weight: 4,
    arbitrary: fc.string({
      unit: fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: "grapheme", maxLength: 1 })),
      maxLength: 12,
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom(...PAYLOADS).map((text) => text.repeat(50)) },
);

/** A `u` regular expression that matches exactly `text`. */
function exactly(text: string): string {
  return `^${text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")}$`;
}

/** A `$defs` key as the last token of a JSON Pointer `$ref`. */
function pointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

interface Case {
  readonly tool: UpstreamTool;
  /** Arguments the tool's validator must accept as they are. */
  readonly args: { [key: string]: JsonValue };
  /** A property name and a value its validator refuses. */
  readonly refused: readonly [string, JsonValue];
}

/** One upstream tool whose every field holds hostile strings, with arguments that fit it. */
const upstreamCase: fc.Arbitrary<Case> = fc
  .record({
    name: hostile,
    title: hostile,
    description: hostile,
    names: fc.uniqueArray(hostile, { minLength: 4, maxLength: 6 }),
    values: fc.array(hostile, { minLength: 8, maxLength: 8 }),
    defKey: hostile,
  })
  .map(({ name, title, description, names, values, defKey }) => {
    const [enumKey, patternKey, refKey, mapKey] = names as [string, string, string, string];
    const properties = Object.fromEntries([
      [
        enumKey,
        {
          type: "string",
          enum: [values[0]!, values[1]!],
          description: values[2]!,
          title: values[3]!,
          default: values[0]!,
          examples: [values[4]!],
        },
      ],
      [patternKey, { type: "string", pattern: exactly(values[5]!), $comment: values[6]! }],
      [refKey, { $ref: `#/$defs/${pointer(defKey)}` }],
      [
        mapKey,
        {
          type: "object",
          title: values[7]!,
          properties: Object.fromEntries([[values[6]!, { const: values[6]! }]]),
          patternProperties: Object.fromEntries([[exactly(values[4]!), { const: values[4]! }]]),
          additionalProperties: false,
        },
      ],
      ...names.slice(4).map((key, i) => [key, { type: "string", description: values[i]! }]),
    ]) as { [key: string]: JsonValue };
    const tool: UpstreamTool = {
      name,
      title,
      description,
      inputSchema: {
        type: "object",
        $id: values[1]!,
        $anchor: values[2]!,
        properties,
        required: [enumKey, refKey],
        $defs: Object.fromEntries([[defKey, { type: "string", const: values[3]! }]]),
      },
      outputSchema: {
        type: "object",
        title: values[7]!,
        description: values[2]!,
        properties: Object.fromEntries(names.map((key, i) => [key, { const: values[i]! }])),
      },
      annotations: { title: values[0]! },
    };
    const args = Object.fromEntries([
      [enumKey, values[1]!],
      [patternKey, values[5]!],
      [refKey, values[3]!],
      [mapKey, Object.fromEntries([[values[6]!, values[6]!]])],
    ]) as { [key: string]: JsonValue };
    return { tool, args, refused: [enumKey, 17] as const };
  });

/** A JSON text: `JSON.parse` makes `__proto__` keys own properties, as a listing on the wire does. */
function wire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

describe(`generated-code fuzz, seed ${SEED}`, () => {
  const project = scratchWithServer();

  it(`upstream listings: ${RUNS} of ${TOOLS} hostile tools parse, load inertly and round-trip`, async () => {
    console.info(`generated-code fuzz (upstream): seed ${SEED}, ${RUNS} runs of ${TOOLS} tools`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(upstreamCase, { minLength: TOOLS, maxLength: TOOLS }),
        async (cases) => {
          // `#<i>`: distinct aliases (a collision, ZCP1402, would leave both tools out).
          const tools = cases.map((c, i) => wire({ ...c.tool, name: `${c.tool.name}#${i}` }));
          const out = gatewayOutput({ serverName: "evil", tools });
          // Only a provider-name collision (a long name cut to 64 characters) leaves tools out.
          const errors = out.diagnostics.filter((d) => d.severity === "error");
          expect(errors.filter((d) => d.code !== "ZCP1403")).toEqual([]);
          expect(out.definitions.length === TOOLS || errors.length > 0).toBe(true);

          const generated = await importGenerated(project, out.files);
          expect(generated.registry.tools).toEqual(out.definitions);
          for (const definition of out.definitions) {
            const i = Number(
              definition.source.export.slice(definition.source.export.lastIndexOf("#") + 1),
            );
            const listed = tools[i]!;
            const { args, refused } = cases[i]!;
            expect(definition.source.export).toBe(listed.name);
            expect(definition.inputSchema).toEqual(listed.inputSchema);
            expect(definition.outputSchema).toEqual(listed.outputSchema);
            expect(definition.description).toBe(listed.description!.trim());
            expect(definition.title).toBe(listed.title === "" ? null : listed.title);
            const validate = generated.validators[definition.id]!;
            expect(validate(wire(args))).toEqual({ ok: true, value: args });
            const [key, value] = refused;
            expect(validate(wire({ ...args, [key]: value }))).toMatchObject({
              ok: false,
              error: `invalid:$${member(key)}`,
            });
          }
          expect(sentinelIsUnset()).toBe(true);
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it(`a TypeScript source: ${STRINGS} hostile strings parse, load inertly and round-trip`, async () => {
    console.info(`generated-code fuzz (TypeScript): seed ${SEED}, ${STRINGS} strings`);
    const strings = fc.sample(hostile, { seed: SEED, numRuns: STRINGS });
    const source = typeScriptSource(strings);
    if (process.env.FUZZ_DUMP) fs.writeFileSync(process.env.FUZZ_DUMP, source.text);
    const dir = scratchProject({
      "zcp.config.json": JSON.stringify({ include: ["src/**/*.ts"], outDir: "zcp.gen" }),
      "tsconfig.json": STRICT_TSCONFIG,
      "src/tools.ts": source.text,
    });
    const loaded = loadConfig(dir);
    const result = await new Generator(loaded.config!).generate();
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(result.registry.tools).toHaveLength(source.tools.length);
    expect(syntaxErrors(result.files)).toEqual(new Map());

    // Every literal type, property name and enum member is in the registry exactly.
    for (const [i, expected] of source.tools.entries()) {
      const tool = result.registry.tools.find((t) => t.alias === `fuzz.t${i}`)!;
      const shape = tool.inputSchema as {
        properties: { [name: string]: { properties?: object; enum?: unknown[]; const?: unknown } };
      };
      expect(Object.keys(shape.properties.arg!.properties!)).toEqual(expected.keys);
      const choice = shape.properties.choice!;
      expect(choice.enum ?? [choice.const]).toEqual(expected.members);
      expect(tool.title).toBe(expected.title);
    }

    const generated = await importTypeScript(dir, result.files);
    expect(generated.registry.tools).toEqual(result.registry.tools);
    for (const [i, expected] of source.tools.entries()) {
      const tool = result.registry.tools.find((t) => t.alias === `fuzz.t${i}`)!;
      expect(generated.validators[tool.id]!(wire(expected.args))).toEqual({
        ok: true,
        value: expected.args,
      });
    }
    expect(sentinelIsUnset()).toBe(true);
  });
});

interface SourceTool {
  readonly keys: string[];
  readonly members: string[];
  readonly title: string;
  readonly args: { [key: string]: JsonValue };
}

/** Text a JSDoc comment holds as it is: no `*\/`, no line breaks, no `@` to start a tag. */
function docText(text: string): string {
  const line = text
    .replace(/\*\//g, "* /")
    .replace(/[\r\n\u2028\u2029]+/g, " ")
    .trim();
  // A lone surrogate cannot be written to a UTF-8 file: it would be read back as U+FFFD.
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
  return (
    line
      .replace(/@/g, "(at)")
      .replace(/\p{Cc}/gu, "?")
      .replace(lone, "?") || "text"
  );
}

/** A source of tools, 12 strings each: property names, literal types, enum members, docs, tags. */
function typeScriptSource(strings: readonly string[]): { text: string; tools: SourceTool[] } {
  const tools: SourceTool[] = [];
  let text = "";
  for (let i = 0; i + 12 <= strings.length; i += 12) {
    const s = strings.slice(i, i + 12);
    const n = tools.length;
    // A @pattern in a JSDoc is text: only one that survives as written can round-trip.
    const pattern = exactly(s[7]!);
    const patterned = docText(pattern) === pattern && !/\s/.test(pattern);
    const keys = [...new Set(patterned ? [s[0]!, s[1]!, s[2]!] : [s[0]!])];
    const members = [...new Set([s[3]!, s[4]!])];
    const title = docText(s[6]!);
    const args: { [key: string]: JsonValue } = {
      arg: Object.fromEntries(keys.map((key, k) => [key, k === 0 ? s[5]! : s[7]!])),
      choice: members[0]!,
    };
    const properties = keys.map((key, k) =>
      k === 0
        ? `  /** ${docText(s[8]!)} */\n  ${JSON.stringify(key)}: ${JSON.stringify(s[5]!)};\n`
        : `  /**\n   * ${docText(s[9]!)}\n   * @pattern ${pattern}\n   */\n  ${JSON.stringify(key)}: string;\n`,
    );
    text += `export interface Shape${n} {\n${properties.join("")}}\n\n`;
    text += `export enum Choice${n} {\n${members.map((m, k) => `  M${k} = ${JSON.stringify(m)},\n`).join("")}}\n\n`;
    text += [
      "/**",
      ` * ${docText(s[10]!)}`,
      ` *`,
      ` * @tool fuzz.t${n}`,
      ` * @title ${title}`,
      ` * @groups g${n} ${docText(s[11]!).replace(/[^A-Za-z0-9_]/g, "") || "x"}`,
      ` * @example ${exampleText(args)}`,
      " */",
      `export function t${n}(arg: Shape${n}, choice: Choice${n}): string {`,
      "  return JSON.stringify([arg, choice]);",
      "}",
      "",
    ].join("\n");
    tools.push({ keys, members, title, args });
  }
  return { text, tools };
}

/** Arguments as JSON a JSDoc line holds: `/`, `@` and line separators escaped (they are only in strings). */
function exampleText(args: JsonValue): string {
  return JSON.stringify(args).replace(
    /[/@\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

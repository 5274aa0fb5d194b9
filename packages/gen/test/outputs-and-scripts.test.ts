/**
 * Issue 13, the parts between a tool's types and its program:
 * - a return type with no JSON form costs the output schema (warning ZCP1207), not the tool;
 * - the tsconfig's global script files (no import/export: namespaces, ambient declarations,
 *   `.d.ts` files) are in the program, so the types they declare resolve, also under watch;
 * - `any` inside or as a parameter is `{}` with warning ZCP1204; `unknown` is `{}`;
 * - `bigint` stays refused (ZCP1202), with the way out in the message;
 * - literal-initialised members (`typeof obj.prop`) keep their declared (widened) type.
 *
 * The generator runs in process (`Generator`), on scratch projects.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import type { ToolDefinition } from "@zcp/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import type { Diagnostic } from "../src/diagnostics.js";
import { Generator, type GenerateResult } from "../src/pipeline.js";
import { ts } from "ts-morph";
import { declaresGlobals } from "../src/scan/scripts.js";
import { generatedRegistry, scratchProject, STRICT_TSCONFIG, ZCP_BIN } from "./helpers.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = scratchProject({
    "zcp.config.json": "{}",
    "tsconfig.json": STRICT_TSCONFIG,
    ...files,
  });
  dirs.push(dir);
  return dir;
}

async function generate(dir: string): Promise<GenerateResult> {
  return new Generator(loadConfig(dir).config!).generate();
}

const tool = (result: GenerateResult, alias: string): ToolDefinition | undefined =>
  result.registry.tools.find((t) => t.alias === alias);

type Schema = { properties?: Record<string, Schema> };

/** Severities and codes, without the providers' (ZCP15xx: `{}` is hard for OpenAI strict mode and Gemini). */
const codes = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.filter((d) => !d.code.startsWith("ZCP15")).map((d) => `${d.severity} ${d.code}`);

/** A tool file: `/** doc @tool alias *\/ export function <signature> { body }`. */
const TOOL = (alias: string, signature: string, body = "return null as never;") =>
  `/**\n * The ${alias} tool.\n * @tool ${alias}\n */\nexport function ${signature} {\n  ${body}\n}\n`;

describe("B6: a return type with no JSON form", () => {
  it("keeps the tool and its parameters, with outputSchema null and a warning naming the type", async () => {
    const dir = project({
      "src/tools.ts": [
        TOOL("out.error", "maybeError(code: number): Error | undefined"),
        TOOL("out.fn", "makeFn(name: string): () => string"),
        TOOL("out.map", "counts(words: string[]): Promise<Map<string, number>>"),
        TOOL("out.fine", "fine(n: number): { n: number }"),
      ].join("\n"),
    });
    const result = await generate(dir);
    expect(codes(result.diagnostics)).toEqual([
      "warning ZCP1207",
      "warning ZCP1207",
      "warning ZCP1207",
    ]);
    const messages = result.diagnostics.map((d) => d.message);
    expect(messages[0]).toMatch(/^return type "Error \| undefined" .*without an output schema$/);
    expect(messages[1]).toMatch(/^return type "\(\) => string" /);
    expect(messages[2]).toMatch(/^return type "Promise<Map<string, number>>" .*Map/);
    for (const alias of ["out.error", "out.fn", "out.map"]) {
      expect(tool(result, alias), alias).toBeDefined();
      expect(tool(result, alias)!.outputSchema, alias).toBeNull();
    }
    expect(tool(result, "out.error")!.inputSchema).toMatchObject({
      properties: { code: { type: "number" } },
      required: ["code"],
    });
    expect(tool(result, "out.fine")!.outputSchema).toMatchObject({
      type: "object",
      properties: { n: { type: "number" } },
    });
  });
});

describe("B7: the tsconfig's global script files", () => {
  const GLOBALS = `/** A point on the globe. */\ndeclare interface Coord {\n  lat: number;\n  lon: number;\n}\n`;
  const SHAPES = `namespace Shapes {\n  /** A box. */\n  export interface Box {\n    width: number;\n  }\n}\n`;
  const USES = TOOL("geo.place", "place(at: Coord, box: Shapes.Box): string", 'return "";');
  /** A bundler's settings: a `.ts` file without import/export is a script (under nodenext in a `"type": "module"` package it would be a module). */
  const BUNDLER = (include: string[]) =>
    JSON.stringify({
      compilerOptions: {
        module: "preserve",
        moduleResolution: "bundler",
        strict: true,
        noEmit: true,
      },
      include,
    });

  it("declare their types for the tools (a .d.ts beside the tools, a namespace script, a file outside zcp's include)", async () => {
    const dir = project({
      "tsconfig.json": BUNDLER(["src", "types"]),
      "src/globals.d.ts": GLOBALS,
      "src/shapes.ts": SHAPES,
      "types/extra.d.ts": "declare type Level = 'low' | 'high';\n",
      "src/tools.ts": `${USES}\n${TOOL("geo.level", "level(level: Level): string", 'return "";')}`,
    });
    const result = await generate(dir);
    expect(result.diagnostics).toEqual([]);
    expect(tool(result, "geo.place")!.inputSchema).toMatchObject({
      properties: {
        at: {
          type: "object",
          description: "A point on the globe.",
          properties: { lat: { type: "number" }, lon: { type: "number" } },
        },
        box: { type: "object", properties: { width: { type: "number" } } },
      },
    });
    expect(tool(result, "geo.level")!.inputSchema).toMatchObject({
      properties: { level: { enum: ["low", "high"] } },
    });
    // They are inputs of the run (what watch mode and the fast path track).
    for (const file of ["src/globals.d.ts", "src/shapes.ts", "types/extra.d.ts"])
      expect(result.inputs.get(path.join(dir, file)), file).toMatch(/^[0-9a-f]{64}$/);
  });

  it("are told from modules by a text check first, and by the parser where it is unsure", () => {
    const cases: [string, string, boolean][] = [
      ["a.ts", "interface A { a: string }\n", true],
      ["b.ts", "export interface B { b: string }\n", false],
      [
        "c.ts",
        "// import nothing, export nothing\nnamespace C {\n  export const c = 1;\n}\n",
        true,
      ],
      ["d.ts", 'import type { B } from "./b.js";\ninterface D extends B {}\n', false],
      ["e.d.ts", "declare module 'x' {\n  export const y: number;\n}\n", true],
      ["g.ts", "const meta = import.meta.url;\n", false],
      ["h.ts", 'import("./b.js");\nconst later = 1;\n', true],
      ["i.ts", "/* a comment */ export const i = 1;\n", false],
      // A module, but its `declare global` block declares globals: tsc has it, so do we.
      ["f.ts", "declare global {\n  interface F {}\n}\nexport {};\n", true],
    ];
    for (const [file, text, script] of cases)
      expect(declaresGlobals(`/p/${file}`, text, {}), file).toBe(script);
    // `moduleDetection: force` makes every file a module, declaration files aside.
    const force = { moduleDetection: ts.ModuleDetectionKind.Force };
    expect(declaresGlobals("/p/a.ts", "interface A {}\n", force)).toBe(false);
    expect(declaresGlobals("/p/a.d.ts", "interface A {}\n", force)).toBe(true);
  });

  it("are modules by their format where tsc says so: under nodenext in a type-module package only the .d.ts declares globals", async () => {
    const dir = project({
      "src/globals.d.ts": GLOBALS,
      "src/shapes.ts": SHAPES,
      "src/tools.ts": USES,
    });
    const result = await generate(dir);
    expect(result.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      'ZCP1203 cannot resolve type "Shapes.Box"',
    ]);
  });

  it("are read again when they change (watch mode: a later run sees the new declaration)", async () => {
    const files = {
      "tsconfig.json": BUNDLER(["src"]),
      "src/globals.d.ts": GLOBALS,
      "src/shapes.ts": SHAPES,
      "src/tools.ts": USES,
    };
    const dir = project(files);
    const generator = new Generator(loadConfig(dir).config!);
    expect((await generator.generate()).diagnostics).toEqual([]);
    const globals = path.join(dir, "src/globals.d.ts");
    fs.writeFileSync(globals, GLOBALS.replace("lon: number;", "lon: number;\n  alt?: number;"));
    const changed = await generator.generate([globals]);
    expect(changed.diagnostics).toEqual([]);
    expect(tool(changed, "geo.place")!.inputSchema).toMatchObject({
      properties: { at: { properties: { alt: { type: "number" } } } },
    });
    // A script that becomes a module no longer declares globals: the tool's type is gone.
    const shapes = path.join(dir, "src/shapes.ts");
    fs.writeFileSync(shapes, `export ${SHAPES}`);
    const moduleNow = await generator.generate([shapes]);
    expect(codes(moduleNow.diagnostics)).toContain("error ZCP1203");
    // And back: the same output as a cold run.
    fs.writeFileSync(shapes, SHAPES);
    const back = await generator.generate([shapes]);
    const cold = await generate(dir);
    expect(back.diagnostics).toEqual([]);
    expect(back.registry).toEqual(cold.registry);
  });
});

describe("B7 under zcp gen --watch", () => {
  it("regenerates when a global script changes, also one outside zcp's include folders", async () => {
    const dir = project({
      "tsconfig.json": JSON.stringify({
        compilerOptions: { module: "preserve", moduleResolution: "bundler", strict: true },
        include: ["src", "types"],
      }),
      "types/level.d.ts": "declare type Level = 'low' | 'high';\n",
      "src/tools.ts": TOOL("geo.level", "level(level: Level): string", 'return "";'),
    });
    const child = spawn(process.execPath, [ZCP_BIN, "gen", "--watch", "--reporter", "json"], {
      cwd: dir,
    });
    const lines: string[] = [];
    const waiters: ((line: string) => void)[] = [];
    readline
      .createInterface({ input: child.stdout })
      .on("line", (line) => (waiters.length ? waiters.shift()!(line) : lines.push(line)));
    const next = () =>
      new Promise<{ ok: boolean; tools: number }>((resolve) => {
        const take = (line: string) => resolve(JSON.parse(line));
        if (lines.length) take(lines.shift()!);
        else waiters.push(take);
      });
    const levels = () =>
      (
        generatedRegistry(path.join(dir, "src/zcp.gen")).tools[0]!.inputSchema.properties as {
          level: { enum: string[] };
        }
      ).level.enum;
    try {
      expect(await next()).toMatchObject({ ok: true, tools: 1 });
      expect(levels()).toEqual(["low", "high"]);
      fs.writeFileSync(
        path.join(dir, "types/level.d.ts"),
        "declare type Level = 'low' | 'mid' | 'high';\n",
      );
      expect(await next()).toMatchObject({ ok: true, tools: 1 });
      expect(levels()).toEqual(["low", "mid", "high"]);
    } finally {
      child.kill("SIGTERM");
    }
  });
});

describe("G4: any and unknown", () => {
  it("any inside a parameter, as a parameter, or an unannotated parameter: {} with warning ZCP1204, the tool kept", async () => {
    const dir = project({
      "src/tools.ts": [
        TOOL(
          "any.nested",
          "nested(opts: { tag: string; extra: any }, n: number): string",
          'return "";',
        ),
        TOOL("any.whole", "whole(value: any): string", 'return "";'),
        TOOL("any.untyped", "untyped(value): string", 'return "";'),
        TOOL(
          "any.unknown",
          "unknownish(value: { data: unknown }, n: number): string",
          'return "";',
        ),
      ].join("\n"),
    });
    const result = await generate(dir);
    expect(codes(result.diagnostics)).toEqual([
      "warning ZCP1204",
      "warning ZCP1204",
      "warning ZCP1204",
    ]);
    const messages = result.diagnostics.filter((d) => d.code === "ZCP1204").map((d) => d.message);
    expect(messages[0]).toMatch(/^type is `any`, mapped to \{\}/);
    expect(messages[2]).toMatch(/^parameter "value" has no type annotation, mapped to \{\}/);
    expect(tool(result, "any.nested")!.inputSchema).toMatchObject({
      properties: {
        opts: { properties: { tag: { type: "string" }, extra: {} }, required: ["tag", "extra"] },
      },
    });
    const opts = (tool(result, "any.nested")!.inputSchema.properties as Record<string, Schema>)[
      "opts"
    ]!;
    expect(opts.properties!["extra"]).toEqual({});
    expect(tool(result, "any.whole")!.inputSchema).toMatchObject({ properties: { value: {} } });
    expect(tool(result, "any.untyped")!.inputSchema).toMatchObject({
      properties: { value: {} },
      required: ["value"],
    });
    expect(tool(result, "any.unknown")!.inputSchema).toMatchObject({
      properties: { value: { properties: { data: {} } } },
    });
  });
});

describe("G5: bigint", () => {
  it("stays refused (ZCP1202), and the message says what to use instead", async () => {
    const dir = project({
      "src/tools.ts": TOOL("big.take", "take(amount: bigint, n: number): string", 'return "";'),
    });
    const result = await generate(dir);
    expect(codes(result.diagnostics)).toEqual(["error ZCP1202"]);
    expect(result.diagnostics[0]!.message).toMatch(/bigint.*Integer.*@zcp\/runtime.*string/);
    expect(tool(result, "big.take")).toBeUndefined();
  });
});

describe("G8: literal-initialised members", () => {
  it("keep the declared type TypeScript gives them (widened), or the literal under `as const`", async () => {
    const dir = project({
      "src/tools.ts": `const DEFAULTS = { retries: 3, mode: "fast", on: true };\nconst FIXED = { mode: "slow" } as const;\nclass Limits {\n  max = 10;\n  readonly unit = "ms";\n}\n${TOOL(
        "lit.members",
        "members(retries: typeof DEFAULTS.retries, mode: typeof DEFAULTS.mode, on: typeof DEFAULTS.on, fixed: typeof FIXED.mode, max: Limits['max'], unit: Limits['unit']): string",
        'return "";',
      )}`,
    });
    const result = await generate(dir);
    expect(result.diagnostics).toEqual([]);
    expect(tool(result, "lit.members")!.inputSchema).toMatchObject({
      properties: {
        retries: { type: "number" },
        mode: { type: "string" },
        on: { type: "boolean" },
        fixed: { type: "string", const: "slow" },
        max: { type: "number" },
        unit: { type: "string", const: "ms" },
      },
    });
    const props = tool(result, "lit.members")!.inputSchema.properties as Record<string, object>;
    expect(props["retries"]).not.toHaveProperty("const");
    expect(props["mode"]).not.toHaveProperty("const");
  });
});

/**
 * The run-level diagnostics of `zcp gen` (configuration, tsconfig, globs, no tools) in scratch
 * projects; and every code in CODES is produced by one of them or by fixtures/diagnostics
 * (fixture.test.ts), or belongs to another test file.
 *
 * Each spawn of the binary costs about a second, so every scenario runs its commands once,
 * before the tests, in one pool of processes (see `runs`).
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CODES } from "../../src/diagnostics.js";
import {
  type CliResult,
  oneJsonLine,
  runsTogether,
  runZcpAsync,
  STRICT_TSCONFIG,
  temporaryProjects,
} from "../helpers.js";
import {
  GOLDEN_FILE,
  type JsonDiagnostic,
  type JsonReport,
  parseText,
  registryAliases,
  TOOL,
} from "./helpers.js";

const runs = runsTogether();
const { scratch } = temporaryProjects();

/** Codes produced by the run-level scenarios below, for the coverage check. */
const producedByRuns = new Set<string>();

describe("run-level diagnostics", () => {
  const CONFIG = (config: unknown) => JSON.stringify(config);
  const SOURCES = {
    "src/tools.ts": TOOL("scratch.echo", "echo"),
    "tsconfig.json": STRICT_TSCONFIG,
  };

  /**
   * name → files and arguments of one scenario. Each runs once with the text reporter; those
   * marked `json` run a second time with the JSON reporter, which must say the same.
   */
  const SCENARIOS = {
    noConfig: { files: SOURCES, args: [], json: true },
    invalidJson: { files: { ...SOURCES, "zcp.config.json": "{ include: [" }, args: [] },
    unknownKey: {
      files: { ...SOURCES, "zcp.config.json": CONFIG({ include: ["src/**/*.ts"], outdir: "gen" }) },
      args: [],
    },
    includeNotArray: {
      files: { ...SOURCES, "zcp.config.json": CONFIG({ include: "src/**/*.ts" }) },
      args: [],
    },
    outDirNotString: { files: { ...SOURCES, "zcp.config.json": CONFIG({ outDir: 42 }) }, args: [] },
    outDirOutside: {
      files: { ...SOURCES, "zcp.config.json": CONFIG({ outDir: "../generated" }) },
      args: [],
    },
    leanNotBoolean: {
      files: { ...SOURCES, "zcp.config.json": CONFIG({ leanArtifacts: "yes" }) },
      args: [],
    },
    missingExplicitConfig: {
      files: { ...SOURCES, "zcp.config.json": CONFIG({}) },
      args: ["--config", "configs/zcp.json"],
    },
    packageJsonWithoutZcp: {
      files: { ...SOURCES, "package.json": CONFIG({ name: "no-zcp-field", private: true }) },
      args: [],
    },
    packageJsonField: {
      files: {
        ...SOURCES,
        "package.json": CONFIG({
          name: "zcp-field",
          type: "module",
          zcp: { include: ["src/**/*.ts"] },
        }),
      },
      args: [],
    },
    missingTsconfig: {
      files: { ...SOURCES, "zcp.config.json": CONFIG({ tsconfig: "tsconfig.build.json" }) },
      args: [],
    },
    invalidTsconfig: {
      files: {
        ...SOURCES,
        "zcp.config.json": CONFIG({}),
        "tsconfig.json": '{ "compilerOptions": { "strict": true',
      },
      args: [],
    },
    noMatches: {
      files: { ...SOURCES, "zcp.config.json": CONFIG({ include: ["lib/**/*.ts"] }) },
      args: [],
      json: true,
    },
    noTools: {
      files: {
        "src/plain.ts": "export const answer = 42;\n",
        "tsconfig.json": STRICT_TSCONFIG,
        "zcp.config.json": CONFIG({}),
      },
      args: [],
    },
    // ZCP1005: where TypeScript would compile the generated ES modules as CommonJS.
    commonjsNodeNext: {
      files: { ...SOURCES, "zcp.config.json": CONFIG({}), "package.json": CONFIG({ name: "cjs" }) },
      args: [],
      json: true,
    },
    commonjsExplicit: {
      files: {
        ...SOURCES,
        "zcp.config.json": CONFIG({}),
        "package.json": CONFIG({ name: "cjs", type: "commonjs" }),
        "tsconfig.json": CONFIG({ compilerOptions: { module: "commonjs", strict: true } }),
      },
      args: [],
    },
    commonjsBundler: {
      files: {
        ...SOURCES,
        "zcp.config.json": CONFIG({}),
        "package.json": CONFIG({ name: "cjs" }),
        "tsconfig.json": CONFIG({
          compilerOptions: { module: "preserve", moduleResolution: "bundler", strict: true },
        }),
      },
      args: [],
    },
    nestedTypeModule: {
      files: {
        ...SOURCES,
        "zcp.config.json": CONFIG({}),
        "package.json": CONFIG({ name: "cjs" }),
        "src/package.json": CONFIG({ type: "module" }),
      },
      args: [],
    },
  } satisfies Record<string, { files: Record<string, string>; args: string[]; json?: boolean }>;

  type Name = keyof typeof SCENARIOS;
  interface Outcome {
    dir: string;
    text: CliResult;
    /** The diagnostics of the text run, parsed. */
    diagnostics: JsonDiagnostic[];
    json: JsonReport | null;
  }
  const results = {} as Record<Name, Outcome>;
  const started = runs(() =>
    Promise.all(
      (Object.keys(SCENARIOS) as Name[]).map(async (name) => {
        const scenario: { files: Record<string, string>; args: string[]; json?: boolean } =
          SCENARIOS[name];
        const dir = scratch(scenario.files);
        const text = await runZcpAsync(dir, ["gen", "--force", ...scenario.args]);
        // After the text run, so that both see the same project (the text run may write).
        const json = scenario.json
          ? oneJsonLine<JsonReport>(
              await runZcpAsync(dir, ["gen", "--force", "--reporter", "json", ...scenario.args]),
            )
          : null;
        const diagnostics = parseText(text.stderr);
        for (const d of diagnostics) producedByRuns.add(d.code);
        results[name] = { dir, text, diagnostics, json };
      }),
    ),
  );

  beforeAll(async () => {
    await started();
  });

  /** The only diagnostic of a scenario; the JSON run, if any, reports the same one. */
  function only(name: Name): JsonDiagnostic {
    const { text, diagnostics, json } = results[name];
    expect(diagnostics, `${name}: ${text.stderr}`).toHaveLength(1);
    if (json) expect(json.diagnostics).toEqual(diagnostics);
    return diagnostics[0]!;
  }

  /** A configuration error: exit 1, nothing generated, nothing on stdout. */
  function configError(name: Name, file: string | null, message: string | RegExp): void {
    const { dir, text, json } = results[name];
    const d = only(name);
    expect(d).toMatchObject({
      severity: "error",
      code: "ZCP1001",
      file,
      line: file ? 1 : 0,
      column: file ? 1 : 0,
    });
    if (typeof message === "string") expect(d.message).toBe(message);
    else expect(d.message).toMatch(message);
    expect(text.status).toBe(1);
    expect(text.stdout).toBe("");
    if (json) expect(json).toMatchObject({ ok: false, tools: 0, hash: null });
    expect(fs.existsSync(path.join(dir, "src/zcp.gen"))).toBe(false);
  }

  it("ZCP1001: no configuration at all", () => {
    configError(
      "noConfig",
      null,
      /^no zcp\.config\.json, and no package\.json with a "zcp" field, in the current folder \(\/.+\); or name one with --config$/,
    );
  });

  it("ZCP1001: zcp.config.json is not valid JSON", () => {
    configError("invalidJson", "zcp.config.json", /^zcp\.config\.json is not valid JSON: \S/);
  });

  it("ZCP1001: unknown key, naming the known ones", () => {
    configError(
      "unknownKey",
      "zcp.config.json",
      'unknown configuration key "outdir" (known: include, exclude, tsconfig, outDir, leanArtifacts, jsonFiles, registries, fromMcp, describe)',
    );
  });

  it("ZCP1001: wrong-typed fields", () => {
    configError(
      "includeNotArray",
      "zcp.config.json",
      '"include" must be an array of non-empty glob strings',
    );
    configError("outDirNotString", "zcp.config.json", '"outDir" must be a non-empty string');
  });

  it("ZCP1001: leanArtifacts that is not a boolean", () => {
    configError("leanNotBoolean", "zcp.config.json", '"leanArtifacts" must be true or false');
  });

  it("ZCP1001: outDir outside the project folder", () => {
    configError(
      "outDirOutside",
      "zcp.config.json",
      '"outDir" must be a folder inside the configuration\'s folder, got "../generated"',
    );
  });

  it("ZCP1001: --config names a file that does not exist", () => {
    // The file does not exist, so the diagnostic has no position in it.
    configError(
      "missingExplicitConfig",
      null,
      "cannot read the configuration configs/zcp.json: no such file",
    );
  });

  it("ZCP1001: package.json without a zcp field, and no zcp.config.json", () => {
    configError(
      "packageJsonWithoutZcp",
      null,
      /^no zcp\.config\.json, and no package\.json with a "zcp" field, in the current folder \(\/.+\); or name one with --config$/,
    );
  });

  it("a zcp field in package.json is a valid configuration (control)", () => {
    const { dir, text } = results.packageJsonField;
    expect(text.stderr).toBe("");
    expect(text.status).toBe(0);
    expect(registryAliases(dir)).toEqual(["scratch.echo"]);
  });

  it("ZCP1002: the configured tsconfig does not exist; nothing is written", () => {
    const { dir, text } = results.missingTsconfig;
    expect(only("missingTsconfig")).toEqual({
      severity: "error",
      code: "ZCP1002",
      message: "cannot read the tsconfig tsconfig.build.json: no such file",
      file: null,
      line: 0,
      column: 0,
    });
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(
      /^zcp gen: 1 tool, registry [0-9a-f]{12}, 1 error\(s\); nothing written/,
    );
    expect(fs.existsSync(path.join(dir, "src/zcp.gen"))).toBe(false);
  });

  it("ZCP1002: tsconfig.json is not valid JSON", () => {
    const { text } = results.invalidTsconfig;
    // At the position TypeScript reports, the end of the truncated file.
    expect(only("invalidTsconfig")).toEqual({
      severity: "error",
      code: "ZCP1002",
      message: "tsconfig: '}' expected.",
      file: "tsconfig.json",
      line: 1,
      column: 38,
    });
    expect(text.status).toBe(1);
  });

  it("ZCP1003: include globs match nothing (an error: a typo must not empty the registry)", () => {
    const { dir, text, json } = results.noMatches;
    const d = only("noMatches");
    expect(d).toEqual({
      severity: "error",
      code: "ZCP1003",
      message: `include globs ["lib/**/*.ts"] match no files in the configuration's folder`,
      file: null,
      line: 0,
      column: 0,
    });
    expect(text.status).toBe(1);
    expect(json).toMatchObject({ ok: false, tools: 0 });
    expect(fs.existsSync(path.join(dir, "src/zcp.gen"))).toBe(false);
  });

  it("ZCP1004: source files without any @tool (a warning: exit 0)", () => {
    const { dir, text } = results.noTools;
    expect(only("noTools")).toEqual({
      severity: "warning",
      code: "ZCP1004",
      message: "no @tool functions in the 1 configured source file(s)",
      file: null,
      line: 0,
      column: 0,
    });
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^zcp gen: 0 tools, registry [0-9a-f]{12}, 1 warning\(s\); /);
    expect(registryAliases(dir)).toEqual([]);
  });

  it('ZCP1005: NodeNext settings in a package without "type": "module"; nothing is written', () => {
    const { dir, text, json } = results.commonjsNodeNext;
    expect(only("commonjsNodeNext")).toEqual({
      severity: "error",
      code: "ZCP1005",
      message:
        'the generated files are ES modules, but package.json has no "type": "module" and tsconfig.json compiles with "module": "nodenext", so they would be compiled as CommonJS; add "type": "module" to package.json, or compile with a bundler\'s settings ("module": "preserve" or "esnext", "moduleResolution": "bundler")',
      file: "package.json",
      line: 1,
      column: 1,
    });
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(
      /^zcp gen: 1 tool, registry [0-9a-f]{12}, 1 error\(s\); nothing written/,
    );
    expect(json).toMatchObject({ ok: false, written: [] });
    expect(fs.existsSync(path.join(dir, "src/zcp.gen"))).toBe(false);
  });

  it('ZCP1005: "module": "commonjs" in a "type": "commonjs" package', () => {
    expect(only("commonjsExplicit")).toMatchObject({
      code: "ZCP1005",
      message:
        'the generated files are ES modules, but package.json has "type": "commonjs" and tsconfig.json compiles with "module": "commonjs", so they would be compiled as CommonJS; add "type": "module" to package.json, or compile with a bundler\'s settings ("module": "preserve" or "esnext", "moduleResolution": "bundler")',
    });
    expect(results.commonjsExplicit.text.status).toBe(1);
  });

  it('a package without "type" is fine under a bundler\'s settings (module preserve): the files stay ES modules', () => {
    const { dir, text } = results.commonjsBundler;
    expect(text.stderr).toBe("");
    expect(text.status).toBe(0);
    expect(registryAliases(dir)).toEqual(["scratch.echo"]);
  });

  it("the package.json nearest to the output folder decides (control)", () => {
    const { dir, text } = results.nestedTypeModule;
    expect(text.stderr).toBe("");
    expect(text.status).toBe(0);
    expect(registryAliases(dir)).toEqual(["scratch.echo"]);
  });

  it("every code of CODES is covered by the golden or by a run-level scenario", () => {
    const golden = new Set(parseText(fs.readFileSync(GOLDEN_FILE, "utf8")).map((d) => d.code));
    for (const code of golden) expect(Object.keys(CODES)).toContain(code);
    // The composition codes (a package that cannot be composed) are test/compose/compose.test.ts's.
    const composition = new Set(["ZCP1601", "ZCP1602", "ZCP1603", "ZCP1604", "ZCP1605"]);
    // The gateway codes (an upstream MCP server) are test/upstream-*.test.ts's.
    // ZCP1710, ZCP1711 and ZCP1715 (an upstream schema that cannot be compiled, or nested too
    // deeply) are test/hostile-input.test.ts's;
    // ZCP1712 and ZCP1713 (a keyword left to the upstream, an unknown dialect) test/upstream-keywords.test.ts's;
    // ZCP1714 (a tools/list entry that is not a valid MCP tool) test/upstream-listing.test.ts's.
    for (const code of [
      "ZCP1701",
      "ZCP1702",
      "ZCP1703",
      "ZCP1704",
      "ZCP1705",
      "ZCP1706",
      "ZCP1710",
      "ZCP1711",
      "ZCP1712",
      "ZCP1713",
      "ZCP1714",
      "ZCP1715",
    ])
      composition.add(code);
    // A tool-level @example that does not fit is test/examples.test.ts's.
    composition.add("ZCP1306");
    // A misdeclared or duplicate prompt or resource is test/features.test.ts's.
    composition.add("ZCP1801");
    composition.add("ZCP1802");
    // Content where a result cannot be content, and `@output handle` on content, are
    // test/content.test.ts's; a hand-written input schema refused, test/input-schema.test.ts's.
    for (const code of ["ZCP1209", "ZCP1210", "ZCP1309", "ZCP1310"]) composition.add(code);
    const uncovered = Object.keys(CODES).filter(
      (code) => !golden.has(code) && !producedByRuns.has(code) && !composition.has(code),
    );
    expect(uncovered).toEqual([]);
    // And each family comes from where it belongs.
    expect([...producedByRuns].sort()).toEqual([
      "ZCP1001",
      "ZCP1002",
      "ZCP1003",
      "ZCP1004",
      "ZCP1005",
    ]);
    expect([...golden].filter((code) => code < "ZCP1100")).toEqual([]);
  });
});

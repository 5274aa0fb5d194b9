/**
 * Diagnostics of `zcp gen`:
 * - fixtures/diagnostics triggers every per-source code; its stderr is pinned by the golden
 *   expected-diagnostics.txt, for the text reporter and (field by field) the JSON reporter;
 * - the run-level codes (configuration, tsconfig, globs, no tools) in scratch projects;
 * - every code in CODES is produced by one of the two;
 * - a file that does not parse does not stop the other files' tools from being generated;
 * - command-line usage errors exit 2.
 *
 * Each spawn of the binary costs about a second, so every block runs its commands once, before
 * its tests, and all blocks' runs share one pool of processes (see `runs`).
 */
import fs from "node:fs";
import path from "node:path";
import { artifactSet, type ArtifactProvider } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODES } from "../src/diagnostics.js";
import {
  type CliResult,
  FIXTURES,
  generatedRegistry,
  oneJsonLine,
  runsTogether,
  runZcpAsync,
  scratchProject,
  STRICT_TSCONFIG,
} from "./helpers.js";

const runs = runsTogether();

const DIR = path.join(FIXTURES, "diagnostics");
const GOLDEN_FILE = path.join(DIR, "expected-diagnostics.txt");

interface JsonDiagnostic {
  severity: "error" | "warning";
  code: string;
  message: string;
  file: string | null;
  line: number;
  column: number;
}

interface JsonReport {
  ok: boolean;
  tools: number;
  hash: string | null;
  diagnostics: JsonDiagnostic[];
  check?: { stale: string[]; missing: string[]; extra: string[] };
  written?: string[];
  removed?: string[];
  cached: boolean;
}

function formatJson(d: JsonDiagnostic): string {
  return `${d.file === null ? "zcp" : `${d.file}:${d.line}:${d.column}`} - ${d.severity} ${d.code}: ${d.message}`;
}

/** The diagnostics of a text report on stderr (`where - severity CODE: message` lines). */
function parseText(stderr: string): JsonDiagnostic[] {
  return stderr
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const match = /^(?:zcp|(.+):(\d+):(\d+)) - (error|warning) (ZCP\d{4}): (.+)$/.exec(line);
      expect(match, `a diagnostic line: ${line}`).not.toBeNull();
      const [, file, line_, column, severity, code, message] = match!;
      return {
        severity: severity as JsonDiagnostic["severity"],
        code: code!,
        message: message!,
        file: file ?? null,
        line: Number(line_ ?? 0),
        column: Number(column ?? 0),
      };
    });
}

const TOOL = (alias: string, name: string) => `/**
 * The ${name} tool.
 *
 * @tool ${alias}
 */
export function ${name}(value: string): string {
  return value;
}
`;

/** Codes produced by the run-level scenarios below, for the coverage check. */
const producedByRuns = new Set<string>();
const scratchDirs: string[] = [];

function scratch(files: Record<string, string>): string {
  const dir = scratchProject(files);
  scratchDirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of scratchDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("fixtures/diagnostics", () => {
  const golden = fs.readFileSync(GOLDEN_FILE, "utf8");
  let text: CliResult;
  let json: CliResult;
  const started = runs(async () => {
    if (!fs.existsSync(path.join(DIR, "node_modules/@zcp/runtime/package.json"))) {
      throw new Error(
        "fixtures/diagnostics/node_modules/@zcp/runtime is missing; run pnpm install",
      );
    }
    return Promise.all([
      runZcpAsync(DIR, ["gen", "--check", "--force"]),
      runZcpAsync(DIR, ["gen", "--check", "--force", "--reporter", "json"]),
    ]);
  });

  beforeAll(async () => {
    [text, json] = await started();
  });

  it("text reporter: exits 1, stderr is exactly the golden, the checked-in output is up to date", () => {
    expect(text.stderr).toBe(golden);
    expect(text.status).toBe(1);
    expect(text.stdout).not.toMatch(/^(stale|missing|extra):/m);
    expect(text.stdout).toMatch(
      /^zcp gen --check: 13 tools, registry [0-9a-f]{12}, \d+ error\(s\), 13 warning\(s\); up to date/m,
    );
  });

  it("json reporter: ok is false, every diagnostic is complete and matches the golden, check is clean", () => {
    expect(json.status).toBe(1);
    expect(json.stderr).toBe("");
    const report = oneJsonLine<JsonReport>(json);
    expect(report.ok).toBe(false);
    expect(report.tools).toBe(13);
    expect(report.check).toEqual({ stale: [], missing: [], extra: [] });
    for (const d of report.diagnostics) {
      expect(Object.keys(d).sort()).toEqual([
        "code",
        "column",
        "file",
        "line",
        "message",
        "severity",
      ]);
      expect(["error", "warning"]).toContain(d.severity);
      expect(Object.keys(CODES)).toContain(d.code);
      expect(d.message).not.toBe("");
      expect(d.file).toMatch(/^src\/[a-z-]+\.ts$/);
      expect(d.line).toBeGreaterThan(0);
      expect(d.column).toBeGreaterThan(0);
    }
    expect(
      report.diagnostics
        .map(formatJson)
        .map((line) => `${line}\n`)
        .join(""),
    ).toBe(golden);
  });

  it("each theme file produces its code, and the valid file produces none", () => {
    const THEMES: Record<string, string[]> = {
      "syntax.ts": ["ZCP1101"],
      "misplaced.ts": ["ZCP1102"],
      "functions.ts": ["ZCP1201"],
      "not-json.ts": ["ZCP1202"],
      "unresolved.ts": ["ZCP1203"],
      "untyped.ts": ["ZCP1204"],
      "returns.ts": ["ZCP1207"],
      "lossy.ts": ["ZCP1208"],
      "forms.ts": ["ZCP1205"],
      "nested.ts": ["ZCP1206"],
      "tags.ts": ["ZCP1301"],
      "constraints.ts": ["ZCP1302"],
      "warnings.ts": ["ZCP1303", "ZCP1304", "ZCP1305"],
      "providers.ts": ["ZCP1501", "ZCP1502", "ZCP1503"],
      "duplicate-ids.ts": ["ZCP1401"],
      "alias-a.ts": ["ZCP1402"],
      "alias-b.ts": ["ZCP1402"],
      "names.ts": ["ZCP1403", "ZCP1404"],
    };
    const byFile = new Map<string, Set<string>>();
    for (const match of golden.matchAll(
      /^src\/([^:]+):\d+:\d+ - (?:error|warning) (ZCP\d{4}): /gm,
    )) {
      byFile.set(match[1]!, (byFile.get(match[1]!) ?? new Set()).add(match[2]!));
    }
    expect([...byFile.keys()].sort()).toEqual(Object.keys(THEMES).sort());
    for (const [file, codes] of Object.entries(THEMES)) {
      for (const code of codes) expect(byFile.get(file), `${code} in ${file}`).toContain(code);
    }
    // The warnings are the only ones: every tool but the ZCP1305 one has a description, only
    // two tools are hard for a provider (ZCP1501, ZCP1503) besides the two that take any value
    // (ZCP1204, which also costs them strict mode and Gemini), one return type has no JSON form
    // (ZCP1207), and one array type has members the schema leaves out (ZCP1208).
    expect(golden.match(/ - warning /g)).toHaveLength(13);
  });

  it("still generates the tools without errors (and only those)", () => {
    const registry = generatedRegistry(path.join(DIR, "src/zcp.gen"));
    // A provider's problem (ZCP15xx) leaves only that provider's entry out, not the tool.
    expect(registry.tools.map((tool) => tool.alias)).toEqual([
      "demo.add",
      "demo.greet",
      "demo.shout",
      "lossy.count",
      "providers.deep",
      "providers.open_map",
      "providers.tree",
      "returns.check",
      "untyped.explicit",
      "untyped.implicit",
      "warnings.computed_default",
      "warnings.extra_param",
      "warnings.undescribed",
    ]);
    const idOf = (alias: string) => registry.tools.find((tool) => tool.alias === alias)!.id;
    const artifact = (provider: ArtifactProvider) => artifactSet(registry, provider);
    expect(artifact("openai-responses")[idOf("providers.deep")]).toBeUndefined();
    expect(artifact("openai-responses")[idOf("providers.open_map")]).toMatchObject({
      strict: false,
    });
    expect(artifact("gemini")[idOf("providers.tree")]).toBeUndefined();
    expect(artifact("anthropic")[idOf("providers.deep")]).toBeDefined();
    // ZCP1204: a value without a precise type is any JSON value; ZCP1207: no output schema.
    const tool = (alias: string) => registry.tools.find((t) => t.alias === alias)!;
    expect(tool("untyped.implicit").inputSchema.properties).toEqual({ value: {} });
    expect(tool("untyped.explicit").inputSchema.properties).toEqual({ value: {} });
    expect(tool("returns.check").outputSchema).toBeNull();
    // ZCP1304: the parameter is optional, without a recorded default.
    const computed = registry.tools.find((tool) => tool.alias === "warnings.computed_default")!;
    expect(computed.inputSchema.required).toEqual([]);
    expect(computed.defaults).toEqual({});
  });
});

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
      'unknown configuration key "outdir" (known: include, exclude, tsconfig, outDir, leanArtifacts, jsonFiles, registries, fromMcp)',
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

function registryAliases(dir: string): string[] {
  const registry = generatedRegistry(path.join(dir, "src/zcp.gen"));
  return registry.tools.map((tool) => tool.alias);
}

describe("ZCP1005 and the no-change fast path", () => {
  const started = runs(async () => {
    const dir = scratch({
      "zcp.config.json": "{}",
      "tsconfig.json": STRICT_TSCONFIG,
      "src/tools.ts": TOOL("scratch.echo", "echo"),
    });
    const first = await runZcpAsync(dir, ["gen", "--reporter", "json"]);
    const cached = await runZcpAsync(dir, ["gen", "--reporter", "json"]);
    // The package.json is an input of the run: dropping "type" must not replay the saved result.
    fs.writeFileSync(path.join(dir, "package.json"), '{ "name": "now-commonjs" }\n');
    const refused = await runZcpAsync(dir, ["gen", "--reporter", "json"]);
    return { first, cached, refused };
  });

  it("a change to the package.json is noticed", async () => {
    const { first, cached, refused } = await started();
    expect(oneJsonLine<JsonReport>(first)).toMatchObject({ ok: true, cached: false });
    expect(oneJsonLine<JsonReport>(cached)).toMatchObject({ ok: true, cached: true });
    const report = oneJsonLine<JsonReport>(refused);
    expect(report).toMatchObject({ ok: false, cached: false, written: [] });
    expect(report.diagnostics.map((d) => d.code)).toEqual(["ZCP1005"]);
    expect(refused.status).toBe(1);
  });
});

describe("a file that does not parse", () => {
  let dir: string;
  let result: CliResult;
  const started = runs(async () => {
    const project = scratch({
      "zcp.config.json": "{}",
      "tsconfig.json": STRICT_TSCONFIG,
      "src/a-good.ts": TOOL("good.first", "first"),
      "src/broken.ts": TOOL("broken.echo", "echo").replace("(value: string)", "(value: string"),
      "src/z-good.ts": TOOL("good.last", "last"),
    });
    return [project, await runZcpAsync(project, ["gen", "--force"])] as const;
  });

  beforeAll(async () => {
    [dir, result] = await started();
  });

  it("gives ZCP1101 and the tools of the other files are still generated", () => {
    expect(result.status).toBe(1);
    const lines = result.stderr.split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line).toMatch(/^src\/broken\.ts:\d+:\d+ - error ZCP1101: syntax error: .+/);
    expect(lines[0]).toBe(
      "src/broken.ts:6:35 - error ZCP1101: syntax error: ',' expected. (the tools of this file are left out)",
    );
    expect(registryAliases(dir)).toEqual(["good.first", "good.last"]);
    expect(result.stdout).toMatch(
      /^zcp gen: \d tools?, registry [0-9a-f]{12}, \d+ error\(s\); wrote .*registry\.ts/,
    );
  });
});

describe("command-line usage", () => {
  let dir: string;
  let results: Record<"unknownFlag" | "badReporter" | "checkWatch", CliResult>;
  const started = runs(async () => {
    const project = scratch({
      "zcp.config.json": "{}",
      "src/tools.ts": TOOL("usage.echo", "echo"),
    });
    const [unknownFlag, badReporter, checkWatch] = await Promise.all([
      runZcpAsync(project, ["gen", "--frobnicate"]),
      runZcpAsync(project, ["gen", "--reporter", "xml"]),
      runZcpAsync(project, ["gen", "--check", "--watch"]),
    ]);
    return { project, results: { unknownFlag, badReporter, checkWatch } };
  });

  beforeAll(async () => {
    ({ project: dir, results } = await started());
  });

  it("an unknown flag exits 2 with the usage on stderr", () => {
    const { status, stdout, stderr } = results.unknownFlag;
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^zcp: .*'--frobnicate'/);
    expect(stderr).toContain("Usage: zcp gen [options]");
    expect(stderr).toContain("--reporter <kind>");
  });

  it("--reporter xml exits 2", () => {
    expect(results.badReporter).toEqual({
      status: 2,
      stdout: "",
      stderr: 'zcp: --reporter must be text or json, got "xml"\n',
    });
  });

  it("--check --watch exits 2", () => {
    expect(results.checkWatch).toEqual({
      status: 2,
      stdout: "",
      stderr: "zcp: --check and --watch cannot be combined\n",
    });
  });

  it("nothing was generated by the refused runs", () => {
    expect(fs.existsSync(path.join(dir, "src/zcp.gen"))).toBe(false);
  });
});

describe("ZCP1404: the built-in tools' ids", () => {
  it("refuses a tool that takes the id of zcp.handle (zh), zcp.find_tools (zf) or zcp.run (zr)", async () => {
    const withId = (alias: string, name: string, id: string) =>
      TOOL(alias, name).replace(` * @tool ${alias}`, ` * @tool ${alias}\n * @id ${id}`);
    const dir = scratch({
      "zcp.config.json": "{}",
      "tsconfig.json": STRICT_TSCONFIG,
      "src/tools.ts":
        withId("my.handle", "handle", "zh") +
        withId("my.find", "find", "zf") +
        withId("my.run", "run", "zr"),
    });
    const result = await runZcpAsync(dir, ["gen", "--reporter", "json"]);
    const report = JSON.parse(result.stdout) as { diagnostics: JsonDiagnostic[] };
    expect(
      report.diagnostics.filter((entry) => entry.code === "ZCP1404").map((entry) => entry.message),
    ).toEqual([
      `id "zh" is reserved for the runtime's built-in tools (the zcp. namespace); choose another`,
      `id "zf" is reserved for the runtime's built-in tools (the zcp. namespace); choose another`,
      `id "zr" is reserved for the runtime's built-in tools (the zcp. namespace); choose another`,
    ]);
    expect(result.status).toBe(1);
  });
});

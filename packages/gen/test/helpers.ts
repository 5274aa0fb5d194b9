import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, expect } from "vitest";
import type { Registry } from "@zcp/runtime/definition";
import { readRegistryFile } from "../src/compose/read.js";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const ZCP_BIN = path.join(REPO, "packages/gen/dist/bin/zcp.js");
export const FIXTURES = path.join(REPO, "fixtures");

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `zcp` binary in `cwd`. */
export function runZcp(cwd: string, args: string[]): CliResult {
  const result = spawnSync(process.execPath, [ZCP_BIN, ...args], { cwd, encoding: "utf8" });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/**
 * A scratch folder with the given files; `node_modules/@zcp/runtime` links to the workspace
 * package. Without a package.json among `files`, it gets `{"type": "module"}`, as an ES-module
 * project has (NodeNext settings in a package without it are refused: ZCP1005).
 */
export function scratchProject(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-test-"));
  for (const [name, content] of Object.entries({
    "package.json": '{ "type": "module" }\n',
    ...files,
  })) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  fs.mkdirSync(path.join(dir, "node_modules/@zcp"), { recursive: true });
  fs.symlinkSync(path.join(REPO, "packages/runtime"), path.join(dir, "node_modules/@zcp/runtime"));
  return dir;
}

/**
 * Call at the top of a test file: `scratch(files)` is a `scratchProject` and `copyOf(name)` a
 * `copyFixture` (a copy without its output, so that running `zcp gen` there writes nothing in
 * the repository), each removed after the file's tests.
 */
export function temporaryProjects(): {
  scratch: (files: Record<string, string>) => string;
  copyOf: (name: string) => string;
} {
  const temporary: string[] = [];
  afterAll(() => {
    for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
  });
  const kept = (dir: string) => {
    temporary.push(dir);
    return dir;
  };
  return {
    scratch: (files) => kept(scratchProject(files)),
    copyOf: (name) => kept(copyFixture(name)),
  };
}

/** The compiler options of a strict NodeNext scratch project. */
export const STRICT_COMPILER_OPTIONS = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  skipLibCheck: true,
  noEmit: true,
};

export const STRICT_TSCONFIG = JSON.stringify({ compilerOptions: STRICT_COMPILER_OPTIONS });

/**
 * The strictest checks users turn on, which generated files must pass: `strict`, the
 * index-signature, unused-name, optional-property and indexed-access checks, the
 * single-file-transpiler rules (`verbatimModuleSyntax`, `isolatedModules`,
 * `erasableSyntaxOnly`), and the control-flow lints. Libraries are checked too.
 */
export const STRICTEST_OPTIONS = {
  target: "ES2022",
  strict: true,
  noPropertyAccessFromIndexSignature: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  erasableSyntaxOnly: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  allowUnreachableCode: false,
  allowUnusedLabels: false,
  skipLibCheck: false,
  noEmit: true,
  typeRoots: [path.join(REPO, "node_modules/@types")],
  types: ["node"],
} as const;

/** The two ways users compile: Node's own ES modules, and a bundler's. */
export const MODULE_SETTINGS = {
  nodenext: { module: "nodenext", moduleResolution: "nodenext" },
  bundler: { module: "preserve", moduleResolution: "bundler" },
} as const;

export interface TscResult {
  status: number;
  /** One `file(line,col): error TS...` line per diagnostic, file paths absolute. */
  errors: string[];
  /** Every file the program loaded (`--listFiles`), absolute. */
  files: string[];
}

/**
 * Runs the repository's tsc (`tsc -p <scratch tsconfig> --noEmit`) over `files` with
 * `STRICTEST_OPTIONS` and one of `MODULE_SETTINGS`. The tsconfig lives in a scratch folder and
 * names the files by absolute path: imports resolve from each file, as in the user's project
 * (`@zcp/runtime` through its node_modules to the built `dist/*.d.ts`).
 */
export function strictTsc(
  files: readonly string[],
  settings: keyof typeof MODULE_SETTINGS,
): TscResult {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-tsc-"));
  try {
    const tsconfig = path.join(dir, "tsconfig.json");
    fs.writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: { ...STRICTEST_OPTIONS, ...MODULE_SETTINGS[settings] },
        files,
      }),
    );
    const tsc = spawnSync(
      path.join(REPO, "node_modules/.bin/tsc"),
      ["-p", tsconfig, "--noEmit", "--listFiles", "--pretty", "false"],
      { cwd: dir, encoding: "utf8" },
    );
    const lines = `${tsc.stdout}\n${tsc.stderr}`.split("\n").filter((line) => line.trim() !== "");
    const errors = lines.flatMap((line) => {
      const match = /^(.+?)(\(\d+,\d+\): error TS\d+:.*)$/.exec(line);
      return match
        ? [`${path.resolve(dir, match[1]!)}${match[2]!}`]
        : / error TS\d+:/.test(line)
          ? [line]
          : [];
    });
    const listed = lines
      .filter((line) => !/ error TS\d+:/.test(line) && /\.[cm]?[jt]sx?$/.test(line.trim()))
      .map((line) => path.resolve(dir, line.trim()));
    return { status: tsc.status ?? -1, errors, files: listed };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The oracle for generated schemas: Ajv, draft 2020-12, formats on, strict, except two lints
 * that flag legitimate schemas: type lists (`["string","null"]`) and tuples with optional
 * items (minItems below the prefixItems count).
 */
export function ajv(): Ajv2020 {
  const instance = new Ajv2020({ strict: true, allowUnionTypes: true, strictTuples: false });
  addFormats.default(instance);
  return instance;
}

/** Every file `zcp gen` writes into the output folder, sorted. */
export const GENERATED_FILES = [
  "dispatch.ts",
  "find.ts",
  "index.ts",
  "registry.json",
  "registry.ts",
  "types.ts",
  "validators.ts",
];

/** What `"jsonFiles": true` writes besides: every provider's artifact set. */
export const JSON_FILES = [
  "artifacts/anthropic.json",
  "artifacts/gemini.json",
  "artifacts/mcp.json",
  "artifacts/openai-chat.json",
  "artifacts/openai-responses.json",
];

/** The registry in an output folder, read from its `registry.ts` (as `zcp diff` reads one). */
export function generatedRegistry(outDir: string): Registry {
  return readRegistryFile(path.join(outDir, "registry.ts")).registry;
}

/** The generated files whose content depends on the tools (all but the fixed entry modules). */
export const TOOL_DEPENDENT_FILES = GENERATED_FILES.filter((file) => file !== "index.ts");

const PARALLEL = Math.max(1, os.availableParallelism());
const queue: (() => void)[] = [];
let running = 0;

function next(): void {
  while (running < PARALLEL && queue.length > 0) {
    running++;
    queue.shift()!();
  }
}

/**
 * Like `runZcp`, but asynchronous, so that independent runs share the wall clock. At most one
 * run per CPU at a time: more only slows every run down.
 */
export function runZcpAsync(cwd: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    queue.push(() =>
      execFile(
        process.execPath,
        [ZCP_BIN, ...args],
        { cwd, encoding: "utf8" },
        (error, stdout, stderr) => {
          running--;
          next();
          resolve({
            status: error ? (typeof error.code === "number" ? error.code : -1) : 0,
            stdout,
            stderr,
          });
        },
      ),
    );
    next();
  });
}

/**
 * Call once at the top of a test file. Returns `runs(start)`, which registers one block's runs:
 * the file-level `beforeAll` starts every block's at once, so they share the pool instead of
 * waiting for the blocks before them; each block awaits its own with the returned function.
 */
export function runsTogether(): <T>(start: () => Promise<T>) => () => Promise<T> {
  const blocks: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    await Promise.allSettled(blocks.map((get) => get()));
  });
  return <T>(start: () => Promise<T>) => {
    let promise: Promise<T> | undefined;
    const get = () => (promise ??= start());
    blocks.push(get);
    return get;
  };
}

/** A run's error lines, each without its `path:line:col - ` prefix. */
export function errorLines(result: CliResult): string[] {
  return result.stderr
    .split("\n")
    .filter((line) => / - error /.test(line))
    .map((line) => line.replace(/^.*:\d+:\d+ - /, ""));
}

/** The one JSON line a `--reporter json` run prints. */
export function oneJsonLine<T>(result: CliResult): T {
  const lines = result.stdout.split("\n").filter((line) => line !== "");
  expect(
    lines,
    `one JSON line on stdout, got:\n${result.stdout}\nstderr:\n${result.stderr}`,
  ).toHaveLength(1);
  return JSON.parse(lines[0]!) as T;
}

/** Copies a fixture to a fresh, deeper path, writing its files in reverse order, without its output. */
export function copyFixture(name: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-copy-"));
  const target = path.join(root, "some/other/place/fixtures", name);
  fs.mkdirSync(target, { recursive: true });
  fs.copyFileSync(
    path.join(REPO, "tsconfig.base.json"),
    path.join(root, "some/other/place/tsconfig.base.json"),
  );
  const source = path.join(FIXTURES, name);
  const entries = fs
    .readdirSync(source, { recursive: true, withFileTypes: true })
    .filter(
      (entry) =>
        entry.isFile() &&
        !entry.parentPath.includes("node_modules") &&
        !entry.parentPath.includes("zcp.gen"),
    )
    .reverse();
  for (const entry of entries) {
    const relative = path.relative(source, path.join(entry.parentPath, entry.name));
    fs.mkdirSync(path.dirname(path.join(target, relative)), { recursive: true });
    fs.copyFileSync(path.join(source, relative), path.join(target, relative));
  }
  fs.mkdirSync(path.join(target, "node_modules/@zcp"), { recursive: true });
  fs.symlinkSync(
    path.join(REPO, "packages/runtime"),
    path.join(target, "node_modules/@zcp/runtime"),
  );
  return target;
}

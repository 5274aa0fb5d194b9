/**
 * scan: the compiler settings of a run, from the configured tsconfig (strict ES2022/NodeNext
 * defaults without one), and ZCP1005, the check that the generated files will be ES modules.
 */
import fs from "node:fs";
import path from "node:path";
import { ts } from "@ts-morph/common";
import type { Config } from "../config.js";
import { diagnostic, relativePath, type Diagnostic } from "../diagnostics.js";
import { positionOf } from "./position.js";

export interface CompilerSettings {
  readonly options: ts.CompilerOptions;
  readonly diagnostics: Diagnostic[];
  /** The tsconfig and every config it extends: inputs of the run like the sources. */
  readonly configFiles: string[];
  /** The files the tsconfig includes (absolute), where the program's global scripts are found. */
  readonly files: readonly string[];
}

/** The compiler options from the configured tsconfig (strict defaults without one). */
export function readCompilerSettings(config: Config): CompilerSettings {
  if (config.tsconfig === null) {
    const format = moduleFormat(config, DEFAULT_COMPILER_OPTIONS);
    return {
      options: DEFAULT_COMPILER_OPTIONS,
      diagnostics: format.diagnostics,
      configFiles: format.packageJson ? [format.packageJson] : [],
      files: [],
    };
  }
  const tsconfig = config.tsconfig;
  const at = { file: tsconfig, line: 1, column: 1 };
  const text = ts.sys.readFile(tsconfig);
  if (text === undefined) {
    return {
      options: DEFAULT_COMPILER_OPTIONS,
      diagnostics: [
        diagnostic(
          "error",
          "ZCP1002",
          `cannot read the tsconfig ${relativePath(config.root, tsconfig)}: no such file`,
        ),
      ],
      configFiles: [],
      files: [],
    };
  }
  const json = ts.parseJsonText(tsconfig, text);
  const parsed = ts.parseJsonSourceFileConfigFileContent(
    json,
    ts.sys,
    path.dirname(tsconfig),
    undefined,
    tsconfig,
  );
  const problems = [
    ...((json as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? []),
    ...parsed.errors,
  ];
  const diagnostics = problems
    .filter(
      (error) => error.category === ts.DiagnosticCategory.Error && error.code !== NO_INPUTS_FOUND,
    )
    .map((error) =>
      diagnostic(
        "error",
        "ZCP1002",
        `tsconfig: ${ts.flattenDiagnosticMessageText(error.messageText, "\n")}`,
        error.file && error.start !== undefined ? positionOf(error.file, error.start) : at,
      ),
    );
  const extended = (json as { extendedSourceFiles?: string[] }).extendedSourceFiles ?? [];
  const format =
    diagnostics.length === 0
      ? moduleFormat(config, parsed.options)
      : { diagnostics: [], packageJson: null };
  return {
    options: { ...parsed.options, noEmit: true },
    diagnostics: [...diagnostics, ...format.diagnostics],
    configFiles: [
      tsconfig,
      ...extended.map((file) => path.resolve(file)),
      ...(format.packageJson ? [format.packageJson] : []),
    ],
    // The output folder's files are generated modules: never global scripts, and large to read.
    files: parsed.fileNames
      .map((file) => path.resolve(file))
      .filter((file) => !isInside(config.outDir, file)),
  };
}

function isInside(folder: string, file: string): boolean {
  const relative = path.relative(folder, file);
  return relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** Module settings under which a `.ts` file is CommonJS unless its package.json says `"type": "module"`. */
const PACKAGE_TYPE_DECIDES = new Set([
  ts.ModuleKind.CommonJS,
  ts.ModuleKind.Node16,
  ts.ModuleKind.Node18,
  ts.ModuleKind.Node20,
  ts.ModuleKind.NodeNext,
]);

/**
 * ZCP1005: the generated files are ES modules (import/export, and @zcp/runtime is ESM-only), so
 * they are refused where TypeScript would compile them as CommonJS: the effective `module` is
 * commonjs or node16/18/20/next and the nearest package.json above the output folder has no
 * `"type": "module"` (or there is none). Under `preserve`, `esnext`, `es2020`+ (a bundler's
 * settings) they stay ES modules and are allowed. `packageJson` is the file consulted, an input
 * of the run.
 */
function moduleFormat(
  config: Config,
  options: ts.CompilerOptions,
): { diagnostics: Diagnostic[]; packageJson: string | null } {
  // TypeScript's default without `module`: CommonJS for an ES5 target, else an ES module kind.
  const kind =
    options.module ??
    (options.target !== undefined && options.target < ts.ScriptTarget.ES2015
      ? ts.ModuleKind.CommonJS
      : ts.ModuleKind.ES2015);
  if (!PACKAGE_TYPE_DECIDES.has(kind)) return { diagnostics: [], packageJson: null };
  const packageJson = nearestPackageJson(config.outDir);
  const type = packageJson === null ? undefined : packageType(packageJson);
  if (type === "module") return { diagnostics: [], packageJson };
  const where = (file: string) => relativePath(config.root, file);
  const settings = `${config.tsconfig === null ? "zcp's default compiler options (there is no tsconfig) use" : `${where(config.tsconfig)} compiles with`} "module": "${ts.ModuleKind[kind]!.toLowerCase()}"`;
  const bundler = `or compile with a bundler's settings ("module": "preserve" or "esnext", "moduleResolution": "bundler")`;
  const message =
    packageJson === null
      ? `the generated files are ES modules, but there is no package.json above ${where(config.outDir)} and ${settings}, so they would be compiled as CommonJS; add a package.json with "type": "module", ${bundler}`
      : `the generated files are ES modules, but ${where(packageJson)} ${type === undefined ? `has no "type": "module"` : `has "type": ${JSON.stringify(type)}`} and ${settings}, so they would be compiled as CommonJS; add "type": "module" to ${where(packageJson)}, ${bundler}`;
  return {
    diagnostics: [
      diagnostic(
        "error",
        "ZCP1005",
        message,
        packageJson === null ? undefined : { file: packageJson, line: 1, column: 1 },
      ),
    ],
    packageJson,
  };
}

/** The package.json that decides the module format of files in `folder` (which may not exist yet). */
function nearestPackageJson(folder: string): string | null {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return file;
    if (path.dirname(dir) === dir) return null;
  }
}

/** A package.json's `type` field: `undefined` when absent, or when the file is not a JSON object. */
function packageType(file: string): unknown {
  try {
    const json = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
    return typeof json === "object" && json !== null && !Array.isArray(json)
      ? (json as { type?: unknown }).type
      : undefined;
  } catch {
    return undefined;
  }
}

/** TS18003, "No inputs were found": irrelevant, the files come from `include` in zcp's config. */
const NO_INPUTS_FOUND = 18003;

const DEFAULT_COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
};

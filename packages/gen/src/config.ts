/**
 * Finding and validating the configuration: `zcp.config.json`, or a `"zcp"` field in
 * package.json, in the folder `zcp gen` runs in (or the file `--config` names).
 */
import fs from "node:fs";
import path from "node:path";
import { diagnostic, relativePath, type Diagnostic } from "./diagnostics.js";

export interface ConfigInput {
  /** Source globs, relative to the config folder. */
  include?: string[];
  exclude?: string[];
  /** tsconfig path, relative to the config folder. */
  tsconfig?: string;
  /** Output folder, relative to the config folder. */
  outDir?: string;
  /** Also generate the lean artifact sets (`lean.ts`, `artifacts/lean/*.json`). */
  leanArtifacts?: boolean;
}

export interface Config {
  /** Absolute path of the file the configuration was read from. */
  readonly file: string;
  /** Absolute folder that every relative path in the configuration is resolved against. */
  readonly root: string;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  /** Absolute tsconfig path, or null to use strict defaults. */
  readonly tsconfig: string | null;
  /** Absolute output folder. */
  readonly outDir: string;
  /** Whether the lean artifact sets are generated too (default false). */
  readonly leanArtifacts: boolean;
}

const DEFAULTS = {
  include: ["src/**/*.ts"],
  exclude: [] as string[],
  outDir: "src/zcp.gen",
};

export type ConfigResult =
  { config: Config; diagnostics: [] } | { config: null; diagnostics: Diagnostic[] };

const KEYS = new Set(["include", "exclude", "tsconfig", "outDir", "leanArtifacts"]);

/** Reads the configuration from `explicit` (a file) or from `cwd`. */
export function loadConfig(cwd: string, explicit?: string): ConfigResult {
  const candidates = explicit
    ? [path.resolve(cwd, explicit)]
    : [path.join(cwd, "zcp.config.json"), path.join(cwd, "package.json")];
  for (const file of candidates) {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      if (!explicit) continue;
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === "ENOENT"
          ? "no such file"
          : code === "EISDIR"
            ? "it is a folder"
            : String(code ?? error);
      return {
        config: null,
        diagnostics: [
          diagnostic(
            "error",
            "ZCP1001",
            `cannot read the configuration ${relativePath(cwd, file)}: ${why}`,
          ),
        ],
      };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return fail(file, `${path.basename(file)} is not valid JSON: ${(error as Error).message}`);
    }
    const isPackageJson = path.basename(file) === "package.json";
    const raw = isPackageJson ? (json as { zcp?: unknown } | null)?.zcp : json;
    if (raw === undefined && isPackageJson) {
      if (explicit) return fail(file, `${relativePath(cwd, file)} has no "zcp" field`);
      continue;
    }
    return validate(file, raw);
  }
  return {
    config: null,
    diagnostics: [
      diagnostic(
        "error",
        "ZCP1001",
        `no zcp.config.json, and no package.json with a "zcp" field, in the current folder (${cwd}); or name one with --config`,
      ),
    ],
  };
}

function validate(file: string, raw: unknown): ConfigResult {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return fail(file, "the configuration must be a JSON object");
  }
  const input = raw as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!KEYS.has(key))
      return fail(file, `unknown configuration key "${key}" (known: ${[...KEYS].join(", ")})`);
  }
  for (const key of ["include", "exclude"] as const) {
    const value = input[key];
    if (
      value !== undefined &&
      !(Array.isArray(value) && value.every((v) => typeof v === "string" && v !== ""))
    ) {
      return fail(file, `"${key}" must be an array of non-empty glob strings`);
    }
  }
  for (const key of ["tsconfig", "outDir"] as const) {
    const value = input[key];
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      return fail(file, `"${key}" must be a non-empty string`);
    }
  }
  if (input.leanArtifacts !== undefined && typeof input.leanArtifacts !== "boolean")
    return fail(file, `"leanArtifacts" must be true or false`);
  const root = path.dirname(file);
  const include = (input.include as string[] | undefined) ?? DEFAULTS.include;
  if (include.length === 0) return fail(file, `"include" must name at least one glob`);
  const tsconfigPath = input.tsconfig as string | undefined;
  let tsconfig: string | null = null;
  if (tsconfigPath !== undefined) tsconfig = path.resolve(root, tsconfigPath);
  else if (fs.existsSync(path.join(root, "tsconfig.json")))
    tsconfig = path.join(root, "tsconfig.json");
  const outDir = path.resolve(root, (input.outDir as string | undefined) ?? DEFAULTS.outDir);
  const inside = path.relative(root, outDir);
  if (
    inside === "" ||
    inside === ".." ||
    inside.startsWith(`..${path.sep}`) ||
    path.isAbsolute(inside)
  ) {
    return fail(
      file,
      `"outDir" must be a folder inside the configuration's folder, got "${input.outDir as string}"`,
    );
  }
  return {
    config: {
      file,
      root,
      include,
      exclude: (input.exclude as string[] | undefined) ?? DEFAULTS.exclude,
      tsconfig,
      outDir,
      leanArtifacts: (input.leanArtifacts as boolean | undefined) ?? false,
    },
    diagnostics: [],
  };
}

function fail(file: string, message: string): ConfigResult {
  return {
    config: null,
    diagnostics: [diagnostic("error", "ZCP1001", message, { file, line: 1, column: 1 })],
  };
}

/**
 * Finding and validating the configuration: `zcp.config.json`, or a `"zcp"` field in
 * package.json, in the folder `zcp gen` runs in (or the file `--config` names).
 */
import fs from "node:fs";
import path from "node:path";
import { diagnostic, relativePath, type Diagnostic } from "./diagnostics.js";
// The option modules alone: the upstream entry loads the runtime, and the fast path reads this.
import { fromMcpOption, type FromMcp } from "./upstream/options.js";
import type { UpstreamServer } from "./upstream/server.js";

export interface ConfigInput {
  /** Source globs, relative to the config folder. */
  include?: string[];
  exclude?: string[];
  /** tsconfig path, relative to the config folder. */
  tsconfig?: string;
  /** Output folder, relative to the config folder. */
  outDir?: string;
  /** With `jsonFiles`, also write the lean artifact sets (`artifacts/lean/*.json`). */
  leanArtifacts?: boolean;
  /** Also write the definitions into `registry.json` and the artifact sets as `artifacts/*.json`, for consumers that do not run TypeScript. */
  jsonFiles?: boolean;
  /** Tool packages composed into this registry: a package name, or an entry with options. */
  registries?: (string | RegistryEntryInput)[];
  /** A gateway: the tools are an upstream MCP server's listing (no sources, no tsconfig). */
  fromMcp?: FromMcp;
  /** Tools' descriptions in planner lines and provider entries: first sentences, or whole (`@describe` per tool). */
  describe?: Describe;
}

/**
 * How much of a description the model reads in planner lines and provider entries: `first`
 * (the first sentence, a long first paragraph cut to it) or `full` (all of it). MCP entries
 * always carry the whole description.
 */
export type Describe = "first" | "full";

export const DESCRIBE_MODES: readonly Describe[] = ["first", "full"];

/** A `registries` entry: a package and which of its tools to take, under which prefix. */
interface RegistryEntryInput {
  package: string;
  prefix?: string;
  groups?: string[];
  excludeGroups?: string[];
  stages?: string[];
  aliases?: string[];
  excludeAliases?: string[];
}

/** A validated `registries` entry (the selection fields are the runtime's `Selection`'s). */
export interface RegistryEntry {
  readonly package: string;
  readonly prefix?: string;
  readonly groups?: readonly string[];
  readonly excludeGroups?: readonly string[];
  readonly stages?: readonly string[];
  readonly aliases?: readonly string[];
  readonly excludeAliases?: readonly string[];
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
  /** Whether the lean artifact sets are written too, with `jsonFiles` (default false). */
  readonly leanArtifacts: boolean;
  /** Whether `registry.json` holds the definitions and `artifacts/*.json` are written (default false). */
  readonly jsonFiles: boolean;
  /**
   * The tool packages composed in (`compose/`), in configuration order; `[]` when none. With
   * `registries` and no `include`, `include` is `[]`: there are no local sources.
   */
  readonly registries: readonly RegistryEntry[];
  /**
   * A gateway project's upstream (`"fromMcp"`), or null. Such a project has no sources
   * (`include` is `[]`), no tsconfig and no packages; its output is JavaScript.
   */
  readonly fromMcp: FromMcp | null;
  /** The tools' `@describe` default (default `first`). */
  readonly describe: Describe;
}

const DEFAULTS = {
  include: ["src/**/*.ts"],
  exclude: [] as string[],
  outDir: "src/zcp.gen",
  /** A gateway has no `src/`. */
  fromMcpOutDir: "zcp.gen",
};

export type ConfigResult =
  { config: Config; diagnostics: [] } | { config: null; diagnostics: Diagnostic[] };

const KEYS = new Set([
  "include",
  "exclude",
  "tsconfig",
  "outDir",
  "leanArtifacts",
  "jsonFiles",
  "registries",
  "fromMcp",
  "describe",
]);

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
  for (const key of ["leanArtifacts", "jsonFiles"] as const) {
    if (input[key] !== undefined && typeof input[key] !== "boolean")
      return fail(file, `"${key}" must be true or false`);
  }
  if (input.describe !== undefined && !DESCRIBE_MODES.includes(input.describe as Describe))
    return fail(file, `"describe" must be "first" or "full"`);
  const registries = registryEntries(input.registries);
  if (typeof registries === "string") return fail(file, registries);
  let fromMcp: FromMcp | null = null;
  if (input.fromMcp !== undefined) {
    const option = fromMcpOption(input.fromMcp);
    if (typeof option === "string") return fail(file, option);
    const other = ["include", "exclude", "tsconfig", "registries"].filter((k) => k in input);
    if (other.length > 0)
      return fail(
        file,
        `"fromMcp" takes its tools from the upstream MCP server: it cannot be combined with ${other.map((k) => `"${k}"`).join(", ")}`,
      );
    fromMcp = option;
  }
  const root = path.dirname(file);
  const include =
    (input.include as string[] | undefined) ??
    (input.registries === undefined && fromMcp === null ? DEFAULTS.include : []);
  if (include.length === 0 && input.include !== undefined)
    return fail(file, `"include" must name at least one glob`);
  const tsconfigPath = input.tsconfig as string | undefined;
  let tsconfig: string | null = null;
  if (tsconfigPath !== undefined) tsconfig = path.resolve(root, tsconfigPath);
  else if (fromMcp === null && fs.existsSync(path.join(root, "tsconfig.json")))
    tsconfig = path.join(root, "tsconfig.json");
  const outDir = path.resolve(
    root,
    (input.outDir as string | undefined) ?? (fromMcp ? DEFAULTS.fromMcpOutDir : DEFAULTS.outDir),
  );
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
      jsonFiles: (input.jsonFiles as boolean | undefined) ?? false,
      registries,
      fromMcp,
      describe: (input.describe as Describe | undefined) ?? "first",
    },
    diagnostics: [],
  };
}

/**
 * The configuration of `zcp gen --from-mcp <server>` in `cwd`, without a configuration file:
 * `{ "fromMcp": { "server": server } }` with the output in `zcp.gen/`. Its `file` is
 * `<cwd>/--from-mcp`, which names it in the generated files' provenance line.
 */
export function fromMcpConfig(cwd: string, server: UpstreamServer): Config {
  const root = path.resolve(cwd);
  return {
    file: path.join(root, "--from-mcp"),
    root,
    include: [],
    exclude: [],
    tsconfig: null,
    outDir: path.join(root, DEFAULTS.fromMcpOutDir),
    leanArtifacts: false,
    jsonFiles: false,
    registries: [],
    fromMcp: { server },
    describe: "first",
  };
}

const ENTRY_KEYS = new Set([
  "package",
  "prefix",
  "groups",
  "excludeGroups",
  "stages",
  "aliases",
  "excludeAliases",
]);

/** The `registries` entries, or what is wrong with them. */
function registryEntries(value: unknown): RegistryEntry[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    return `"registries" must be an array of package names or { "package": ... } entries`;
  const entries: RegistryEntry[] = [];
  const seen = new Set<string>();
  for (const [index, item] of value.entries()) {
    const at = `"registries"[${index}]`;
    const entry = typeof item === "string" ? { package: item } : item;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry))
      return `${at} must be a package name or an object with "package"`;
    const record = entry as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!ENTRY_KEYS.has(key))
        return `${at}: unknown key "${key}" (known: ${[...ENTRY_KEYS].join(", ")})`;
    }
    const name = record.package;
    if (typeof name !== "string" || !PACKAGE_NAME.test(name))
      return `${at}: "package" must be a package name such as "@acme/billing-tools", got ${JSON.stringify(name)}`;
    if (seen.has(name)) return `${at}: the package "${name}" is listed twice`;
    seen.add(name);
    // What makes a prefix valid is the runtime's rule, checked where it is applied (`prefixTool`).
    if (record.prefix !== undefined && (typeof record.prefix !== "string" || record.prefix === ""))
      return `${at}: "prefix" must be a non-empty string`;
    for (const key of ["groups", "excludeGroups", "stages", "aliases", "excludeAliases"]) {
      const list = record[key];
      if (
        list !== undefined &&
        !(Array.isArray(list) && list.every((v) => typeof v === "string" && v !== ""))
      )
        return `${at}: "${key}" must be an array of non-empty strings`;
    }
    entries.push(record as unknown as RegistryEntry);
  }
  return entries;
}

/** npm's rule for a package name: lower case, optionally scoped, URL-safe. */
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

function fail(file: string, message: string): ConfigResult {
  return {
    config: null,
    diagnostics: [diagnostic("error", "ZCP1001", message, { file, line: 1, column: 1 })],
  };
}

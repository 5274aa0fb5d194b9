/**
 * compose: the tools of each package in `"registries"`, as the configuration asks for them.
 * Each package is resolved (`resolve.ts`), its published registry read without executing it
 * (`read.ts`) and checked against this generator's format and version; then its tools are
 * selected (the runtime's `applySelection`, plus `excludeAliases`), renamed under the entry's
 * prefix (the runtime's `prefixTool`), and marked with `source.package`.
 */
import {
  applySelection,
  prefixTool,
  REGISTRY_FORMAT_VERSION,
  type Registry,
  type ToolDefinition,
} from "@zcp/runtime/definition";
import type { Config, RegistryEntry } from "../config.js";
import { diagnostic, relativePath, type Code, type Diagnostic } from "../diagnostics.js";
import { hashText, readSourceText } from "../scan/source-text.js";
import { readRegistryText, RegistryReadError } from "./read.js";
import { resolvePackage, ZCP_EXPORT } from "./resolve.js";
import { entrySite } from "./site.js";

/** One package's tools, renamed, with what the generated module needs to reach them. */
interface PackageTools {
  readonly name: string;
  /** The registry hash of the package's published module (checked again when the app loads). */
  readonly hash: string;
  /** The selected tools, renamed, each with its id in the package's own module. */
  readonly tools: readonly { readonly tool: ToolDefinition; readonly id: string }[];
}

export interface LoadedPackages {
  readonly packages: PackageTools[];
  readonly diagnostics: Diagnostic[];
  /** Every file read, with the hash of its text (null: it could not be read). */
  readonly inputs: Map<string, string | null>;
}

/**
 * The tools of every package `config.registries` names, each package's selected and renamed.
 * `version` is this generator's, compared with the version that wrote each package's registry.
 */
export function loadPackages(config: Config, version: string): LoadedPackages {
  const packages: PackageTools[] = [];
  const diagnostics: Diagnostic[] = [];
  const inputs = new Map<string, string | null>();
  const read = (file: string): string | null => {
    const text = readSourceText(file);
    inputs.set(file, text === null ? null : hashText(text));
    return text;
  };
  for (const entry of config.registries) {
    const name = entry.package;
    const report: Report = (severity, code, message) =>
      diagnostics.push(
        diagnostic(severity, code, `registries: ${message}`, entrySite(config, name)),
      );
    const registry = readPackageRegistry(name, config, version, read, report);
    if (registry === null) continue;
    const selected = selectTools(registry.tools, entry);
    if (typeof selected === "string") {
      report("error", "ZCP1001", `${name}: ${selected}`);
      continue;
    }
    try {
      packages.push({
        name,
        hash: registry.hash,
        tools: selected.map((tool) => ({ tool: composedTool(tool, entry), id: tool.id })),
      });
    } catch (error) {
      // prefixTool's GeneratedModuleError (by name: the runtime's entry is not loaded here).
      if (!(error instanceof Error) || error.name !== "GeneratedModuleError") throw error;
      // A bad prefix is the configuration's fault; a planner line prefixTool cannot rename, the registry's.
      const bad = error.message.includes("planner line");
      report(
        "error",
        bad ? "ZCP1603" : "ZCP1001",
        bad ? `${name}'s registry cannot be read: ${error.message}` : error.message,
      );
    }
  }
  return { packages, diagnostics, inputs };
}

type Report = (severity: "error" | "warning", code: Code, message: string) => void;

/**
 * The registry package `name` publishes, read through `read` (which records what it reads),
 * in this generator's format; or null, with the reason reported (ZCP1601-ZCP1604). Another
 * generator version is a warning (ZCP1605).
 */
function readPackageRegistry(
  name: string,
  config: Config,
  version: string,
  read: (file: string) => string | null,
  report: Report,
): Registry | null {
  const resolved = resolvePackage(name, config.root);
  if ("missing" in resolved) {
    if (resolved.missing === "package") {
      report(
        "error",
        "ZCP1601",
        `cannot find package "${name}" from ${config.root} (is it installed?)`,
      );
    } else {
      read(resolved.packageJson);
      report(
        "error",
        "ZCP1602",
        `${name} declares no "${ZCP_EXPORT}" export in its package.json: a package publishes its tools as "exports": { "${ZCP_EXPORT}": "./dist/zcp.gen/index.js" } (see "Publishing tools" in @zcp/gen's README)`,
      );
    }
    return null;
  }
  read(resolved.packageJson);
  const shown = relativePath(config.root, resolved.registry);
  const text = read(resolved.registry);
  let registry: Registry;
  let generator: string | null;
  try {
    if (text === null) throw new RegistryReadError(`${shown}: no such file (is ${name} built?)`);
    ({ registry, generator } = readRegistryText(text, shown));
  } catch (error) {
    if (!(error instanceof RegistryReadError)) throw error;
    report("error", "ZCP1603", `${name}'s registry cannot be read: ${error.message}`);
    return null;
  }
  if (registry.version !== REGISTRY_FORMAT_VERSION) {
    report(
      "error",
      "ZCP1604",
      `${name} was generated with registry format ${String(registry.version)} (zcp gen ${generator ?? "unknown"}); this zcp gen ${version} writes and reads format ${REGISTRY_FORMAT_VERSION}: rebuild ${name} with it`,
    );
    return null;
  }
  if (generator !== null && generator !== version)
    report(
      "warning",
      "ZCP1605",
      `${name} was generated by zcp gen ${generator}; this is zcp gen ${version}: rebuild ${name} with this version to be sure its validators and planner lines match`,
    );
  return registry;
}

/**
 * The tools an entry selects, by the package's own aliases and ids, or why it cannot: an alias
 * in `aliases` or `excludeAliases` the package does not have (a typo would silently select
 * nothing, or exclude nothing).
 */
function selectTools(
  tools: readonly ToolDefinition[],
  entry: RegistryEntry,
): ToolDefinition[] | string {
  const known = new Set(tools.flatMap((tool) => [tool.alias, tool.id]));
  for (const key of ["aliases", "excludeAliases"] as const) {
    const unknown = (entry[key] ?? []).filter((alias) => !known.has(alias));
    if (unknown.length > 0)
      return `"${key}" names ${unknown.map((alias) => `"${alias}"`).join(", ")}, which the package does not have (its tools: ${tools.map((tool) => tool.alias).join(", ")})`;
  }
  const { groups, excludeGroups, stages, aliases } = entry;
  const excluded = new Set(entry.excludeAliases ?? []);
  return applySelection(tools, {
    ...(groups ? { groups } : {}),
    ...(excludeGroups ? { excludeGroups } : {}),
    ...(stages ? { stages } : {}),
    ...(aliases ? { aliases } : {}),
  }).filter((tool) => !excluded.has(tool.alias) && !excluded.has(tool.id));
}

/** A package's tool as composed: under the entry's prefix, its source naming the package. */
function composedTool(tool: ToolDefinition, entry: RegistryEntry): ToolDefinition {
  const renamed = entry.prefix === undefined ? tool : prefixTool(tool, entry.prefix, entry.package);
  return { ...renamed, source: { ...renamed.source, package: entry.package } };
}

/**
 * compose: finding a tool package's published registry. A package publishes its generated
 * module as the export subpath `./zcp` (`"exports": { "./zcp": "./dist/zcp.gen/index.js" }`,
 * or with conditions); the registry module is `registry.js` beside that file (`registry.ts` for a
 * `.ts` entry). Packages are found as Node finds them: `node_modules/<name>` in the folder and
 * each folder above it, through symlinks (workspace packages).
 */
import fs from "node:fs";
import path from "node:path";

/** The export subpath a tool package publishes its generated module under. */
export const ZCP_EXPORT = "./zcp";

/** The conditions an export target is resolved with, in Node's order: the runtime's file, not `types`. */
const CONDITIONS = new Set(["import", "node", "default"]);

/** A package found and its `./zcp` export resolved. */
export interface ResolvedPackage {
  /** Real path of the package's package.json. */
  readonly packageJson: string;
  /** Real path of the file `<name>/zcp` resolves to. */
  readonly entry: string;
  /** The registry module beside it (may not exist: the reader says so). */
  readonly registry: string;
}

/** Why a package could not be resolved: not installed, or no `./zcp` export. */
export type ResolveFailure =
  { readonly missing: "package" } | { readonly missing: "export"; readonly packageJson: string };

/** `name` resolved from the folder `from` (see the file comment). */
export function resolvePackage(name: string, from: string): ResolvedPackage | ResolveFailure {
  const packageJson = findPackageJson(name, from);
  if (packageJson === null) return { missing: "package" };
  let manifest: { exports?: unknown };
  try {
    manifest = JSON.parse(fs.readFileSync(packageJson, "utf8")) as { exports?: unknown };
  } catch {
    return { missing: "export", packageJson };
  }
  const exports = manifest?.exports;
  const target =
    typeof exports === "object" && exports !== null && !Array.isArray(exports)
      ? exportTarget((exports as { [subpath: string]: unknown })[ZCP_EXPORT])
      : null;
  if (target === null || !target.startsWith("./")) return { missing: "export", packageJson };
  const folder = path.dirname(packageJson);
  let entry = path.resolve(folder, target);
  try {
    entry = fs.realpathSync(entry);
  } catch {
    // Not built yet: the registry beside it is missing too, which the reader reports.
  }
  const registry = path.join(
    path.dirname(entry),
    /\.[cm]?tsx?$/.test(entry) ? "registry.ts" : "registry.js",
  );
  return { packageJson, entry, registry };
}

/** The real path of `node_modules/<name>/package.json` in `from` or the nearest folder above it. */
function findPackageJson(name: string, from: string): string | null {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", ...name.split("/"), "package.json");
    try {
      return fs.realpathSync(candidate);
    } catch {
      // Not here: one folder up.
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/** An export target under the conditions above: a string, the first array item that resolves, or the first matching condition's. */
function exportTarget(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = exportTarget(item);
      if (target !== null) return target;
    }
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  for (const [condition, nested] of Object.entries(value)) {
    if (!CONDITIONS.has(condition)) continue;
    const target = exportTarget(nested);
    if (target !== null) return target;
  }
  return null;
}

/**
 * emit: how the generated files reach a composed package's tables. Each package's published
 * module is imported once per file as `import { generated as <name> } from "<package>/zcp";`,
 * and a package tool's entry is `<name>.<table>["<the package's id>"]!`.
 */
import type { ComposedPackage } from "../compose/index.js";
import { ZCP_EXPORT } from "../compose/resolve.js";
import { printImport } from "./layout.js";
import { moduleNames } from "./names.js";
import { printString } from "./print.js";

/** The module specifier of a package's generated module: `<package>/zcp`. */
function packageSpecifier(name: string): string {
  return `${name}${ZCP_EXPORT.slice(1)}`;
}

/**
 * A binding name per package, after the last part of its name (`@acme/billing-tools` →
 * `billing_tools`), unique and outside `taken` (see `moduleNames`).
 */
export function packageBindings(
  packages: readonly ComposedPackage[],
  taken: ReadonlySet<string>,
): Map<string, string> {
  return moduleNames(
    packages.map((pkg) => pkg.name),
    taken,
  );
}

/** The import statements of the packages' modules, sorted by package name. */
export function packageImports(bindings: ReadonlyMap<string, string>): string {
  return [...bindings.keys()]
    .sort()
    .map((name) =>
      printImport("import", [`generated as ${bindings.get(name)!}`], packageSpecifier(name)),
    )
    .join("");
}

/** A package tool's entry in one of its module's tables: `billing_tools.dispatch["x1y2z3"]!`. */
export function packageEntry(
  binding: string,
  table: "dispatch" | "validators",
  id: string,
): string {
  return `${binding}.${table}[${printString(id)}]!`;
}

/** For each composed tool id, its package and its id there. */
export function packageToolIds(
  packages: readonly ComposedPackage[],
): Map<string, { readonly pkg: ComposedPackage; readonly id: string }> {
  const out = new Map<string, { pkg: ComposedPackage; id: string }>();
  for (const pkg of packages) for (const [id, own] of pkg.ids) out.set(id, { pkg, id: own });
  return out;
}

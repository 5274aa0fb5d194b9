/**
 * The load-time check of a module `zcp gen` composed from tool packages (`"registries"` in its
 * configuration): its dispatch and validator tables point into each package's published module
 * by the package's tool ids, which hold only for the registry it was composed from. A package
 * rebuilt or upgraded since must not be served through the old tables.
 */
import { GeneratedModuleError } from "../definition/module-error.js";
import type { GeneratedModule } from "./module.js";

/**
 * Throws `GeneratedModuleError` unless `module`, imported from `<name>/zcp`, still has the
 * registry hash `hash` the composed module was generated from. Generated code calls it once per
 * package, when the composed module loads.
 */
export function checkComposedPackage(module: GeneratedModule, name: string, hash: string): void {
  const now = (module as Partial<GeneratedModule> | undefined)?.registry?.hash;
  if (now !== hash)
    throw new GeneratedModuleError(
      `${name}/zcp has registry hash ${now ?? "(none: not a generated module)"}, but this module was composed from ${hash}: run zcp gen again`,
    );
}

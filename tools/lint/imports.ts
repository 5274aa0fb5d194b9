/**
 * The import graph the lint's structure checks read (cycles.ts, borders.ts): each `.ts` file's
 * import and export-from specifiers, type-only and dynamic ones included, read with TypeScript's
 * pre-processor (no type check, no program, so the whole repository reads in well under a
 * second), and relative specifiers resolved the way the packages' `nodenext` imports are
 * (`./x.js` is `./x.ts`, a folder's `./x/index.js` its index).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";

/** Folders that hold no hand-written source: installed, built, generated or scratch files. */
const SKIPPED = new Set(["node_modules", "dist", "zcp.gen"]);

/** The `.ts` files under `dir`, declaration files and the folders in `SKIPPED` (or hidden) aside. */
export function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return SKIPPED.has(entry.name) || entry.name.startsWith(".") ? [] : sources(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Every module specifier a file imports or re-exports, in the order written, once each. */
export function specifiers(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return [...new Set(importedFiles.map((imported) => imported.fileName))];
}

/** The file a relative specifier names (`./x.js` → `./x.ts`, `./x` → `./x/index.ts`), if any. */
export function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base.replace(/\.js$/, ".ts"),
    `${base}.ts`,
    path.join(base.replace(/\.js$/, ""), "index.ts"),
  ];
  return candidates.find((candidate) => existsSync(candidate) && candidate.endsWith(".ts"));
}

const BUILTINS = new Set(builtinModules);

/** The package a bare specifier names (`@zcp/runtime/codegen` → `@zcp/runtime`), or undefined
 *  for a relative path or a Node built-in (`node:fs`, or `fs` as Node lists it). */
export function packageName(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  return BUILTINS.has(name) ? undefined : name;
}

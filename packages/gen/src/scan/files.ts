/**
 * scan: the configured source files. Loads no TypeScript, so that the no-change fast path
 * (`cli/fast-path.ts`) can list them without loading it: it imports this module, not the entry.
 */
import path from "node:path";
import { glob } from "tinyglobby";
import type { Config } from "../config.js";
import { relativePath } from "../diagnostics.js";

/** The configured source files (absolute, sorted), without the output folder and declarations. */
export async function listSourceFiles(config: Config): Promise<string[]> {
  const outDir = relativePath(config.root, config.outDir);
  const files = await glob([...config.include], {
    cwd: config.root,
    ignore: [...config.exclude, `${outDir}/**`, "**/node_modules/**", "**/*.d.ts"],
    absolute: true,
    onlyFiles: true,
  });
  return files.map((file) => path.normalize(file)).sort();
}

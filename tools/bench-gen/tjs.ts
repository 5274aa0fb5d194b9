/**
 * The reference: typescript-json-schema generating JSON Schemas for the same parameter types
 * (one named type per tool, see synth.ts), through its programmatic API with required:true and
 * otherwise default settings. It prints {"definitions":N,"missing":[...],"typescript":version}.
 *
 * Note that tjs ships its own TypeScript (5.9) and, by default, type-checks the whole program
 * (getPreEmitDiagnostics) before generating; zcp does neither.
 *
 * Usage: node --import tsx tools/bench-gen/tjs.ts <manifest.json>
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import tjs from "typescript-json-schema";
import { loadManifest } from "./manifest.js";

const manifest = loadManifest(process.argv[2]);
// The same compiler options, as JSON: tjs converts them with its own TypeScript.
const tsconfig = JSON.parse(fs.readFileSync(path.join(manifest.root, "tsconfig.json"), "utf8")) as {
  compilerOptions: object;
};
const program = tjs.getProgramFromFiles(manifest.files, tsconfig.compilerOptions, manifest.root);
const generator = tjs.buildGenerator(program, { required: true });
if (!generator) {
  // buildGenerator has printed the type errors; the synthesized project must have none.
  process.stderr.write("typescript-json-schema: the program has type errors\n");
  process.exit(1);
}
const schema = generator.getSchemaForSymbols(manifest.symbols);
const definitions = schema.definitions ?? {};
const missing = manifest.symbols.filter((symbol) => definitions[symbol] === undefined);
// The TypeScript tjs itself resolves (its own dependency), for the report.
const typescript = (
  createRequire(createRequire(import.meta.url).resolve("typescript-json-schema"))("typescript") as {
    version: string;
  }
).version;
process.stdout.write(
  `${JSON.stringify({ definitions: Object.keys(definitions).length, missing, typescript })}\n`,
);

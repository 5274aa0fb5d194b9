/**
 * cli: the no-change fast path. After a run, the hashes of the texts it read (the config, the
 * tsconfig chain, every configured source file, every program file: `GenerateResult.inputs`,
 * hashed as the run read them, not when the record is saved) and of the files it generated are
 * saved under `node_modules/.cache/zcp/`. The next run compares them with the disk first; when
 * nothing differs it reports the saved result without loading TypeScript at all. `--force` skips
 * this.
 *
 * A record is a claim: "these inputs give this output, and this output is on disk". It is saved
 * only when both halves hold: every input was read once, consistently, and every generated file
 * is on disk with the content the run generated.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../config.js";
import type { Diagnostic } from "../diagnostics.js";
import type { GenerateResult } from "../pipeline.js";
// Modules of scan that load no TypeScript (the entry does): the fast path must not.
import { listSourceFiles } from "../scan/files.js";
import { hashSourceFile } from "../scan/source-text.js";

/** 2: inputs are hashed as read by the run (decoded like TypeScript) and include every configured source file. */
const CACHE_VERSION = 2;

interface Record {
  readonly version: number;
  readonly config: string;
  /** The configured source files the run listed. */
  readonly sources: string[];
  /** Input file → SHA-256 of the text the run read (`hashText`). */
  readonly inputs: { [file: string]: string };
  /** Output path (relative to outDir) → SHA-256 of the file's bytes. */
  readonly outputs: { [file: string]: string };
  readonly diagnostics: Diagnostic[];
  readonly tools: number;
  readonly hash: string;
}

export interface FastPathResult {
  readonly diagnostics: Diagnostic[];
  readonly tools: number;
  readonly hash: string;
}

function cacheFile(config: Config): string | null {
  const modules = path.join(config.root, "node_modules");
  if (!fs.existsSync(modules)) return null;
  const name = createHash("sha256").update(config.file).digest("hex").slice(0, 12);
  return path.join(modules, ".cache", "zcp", `gen-${name}.json`);
}

function configKey(config: Config): string {
  return JSON.stringify({ cache: CACHE_VERSION, generator: GENERATOR_VERSION, ...config });
}

function hashBytes(file: string): string | null {
  try {
    return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  } catch {
    return null;
  }
}

/** The saved result, if nothing the saved run read or wrote differs from the disk now; else null. */
export async function readFastPath(config: Config): Promise<FastPathResult | null> {
  const file = cacheFile(config);
  if (!file) return null;
  let record: Record;
  try {
    record = JSON.parse(fs.readFileSync(file, "utf8")) as Record;
  } catch {
    return null;
  }
  if (record.version !== CACHE_VERSION || record.config !== configKey(config)) return null;
  const sources = await listSourceFiles(config);
  if (
    sources.length !== record.sources.length ||
    sources.some((source, i) => source !== record.sources[i])
  )
    return null;
  for (const [input, hash] of Object.entries(record.inputs))
    if (hashSourceFile(input) !== hash) return null;
  for (const [output, hash] of Object.entries(record.outputs))
    if (hashBytes(path.join(config.outDir, output)) !== hash) return null;
  return { diagnostics: record.diagnostics, tools: record.tools, hash: record.hash };
}

/**
 * Saves `result` for the next run's fast path: the hashes of the texts it read, and of its files
 * as they are on disk now. Saves nothing when an input could not be read or was read twice with
 * different texts, or when a generated file is not on disk as generated (under `--check`, or
 * edited since): the record would claim an output the disk does not hold.
 */
export async function saveFastPath(config: Config, result: GenerateResult): Promise<void> {
  const file = cacheFile(config);
  if (!file) return;
  const inputs: { [file: string]: string } = {};
  for (const [input, hash] of result.inputs) {
    if (hash === null) return;
    inputs[input] = hash;
  }
  const outputs: { [file: string]: string } = {};
  for (const output of result.files) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(path.join(config.outDir, output.path));
    } catch {
      return;
    }
    if (!bytes.equals(Buffer.from(output.content))) return;
    outputs[output.path] = createHash("sha256").update(bytes).digest("hex");
  }
  const record: Record = {
    version: CACHE_VERSION,
    config: configKey(config),
    sources: [...result.sources],
    inputs,
    outputs,
    diagnostics: result.diagnostics,
    tools: result.registry.tools.length,
    hash: result.registry.hash,
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Write then rename: a run reading the record never sees half of it.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(record));
  fs.renameSync(temporary, file);
}

/**
 * Identifies the generator: its version, the pinned versions of what shapes the output
 * (TypeScript via ts-morph), and a hash of the code that runs: every file in the generator's
 * folder (the parent of this module's `cli/`) and in the folder of the @zcp/runtime entry, which
 * holds the rooms of all its entries the generator imports (`codegen/`, `definition/`: hashes
 * and the registry contract come from there). These are `src/` under
 * tsx and `dist/` when compiled; they are inputs of every run like the user's files: a changed
 * generator must not replay an old result.
 */
const GENERATOR_VERSION = (() => {
  const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const manifest = JSON.parse(fs.readFileSync(packageJsonOf(here), "utf8")) as {
    version: string;
    dependencies: object;
  };
  const folders = new Set([here, path.dirname(fileURLToPath(import.meta.resolve("@zcp/runtime")))]);
  const sources = createHash("sha256");
  for (const folder of [...folders].sort()) {
    const files = fs
      .readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
    for (const entry of files.sort()) sources.update(entry).update(fs.readFileSync(entry));
  }
  return JSON.stringify([manifest.version, manifest.dependencies, sources.digest("hex")]);
})();

/** The package.json of the package `folder` belongs to. */
function packageJsonOf(folder: string): string {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "package.json");
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${folder}`);
  }
}

/**
 * The no-change fast path. After a run, the content hashes of everything it read (the config,
 * the tsconfig chain, every program file) and of everything it generated are saved under
 * `node_modules/.cache/zcp/`. The next run compares them first; when nothing differs it
 * reports the saved result without loading TypeScript at all. `--force` skips this.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "./config.js";
import type { Diagnostic } from "./diagnostics.js";
import type { GenerateResult } from "./pipeline.js";
import { listSourceFiles } from "./files.js";

const CACHE_VERSION = 1;

interface Record {
  readonly version: number;
  readonly config: string;
  readonly sources: string[];
  readonly inputs: { [file: string]: string };
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

function hashFile(file: string): string | null {
  try {
    return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  } catch {
    return null;
  }
}

/** The saved result, if nothing the saved run read or wrote has changed since; else null. */
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
  if (sources.length !== record.sources.length || sources.some((source, i) => source !== record.sources[i])) return null;
  for (const [input, hash] of Object.entries(record.inputs)) if (hashFile(input) !== hash) return null;
  for (const [output, hash] of Object.entries(record.outputs)) if (hashFile(path.join(config.outDir, output)) !== hash) return null;
  return { diagnostics: record.diagnostics, tools: record.tools, hash: record.hash };
}

/** Saves what `result` read and generated, for the next run's fast path. */
export async function saveFastPath(config: Config, result: GenerateResult): Promise<void> {
  const file = cacheFile(config);
  if (!file) return;
  const inputs: { [file: string]: string } = {};
  for (const input of [config.file, ...result.inputs]) {
    const hash = hashFile(input);
    if (hash === null) return; // an input vanished during the run: do not trust this result later
    inputs[input] = hash;
  }
  const outputs: { [file: string]: string } = {};
  for (const output of result.files) outputs[output.path] = createHash("sha256").update(output.content).digest("hex");
  const record: Record = {
    version: CACHE_VERSION,
    config: configKey(config),
    sources: await listSourceFiles(config),
    inputs,
    outputs,
    diagnostics: result.diagnostics,
    tools: result.registry.tools.length,
    hash: result.registry.hash,
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(record));
}

/**
 * Identifies the generator: its version, the pinned versions of what shapes the output
 * (TypeScript via ts-morph), and a hash of its own source files and of @zcp/runtime's (hashes
 * and the registry contract come from there), which are inputs of every run like the user's: a
 * changed generator must not replay an old result.
 */
const GENERATOR_VERSION = (() => {
  const manifest = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string; dependencies: object };
  const sources = createHash("sha256");
  const folders = [path.dirname(new URL(import.meta.url).pathname), path.dirname(new URL(import.meta.resolve("@zcp/runtime")).pathname)];
  for (const folder of folders) {
    for (const entry of fs.readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort()) {
      sources.update(entry).update(fs.readFileSync(entry));
    }
  }
  return JSON.stringify([manifest.version, manifest.dependencies, sources.digest("hex")]);
})();

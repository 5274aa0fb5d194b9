/**
 * Timing helpers: run a fresh Node process and time it from spawn to exit, as a user at a
 * shell would experience it (start-up included), and summarize repeated samples.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface ProcessResult {
  readonly ms: number;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <args>` in `cwd` and resolves when it exits. */
export function runNode(args: readonly string[], cwd: string): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({
        ms: performance.now() - started,
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
  });
}

/** The last JSON line a process printed; throws (with its output) when there is none. */
export function lastJsonLine<T>(result: ProcessResult, what: string): T {
  const line = result.stdout.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(line) as T;
  } catch {
    throw new Error(
      `${what}: expected a JSON line, exit code ${result.code}\nstdout: ${result.stdout.slice(0, 2000)}\nstderr: ${result.stderr.slice(0, 2000)}`,
    );
  }
}

export interface Stats {
  readonly min: number;
  readonly median: number;
  readonly samples: number[];
}

export function stats(samples: readonly number[]): Stats {
  if (samples.length === 0) throw new Error("no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { min: sorted[0]!, median, samples: samples.map((s) => Math.round(s)) };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Compiles `include` (absolute paths or globs) with the repository's tsc (TypeScript 7, module
 * nodenext, emit only) from `rootDir` into `outDir`, as a user's own build does: benchmarks
 * then run plain JavaScript under `node`, with @zcp packages from their built dist/. Returns
 * where a source file's JavaScript is.
 */
export async function compileWithTsc(
  repo: string,
  rootDir: string,
  outDir: string,
  include: readonly string[],
): Promise<(source: string) => string> {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      rootDir,
      outDir,
      noCheck: true,
      skipLibCheck: true,
      types: [],
    },
    include,
  };
  const file = path.join(outDir, "tsconfig.json");
  fs.writeFileSync(file, JSON.stringify(tsconfig, null, 2));
  const run = await runNode(
    [path.join(repo, "node_modules/typescript/bin/tsc"), "-p", file],
    outDir,
  );
  if (run.code !== 0)
    throw new Error(
      `tsc -p ${file} failed (${run.code}):\n${(run.stdout + run.stderr).slice(0, 3000)}`,
    );
  return (source) => path.join(outDir, path.relative(rootDir, source)).replace(/\.ts$/, ".js");
}

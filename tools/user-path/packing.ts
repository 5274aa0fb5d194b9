/**
 * What the tests that take a user's path share (tools/user-path, tools/monorepo): processes run
 * in a user's environment (no pnpm/npm script variables, the workspace's bins off the PATH), a
 * package packed with `pnpm pack` and unpacked to list what its tarball holds, and a temporary
 * folder outside the workspace that nothing above can configure.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { lstat, mkdir, mkdtemp, readdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const WORKSPACE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Exact versions of what a user installs besides our packages. */
export const DEV_TOOLS = ["typescript@7.0.2", "@types/node@20.19.43", "esbuild@0.28.2"];
export const NPM_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline", "--save-exact"];

// ---------------------------------------------------------------------------------------------
// Processes

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** The environment of a user's shell: no pnpm/npm script variables, no workspace bins on PATH. */
function userEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^(npm_|pnpm_|VITEST|TSX_|__VITEST)/i.test(key)) continue;
    if (
      [
        "NODE_OPTIONS",
        "NODE_PATH",
        "NODE_ENV",
        "INIT_CWD",
        "FORCE_COLOR",
        "PNPM_PACKAGE_NAME",
      ].includes(key)
    )
      continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((entry) => entry !== "" && !isInside(path.resolve(entry), WORKSPACE))
    .join(path.delimiter);
  env.NO_COLOR = "1";
  env.npm_config_update_notifier = "false";
  return env;
}
export const USER_ENV = userEnvironment();

/** stderr without npm's own warnings (a user's ~/.npmrc may cause some): what the command itself wrote. */
export function ownStderr(ran: Ran): string {
  return ran.stderr
    .split("\n")
    .filter((line) => !line.startsWith("npm warn"))
    .join("\n");
}

function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

export function run(command: string, args: readonly string[], options: RunOptions): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? USER_ENV,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 240_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started) });
    });
  });
}

/** Runs and insists on exit code 0, with the output in the message otherwise. */
export async function ok(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<Ran> {
  const ran = await run(command, args, options);
  if (ran.code !== 0)
    throw new Error(
      `${command} ${args.join(" ")} (in ${options.cwd}) exited ${ran.code}\n--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`,
    );
  return ran;
}

// ---------------------------------------------------------------------------------------------
// Folders and tarballs

/**
 * A new temporary folder outside the workspace, above which no folder holds a node_modules or a
 * package.json (nothing there may resolve a package or configure a project).
 */
export async function userTemp(prefix: string): Promise<string> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), prefix));
  if (isInside(tmp, WORKSPACE)) throw new Error(`${tmp} is inside the workspace ${WORKSPACE}`);
  for (let folder = path.dirname(tmp); ; folder = path.dirname(folder)) {
    for (const name of ["node_modules", "package.json"])
      if (existsSync(path.join(folder, name)))
        throw new Error(`${path.join(folder, name)} would be seen by the projects under ${tmp}`);
    if (path.dirname(folder) === folder) break;
  }
  return tmp;
}

export interface Tarball {
  name: string;
  version: string;
  /** The tarball's absolute path. */
  tarball: string;
  bytes: number;
  /** Where it was unpacked: the `package/` folder. */
  unpacked: string;
  unpackedBytes: number;
  /** Its files, `/`-separated paths relative to the package, sorted. */
  files: { path: string; bytes: number }[];
  declarationMapBytes: number;
  /** The packed package.json (workspace: ranges rewritten to versions). */
  manifest: Record<string, unknown>;
}

/**
 * `pnpm pack` of the package in `folder` into `destination`, then unpacked into `unpackTo` and
 * listed. pnpm pack is the workspace's packer (it rewrites workspace:* to versions), so it runs
 * with the workspace's environment.
 */
export async function packPackage(
  folder: string,
  destination: string,
  unpackTo: string,
): Promise<Tarball> {
  const ran = await ok("pnpm", ["pack", "--json", "--pack-destination", destination], {
    cwd: folder,
    env: process.env as Record<string, string>,
  });
  const json = JSON.parse(ran.stdout.slice(ran.stdout.indexOf("{"))) as {
    name: string;
    version: string;
    filename: string;
  };
  await mkdir(unpackTo, { recursive: true });
  await ok("tar", ["-xzf", json.filename, "-C", unpackTo], { cwd: destination });
  const root = path.join(unpackTo, "package");
  const files: Tarball["files"] = [];
  const walk = async (inner: string): Promise<void> => {
    for (const entry of await readdir(inner, { withFileTypes: true })) {
      const file = path.join(inner, entry.name);
      if (entry.isDirectory()) await walk(file);
      else
        files.push({
          path: path.relative(root, file).split(path.sep).join("/"),
          bytes: (await lstat(file)).size,
        });
    }
  };
  await walk(root);
  files.sort((a, b) => a.path.localeCompare(b.path));
  return {
    name: json.name,
    version: json.version,
    tarball: json.filename,
    bytes: (await lstat(json.filename)).size,
    unpacked: root,
    unpackedBytes: files.reduce((sum, file) => sum + file.bytes, 0),
    files,
    declarationMapBytes: files
      .filter((file) => file.path.endsWith(".d.ts.map"))
      .reduce((sum, file) => sum + file.bytes, 0),
    manifest: JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as Record<
      string,
      unknown
    >,
  };
}

/**
 * A scratch workspace for composition tests: tool packages under `pkgs/<dir>`, linked as
 * `node_modules/<name>` the way a pnpm workspace links them (symlinks), each built as a user
 * builds one (`zcp gen`, then `tsc` to `dist/`) and publishing `./zcp`; apps are folders under
 * `apps/`, which find the packages (and `@zcp/runtime`) in the workspace's node_modules.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO, runZcpAsync, type CliResult } from "../helpers.js";

const TSC = path.join(REPO, "node_modules/typescript/bin/tsc");

/** The compiler options of the packages and apps: strict NodeNext, building to `dist/`. */
export const BUILD_OPTIONS = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  declaration: true,
  outDir: "dist",
  rootDir: "src",
  types: [],
};

/** The `./zcp` export a built package declares. */
export const ZCP_EXPORTS = {
  "./zcp": { types: "./dist/zcp.gen/index.d.ts", default: "./dist/zcp.gen/index.js" },
};

/** A new workspace folder with `@zcp/runtime` linked into its node_modules. */
export function workspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-compose-"));
  fs.mkdirSync(path.join(dir, "node_modules/@zcp"), { recursive: true });
  fs.symlinkSync(path.join(REPO, "packages/runtime"), path.join(dir, "node_modules/@zcp/runtime"));
  return dir;
}

/** Writes `files` under `dir` (creating folders). */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
}

/**
 * A package `name` at `pkgs/<dir>` with `files` (sources, and anything else), a package.json
 * (with `packageJson` over the default: ES module, the `./zcp` export), and the link
 * `node_modules/<name>` to it. Returns its folder.
 */
export function addPackage(
  root: string,
  name: string,
  files: Record<string, string>,
  packageJson: object = {},
): string {
  const dir = path.join(root, "pkgs", name.replace(/^@/, "").replace("/", "-"));
  writeFiles(dir, {
    "package.json": JSON.stringify({ name, type: "module", exports: ZCP_EXPORTS, ...packageJson }),
    "zcp.config.json": JSON.stringify({ include: ["src/**/*.ts"] }),
    "tsconfig.json": JSON.stringify({ compilerOptions: BUILD_OPTIONS, include: ["src"] }),
    ...files,
  });
  const link = path.join(root, "node_modules", ...name.split("/"));
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(path.relative(path.dirname(link), dir), link);
  return dir;
}

/** `tsc -p tsconfig.json` in `dir` (emitting to `dist/`); throws with its output when it fails. */
export function tsc(dir: string): void {
  const result = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json", "--pretty", "false"], {
    cwd: dir,
    encoding: "utf8",
  });
  if (result.status !== 0)
    throw new Error(`tsc failed in ${dir}:\n${result.stdout}\n${result.stderr}`);
}

/** Builds a package as its users' build does: `zcp gen`, then `tsc`. */
export async function buildPackage(dir: string): Promise<CliResult> {
  const result = await runZcpAsync(dir, ["gen"]);
  if (result.status !== 0)
    throw new Error(`zcp gen failed in ${dir}:\n${result.stdout}\n${result.stderr}`);
  tsc(dir);
  return result;
}

/** An app folder `apps/<name>` with a zcp.config.json of `config` and `files`. */
export function addApp(
  root: string,
  name: string,
  config: object,
  files: Record<string, string> = {},
): string {
  const dir = path.join(root, "apps", name);
  writeFiles(dir, {
    "package.json": JSON.stringify({ name, type: "module" }),
    "zcp.config.json": JSON.stringify(config, null, 2),
    "tsconfig.json": JSON.stringify({ compilerOptions: BUILD_OPTIONS, include: ["src"] }),
    ...files,
  });
  return dir;
}

/** A tool source file: one exported function per `[alias, export, body]`, each documented. */
export function toolSource(
  tools: readonly {
    alias: string;
    fn: string;
    params: string;
    returns: string;
    body: string;
    tags?: string;
  }[],
): string {
  return tools
    .map(
      (tool) =>
        `/**\n * ${tool.alias} does its job.\n *\n * @tool ${tool.alias}\n${tool.tags ?? ""} */\nexport function ${tool.fn}(${tool.params}): ${tool.returns} {\n  ${tool.body}\n}\n`,
    )
    .join("\n");
}

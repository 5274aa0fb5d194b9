/**
 * diff: what `zcp diff OLD NEW` compares, from what the user names: a registry file (a full
 * `registry.json`, or a registry module `.ts`/`.js`, read without executing it), a folder that
 * holds one, an installed package's published registry, or `REF:path` read with `git show`.
 * The only part of `diff/` that touches the file system and git.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Registry } from "@zcp/runtime/definition";
import { readRegistryFile, readRegistryText, RegistryReadError } from "../compose/read.js";
import { resolvePackage, ZCP_EXPORT } from "../compose/resolve.js";

/** The registry files a folder may hold, in the order they are looked for. */
const REGISTRY_FILES = ["registry.ts", "registry.js", "registry.json"];
/** Where, under a folder, generated output is looked for: the folder itself first. */
const OUTPUT_FOLDERS = ["", "zcp.gen/", "src/zcp.gen/", "dist/zcp.gen/"];

/** The candidate paths, in order, for a folder `folder` (posix, `""` for the current one). */
function inFolder(folder: string): string[] {
  const base = folder === "" || folder.endsWith("/") ? folder : `${folder}/`;
  return OUTPUT_FOLDERS.flatMap((sub) => REGISTRY_FILES.map((file) => `${base}${sub}${file}`));
}

/** npm's rule for a package name (lower case, optionally scoped). */
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/**
 * The registry `spec` names, from the folder `cwd`, or why it cannot be read (a message that
 * starts with `spec`). Tried in order: an existing file or folder, `REF:path`, a package name.
 */
export function readDiffInput(spec: string, cwd: string): Registry | string {
  try {
    return readInput(spec, cwd);
  } catch (error) {
    if (error instanceof RegistryReadError) return error.message;
    throw error;
  }
}

function readInput(spec: string, cwd: string): Registry | string {
  const file = path.resolve(cwd, spec);
  if (fs.existsSync(file)) {
    if (!fs.statSync(file).isDirectory()) return readRegistryFile(file, spec).registry;
    const found = inFolder(file).find((candidate) => fs.existsSync(candidate));
    if (!found)
      return `${spec}: no ${REGISTRY_FILES.join(", ")} in this folder, or under ${OUTPUT_FOLDERS.slice(1).join(", ")}`;
    return readRegistryFile(found, path.relative(cwd, found) || found).registry;
  }
  const colon = spec.indexOf(":");
  if (colon > 0) {
    const shown = gitShow(spec.slice(0, colon), spec.slice(colon + 1), cwd);
    if (shown.error !== undefined) return `${spec}: ${shown.error}`;
    return readRegistryText(shown.text, `${spec.slice(0, colon)}:${shown.file}`).registry;
  }
  if (PACKAGE_NAME.test(spec.replace(/\/zcp$/, ""))) {
    const name = spec.replace(/\/zcp$/, "");
    const resolved = resolvePackage(name, cwd);
    if (!("missing" in resolved))
      return readRegistryFile(
        resolved.registry,
        `${name}'s ${path.basename(resolved.registry)} (${resolved.registry})`,
      ).registry;
    return resolved.missing === "package"
      ? `${spec}: no such file, and no package "${name}" installed from ${cwd}`
      : `${spec}: the package declares no "${ZCP_EXPORT}" export in its package.json`;
  }
  return `${spec}: no such file`;
}

/**
 * `git show REF:path`: the path relative to `cwd` first (`REF:./path`), then to the repository's
 * root; a folder's registry file as `inFolder` lists them.
 */
function gitShow(
  ref: string,
  file: string,
  cwd: string,
): { text: string; file: string; error?: undefined } | { error: string } {
  const named = /\.([cm]?[jt]s|json)$/.test(file) ? [file] : [file, ...inFolder(file)];
  const tries = named.flatMap((f) => (f.startsWith("/") ? [f.slice(1)] : [`./${f}`, f]));
  let error = "";
  for (const candidate of tries) {
    const result = spawnSync("git", ["show", `${ref}:${candidate}`], {
      cwd,
      encoding: "utf8",
      maxBuffer: 1 << 30,
    });
    if (result.error) return { error: `cannot run git (${result.error.message})` };
    if (result.status === 0 && !result.stdout.startsWith("tree "))
      return { text: result.stdout, file: candidate };
    error ||= result.stderr.trim().split("\n")[0] ?? "git show failed";
  }
  return { error };
}

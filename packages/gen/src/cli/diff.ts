/**
 * cli: `zcp diff OLD NEW`, the breaking changes between two registry manifests (`src/diff/`).
 * OLD and NEW are a `registry.json`, a folder holding one (a `zcp.gen` folder), or `REF:path`
 * read with `git show`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Registry } from "@zcp/runtime/codegen";
import { diffRegistries } from "../diff/index.js";
import { MANIFEST } from "../emit/manifest.js";

const DIFF_USAGE = `Usage: zcp diff OLD NEW [options]

Compares two tool registries and reports the changes that break callers.
OLD and NEW: a registry.json, a folder holding one, or REF:path (read with git show).

Options:
  --reporter <kind>   text (default) or json
  --allow-breaking    exit 0 even when a change is breaking
  -h, --help          show this help

Exit codes: 0 no breaking change, 1 breaking changes, 2 usage errors.
`;

export function diff(argv: string[], cwd: string): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        reporter: { type: "string", default: "text" },
        "allow-breaking": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`zcp: ${(error as Error).message}\n\n${DIFF_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(DIFF_USAGE);
    return 0;
  }
  if (positionals.length !== 2) {
    process.stderr.write(
      `zcp: diff takes OLD and NEW, got ${positionals.length} arguments\n\n${DIFF_USAGE}`,
    );
    return 2;
  }
  if (values.reporter !== "text" && values.reporter !== "json") {
    process.stderr.write(`zcp: --reporter must be text or json, got "${values.reporter}"\n`);
    return 2;
  }
  const registries: Registry[] = [];
  for (const spec of positionals) {
    const read = readRegistry(spec, cwd);
    if (typeof read === "string") {
      process.stderr.write(`zcp: ${read}\n`);
      return 2;
    }
    registries.push(read);
  }
  const changes = diffRegistries(registries[0]!, registries[1]!);
  const breaking = changes.filter((c) => c.breaking).length;
  if (values.reporter === "json") {
    process.stdout.write(`${JSON.stringify({ breaking, changes })}\n`);
  } else {
    for (const c of changes) {
      const level = c.breaking ? "BREAKING" : "ok";
      const at = c.path ? ` (${c.path})` : "";
      process.stdout.write(`${level} ${c.tool}: ${c.rule}: ${c.detail}${at}\n`);
    }
    process.stdout.write(
      changes.length === 0
        ? "no changes\n"
        : `${breaking} breaking, ${changes.length - breaking} not breaking\n`,
    );
  }
  return breaking > 0 && !values["allow-breaking"] ? 1 : 0;
}

/** The registry `spec` names, or why it cannot be read. */
function readRegistry(spec: string, cwd: string): Registry | string {
  const file = path.resolve(cwd, spec);
  let text: string;
  let name = spec;
  if (fs.existsSync(file)) {
    const candidates = fs.statSync(file).isDirectory()
      ? [path.join(file, MANIFEST), path.join(file, "zcp.gen", MANIFEST)]
      : [file];
    const found = candidates.find((f) => fs.existsSync(f));
    if (!found) return `${spec}: no ${MANIFEST} in this folder`;
    name = path.relative(cwd, found) || found;
    try {
      text = fs.readFileSync(found, "utf8");
    } catch (error) {
      return `${spec}: ${(error as Error).message}`;
    }
  } else {
    const colon = spec.indexOf(":");
    if (colon <= 0) return `${spec}: no such file`;
    const shown = gitShow(spec.slice(0, colon), spec.slice(colon + 1), cwd);
    if (shown.error !== undefined) return `${spec}: ${shown.error}`;
    text = shown.text;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `${name}: not JSON (${(error as Error).message})`;
  }
  return isRegistry(value) ? value : `${name}: not a zcp registry manifest (${MANIFEST})`;
}

/**
 * `git show REF:path`: the path relative to `cwd` first (`REF:./path`), then to the repository's
 * root; a folder's `registry.json` or `zcp.gen/registry.json`.
 */
function gitShow(
  ref: string,
  file: string,
  cwd: string,
): { text: string; error?: undefined } | { error: string } {
  const inFolder = file.endsWith(".json")
    ? [file]
    : [file, `${file}/${MANIFEST}`, `${file}/zcp.gen/${MANIFEST}`];
  const tries = inFolder.flatMap((f) => (f.startsWith("/") ? [f.slice(1)] : [`./${f}`, f]));
  let error = "";
  for (const candidate of tries) {
    const result = spawnSync("git", ["show", `${ref}:${candidate}`], {
      cwd,
      encoding: "utf8",
      maxBuffer: 1 << 30,
    });
    if (result.error) return { error: `cannot run git (${result.error.message})` };
    if (result.status === 0 && !result.stdout.startsWith("tree ")) return { text: result.stdout };
    error ||= result.stderr.trim().split("\n")[0] ?? "git show failed";
  }
  return { error };
}

function isRegistry(value: unknown): value is Registry {
  if (typeof value !== "object" || value === null) return false;
  const { version, tools } = value as { version?: unknown; tools?: unknown };
  return (
    typeof version === "number" &&
    Array.isArray(tools) &&
    tools.every(
      (t: unknown) =>
        typeof t === "object" &&
        t !== null &&
        typeof (t as { alias?: unknown }).alias === "string" &&
        typeof (t as { id?: unknown }).id === "string" &&
        typeof (t as { inputSchema?: unknown }).inputSchema === "object",
    )
  );
}

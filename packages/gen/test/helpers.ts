import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const ZCP_BIN = path.join(REPO, "packages/gen/bin/zcp.js");
export const FIXTURES = path.join(REPO, "fixtures");

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `zcp` binary in `cwd`. */
export function runZcp(cwd: string, args: string[]): CliResult {
  const result = spawnSync(process.execPath, [ZCP_BIN, ...args], { cwd, encoding: "utf8" });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** A scratch folder with the given files; `node_modules/@zcp/runtime` links to the workspace package. */
export function scratchProject(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zcp-test-"));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  fs.mkdirSync(path.join(dir, "node_modules/@zcp"), { recursive: true });
  fs.symlinkSync(path.join(REPO, "packages/runtime"), path.join(dir, "node_modules/@zcp/runtime"));
  return dir;
}

export const STRICT_TSCONFIG = JSON.stringify({
  compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, noEmit: true },
});

/**
 * The oracle for generated schemas: Ajv, draft 2020-12, formats on, strict, except two lints
 * that flag legitimate schemas: type lists (`["string","null"]`) and tuples with optional
 * items (minItems below the prefixItems count).
 */
export function ajv(): Ajv2020 {
  const instance = new Ajv2020({ strict: true, allowUnionTypes: true, strictTuples: false });
  addFormats.default(instance);
  return instance;
}

/** Every file `zcp gen` writes into the output folder, sorted. */
export const GENERATED_FILES = [
  "artifacts.ts",
  "artifacts/anthropic.json",
  "artifacts/gemini.json",
  "artifacts/mcp.json",
  "artifacts/openai-chat.json",
  "artifacts/openai-responses.json",
  "dispatch.ts",
  "index.ts",
  "registry.json",
  "registry.ts",
  "types.ts",
  "validators.ts",
];

/** The generated files whose content depends on the tools (all but the fixed entry modules). */
export const TOOL_DEPENDENT_FILES = GENERATED_FILES.filter((file) => file !== "artifacts.ts" && file !== "index.ts");

/**
 * Generated modules from hostile input, for the injection tests (hostile-input.test.ts,
 * generated-fuzz.test.ts): a gateway's files made in memory from a listing (the model, compile
 * and emit stages `zcp gen --from-mcp` runs after it has listed the upstream), or a TypeScript
 * project's output, written into a scratch project and imported by Node, and the check that
 * nothing ran while they loaded.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ts } from "@ts-morph/common";
import {
  combineToolHashes,
  REGISTRY_FORMAT_VERSION,
  type Registry,
  type ToolDefinition,
} from "@zcp/runtime/definition";
import { type GeneratedModule } from "@zcp/runtime/codegen";
import { expect } from "vitest";
import { compile } from "../src/compile/index.js";
import type { Diagnostic } from "../src/diagnostics.js";
import { emitFiles } from "../src/emit/index.js";
import type { GeneratedFile } from "../src/emit/file.js";
import type { Listing } from "../src/upstream/list.js";
import { modelUpstream } from "../src/upstream/model.js";
import { REPO, scratchProject } from "./helpers.js";

/** What hostile strings try to set when they run: it must stay unset. */
export const SENTINEL = "__zcpInjected";

/** Code fragments that set the sentinel if they ever reach generated code unescaped. */
export const PAYLOADS = [
  `a(value,path){} globalThis.${SENTINEL}=1; function b`,
  `"; globalThis.${SENTINEL} = 1; "`,
  `'); globalThis.${SENTINEL} = 1; ('`,
  `*/ globalThis.${SENTINEL} = 1; /*`,
  `\`; globalThis.${SENTINEL} = 1; \``,
  `\${globalThis.${SENTINEL} = 1}`,
  `\\"); globalThis.${SENTINEL} = 1; //`,
  `\u2028globalThis.${SENTINEL} = 1;\u2029`,
  `\n}; globalThis.${SENTINEL} = 1; {\n`,
  `</script><script>globalThis.${SENTINEL} = 1</script>`,
  "__proto__",
  "constructor",
  "toString",
];

export function sentinelIsUnset(): boolean {
  return !Object.hasOwn(globalThis, SENTINEL);
}

export interface GatewayOutput {
  readonly definitions: readonly ToolDefinition[];
  readonly diagnostics: readonly Diagnostic[];
  readonly files: readonly GeneratedFile[];
}

const CONFIG = "/project/zcp.config.json";

/** The files `zcp gen --from-mcp` writes for `listing` (server "fake"). */
export function gatewayOutput(listing: Listing): GatewayOutput {
  const options = { server: { command: "fake" } };
  const model = modelUpstream(listing, options, CONFIG);
  const compiled = compile(model.definitions, model.sites);
  const registry: Registry = {
    version: REGISTRY_FORMAT_VERSION,
    generator: "0.0.0",
    hash: combineToolHashes(model.definitions),
    tools: model.definitions,
    names: Object.fromEntries(model.definitions.map((tool) => [tool.name, tool.alias])),
  };
  const files = emitFiles({
    configFile: CONFIG,
    root: "/project",
    outDir: "/project/zcp.gen",
    registry,
    validators: compiled.validators,
    json: null,
    gateway: { server: options.server, name: model.name, listingHash: "0".repeat(64) },
  });
  return {
    definitions: model.definitions,
    diagnostics: [...model.diagnostics, ...compiled.diagnostics],
    files,
  };
}

/**
 * The syntax errors of each TypeScript or JavaScript file (`.d.ts` included), by path: a
 * module that does not parse cannot be imported, whatever it would have done.
 */
export function syntaxErrors(files: readonly GeneratedFile[]): Map<string, string[]> {
  const errors = new Map<string, string[]>();
  for (const file of files) {
    if (!/\.(ts|js)$/.test(file.path)) continue;
    // Declarations too, as a module (a `.d.ts` has no output to generate).
    const out = ts.transpileModule(file.content, {
      fileName: file.path.replace(/\.d\.ts$/, ".ts"),
      reportDiagnostics: true,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    });
    const messages = (out.diagnostics ?? []).map((d) =>
      ts.flattenDiagnosticMessageText(d.messageText, "\n"),
    );
    if (messages.length > 0) errors.set(file.path, messages);
  }
  return errors;
}

/** A scratch project whose node_modules reach the workspace's runtime and server. */
export function scratchWithServer(): string {
  const dir = scratchProject({});
  fs.symlinkSync(path.join(REPO, "packages/server"), path.join(dir, "node_modules/@zcp/server"));
  return dir;
}

/**
 * The gateway `zcp gen --from-mcp` wrote into `dir/zcp.gen`, imported (in a
 * `scratchWithServer` folder), with its tools by upstream name and a validator call by it.
 */
export async function importWrittenGateway(dir: string) {
  const { generated } = (await import(pathToFileURL(path.join(dir, "zcp.gen/index.js")).href)) as {
    generated: GeneratedModule;
  };
  const tools = new Map(generated.registry.tools.map((tool) => [tool.source.export, tool]));
  const validate = (name: string, value: unknown) =>
    generated.validators[tools.get(name)!.id]!(value);
  return { tools, validate };
}

/**
 * Writes a gateway's JavaScript files into a fresh folder of `project` and imports its
 * `index.js` (which imports every other module), checking that loading ran nothing.
 */
export async function importGenerated(
  project: string,
  files: readonly GeneratedFile[],
): Promise<GeneratedModule> {
  const dir = fs.mkdtempSync(path.join(project, "zcp.gen-"));
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, file.path), file.content);
  }
  // The JavaScript modules are parsed by importing them; the declarations only here.
  expect(syntaxErrors(files.filter((file) => file.path.endsWith(".d.ts")))).toEqual(new Map());
  return importIndex(path.join(dir, "index.js"));
}

/**
 * A TypeScript project's output (`files`, generated into `<dir>/zcp.gen`) and its tool source
 * (`src/tools.ts`) as JavaScript in `dir`, and the output's index.js imported.
 */
export async function importTypeScript(
  dir: string,
  files: readonly { path: string; content: string }[],
): Promise<GeneratedModule> {
  const toJs = (text: string, name: string) =>
    ts.transpileModule(text, {
      fileName: name,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
  fs.writeFileSync(
    path.join(dir, "src/tools.js"),
    toJs(fs.readFileSync(path.join(dir, "src/tools.ts"), "utf8"), "tools.ts"),
  );
  for (const file of files) {
    if (!file.path.endsWith(".ts")) continue;
    const target = path.join(dir, "zcp.gen", file.path.replace(/\.ts$/, ".js"));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, toJs(file.content, file.path));
  }
  return importIndex(path.join(dir, "zcp.gen/index.js"));
}

/** Imports a generated index.js (every other module with it): loading must run nothing. */
async function importIndex(file: string): Promise<GeneratedModule> {
  const module = (await import(pathToFileURL(file).href)) as { generated: GeneratedModule };
  expect(sentinelIsUnset()).toBe(true);
  return module.generated;
}

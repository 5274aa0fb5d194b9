/**
 * emit: the set of generated files. Every TS file starts with the generated-code header;
 * `registry.json` is the manifest, listing every other file this run generated so that the
 * next run can remove what it no longer generates.
 */
import { ARTIFACT_PROVIDERS, type Registry, type ToolDefinition } from "@zcp/runtime/codegen";
import type { ArtifactSets } from "../compile/providers/index.js";
import { dispatchFile } from "./dispatch.js";
import { registryFile } from "./registry.js";
import { JsonTexts } from "./json.js";
import { printStatement, printString } from "./print.js";
import { emitContext, tsFile, type EmitContext } from "./ts-file.js";
import { VALIDATORS_FILE, validatorsFile, type ValidatorCache } from "../compile/validators.js";
import { typesFile } from "./types.js";

export const MANIFEST = "registry.json";

export interface GeneratedFile {
  /** Path inside the output folder, posix separators. */
  readonly path: string;
  readonly content: string;
}

export interface Manifest extends Registry {
  /** Every file the run generated, this manifest excluded, sorted. */
  readonly files: readonly string[];
}

export interface EmitInput {
  /** Generated validator code by tool (kept by the caller between watch runs). */
  readonly validators: ValidatorCache;
  /** JSON texts of unchanged definitions and entries (kept by the caller between watch runs). */
  readonly json: JsonTexts;
  /** The configuration file (absolute; line 2 of every TS file names it relative to its folder). */
  readonly configFile: string;
  /** The config folder (tool sources are relative to it) and the output folder. */
  readonly root: string;
  readonly outDir: string;
  readonly registry: Registry;
  readonly artifacts: ArtifactSets;
  /** The lean variant of every set (`lean.ts`, `artifacts/lean/<provider>.json`), or null: `leanArtifacts` is off. */
  readonly lean: ArtifactSets | null;
  /** One tool's statement in registry.ts (cached by the caller between watch runs). */
  readonly statementOf: (tool: ToolDefinition) => string;
}

export function emitFiles({ configFile, root, outDir, registry, artifacts, lean, statementOf, validators, json }: EmitInput): GeneratedFile[] {
  const context = emitContext(configFile);
  const files: GeneratedFile[] = [
    { path: "index.ts", content: indexModule(context) },
    { path: VALIDATORS_FILE, content: validatorsFile(context, registry.tools, validators) },
    { path: "registry.ts", content: registryFile(context, registry, statementOf) },
    { path: "dispatch.ts", content: dispatchFile(context, registry.tools, root, outDir) },
    { path: "types.ts", content: typesFile(context, registry.tools) },
    { path: "artifacts.ts", content: artifactsFile(context, registry.hash, artifacts) },
    ...ARTIFACT_PROVIDERS.map((provider) => ({ path: `artifacts/${provider}.json`, content: `${json.object(artifacts[provider])}\n` })),
    ...(lean
      ? [
          { path: LEAN_FILE, content: leanFile(context, registry.hash, lean) },
          ...ARTIFACT_PROVIDERS.map((provider) => ({ path: `artifacts/lean/${provider}.json`, content: `${json.object(lean[provider])}\n` })),
        ]
      : []),
  ];
  return [...files, { path: MANIFEST, content: manifestText(registry, files, json) }].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** `JSON.stringify(manifest, null, 2)`, with the tool definitions' texts reused. */
function manifestText(registry: Registry, files: readonly GeneratedFile[], json: JsonTexts): string {
  const manifest: Manifest = { ...registry, files: files.map((file) => file.path).sort() };
  const fields = Object.entries(manifest).map(([key, value]) => {
    const text = key === "tools" ? json.array(value as object[], 1) : JSON.stringify(value, null, 2).replaceAll("\n", "\n  ");
    return `  ${JSON.stringify(key)}: ${text}`;
  });
  return `{\n${fields.join(",\n")}\n}\n`;
}

/**
 * `artifacts.ts`: every provider's set as compact JSON text, so that the artifacts travel with
 * the code through any compiler and bundler (nothing is read from disk at run time) and a set is
 * parsed only when a provider is first asked for. The `artifacts/*.json` files hold the same
 * sets for consumers that do not run TypeScript.
 */
function artifactsFile(context: EmitContext, hash: string, artifacts: ArtifactSets): string {
  return tsFile(context, [
    `import { artifactLoader, type ArtifactTexts } from "@zcp/runtime/codegen";\n`,
    printStatement("const texts: ArtifactTexts = ", artifactTexts(artifacts)),
    `/** Provider artifacts of registry ${hash}, each set parsed on first use. */\nexport const artifacts = artifactLoader(${printString(hash)}, texts);\n`,
  ]);
}

export const LEAN_FILE = "lean.ts";

/**
 * `lean.ts` (with `leanArtifacts` in the config): the lean sets, and the generated module with
 * them. A module of its own, which `index.ts` does not import: the lean texts are scanned (as
 * source text) only by a program that imports this file, so a server that serves the full
 * artifacts starts as fast as without them.
 */
function leanFile(context: EmitContext, hash: string, lean: ArtifactSets): string {
  return tsFile(context, [
    [
      `import { withLeanArtifacts, type ArtifactTexts, type GeneratedModule } from "@zcp/runtime/codegen";`,
      `import { artifacts as full } from "./artifacts.js";`,
      `import { dispatch } from "./dispatch.js";`,
      `import { registry } from "./registry.js";`,
      `import { validators } from "./validators.js";`,
      "",
    ].join("\n"),
    printStatement("const texts: ArtifactTexts = ", artifactTexts(lean)),
    `/** Provider artifacts of registry ${hash}, full and lean (\`load(provider, { lean: true })\`), each set parsed on first use. */\nexport const artifacts = withLeanArtifacts(full, ${printString(hash)}, texts);\n`,
    `/** The generated module with the lean sets too: \`createRuntime(generated)\` then answers \`view.artifacts(provider, { lean: true })\`. */\nexport const generated: GeneratedModule = { registry, validators, dispatch, artifacts };\n`,
    "export default generated;\n",
  ]);
}

/** Each provider's set as compact JSON text. */
function artifactTexts(sets: ArtifactSets): { [provider: string]: string } {
  return Object.fromEntries(ARTIFACT_PROVIDERS.map((provider) => [provider, JSON.stringify(sets[provider])]));
}

/** The generated module as one value, for `createRuntime(generated)`. */
function indexModule(context: EmitContext): string {
  return tsFile(context, [
    [
      `import type { GeneratedModule } from "@zcp/runtime/codegen";`,
      `import { artifacts } from "./artifacts.js";`,
      `import { dispatch } from "./dispatch.js";`,
      `import { registry } from "./registry.js";`,
      `import { validators } from "./validators.js";`,
      "",
    ].join("\n"),
    `/** Everything \`createRuntime\` needs: the registry, validators, dispatch table and artifacts. */\nexport const generated: GeneratedModule = { registry, validators, dispatch, artifacts };\n`,
    "export default generated;\n",
  ]);
}

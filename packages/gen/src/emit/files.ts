/**
 * emit: the set of generated files. Every TS file starts with the generated-code header;
 * `registry.json` is the manifest, listing every other file this run generated so that the
 * next run can remove what it no longer generates.
 */
import { ARTIFACT_PROVIDERS, type Registry, type ToolDefinition } from "@zcp/runtime";
import type { ArtifactSets } from "../compile/providers/index.js";
import { dispatchFile } from "./dispatch.js";
import { registryFile } from "./registry.js";
import { JsonTexts } from "./json.js";
import { tsFile } from "./ts-file.js";
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
  /** The config folder (tool sources are relative to it) and the output folder. */
  readonly root: string;
  readonly outDir: string;
  readonly registry: Registry;
  readonly artifacts: ArtifactSets;
  /** One tool's statement in registry.ts (cached by the caller between watch runs). */
  readonly statementOf: (tool: ToolDefinition) => string;
}

export function emitFiles({ root, outDir, registry, artifacts, statementOf, validators, json }: EmitInput): GeneratedFile[] {
  const files: GeneratedFile[] = [
    { path: "index.ts", content: INDEX_MODULE },
    { path: VALIDATORS_FILE, content: validatorsFile(registry.tools, validators) },
    { path: "registry.ts", content: registryFile(registry, statementOf) },
    { path: "dispatch.ts", content: dispatchFile(registry.tools, root, outDir) },
    { path: "types.ts", content: typesFile(registry.tools) },
    { path: "artifacts.ts", content: ARTIFACTS_MODULE },
    ...ARTIFACT_PROVIDERS.map((provider) => ({ path: `artifacts/${provider}.json`, content: `${json.object(artifacts[provider])}\n` })),
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

const ARTIFACTS_MODULE = tsFile([
  `import { artifactLoader } from "@zcp/runtime";\n`,
  `/** Provider artifacts (artifacts/<provider>.json), each read on first use. */\nexport const artifacts = artifactLoader(new URL("./artifacts/", import.meta.url));\n`,
]);

/** The generated module as one value, for `createRuntime(generated)`. */
const INDEX_MODULE = tsFile([
  [
    `import type { GeneratedModule } from "@zcp/runtime";`,
    `import { artifacts } from "./artifacts.js";`,
    `import { dispatch } from "./dispatch.js";`,
    `import { registry } from "./registry.js";`,
    `import { validators } from "./validators.js";`,
    "",
  ].join("\n"),
  `/** Everything \`createRuntime\` needs: the registry, validators, dispatch table and artifacts. */\nexport const generated: GeneratedModule = { registry, validators, dispatch, artifacts };\n`,
  "export default generated;\n",
]);

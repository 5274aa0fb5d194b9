/**
 * emit: the stage's entry. The registry and what compile made of it → the generated files'
 * texts, printed in prettier's style in memory. Every TS file starts with the generated-code
 * header (`ts-file.ts`); `registry.json` is the manifest (`manifest.ts`), listing every other
 * file this run generated so that the next run can remove what it no longer generates.
 */
import { ARTIFACT_PROVIDERS, type Registry, type ToolDefinition } from "@zcp/runtime/codegen";
import type { ArtifactSets, ValidatorCode, ValidatorSet } from "../compile/index.js";
import { artifactsFile, LEAN_FILE, leanFile } from "./artifacts.js";
import { dispatchFile } from "./dispatch.js";
import { jsonObject, jsonPart, type JsonPart } from "./json.js";
import { MANIFEST, manifestText } from "./manifest.js";
import { registryFile, toolStatement } from "./registry.js";
import { emitContext, tsFile, type EmitContext } from "./ts-file.js";
import { typesFile } from "./types.js";
import { VALIDATORS_FILE, validatorsFile, validatorText } from "./validators.js";

export { validatorsFile } from "./validators.js";

export interface GeneratedFile {
  /** Path inside the output folder, posix separators. */
  readonly path: string;
  readonly content: string;
}

export interface EmitInput {
  /** The configuration file (absolute; line 2 of every TS file names it relative to its folder). */
  readonly configFile: string;
  /** The config folder (tool sources are relative to it) and the output folder. */
  readonly root: string;
  readonly outDir: string;
  readonly registry: Registry;
  readonly validators: ValidatorSet;
  readonly artifacts: ArtifactSets;
  /** The lean variant of every set (`lean.ts`, `artifacts/lean/<provider>.json`), or null: `leanArtifacts` is off. */
  readonly lean: ArtifactSets | null;
}

/**
 * The per-tool and per-object work of `emitFiles`: a tool's statement in registry.ts, a
 * compiled validator's text, the JSON text of a definition or an artifact entry. Each depends
 * on its argument only, so the pipeline's memo hands in memoized ones in watch mode.
 */
export interface EmitSteps {
  statement(tool: ToolDefinition): string;
  validator(code: ValidatorCode): string;
  json: JsonPart;
}

export const EMIT_STEPS: EmitSteps = {
  statement: (tool) => toolStatement(tool),
  validator: validatorText,
  json: jsonPart,
};

export function emitFiles(
  { configFile, root, outDir, registry, validators, artifacts, lean }: EmitInput,
  steps: EmitSteps = EMIT_STEPS,
): GeneratedFile[] {
  const context = emitContext(configFile);
  const json = (sets: ArtifactSets, provider: (typeof ARTIFACT_PROVIDERS)[number]) =>
    `${jsonObject(sets[provider], steps.json)}\n`;
  const files: GeneratedFile[] = [
    { path: "index.ts", content: indexModule(context) },
    { path: VALIDATORS_FILE, content: validatorsFile(context, validators, steps.validator) },
    { path: "registry.ts", content: registryFile(context, registry, steps.statement) },
    { path: "dispatch.ts", content: dispatchFile(context, registry.tools, root, outDir) },
    { path: "types.ts", content: typesFile(context, registry.tools) },
    { path: "artifacts.ts", content: artifactsFile(context, registry.hash, artifacts) },
    ...ARTIFACT_PROVIDERS.map((provider) => ({
      path: `artifacts/${provider}.json`,
      content: json(artifacts, provider),
    })),
    ...(lean
      ? [
          { path: LEAN_FILE, content: leanFile(context, registry.hash, lean) },
          ...ARTIFACT_PROVIDERS.map((provider) => ({
            path: `artifacts/lean/${provider}.json`,
            content: json(lean, provider),
          })),
        ]
      : []),
  ];
  const manifest = manifestText(
    registry,
    files.map((file) => file.path),
    steps.json,
  );
  return [...files, { path: MANIFEST, content: manifest }].sort((a, b) =>
    a.path < b.path ? -1 : 1,
  );
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

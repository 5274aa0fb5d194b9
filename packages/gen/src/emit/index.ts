/**
 * emit: the stage's entry. The registry and what compile made of it → the generated files'
 * texts, printed in prettier's style in memory. Every TS file starts with the generated-code
 * header (`ts-file.ts`); `registry.json` is the manifest (`manifest.ts`), listing every other
 * file this run generated so that the next run can remove what it no longer generates. Provider
 * artifacts are derived by the runtime from the registry: they are written (as
 * `artifacts/<provider>.json`, beside the full definitions in `registry.json`) only with
 * `"jsonFiles": true`, for consumers that do not run TypeScript.
 */
import { ARTIFACT_PROVIDERS, type Registry, type ToolDefinition } from "@zcp/runtime/definition";
import type { ArtifactSets, ValidatorCode, ValidatorSet } from "../compile/index.js";
import type { ComposedPackage } from "../compose/index.js";
import { dispatchFile } from "./dispatch.js";
import type { FeatureModel } from "../model/features.js";
import { FEATURES_FILE, featuresFile } from "./features.js";
import type { GeneratedFile } from "./file.js";
import { FIND_FILE, findFile } from "./find.js";
import { gatewayDispatchFile } from "./gateway.js";
import { asJavaScript } from "./javascript.js";
import { jsonObject, jsonPart, type JsonPart } from "./json.js";
import { MANIFEST, manifestText } from "./manifest.js";
import { registryFile, toolStatement } from "./registry.js";
import { emitContext, tsFile, type EmitContext } from "./ts-file.js";
import { typesFile } from "./types.js";
import type { Gateway } from "../upstream/index.js";
import { CONFIG_EXPORT, VALIDATORS_FILE, validatorsFile, validatorText } from "./validators.js";
import { PRINT_WIDTH } from "./print.js";
import { codegenImports } from "./codegen-imports.js";

export { validatorsFile } from "./validators.js";

export interface EmitInput {
  /** The configuration file (absolute; line 2 of every TS file names it relative to its folder). */
  readonly configFile: string;
  /** The config folder (tool sources are relative to it) and the output folder. */
  readonly root: string;
  readonly outDir: string;
  readonly registry: Registry;
  readonly validators: ValidatorSet;
  /**
   * With `"jsonFiles": true`, what the JSON files hold besides the definitions (which go into
   * `registry.json`): every provider's set (`artifacts/<provider>.json`) and, with
   * `leanArtifacts`, the lean sets (`artifacts/lean/<provider>.json`); null without `jsonFiles`.
   */
  readonly json: { readonly artifacts: ArtifactSets; readonly lean: ArtifactSets | null } | null;
  /** The packages composed in (`"registries"`): their tools' validators and dispatchers are theirs. */
  readonly packages?: readonly ComposedPackage[];
  /**
   * A gateway (`"fromMcp"`): the dispatch forwards to the upstream, the manifest records the
   * listing hash, and the modules are written as JavaScript (`javascript.ts`).
   */
  readonly gateway?: Gateway | null;
  /** The prompts, resources and templates: `features.ts` is written when there is one. */
  readonly features?: FeatureModel;
}

/**
 * The per-tool and per-object work of `emitFiles`: a tool's statement in registry.ts, a
 * compiled validator's text, the JSON text of an artifact entry. Each depends
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
  {
    configFile,
    root,
    outDir,
    registry,
    validators,
    json: jsonSets,
    packages = [],
    gateway = null,
    features,
  }: EmitInput,
  steps: EmitSteps = EMIT_STEPS,
): GeneratedFile[] {
  const context = emitContext(configFile);
  const json = (sets: ArtifactSets, provider: (typeof ARTIFACT_PROVIDERS)[number]) =>
    `${jsonObject(sets[provider], steps.json)}\n`;
  const dispatch = gateway
    ? gatewayDispatchFile(context, registry.tools, gateway)
    : dispatchFile(context, registry.tools, root, outDir, packages);
  const withFeatures =
    features !== undefined &&
    features.prompts.length + features.resources.length + features.templates.length > 0;
  let files: GeneratedFile[] = [
    {
      path: "index.ts",
      content: indexModule(context, withFeatures, validators.config !== undefined),
    },
    ...(withFeatures
      ? [{ path: FEATURES_FILE, content: featuresFile(context, features, root, outDir) }]
      : []),
    {
      path: VALIDATORS_FILE,
      content: validatorsFile(context, validators, steps.validator, packages),
    },
    { path: "registry.ts", content: registryFile(context, registry, steps.statement) },
    { path: FIND_FILE, content: findFile(context, registry) },
    { path: "dispatch.ts", content: dispatch },
    { path: "types.ts", content: typesFile(context, registry.tools) },
  ];
  if (jsonSets) {
    for (const [folder, sets] of [
      ["artifacts", jsonSets.artifacts],
      ["artifacts/lean", jsonSets.lean],
    ] as const) {
      if (sets === null) continue;
      for (const provider of ARTIFACT_PROVIDERS)
        files.push({ path: `${folder}/${provider}.json`, content: json(sets, provider) });
    }
  }
  if (gateway) files = asJavaScript(context, files);
  const manifest = manifestText(
    registry,
    files.map((file) => file.path),
    jsonSets !== null,
    gateway ? { listingHash: gateway.listingHash } : null,
  );
  return [...files, { path: MANIFEST, content: manifest }].sort((a, b) =>
    a.path < b.path ? -1 : 1,
  );
}

/**
 * The generated module as one value, for `createRuntime(generated)`: with `features` when there
 * are prompts or resources, with `config` when the tools read a typed server configuration.
 */
function indexModule(context: EmitContext, withFeatures: boolean, config: boolean): string {
  const what = withFeatures
    ? "the registry, validators, dispatch table, tool index and the prompts and resources"
    : "the registry, validators, dispatch table and tool index";
  const validators = config ? `validators, ${CONFIG_EXPORT}` : "validators";
  const entries = [
    "registry",
    "validators",
    "dispatch",
    "find: findIndex",
    ...(withFeatures ? ["features"] : []),
    ...(config ? [`config: ${CONFIG_EXPORT}`] : []),
  ];
  const oneLine = `export const generated: GeneratedModule = { ${entries.join(", ")} };`;
  const declaration =
    oneLine.length <= PRINT_WIDTH
      ? oneLine
      : `export const generated: GeneratedModule = {\n${entries.map((entry) => `  ${entry},\n`).join("")}};`;
  return tsFile(context, [
    [
      codegenImports(["GeneratedModule"]).trimEnd(),
      `import { dispatch } from "./dispatch.js";`,
      ...(withFeatures ? [`import { features } from "./features.js";`] : []),
      `import { findIndex } from "./find.js";`,
      `import { registry } from "./registry.js";`,
      `import { ${validators} } from "./validators.js";`,
      "",
    ].join("\n"),
    `/** Everything \`createRuntime\` needs: ${what} (it derives the provider artifacts from the registry). */\n${declaration}\n`,
    "export default generated;\n",
  ]);
}

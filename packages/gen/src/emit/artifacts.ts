/**
 * emit: the provider artifacts as TypeScript modules: `artifacts.ts` (every provider's full set)
 * and, with `leanArtifacts`, `lean.ts` (the lean sets, and the generated module with them).
 */
import { ARTIFACT_PROVIDERS } from "@zcp/runtime/codegen";
import type { ArtifactSets } from "../compile/index.js";
import { printStatement, printString } from "./print.js";
import { tsFile, type EmitContext } from "./ts-file.js";

/**
 * `artifacts.ts`: every provider's set as compact JSON text, so that the artifacts travel with
 * the code through any compiler and bundler (nothing is read from disk at run time) and a set is
 * parsed only when a provider is first asked for. The `artifacts/*.json` files hold the same
 * sets for consumers that do not run TypeScript.
 */
export function artifactsFile(context: EmitContext, hash: string, artifacts: ArtifactSets): string {
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
export function leanFile(context: EmitContext, hash: string, lean: ArtifactSets): string {
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
  return Object.fromEntries(
    ARTIFACT_PROVIDERS.map((provider) => [provider, JSON.stringify(sets[provider])]),
  );
}

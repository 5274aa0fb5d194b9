/** The start-up check of a generated module: what `createRuntime` and `composeGenerated` refuse to serve. */
import type { GeneratedModule } from "../codegen/module.js";
import { GeneratedModuleError } from "../definition/module-error.js";
import { REGISTRY_FORMAT_VERSION } from "../definition/registry.js";
import { RUNTIME_VERSION } from "../version.js";

export function checkGenerated(generated: GeneratedModule): void {
  const { registry, validators, dispatch } = (generated ?? {}) as Partial<GeneratedModule>;
  if (!registry || !Array.isArray(registry.tools) || !validators || !dispatch) {
    throw new GeneratedModuleError(
      "not a generated module: pass the default export of the zcp.gen/index.js that zcp gen wrote",
    );
  }
  if (registry.version !== REGISTRY_FORMAT_VERSION) {
    const writer =
      typeof registry.generator === "string" ? ` (written by zcp gen ${registry.generator})` : "";
    throw new GeneratedModuleError(
      `the generated module has registry format ${String(registry.version)}${writer}; this @zcp/runtime ${RUNTIME_VERSION} reads format ${REGISTRY_FORMAT_VERSION}: run zcp gen with a matching @zcp/gen`,
    );
  }
  for (const tool of registry.tools) {
    if (typeof validators[tool.id] !== "function" || typeof dispatch[tool.id] !== "function") {
      throw new GeneratedModuleError(
        `tool ${tool.alias} (${tool.id}) has no ${typeof validators[tool.id] !== "function" ? "validator" : "dispatcher"}: the generated files come from different runs, run zcp gen`,
      );
    }
  }
}

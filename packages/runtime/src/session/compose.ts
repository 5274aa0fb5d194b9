/**
 * `composeGenerated`: several generated modules served as one, at run time (e.g. `zcp-serve`
 * with several `--registry` flags). Each module is checked as `createRuntime` checks one; the
 * same alias, id or provider name in two modules is a `GeneratedModuleError` naming both, never
 * an overwrite. A module's `prefix` renames its tools: alias `<prefix>.<alias>`, the id derived
 * from the new alias as `zcp gen` derives ids, the provider name derived from the new alias as
 * `zcp gen` derives names; planner lines and hashes follow, and the composed registry's artifact
 * entries are derived from its (renamed) definitions as any registry's are. Its tool index is
 * rebuilt from the composed definitions (BM25's idf depends on the whole catalog, so the
 * modules' indexes cannot simply be concatenated). Their prompts, resources and templates are
 * served together, unrenamed (a prefix is the tools'); one name, URI or URI template in two
 * modules is a `GeneratedModuleError` too.
 * The modules' configuration validators all check the one configuration, in module order.
 */
import type { DispatchTable } from "../codegen/dispatch.js";
import type { GeneratedFeatures } from "../codegen/features.js";
import { buildFindIndex } from "../definition/find/build.js";
import { combineToolHashes } from "../definition/hash.js";
import type { GeneratedModule } from "./host.js";
import { GeneratedModuleError } from "../definition/module-error.js";
import { normalPrefix, prefixed } from "../definition/prefix.js";
import { REGISTRY_FORMAT_VERSION, type ToolDefinition } from "../definition/registry.js";
import { checkGenerated } from "./generated.js";
import type { Validator, ValidatorTable } from "../codegen/validate.js";
import { allConfigs } from "./config.js";

/** One module to compose, with an optional prefix for its tools and a label for errors. */
export interface ComposeEntry {
  readonly module: GeneratedModule;
  /** Renames the module's tools to `<prefix>.<alias>` (a trailing `.` is not doubled). */
  readonly prefix?: string;
  /** Names the module in errors (default `module 1`, `module 2`... by position). */
  readonly source?: string;
}

/**
 * One generated module serving the tools of all of `modules`: their registries, validators and
 * dispatch tables merged. The composed registry lists the tools sorted by alias, and its hash is `combineToolHashes` over every tool (order-independent), as `zcp gen` makes a
 * registry's. Throws `GeneratedModuleError` for a module `createRuntime` would refuse (its
 * message prefixed with the source), an invalid prefix, or a collision.
 */
export function composeGenerated(
  modules: readonly (GeneratedModule | ComposeEntry)[],
): GeneratedModule {
  if (modules.length === 0)
    throw new GeneratedModuleError("composeGenerated: no modules to compose");
  const tools: ToolDefinition[] = [];
  const validators: { [toolId: string]: ValidatorTable[string] } = {};
  const dispatch: { [toolId: string]: DispatchTable[string] } = {};
  const names: { [name: string]: string } = {};
  const generators: string[] = [];
  const features = { prompts: [], resources: [], templates: [] } as {
    -readonly [kind in keyof GeneratedFeatures]: GeneratedFeatures[kind][number][];
  };
  const featureOwners = new Map<string, string>();
  const configs: Validator[] = [];
  const owners = {
    alias: new Map<string, string>(),
    id: new Map<string, string>(),
    name: new Map<string, string>(),
  };
  modules.forEach((input, index) => {
    const entry: ComposeEntry = isEntry(input) ? input : { module: input };
    const source = entry.source ?? `module ${index + 1}`;
    try {
      checkGenerated(entry.module);
    } catch (error) {
      if (error instanceof GeneratedModuleError)
        throw new GeneratedModuleError(`${source}: ${error.message}`);
      throw error;
    }
    const prefix = entry.prefix === undefined ? undefined : normalPrefix(entry.prefix, source);
    generators.push(entry.module.registry.generator);
    const own = entry.module.features;
    const keyed = [
      ...(own?.prompts ?? []).map(
        (p) => [`prompt "${p.definition.name}"`, () => features.prompts.push(p)] as const,
      ),
      ...(own?.resources ?? []).map(
        (r) => [`resource "${r.definition.uri}"`, () => features.resources.push(r)] as const,
      ),
      ...(own?.templates ?? []).map(
        (t) =>
          [
            `resource template "${t.definition.uriTemplate}"`,
            () => features.templates.push(t),
          ] as const,
      ),
    ];
    for (const [key, add] of keyed) {
      const other = featureOwners.get(key);
      if (other !== undefined)
        throw new GeneratedModuleError(
          `composeGenerated: ${key} is in both ${other} and ${source}`,
        );
      featureOwners.set(key, source);
      add();
    }
    if (entry.module.config) configs.push(entry.module.config);
    for (const tool of entry.module.registry.tools) {
      const renamed = prefix === undefined ? tool : prefixed(tool, prefix, source);
      for (const key of ["alias", "id", "name"] as const) {
        const other = owners[key].get(renamed[key]);
        if (other !== undefined)
          throw new GeneratedModuleError(
            `composeGenerated: ${key === "name" ? "provider name" : key} "${renamed[key]}" is in both ${other} and ${source}: give one of them a prefix`,
          );
        owners[key].set(renamed[key], source);
      }
      tools.push(renamed);
      validators[renamed.id] = entry.module.validators[tool.id]!;
      dispatch[renamed.id] = entry.module.dispatch[tool.id]!;
      names[renamed.name] = renamed.alias;
    }
  });
  tools.sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));
  // One configuration serves every module: it must fit each one's type.
  const config = allConfigs(configs);
  return {
    registry: {
      version: REGISTRY_FORMAT_VERSION,
      // The versions of zcp gen that wrote the modules, each named once.
      generator: [...new Set(generators)].join(", "),
      hash: combineToolHashes(tools),
      tools,
      names,
    },
    validators,
    dispatch,
    find: buildFindIndex(tools),
    ...(featureOwners.size > 0 ? { features } : {}),
    ...(config ? { config } : {}),
  };
}

function isEntry(input: GeneratedModule | ComposeEntry): input is ComposeEntry {
  return typeof input === "object" && input !== null && "module" in input && !("registry" in input);
}

/**
 * The runtime: one per process (or per registry), holding the generated module, the exposure
 * policy and the handle store; `session()` gives each client its own isolated state.
 */
import { builtinTable } from "./builtins/table.js";
import { buildFindIndex, FIND_INDEX_VERSION, type FindIndex } from "./definition/find/build.js";
import { FindSearch } from "./definition/find/search.js";
import { Features } from "./features/features.js";
import { HandleStore } from "./handles/store.js";
import type {
  Builtin,
  GeneratedModule,
  RuntimeOptions,
  SessionHost,
  SessionOptions,
} from "./session/host.js";
import type { Registry, ToolDefinition } from "./definition/registry.js";
import { checkGenerated } from "./session/generated.js";
import { budgetError } from "./session/result-budget.js";
import { checkedConfig } from "./session/config.js";
import { promptContext } from "./session/input.js";
import { Session } from "./session/session.js";
import { stateJson } from "./session/state.js";
import { applySelection, type Selection } from "./definition/view.js";

export class Runtime implements SessionHost {
  readonly registry: Registry;
  readonly handles: HandleStore;
  /** The generated prompts, resources and resource templates (none when the module has none). */
  readonly features: Features;
  /** The built-in tools, in view order (`builtins/table.ts`). */
  readonly builtins: readonly Builtin[];
  private readonly builtinsById: ReadonlyMap<string, Builtin>;
  private readonly byName: ReadonlyMap<string, ToolDefinition>;
  private searchTables: FindSearch | undefined;

  /** The options as given, with `config` as validated (`checkedConfig`). */
  readonly options: RuntimeOptions;

  constructor(
    readonly generated: GeneratedModule,
    options: RuntimeOptions = {},
  ) {
    checkGenerated(generated);
    const badBudget = budgetError(options.maxResultTokens ?? 1, "maxResultTokens");
    if (badBudget !== undefined) throw new RangeError(`createRuntime: ${badBudget}`);
    const config = checkedConfig(generated, options.config);
    this.options = config === options.config ? options : { ...options, config };
    this.registry = generated.registry;
    this.handles =
      options.handles instanceof HandleStore ? options.handles : new HandleStore(options.handles);
    this.features = new Features(
      generated.features,
      options.onFeatureError,
      options.timeoutMs,
      promptContext(undefined, new AbortController().signal),
    );
    this.builtins = builtinTable(this.handles.retention);
    this.builtinsById = new Map(this.builtins.map((builtin) => [builtin.id, builtin]));
    const names = new Map<string, ToolDefinition>();
    for (const tool of [
      ...this.registry.tools,
      ...this.builtins.map((builtin) => builtin.tool.definition),
    ]) {
      names.set(tool.alias, tool);
      names.set(tool.id, tool);
      names.set(tool.name, tool);
    }
    this.byName = names;
  }

  /**
   * A new session with its own handles and stage, and a random id unless `options.id` gives one.
   * A TypeError for an id that is not a non-empty string.
   */
  session(options: SessionOptions = {}): Session {
    return new Session(
      this,
      options.surface ?? "native",
      options.stage ?? null,
      options.findFormat,
      {
        ...(options.id === undefined ? {} : { id: options.id }),
        ...(options.data === undefined ? {} : { data: options.data }),
        ...(options.fixed === undefined ? {} : { fixed: options.fixed }),
        ...(options.handleIds === undefined ? {} : { handleIds: options.handleIds }),
      },
    );
  }

  /**
   * The session `id` as `options.sessions` keeps it (started by this runtime or another one
   * sharing the store): its stage, found tools (those this registry does not know are left
   * out), find format and data. Undefined when the store has none (ended or expired) or there
   * is no store; rejects when the store does.
   */
  async resume(id: string): Promise<Session | undefined> {
    const state = await this.options.sessions?.load(id);
    if (state === undefined) return undefined;
    const found = state.found.flatMap((toolId) => this.tool(toolId) ?? []);
    return new Session(this, state.surface, state.stage, state.findFormat, {
      id,
      found,
      ...(state.data === undefined ? {} : { data: state.data }),
      saved: stateJson(state),
    });
  }

  /**
   * Says that the resource at `uri` changed: the sessions subscribed to it are told
   * (`notifications/resources/updated` on MCP). For the embedding application to call.
   */
  resourceUpdated(uri: string): void {
    this.features.resourceUpdated(uri);
  }

  /** The tool named by alias, id or provider name (the built-in tools included). */
  tool(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }

  /** The built-in of that id, if it is one. */
  builtin(id: string): Builtin | undefined {
    return this.builtinsById.get(id);
  }

  /** The registry tools a surface exposes before stages and client filters. */
  exposedFor(surface: string): ToolDefinition[] {
    return applySelection(this.registry.tools, this.selectionFor(surface));
  }

  /** The surface's default selection: its own, else the `"*"` one, else none. */
  selectionFor(surface: string): Selection {
    const defaults = this.options.exposure?.defaults;
    return defaults?.[surface] ?? defaults?.["*"] ?? {};
  }

  /**
   * The ranking over the generated index, or over one built from the registry (on first use)
   * when the module has none or one that does not index its tools in order (a hand-built module
   * that changed a generated one's registry, or an index format this runtime does not read).
   */
  get search(): FindSearch {
    this.searchTables ??= new FindSearch(
      indexes(this.generated.find, this.registry.tools)
        ? this.generated.find
        : buildFindIndex(this.registry.tools),
    );
    return this.searchTables;
  }
}

/** Whether `index` is an index of `tools`, in their order, in the format this runtime reads. */
function indexes(
  index: FindIndex | undefined,
  tools: readonly ToolDefinition[],
): index is FindIndex {
  return (
    index !== undefined &&
    index.version === FIND_INDEX_VERSION &&
    Array.isArray(index.docs) &&
    index.docs.length === tools.length &&
    index.docs.every((id, doc) => tools[doc]!.id === id)
  );
}

/**
 * A runtime serving `generated`. Throws `GeneratedModuleError` for a module it cannot serve, and
 * `ConfigurationError` for an `options.config` that does not fit the type the tools read.
 */
export function createRuntime(generated: GeneratedModule, options?: RuntimeOptions): Runtime {
  return new Runtime(generated, options);
}

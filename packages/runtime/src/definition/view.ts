/**
 * Views: subsets of the registry chosen by rules, with their hash, planner text, API text
 * (TypeScript declarations) and provider artifacts picked from the registry's sets
 * (`artifactSet`, compiled on first use).
 */
import {
  ARTIFACT_PROVIDERS,
  artifactSet,
  type ArtifactEntries,
  type ArtifactProvider,
} from "./artifacts/index.js";
import { renderDeclarations, type DeclarationOptions } from "./api/declarations.js";
import { combineToolHashes } from "./hash.js";
import type { Registry, ToolDefinition } from "./registry.js";

/** What a server owner or a client asks for. Every field narrows; none widens. */
export interface Selection {
  /**
   * `semantic-workflow`: the tools in the `workflow` group (every tool when none is).
   * `discover`: narrows nothing here (every tool the other fields keep can be found), but a
   * session's exposed view starts with only the built-in tools and grows by `find`.
   */
  readonly profile?: string;
  /** Keep tools in any of these groups. */
  readonly groups?: readonly string[];
  /** Drop tools in any of these groups. */
  readonly excludeGroups?: readonly string[];
  /** Keep tools available in any of these stages (tools without stages are in every stage). */
  readonly stages?: readonly string[];
  /** Keep only these tools (aliases or ids). */
  readonly aliases?: readonly string[];
  /** At most this many tools, in registry order. */
  readonly limit?: number;
}

export const SEMANTIC_WORKFLOW = "semantic-workflow";
export const WORKFLOW_GROUP = "workflow";
export const DISCOVER = "discover";
/** The profiles a selection may name. */
export const PROFILES: readonly string[] = [SEMANTIC_WORKFLOW, DISCOVER];

export class SelectionError extends Error {
  override name = "SelectionError";
}

/** Applies a selection to `tools` (order kept). Throws `SelectionError` on an unknown profile or a bad limit. */
export function applySelection(
  tools: readonly ToolDefinition[],
  selection: Selection = {},
): ToolDefinition[] {
  let out = [...tools];
  if (selection.profile !== undefined) {
    if (!PROFILES.includes(selection.profile))
      throw new SelectionError(
        `unknown profile "${selection.profile}" (known: ${PROFILES.join(", ")})`,
      );
    const workflow = out.filter((tool) => tool.groups.includes(WORKFLOW_GROUP));
    if (selection.profile === SEMANTIC_WORKFLOW && workflow.length > 0) out = workflow;
  }
  if (selection.groups && selection.groups.length > 0)
    out = out.filter((tool) => tool.groups.some((group) => selection.groups!.includes(group)));
  if (selection.excludeGroups && selection.excludeGroups.length > 0)
    out = out.filter(
      (tool) => !tool.groups.some((group) => selection.excludeGroups!.includes(group)),
    );
  if (selection.stages && selection.stages.length > 0)
    out = out.filter((tool) => inStage(tool, selection.stages!));
  if (selection.aliases) {
    const wanted = new Set(selection.aliases);
    out = out.filter((tool) => wanted.has(tool.alias) || wanted.has(tool.id));
  }
  if (selection.limit !== undefined) {
    if (!Number.isInteger(selection.limit) || selection.limit < 0)
      throw new SelectionError(`limit must be a non-negative integer, got ${selection.limit}`);
    out = out.slice(0, selection.limit);
  }
  return out;
}

/** A tool without stages is available in every stage. */
export function inStage(tool: ToolDefinition, stages: readonly string[]): boolean {
  return tool.stages.length === 0 || tool.stages.some((stage) => stages.includes(stage));
}

/** Extra tools a view carries besides the registry's (the runtime's built-ins, `builtins/table.ts`), with their entries. */
export interface BuiltinTool {
  readonly definition: ToolDefinition;
  readonly artifacts: { readonly [P in ArtifactProvider]: ArtifactEntries[P] };
  /** The lean entries (first-sentence descriptions, no constraints the tool checks itself). */
  readonly leanArtifacts: { readonly [P in ArtifactProvider]: ArtifactEntries[P] };
}

export interface PlannerTextOptions {
  /** false: the bare signatures (`ToolDefinition.plannerBare`), without documentation. Default true. */
  readonly docs?: boolean;
}

export interface ArtifactsOptions {
  /**
   * The lean entries: first sentences of the descriptions, and no patterns, formats, lengths,
   * ranges or item bounds (the generated validators enforce them; a refusal's hint states them).
   * Default false.
   */
  readonly lean?: boolean;
}

export class View {
  /** The view's tools: the `first` built-ins, the selected registry tools, then the other built-ins. */
  readonly tools: readonly ToolDefinition[];
  /** The view's registry tools, without the built-ins. */
  readonly selected: readonly ToolDefinition[];
  /** `combineToolHashes` over the tools: equal views have equal hashes. */
  readonly hash: string;
  private readonly byName: ReadonlyMap<string, ToolDefinition>;
  /** The built-ins the view lists (the `first` ones, then the others), with their entries. */
  readonly builtins: readonly BuiltinTool[];
  /** The API texts rendered so far: [with docs, without]. */
  private readonly declarationTexts: [string | undefined, string | undefined] = [
    undefined,
    undefined,
  ];

  /**
   * `selected` are tools of `registry`, whose artifact sets the view picks its entries from;
   * `builtins` come after them, `first` before them.
   */
  constructor(
    selected: readonly ToolDefinition[],
    private readonly registry: Registry,
    builtins: readonly BuiltinTool[],
    first: readonly BuiltinTool[] = [],
  ) {
    this.selected = [...selected];
    this.builtins = [...first, ...builtins];
    this.tools = [
      ...first.map((builtin) => builtin.definition),
      ...selected,
      ...builtins.map((builtin) => builtin.definition),
    ];
    this.hash = combineToolHashes(this.tools);
    this.byName = new Map(
      this.tools.flatMap(
        (tool) =>
          [
            [tool.alias, tool],
            [tool.id, tool],
            [tool.name, tool],
          ] as const,
      ),
    );
  }

  /** The planner text: one line per tool, with documentation (`plannerText()`). */
  get planner(): string {
    return this.plannerText();
  }

  /** The planner text, one line per tool: with documentation, or `{ docs: false }` the bare signatures. */
  plannerText(options: PlannerTextOptions = {}): string {
    const key = options.docs === false ? "plannerBare" : "planner";
    return this.tools.map((tool) => tool[key]).join("\n");
  }

  /**
   * The API text: the view's tools as TypeScript declarations of the global `tools` a program
   * calls them through (`renderDeclarations`; `zcp.run` left out), rendered once per view and
   * form. `{ docs: false }`: without documentation comments.
   */
  declarations(options: DeclarationOptions = {}): string {
    const slot = options.docs === false ? 1 : 0;
    return (this.declarationTexts[slot] ??= renderDeclarations(this.tools, options));
  }

  /** The tool named by alias, id or provider name, if it is in the view. */
  find(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }

  /**
   * The provider's entries for the view's tools, in view order. A tool the provider cannot take
   * (see the ZCP150x diagnostics of `zcp gen`) has no entry and is left out. `{ lean: true }`:
   * the lean entries. A `SelectionError` for an unknown provider.
   */
  artifacts<P extends ArtifactProvider>(
    provider: P,
    options: ArtifactsOptions = {},
  ): ArtifactEntries[P][] {
    if (!ARTIFACT_PROVIDERS.includes(provider))
      throw new SelectionError(
        `unknown provider "${provider}" (known: ${ARTIFACT_PROVIDERS.join(", ")})`,
      );
    const lean = options.lean === true;
    const set = artifactSet(this.registry, provider, { lean });
    const entries: ArtifactEntries[P][] = [];
    for (const tool of this.tools) {
      const builtin = this.builtins.find((candidate) => candidate.definition === tool);
      const entry = builtin
        ? (lean ? builtin.leanArtifacts : builtin.artifacts)[provider]
        : set[tool.id];
      if (entry) entries.push(entry);
    }
    return entries;
  }
}

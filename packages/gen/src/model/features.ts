/**
 * model: extracted prompts and resources → their definitions, each kind sorted by its key
 * (prompt name, resource URI, URI template). Two of one kind with the same key are ZCP1802 at
 * each declaration, and both are left out. Like tools' definitions, none names a line.
 */
import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  SourceLocation,
} from "@zcp/runtime/definition";
import { diagnostic, relativePath, type Diagnostic } from "../diagnostics.js";
import type { ExtractedFeature } from "../extract/index.js";

/** A definition and the extracted feature it is made of (emit calls its function). */
export interface Modeled<D> {
  readonly definition: D;
  readonly feature: ExtractedFeature;
}

export interface FeatureModel {
  readonly prompts: readonly Modeled<PromptDefinition>[];
  readonly resources: readonly Modeled<ResourceDefinition>[];
  readonly templates: readonly Modeled<ResourceTemplateDefinition>[];
  readonly diagnostics: readonly Diagnostic[];
}

export function buildFeatureModel(
  features: readonly ExtractedFeature[],
  root: string,
): FeatureModel {
  const diagnostics: Diagnostic[] = [];
  const unique = (kind: ExtractedFeature["kind"], key: (f: ExtractedFeature) => string) => {
    const byKey = new Map<string, ExtractedFeature[]>();
    for (const feature of features.filter((f) => f.kind === kind))
      byKey.set(key(feature), [...(byKey.get(key(feature)) ?? []), feature]);
    const kept: ExtractedFeature[] = [];
    for (const [text, group] of [...byKey].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (group.length === 1) kept.push(group[0]!);
      else
        for (const f of group)
          diagnostics.push(
            diagnostic(
              "error",
              "ZCP1802",
              `${group.length} ${kind === "prompt" ? "prompts are named" : kind === "resource" ? "resources have the URI" : "resource templates are"} "${text}": ${group.map((g) => g.exportName).join(", ")}`,
              { file: f.file, line: f.line, column: f.column },
            ),
          );
    }
    return kept;
  };
  const source = (f: ExtractedFeature): SourceLocation => ({
    file: relativePath(root, f.file),
    export: f.exportName,
  });
  const base = (f: ExtractedFeature) => ({
    name: f.name,
    title: f.title,
    description: f.description,
  });
  return {
    prompts: unique("prompt", (f) => f.name).map((feature) => ({
      feature,
      definition: { ...base(feature), arguments: feature.arguments, source: source(feature) },
    })),
    resources: unique("resource", (f) => f.uri).map((feature) => ({
      feature,
      definition: {
        uri: feature.uri,
        ...base(feature),
        mimeType: feature.mimeType,
        source: source(feature),
      },
    })),
    templates: unique("template", (f) => f.uri).map((feature) => ({
      feature,
      definition: {
        uriTemplate: feature.uri,
        ...base(feature),
        mimeType: feature.mimeType,
        variables: feature.arguments,
        source: source(feature),
      },
    })),
    diagnostics,
  };
}

/**
 * compile: the stage's entry. The registry's definitions → what emit prints besides the
 * definitions themselves: each tool's validator as code (`validators/`), and its provider
 * artifacts, full and, when asked for, lean (`providers/`, by the runtime's provider rules), with
 * a diagnostic wherever a provider cannot take a tool as it is. Everything here is data: nothing
 * is printed yet.
 */
import type { ToolDefinition } from "@zcp/runtime/codegen";
import type { Diagnostic } from "../diagnostics.js";
import type { Site } from "../model/index.js";
import {
  ARTIFACT_STEPS,
  compileArtifacts,
  type ArtifactSets,
  type ArtifactSteps,
} from "./providers/index.js";
import {
  compileValidators,
  VALIDATOR_STEPS,
  type ValidatorSet,
  type ValidatorSteps,
} from "./validators/index.js";

export {
  compileLean,
  compileToolArtifacts,
  type ArtifactSets,
  type Entries,
  type ToolArtifacts,
} from "./providers/index.js";
export { LEAN_DROPPED, leanSchema } from "@zcp/runtime/codegen";
export {
  compileSharedValidator,
  compileToolValidator,
  compileValidators,
} from "./validators/index.js";
export type {
  FunctionCode,
  Part,
  Statement,
  ValidatorCode,
  ValidatorSet,
} from "./validators/index.js";

export interface CompileOptions {
  /** Compile the lean artifact sets too (written with `jsonFiles` and `leanArtifacts` in the config). */
  readonly lean: boolean;
}

/** The per-tool work of `compile`, which the pipeline's memo hands in memoized in watch mode. */
export interface CompileSteps {
  readonly validators: ValidatorSteps;
  readonly artifacts: ArtifactSteps;
}

const COMPILE_STEPS: CompileSteps = {
  validators: VALIDATOR_STEPS,
  artifacts: ARTIFACT_STEPS,
};

export interface Compiled {
  readonly validators: ValidatorSet;
  readonly artifacts: ArtifactSets;
  /** The lean artifact sets, or null: not asked for. */
  readonly lean: ArtifactSets | null;
  readonly diagnostics: Diagnostic[];
}

/** `sites` says where each tool is declared (the model's), for diagnostics. */
export function compile(
  tools: readonly ToolDefinition[],
  sites: ReadonlyMap<ToolDefinition, Site>,
  options: CompileOptions,
  steps: CompileSteps = COMPILE_STEPS,
): Compiled {
  const artifacts = compileArtifacts(tools, sites, options.lean, steps.artifacts);
  return {
    validators: compileValidators(tools, steps.validators),
    artifacts: artifacts.sets,
    lean: artifacts.lean,
    diagnostics: artifacts.diagnostics,
  };
}

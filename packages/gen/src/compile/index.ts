/**
 * compile: the stage's entry. The registry's definitions → what emit prints besides the
 * definitions themselves: each tool's validator as code (`validators/`), and a diagnostic
 * wherever a provider cannot take a tool as it is (`providers/`, by the runtime's provider
 * rules, which also make the artifact sets when the token report or `"jsonFiles"` asks for
 * them). Everything here is data: nothing is printed yet.
 */
import type { ToolDefinition } from "@zcp/runtime/definition";
import type { Diagnostic } from "../diagnostics.js";
import type { Site } from "../model/index.js";
import { artifactDiagnostics } from "./providers/index.js";
import {
  compileValidators,
  VALIDATOR_STEPS,
  type ValidatorSet,
  type ValidatorSteps,
} from "./validators/index.js";

export { artifactDiagnostics, artifactSets, type ArtifactSets } from "./providers/index.js";
export { LEAN_DROPPED, leanSchema } from "@zcp/runtime/definition";
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

/** The per-tool work of `compile`, which the pipeline's memo hands in memoized in watch mode. */
export interface CompileSteps {
  readonly validators: ValidatorSteps;
  /** The provider rules' diagnostics of one tool (they depend on its definition and site only). */
  readonly artifactDiagnostics: (tool: ToolDefinition, site: Site) => readonly Diagnostic[];
}

const COMPILE_STEPS: CompileSteps = { validators: VALIDATOR_STEPS, artifactDiagnostics };

export interface Compiled {
  readonly validators: ValidatorSet;
  readonly diagnostics: Diagnostic[];
}

/** `sites` says where each tool is declared (the model's), for diagnostics. */
export function compile(
  tools: readonly ToolDefinition[],
  sites: ReadonlyMap<ToolDefinition, Site>,
  steps: CompileSteps = COMPILE_STEPS,
): Compiled {
  return {
    validators: compileValidators(tools, steps.validators),
    diagnostics: tools.flatMap((tool) => steps.artifactDiagnostics(tool, sites.get(tool)!)),
  };
}

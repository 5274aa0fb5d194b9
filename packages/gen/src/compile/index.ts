/**
 * compile: the stage's entry. The registry's definitions → what emit prints besides the
 * definitions themselves: each tool's validator as code (`validators/`), and a diagnostic
 * wherever a provider cannot take a tool as it is (`providers/`, by the runtime's provider
 * rules, which also make the artifact sets when the token report or `"jsonFiles"` asks for
 * them). After the validators, each tool's `@example` tags are checked by them, and the
 * definitions completed with the examples kept (`examples.ts`, `compileExamples`). Everything
 * here is data: nothing is printed yet.
 */
import type { JsonValue, ToolDefinition } from "@zcp/runtime/definition";
import type { Diagnostic } from "../diagnostics.js";
import type { ExtractedTool } from "../extract/index.js";
import type { Site } from "../model/index.js";
import type { CheckedExamples } from "./examples.js";
import { artifactDiagnostics } from "./providers/index.js";
import {
  compileValidators,
  VALIDATOR_STEPS,
  type ValidatorSet,
  type ValidatorSteps,
} from "./validators/index.js";

export { checkExamples, withExamples, type CheckedExamples } from "./examples.js";
export { handWrittenProblems } from "./schema-problems.js";
export { artifactDiagnostics, artifactSets, type ArtifactSets } from "./providers/index.js";
export { LEAN_DROPPED, leanSchema } from "@zcp/runtime/definition";
export {
  compileSchemaValidator,
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

/**
 * `sites` says where each tool is declared (the model's), for diagnostics; `config` is the
 * schema of the server configuration the tools read (`serverConfig`), null when none does.
 */
export function compile(
  tools: readonly ToolDefinition[],
  sites: ReadonlyMap<ToolDefinition, Site>,
  steps: CompileSteps = COMPILE_STEPS,
  config: JsonValue | null = null,
): Compiled {
  return {
    validators: compileValidators(tools, steps.validators, config),
    diagnostics: tools.flatMap((tool) => steps.artifactDiagnostics(tool, sites.get(tool)!)),
  };
}

/** The per-tool work of `compileExamples`, which the pipeline's memo hands in memoized. */
export interface ExampleSteps {
  /** The checked `@example` tags of one extracted tool (`checkExamples`, with the validator). */
  readonly check: (tool: ExtractedTool) => CheckedExamples;
  /** A definition with the examples its tool keeps (`withExamples`). */
  readonly complete: (
    definition: ToolDefinition,
    examples: CheckedExamples["examples"],
  ) => ToolDefinition;
}

export interface CompiledExamples {
  /** `tools`, each one made of an extracted tool completed with the examples it keeps. */
  readonly tools: ToolDefinition[];
  readonly diagnostics: Diagnostic[];
}

/**
 * The `@example` step, run after `compile`: the definitions the validators and provider rules
 * took do not depend on examples (neither the validator code nor the rules that are diagnosed
 * read them). Every tool in `extracted` is checked, those the model or the composition left out
 * of `tools` included, so that its warnings are said as wherever it stands; `origins` is the
 * model's (the extracted tool each definition is made of).
 */
export function compileExamples(
  tools: readonly ToolDefinition[],
  extracted: readonly ExtractedTool[],
  origins: ReadonlyMap<ToolDefinition, ExtractedTool>,
  steps: ExampleSteps,
): CompiledExamples {
  const checked = new Map(extracted.map((tool) => [tool, steps.check(tool)]));
  return {
    tools: tools.map((tool) => {
      const origin = origins.get(tool);
      return origin ? steps.complete(tool, checked.get(origin)!.examples) : tool;
    }),
    diagnostics: [...checked.values()].flatMap((each) => each.diagnostics),
  };
}

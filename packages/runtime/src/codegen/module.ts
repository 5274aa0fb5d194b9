import type { DispatchTable } from "./dispatch.js";
import type { GeneratedFeatures } from "./features.js";
import type { FindIndex } from "../definition/find/build.js";
import type { Registry } from "../definition/registry.js";
import type { Validator, ValidatorTable } from "./validate.js";

/**
 * What `zcp gen` generates, as its `index.ts` exports it. Provider artifacts are not part of it:
 * the runtime derives them from the registry (`artifactSet`).
 */
export interface GeneratedModule {
  readonly registry: Registry;
  readonly validators: ValidatorTable;
  readonly dispatch: DispatchTable;
  /** The tool index `zcp gen` built (`find.ts`); without it the runtime builds one at first use. */
  readonly find?: FindIndex;
  /** The prompts, resources and resource templates (`features.ts`); absent when there are none. */
  readonly features?: GeneratedFeatures;
  /**
   * Validates the server configuration the tools read (`ToolContext<Config>`), which
   * `createRuntime` checks `RuntimeOptions.config` with; absent when no tool types one.
   */
  readonly config?: Validator;
}

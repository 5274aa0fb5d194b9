/**
 * The server configuration at start-up: `createRuntime` checks `RuntimeOptions.config` with the
 * generated module's validator (`GeneratedModule.config`, from the type the tools' contexts
 * read), so that a bad configuration stops the server before it serves, naming the field, and
 * no tool ever reads one that does not fit its type.
 */
import type { GeneratedModule } from "../codegen/module.js";
import type { Validator } from "../codegen/validate.js";
import { clip } from "../results/clip.js";

/** Thrown by `createRuntime` for a configuration that does not fit the tools' type. */
export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

/**
 * `config` as the tools read it: as given when no tool types one; else validated (with the
 * validators' documented coercions), or a `ConfigurationError` naming the first bad field
 * (`missing:$.notesDir`, `invalid:$.limits.max`) and what it must be. No configuration is an
 * empty object: a type whose fields are all optional needs none.
 */
export function checkedConfig(generated: GeneratedModule, config: unknown): unknown {
  if (generated.config === undefined) return config;
  const checked = generated.config(config ?? {});
  if (checked.ok) return checked.value;
  const what =
    config === undefined ? "no server configuration was given, but the tools read one; " : "";
  throw new ConfigurationError(
    `${what}the server configuration is invalid: ${clip(checked.error, 200)} (${clip(checked.hint, 300)})`,
  );
}

/** One validator that runs each of `validators` in turn on what the one before returned. */
export function allConfigs(validators: readonly Validator[]): Validator | undefined {
  if (validators.length <= 1) return validators[0];
  return (input) => {
    let value = input;
    for (const validate of validators) {
      const checked = validate(value);
      if (!checked.ok) return checked;
      value = checked.value;
    }
    return { ok: true, value };
  };
}

/**
 * The contract of generated validators (`validators.ts`, written by `zcp gen`): one function per
 * tool, specialised code with no schema interpretation at run time.
 *
 * A validator takes the raw arguments (defaults already merged) and returns either the value to
 * call the tool with (after the documented coercions: numeric strings to numbers where a number
 * is expected, "true"/"false" to booleans where a boolean is expected; nothing else) or the
 * first error found: `missing:<path>` or `invalid:<path>` with a `$`-rooted path such as
 * `$.rows[2].qty`, and a short hint for the model.
 */
export type ValidationResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string; readonly hint: string };

export type Validator = (input: unknown) => ValidationResult;

/** What a generated `validators.ts` exports: a validator per tool id. */
export type ValidatorTable = { readonly [toolId: string]: Validator };

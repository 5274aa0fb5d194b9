/**
 * What a schema's `pattern` may be: a regular expression with the `u` flag, as Ajv and the
 * generated validators compile it. Said once for the three places that refuse another: extract
 * (an `@pattern` tag), compile (a validator) and upstream (a listed schema); it is no stage's.
 */

/** Why `source` is not a regular expression with the `u` flag, or null when it is one. */
export function patternError(source: string): string | null {
  try {
    new RegExp(source, "u");
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The synthesized project's model: what each tool file and tool looks like, before it is text.
 * synth.ts builds it from the seed, render.ts writes it as TypeScript source.
 */
export interface Field {
  readonly name: string;
  readonly type: string;
  readonly doc: string;
  readonly tags: readonly string[];
  /** Written with `?` (never together with a default). */
  readonly optional: boolean;
  /** Default value as TS source, for positional and destructured parameters. */
  readonly literal: string | null;
  /** Positional only: the doc sits on the parameter itself instead of in a `@param` tag. */
  readonly inlineDoc: boolean;
}

export type Form = "positional" | "object" | "destructured";

export interface Tool {
  readonly fn: string;
  readonly alias: string;
  /**
   * The named type typescript-json-schema generates a schema for: the object parameter's
   * interface, or for positional tools an `<Tool>Args` interface mirroring the parameters.
   */
  readonly typeName: string;
  readonly form: Form;
  /** `export const fn = (...) => ...` instead of a function declaration. */
  readonly arrow: boolean;
  readonly returns: string;
  readonly summary: string;
  readonly detail: string | null;
  /** Tool-level tags other than @tool and @param, e.g. "@groups orders geo". */
  readonly tags: readonly string[];
  readonly fields: readonly Field[];
  /** Extra `@param name text` lines for object forms (e.g. `input.query`). */
  readonly paramDocs: readonly (readonly [string, string])[];
}

export interface ToolFile {
  /** Two-digit suffix of every per-file name, e.g. "07". */
  readonly suffix: string;
  /** Relative to the project root, e.g. "src/mod07.ts". */
  readonly path: string;
  readonly channels: readonly string[];
  readonly tools: readonly Tool[];
}

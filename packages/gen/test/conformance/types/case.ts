/**
 * What a conformance case is: a TypeScript type, how a tool uses it, values TypeScript accepts
 * and rejects (JSON-compatible literals), and the outcome docs/annotations.md documents for it.
 */

/** A value whose wire form (JSON) and TypeScript form differ: a `Date` sent as an ISO string. */
export interface Wire {
  readonly wire: unknown;
  /** The TypeScript expression tsc checks in its place. */
  readonly ts: string;
}

export type Value = unknown;

/** A `{ v: T }` object type whose property (optional with `optional`) carries the JSDoc `doc`. */
export const documented = (doc: string, type: string, optional = false) =>
  `{\n  /** ${doc} */\n  v${optional ? "?" : ""}: ${type};\n}`;

/** A value sent as `json` over the wire and written as `ts` for tsc. */
export const wire = (json: unknown, ts: string): Wire => ({ wire: json, ts });

/** The parameter left out of the arguments (TypeScript: `undefined`); only with `use: "param"`. */
export const ABSENT: Wire = { wire: undefined, ts: "undefined" };

export type Code = `ZCP${number}`;

export interface Case {
  /** `[a-z0-9_]+`, unique in its category; the tool's alias is `<category>.<id>`. */
  readonly id: string;
  /** Top-level declarations of the case's module (imports from "@zcp/runtime" allowed). */
  readonly decls?: string;
  /** The type under test, written where the tool uses it. */
  readonly type: string;
  /**
   * `param` (default): the tool is `(value: T, other: number)`, so that `value` is not
   * flattened, and the arguments are `{value, other: 1}`. `root`: the tool is `(input: T)`,
   * its one object parameter flattened, and the arguments are the value itself. `return`: the
   * tool is `(other: number): T`; only the output schema is checked.
   */
  readonly use?: "param" | "root" | "return";
  /** Values tsc accepts: the schema and the validator must accept them. */
  readonly accept?: readonly Value[];
  /** Values tsc rejects: the schema and the validator must refuse them. */
  readonly reject?: readonly Value[];
  /** Values tsc accepts that a JSDoc constraint refuses: the schema and validator must refuse them. */
  readonly constraint?: readonly Value[];
  /** A documented, deliberate difference, with the values on which TypeScript and the schema differ. */
  readonly loss?: {
    readonly reason: string;
    /** tsc accepts, the schema refuses. */
    readonly tsOnly?: readonly Value[];
    /** tsc rejects, the schema accepts. */
    readonly schemaOnly?: readonly Value[];
  };
  /** The tool is left out with this error code (documented). */
  readonly refused?: Code;
  /** The tool is generated with a warning of this code (`true`: any warning). */
  readonly warns?: Code | true;
  /** Expected fragment of the value's schema (for `param`, the `value` property's; `return`: the output schema, `null` for none). */
  readonly schema?: object | null;
  /** Keywords that must not occur anywhere in the value's schema. */
  readonly without?: readonly string[];
  /** More source files, by path relative to the project's `src/` folder. */
  readonly files?: Readonly<Record<string, string>>;
  /**
   * Compiler options of the project's tsconfig beside the strict ones (`{ strict: false }`):
   * the cases with the same options share a project, which gen and tsc each read.
   */
  readonly compilerOptions?: Readonly<Record<string, unknown>>;
  /** The spec decision the case pins (B1–B7, G1–G8), for the report. */
  readonly decision?: string;
}

export interface Category {
  readonly name: string;
  readonly cases: readonly Case[];
}

/**
 * compile/validators: the keywords that test a schema and act on the outcome: `not` (the test
 * must fail), `oneOf` (exactly one branch must pass), `if` (`then` applies when it passes,
 * `else` when it fails) and `dependentSchemas` (a schema that applies when a property is
 * present). A test is compiled strictly (`CodeBuilder.strictly`): it sees the value as it is,
 * since a coercion there would change which values pass (`"5"` passes `not: {type: "integer"}`
 * in JSON Schema). What applies after a test (`then`, `else`, a dependent schema) may coerce.
 */
import type { JsonValue } from "@zcp/runtime/definition";
import {
  check,
  type CodeBuilder,
  type CompileKeyword,
  type CompileStructure,
  type Fail,
  type Path,
} from "./builder.js";
import type { Schema } from "./schema.js";

/**
 * Emits a block that runs `line` when `value` passes `schema` (compiled strictly), and is left
 * at its first failed check.
 */
export function onPass(
  w: CodeBuilder,
  schema: JsonValue | undefined,
  value: string,
  path: Path,
  line: string,
): void {
  const next: Fail = { kind: "break", label: w.name("l"), used: false };
  const block = w.open("{");
  w.strictly(() => w.node(schema, value, path, next));
  w.line(line);
  w.close();
  block.head = next.used ? `${next.label}: {` : "{";
}

/** The name of a flag that says whether `value` passes `schema` (compiled strictly). */
function passes(w: CodeBuilder, schema: JsonValue | undefined, value: string, path: Path): string {
  const passed = w.name("p");
  w.line(`let ${passed} = false;`);
  onPass(w, schema, value, path, `${passed} = true;`);
  return passed;
}

/** `not`: the value must fail `schema`. */
export const not: CompileKeyword<JsonValue, void> = (w, schema, value, path, to, hint) => {
  check(w, [passes(w, schema, value, path)], "&&", to, path, hint);
};

/** `oneOf`: exactly one branch must pass. */
export const oneOf: CompileKeyword<readonly JsonValue[], void> = (
  w,
  branches,
  value,
  path,
  to,
  hint,
) => {
  const passed = w.name("n");
  w.line(`let ${passed} = 0;`);
  for (const branch of branches) onPass(w, branch, value, path, `${passed}++;`);
  check(w, [`${passed} !== 1`], "&&", to, path, hint);
};

/** `if`/`then`/`else`; returns the name of the value after `then` or `else`. */
export const ifThenElse: CompileStructure<Schema> = (w, schema, value, path, to) => {
  if (schema.then === undefined && schema.else === undefined) return value;
  const passed = passes(w, schema.if, value, path);
  let out = value;
  if (schema.then !== undefined) out = applyWhen(w, passed, schema.then, out, path, to);
  if (schema.else !== undefined) out = applyWhen(w, `!${passed}`, schema.else, out, path, to);
  return out;
};

/** `schema` applied to `value` when `condition` holds; returns the name of the value after it. */
export function applyWhen(
  w: CodeBuilder,
  condition: string,
  schema: JsonValue,
  value: string,
  path: Path,
  to: Fail,
): string {
  return w.guarded(condition, value, () => w.node(schema, value, path, to));
}

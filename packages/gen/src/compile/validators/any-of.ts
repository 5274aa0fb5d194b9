/**
 * compile/validators: `anyOf`. The first branch that passes wins, with its coerced value. A
 * `{type: "null"}` branch is a test for null (nothing coerces null): the other branches apply to
 * the other values, one branch directly (its errors are the ones reported). Otherwise each branch
 * goes in a labelled block that a failed check leaves, and the error is at the `anyOf`'s path.
 */
import type { JsonValue } from "@zcp/runtime/definition";
import { check, fail, type CompileKeyword, type Fail } from "./builder.js";
import { coerces } from "./coercion.js";
import { isNullSchema } from "./schema.js";

export const anyOf: CompileKeyword<readonly JsonValue[]> = (w, branches, value, path, to, hint) => {
  const others = branches.filter((branch) => !isNullSchema(branch));
  if (others.length < branches.length) {
    if (others.length === 0) {
      check(w, [`${value} !== null`], "&&", to, path, hint);
      return value;
    }
    return w.guarded(`${value} !== null`, value, () =>
      others.length === 1
        ? w.node(others[0], value, path, to, { hint })
        : anyOfBlocks(w, others, value, path, to, hint),
    );
  }
  return anyOfBlocks(w, branches, value, path, to, hint);
};

const anyOfBlocks: CompileKeyword<readonly JsonValue[]> = (w, branches, value, path, to, hint) => {
  const coerced = branches.some((branch) => coerces(w.unit, branch));
  const result = coerced ? w.name("r") : null;
  if (result !== null) w.line(`let ${result}: unknown;`);
  const done = w.name("l");
  w.open(`${done}: {`);
  let exhaustive = false;
  for (const branch of branches) {
    const next: Fail = { kind: "break", label: w.name("l"), used: false };
    const block = w.open("{");
    const out = w.node(branch, value, path, next);
    if (result !== null) w.line(`${result} = ${out};`);
    w.line(`break ${done};`);
    w.close();
    block.head = next.used ? `${next.label}: {` : "{";
    // A branch that cannot fail makes the rest unreachable.
    if (!next.used) {
      exhaustive = true;
      break;
    }
  }
  if (!exhaustive) fail(w, to, "invalid", path, hint);
  w.close();
  return result ?? value;
};

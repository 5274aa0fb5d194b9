/**
 * compile/validators: an array's structure: `prefixItems` (a tuple's positions, optional beyond
 * `minItems`), `items` for the rest (or none: `items: false`), `uniqueItems` (after coercion,
 * so that `"1"` and `1` collide where a number is expected), and `contains` (how many items pass
 * it, strictly: `minContains`, 1 by default, to `maxContains`). A coerced item is copied on
 * write.
 */
import {
  check,
  indexPath,
  type CodeBuilder,
  type CompileStructure,
  type Fail,
  type Path,
} from "./builder.js";
import { onPass } from "./conditions.js";
import { describe, plural } from "./hints.js";
import { count, isTrivial, type Schema } from "./schema.js";

export const arrayItems: CompileStructure<Schema> = (w, schema, value, path, to) => {
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
  const min = count(schema.minItems) ?? 0;
  const max = count(schema.maxItems);
  if (schema.items === false && !(max !== null && max <= prefix.length)) {
    check(
      w,
      [`${value}.length > ${prefix.length}`],
      "&&",
      to,
      path,
      `expected at most ${plural(prefix.length, "item")}`,
    );
  }
  const slot = w.placeholder();
  let copy: string | null = null;
  for (let index = 0; index < prefix.length; index++) {
    const itemSchema = prefix[index];
    if (isTrivial(itemSchema)) continue;
    const optional = index >= min;
    if (optional) w.open(`if (${value}.length > ${index}) {`);
    const item = w.name("v");
    w.line(`const ${item}: unknown = ${value}[${index}];`);
    copy = storeItem(
      w,
      copy,
      value,
      String(index),
      item,
      w.node(itemSchema, item, indexPath(path, index), to),
    );
    if (optional) w.close();
  }
  if (schema.items !== undefined && schema.items !== false && !isTrivial(schema.items)) {
    const i = w.name("i");
    w.open(`for (let ${i} = ${prefix.length}; ${i} < ${value}.length; ${i}++) {`);
    const item = w.name("v");
    w.line(`const ${item}: unknown = ${value}[${i}];`);
    copy = storeItem(w, copy, value, i, item, w.node(schema.items, item, indexPath(path, i), to));
    w.close();
  }
  let out = value;
  if (copy !== null) {
    slot.text = `let ${copy}: unknown[] | undefined;`;
    out = w.name("v");
    w.line(`const ${out} = ${copy} ?? ${value};`);
  }
  if (schema.uniqueItems === true) {
    w.needs.helpers.add("duplicateAt");
    const duplicate = w.name("d");
    w.line(`const ${duplicate} = duplicateAt(${out});`);
    check(
      w,
      [`${duplicate} >= 0`],
      "&&",
      to,
      indexPath(path, duplicate),
      "expected unique items; this one repeats an earlier one",
    );
  }
  if (schema.contains !== undefined) contains(w, schema, out, path, to);
  return out;
};

function contains(w: CodeBuilder, schema: Schema, value: string, path: Path, to: Fail): void {
  const min = count(schema.minContains) ?? 1;
  const max = count(schema.maxContains);
  if (min <= 0 && max === null) return;
  const passed = w.name("n");
  w.line(`let ${passed} = 0;`);
  const i = w.name("i");
  w.open(`for (let ${i} = 0; ${i} < ${value}.length; ${i}++) {`);
  const item = w.name("v");
  w.line(`const ${item}: unknown = ${value}[${i}];`);
  onPass(w, schema.contains, item, indexPath(path, i), `${passed}++;`);
  w.close();
  const failures: string[] = [];
  if (min > 0) failures.push(`${passed} < ${min}`);
  if (max !== null) failures.push(`${passed} > ${max}`);
  const amount = max === null ? `at least ${plural(min, "item")}` : `${min}-${max} items`;
  check(w, failures, "||", to, path, `expected ${amount} of ${describe(w.unit, schema.contains)}`);
}

/** Copy on write of a changed array item: returns the name of the copy. */
function storeItem(
  w: CodeBuilder,
  copy: string | null,
  array: string,
  index: string,
  item: string,
  result: string,
): string | null {
  if (result === item) return copy;
  copy ??= w.name("c");
  w.open(`if (${result} !== ${item}) {`);
  w.line(`${copy} ??= ${array}.slice();`);
  w.line(`${copy}[${index}] = ${result};`);
  w.close();
  return copy;
}

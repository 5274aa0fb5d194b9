/**
 * compile/validators: an object's structure: its properties in schema order (missing or invalid),
 * required keys without a schema, then its other keys in input order (`propertyNames`,
 * `patternProperties` for the keys that match, and `additionalProperties` for the keys neither
 * named nor matched: none, or each checked against its schema), then `dependentRequired` and
 * `dependentSchemas` for the keys present. Properties are read as own properties only; a
 * coerced one is copied on write (`put`).
 */
import type { Part } from "./code.js";
import {
  check,
  dynamicKeyPath,
  fail,
  keyPath,
  type CodeBuilder,
  type CompileStructure,
  type Fail,
  type Path,
} from "./builder.js";
import { applyWhen } from "./conditions.js";
import { describe } from "./hints.js";
import { pattern } from "./scalars.js";
import { isSchema, isTrivial, type Schema } from "./schema.js";

export const objectProperties: CompileStructure<Schema> = (w, schema, value, path, to) => {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set<string>();
  if (Array.isArray(schema.required))
    for (const key of schema.required) if (typeof key === "string") required.add(key);
  const slot = w.placeholder();
  let copy: string | null = null;
  for (const key in properties) {
    const propertySchema = properties[key];
    const isRequired = required.has(key);
    if (!isRequired && isTrivial(propertySchema)) continue;
    const item = w.name("v");
    w.readProperty(item, value, key);
    const at = keyPath(path, key);
    if (isRequired)
      check(
        w,
        [`${item} === undefined`],
        "&&",
        to,
        at,
        `expected ${describe(w.unit, propertySchema)}`,
        "missing",
      );
    else w.open(`if (${item} !== undefined) {`);
    copy = storeProperty(w, copy, value, { str: key }, item, w.node(propertySchema, item, at, to));
    if (!isRequired) w.close();
  }
  for (const key of required) {
    if (Object.prototype.hasOwnProperty.call(properties, key)) continue;
    const item = w.name("v");
    w.readProperty(item, value, key);
    check(
      w,
      [`${item} === undefined`],
      "&&",
      to,
      keyPath(path, key),
      "expected a value",
      "missing",
    );
  }
  const closed = schema.additionalProperties === false;
  const extra =
    closed || isTrivial(schema.additionalProperties) ? null : schema.additionalProperties!;
  const names = isTrivial(schema.propertyNames) ? null : schema.propertyNames!;
  const patterns = isSchema(schema.patternProperties) ? schema.patternProperties : {};
  if (closed || extra !== null || names !== null || Object.keys(patterns).length > 0) {
    const key = w.name("k");
    const at = dynamicKeyPath(path, key);
    w.open(`for (const ${key} in ${value}) {`);
    if (names !== null) {
      const namePattern =
        isSchema(names) && typeof names.pattern === "string" ? names.pattern : null;
      const hint = `expected property names ${namePattern !== null ? `matching ${namePattern}` : `of ${describe(w.unit, names)}`}`;
      w.node(names, key, at, to, { coerce: false, hint });
    }
    // A key matching a pattern is checked against its schema, named or not, and is not
    // additional; a key that may match several patterns is checked against each.
    const sources = Object.keys(patterns);
    const skip = closed || extra !== null;
    const matched = skip && sources.length > 1 ? w.name("m") : null;
    if (matched !== null) w.line(`let ${matched} = false;`);
    for (const source of sources) {
      w.open(`if (${pattern(w, source)}.test(${key})) {`);
      const item = w.name("v");
      w.line(`const ${item}: unknown = ${value}[${key}];`);
      copy = storeProperty(w, copy, value, key, item, w.node(patterns[source], item, at, to));
      if (matched !== null) w.line(`${matched} = true;`);
      else if (skip) w.line("continue;");
      w.close();
    }
    const known = Object.keys(properties);
    if ((closed || extra !== null) && known.length > 0) {
      w.open(`switch (${key}) {`);
      for (const name of known) w.line(["case ", { str: name }, ":"]);
      w.line("  continue;");
      w.close();
    }
    if (matched !== null) w.line(`if (${matched}) continue;`);
    if (closed) {
      fail(
        w,
        to,
        "invalid",
        at,
        known.length > 0
          ? `unknown property; expected: ${known.join(", ")}`
          : "unknown property; expected no properties",
      );
    } else if (extra !== null) {
      const item = w.name("v");
      w.line(`const ${item}: unknown = ${value}[${key}];`);
      copy = storeProperty(w, copy, value, key, item, w.node(extra, item, at, to));
    }
    w.close();
  }
  let out = value;
  if (copy !== null) {
    slot.text = `let ${copy}: Record<string, unknown> | undefined;`;
    out = w.name("v");
    w.line(`const ${out} = ${copy} ?? ${value};`);
  }
  return dependents(w, schema, out, path, to);
};

/** `dependentRequired` and `dependentSchemas`: what a key present brings with it. */
function dependents(w: CodeBuilder, schema: Schema, value: string, path: Path, to: Fail): string {
  const required = isSchema(schema.dependentRequired) ? schema.dependentRequired : {};
  for (const key in required) {
    const names = required[key];
    if (!Array.isArray(names) || names.length === 0) continue;
    const present = w.name("v");
    w.readProperty(present, value, key);
    w.open(`if (${present} !== undefined) {`);
    for (const name of names) {
      if (typeof name !== "string") continue;
      const item = w.name("v");
      w.readProperty(item, value, name);
      check(
        w,
        [`${item} === undefined`],
        "&&",
        to,
        keyPath(path, name),
        `expected a value (with ${key})`,
        "missing",
      );
    }
    w.close();
  }
  const schemas = isSchema(schema.dependentSchemas) ? schema.dependentSchemas : {};
  let out = value;
  for (const key in schemas) {
    const present = w.name("v");
    w.readProperty(present, out, key);
    out = applyWhen(w, `${present} !== undefined`, schemas[key]!, out, path, to);
  }
  return out;
}

/** Copy on write of a changed property (`key`: a string literal, or the name holding the key). */
function storeProperty(
  w: CodeBuilder,
  copy: string | null,
  object: string,
  key: Part,
  item: string,
  result: string,
): string | null {
  if (result === item) return copy;
  copy ??= w.name("c");
  w.needs.helpers.add("put");
  w.open(`if (${result} !== ${item}) {`);
  w.call(`${copy} = put`, [copy, object, key, result], ";");
  w.close();
  return copy;
}

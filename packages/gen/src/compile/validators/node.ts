/**
 * compile/validators: one schema's checks, whatever its kind. The keywords that apply to any value
 * come first (coercion, `$ref`, `anyOf`, `allOf`, `enum`/`const`, `type`), then each kind's keywords
 * (`scalars.ts`, `arrays.ts`, `objects.ts`), guarded by a type test where the schema allows other
 * types too, then the tests of the whole value as they left it (`oneOf`, `not`, `if`). Failures
 * of one node's own checks share its hint: one `if (a || b || c)`.
 */
import { canonicalJson, type JsonValue } from "@zcp/runtime/definition";
import { anyOf } from "./any-of.js";
import { arrayItems } from "./arrays.js";
import {
  check,
  fail,
  renderPath,
  type CodeBuilder,
  type Fail,
  type NodeOptions,
  type Path,
} from "./builder.js";
import { coerces } from "./coercion.js";
import { ifThenElse, not, oneOf } from "./conditions.js";
import { describe } from "./hints.js";
import { objectProperties } from "./objects.js";
import { kindFailures } from "./scalars.js";
import {
  hasType,
  isComposite,
  isSchema,
  keywordBits,
  KIND_BITS,
  KINDS,
  typeList,
  typesOfKind,
  type Kind,
  type Schema,
} from "./schema.js";
import { sharedType } from "./shared.js";

/** Code nested this deep (in columns) moves composite schemas into functions of their own. */
const OUTLINE_AT = 34;

/** Compiles `schema`'s checks on `value` (see `CompileNode`). */
export function node(
  w: CodeBuilder,
  schema: JsonValue | undefined,
  value: string,
  path: Path,
  to: Fail,
  options: NodeOptions = {},
): string {
  if (schema === undefined || schema === true) return value;
  if (!isSchema(schema))
    throw new Error(
      `zcp gen: cannot compile the schema ${JSON.stringify(schema)} (${w.unit.owner})`,
    );
  const bits = keywordBits(schema, w.unit.owner);
  const coerce = options.coerce !== false && w.strict === 0;
  const shared = options.root || !coerce ? null : sharedType(schema);
  if (shared !== null) {
    w.needs.shared.set(shared.name, schema);
    return callValidator(w, shared.name, coerces(w.unit, schema), value, path, to);
  }
  if (!options.root && coerce && w.indent >= OUTLINE_AT && isComposite(schema)) {
    const fn = `${w.unit.prefix}$${w.unit.outlined.length + 1}`;
    w.unit.outlined.push({ fn, schema });
    return callValidator(w, fn, coerces(w.unit, schema), value, path, to);
  }
  const types = typeList(schema);
  const hint = options.hint ?? `expected ${describe(w.unit, schema)}`;
  let current = value;

  if (coerce && types !== null && !types.includes("string")) {
    const number = types.includes("number") || types.includes("integer");
    const boolean = types.includes("boolean");
    if (number || boolean) {
      if (number) w.needs.helpers.add("toNumber");
      if (boolean) w.needs.helpers.add("toBoolean");
      const coerced =
        number && boolean
          ? `toNumber(toBoolean(${value}))`
          : number
            ? `toNumber(${value})`
            : `toBoolean(${value})`;
      current = w.name("v");
      w.line(`const ${current} = ${coerced};`);
    }
  }
  const ref = schema.$ref;
  if (typeof ref === "string") {
    const def = w.unit.defs.get(ref);
    if (!def) throw new Error(`zcp gen: cannot resolve ${JSON.stringify(ref)} (${w.unit.owner})`);
    // A strict test compiles the target in place (its function coerces), once per reference
    // on the way down: a recursive one then calls the function's strict variant.
    if (w.strict > 0 && !w.inlining.has(ref)) {
      w.inlining.add(ref);
      current = w.node(def.schema, current, path, to);
      w.inlining.delete(ref);
    } else if (w.strict > 0) {
      let fn = w.unit.strictDefs.get(def);
      if (fn === undefined) w.unit.strictDefs.set(def, (fn = `${def.fn}$strict`));
      current = callValidator(w, fn, false, current, path, to);
    } else current = callValidator(w, def.fn, def.coerces, current, path, to);
  }
  if (Array.isArray(schema.anyOf)) current = anyOf(w, schema.anyOf, current, path, to, hint);
  // `allOf`: each member in turn, on the value the one before it coerced.
  if (Array.isArray(schema.allOf))
    for (const member of schema.allOf) current = w.node(member, current, path, to);

  const failures: string[] = [];
  let values: JsonValue[] | null = null;
  if (schema.const !== undefined || Array.isArray(schema.enum)) {
    values = [];
    for (const item of schema.const !== undefined ? [schema.const] : (schema.enum as JsonValue[])) {
      if ((types === null || hasType(item, types)) && !values.includes(item)) values.push(item);
    }
  }
  let narrowed: readonly string[] | null = null;
  if (values) {
    if (values.length === 0)
      throw new Error(
        `zcp gen: no value of ${JSON.stringify(schema.enum ?? schema.const)} has the type ${JSON.stringify(schema.type)} (${w.unit.owner})`,
      );
    enumCheck(w, values, current, to, path, hint);
  } else if (types !== null) {
    const checks = typeFailures(w, types, current);
    if (checks.length === 1) failures.push(checks[0]!);
    else check(w, checks, "&&", to, path, hint);
    narrowed = types;
  }
  for (const kind of KINDS) {
    if ((bits & KIND_BITS[kind]) === 0) continue;
    if (types !== null && !typesOfKind(types, kind, false)) continue;
    if (narrowed !== null && typesOfKind(narrowed, kind, true)) {
      kindFailures(w, kind, schema, current, failures);
      flush(w, failures, to, path, hint);
      current = kindStructure(w, kind, schema, current, path, to);
      continue;
    }
    flush(w, failures, to, path, hint);
    if (kind === "object") w.needs.helpers.add("isObject");
    const value = current;
    current = w.guarded(kindTest(kind, value), value, () => {
      kindFailures(w, kind, schema, value, failures);
      flush(w, failures, to, path, hint);
      return kindStructure(w, kind, schema, value, path, to);
    });
  }
  flush(w, failures, to, path, hint);
  // The tests of the whole value, on the value as this node's own keywords left it.
  if (Array.isArray(schema.oneOf)) oneOf(w, schema.oneOf, current, path, to, hint);
  if (schema.not !== undefined)
    not(w, schema.not, current, path, to, `expected not ${describe(w.unit, schema.not)}`);
  if (schema.if !== undefined) current = ifThenElse(w, schema, current, path, to);
  return current;
}

/** Emits `if (a || b || c) { <fail> }` for the failures collected, and clears them. */
function flush(w: CodeBuilder, failures: string[], to: Fail, path: Path, hint: string): void {
  if (failures.length === 0) return;
  w.openIf(failures.slice(), "||");
  fail(w, to, "invalid", path, hint);
  w.close();
  failures.length = 0;
}

function kindTest(kind: Kind, value: string): string {
  if (kind === "string") return `typeof ${value} === "string"`;
  if (kind === "number") return `typeof ${value} === "number"`;
  return kind === "array" ? `Array.isArray(${value})` : `isObject(${value})`;
}

/** The checks of an array's items or an object's properties; returns the name of the result. */
function kindStructure(
  w: CodeBuilder,
  kind: Kind,
  schema: Schema,
  value: string,
  path: Path,
  to: Fail,
): string {
  if (kind === "array") return arrayItems(w, schema, value, path, to);
  if (kind === "object") return objectProperties(w, schema, value, path, to);
  return value;
}

/**
 * `enum` and `const`: the value must be one of `values`: a primitive by `===`, and where one
 * is an object or an array, each by its sorted-key JSON text (`sameJson`).
 */
function enumCheck(
  w: CodeBuilder,
  values: readonly JsonValue[],
  value: string,
  to: Fail,
  path: Path,
  hint: string,
): void {
  const literals: (string | number | boolean | null)[] = [];
  for (const item of values) if (typeof item !== "object" || item === null) literals.push(item);
  if (literals.length === values.length)
    return w.enumCheck(value, literals, () => fail(w, to, "invalid", path, hint));
  const same = w.name("e");
  w.needs.helpers.add("sameJson");
  w.call(
    `const ${same} = sameJson`,
    [value, ...values.map((item) => ({ str: canonicalJson(item) }))],
    ";",
  );
  check(w, [`!${same}`], "&&", to, path, hint);
}

/** The type names of JSON Schema. */
const TYPES = new Set(["string", "number", "integer", "boolean", "null", "array", "object"]);

/**
 * Conditions that are all true when `value` has none of `types`. An unknown type name, or none,
 * is an error: there would be no condition to test.
 */
function typeFailures(w: CodeBuilder, types: readonly string[], value: string): string[] {
  const unknown = types.find((type) => !TYPES.has(type));
  if (types.length === 0 || unknown !== undefined)
    throw new Error(
      `zcp gen: ${types.length === 0 ? "an empty type list" : `the type ${JSON.stringify(unknown)}`} is not a JSON Schema type (${w.unit.owner})`,
    );
  const out: string[] = [];
  const number = types.includes("number");
  for (const type of types) {
    if (type === "string") out.push(`typeof ${value} !== "string"`);
    else if (type === "boolean") out.push(`typeof ${value} !== "boolean"`);
    else if (type === "null") out.push(`${value} !== null`);
    else if (type === "array") out.push(`!Array.isArray(${value})`);
    else if (type === "number" || type === "integer" || type === "object") {
      if (type === "integer" && number) continue;
      const helper = type === "number" ? "isNumber" : type === "integer" ? "isInteger" : "isObject";
      w.needs.helpers.add(helper);
      out.push(`!${helper}(${value})`);
    }
  }
  return out;
}

/** Calls a `(value, path)` function; returns the name of the value it returns, or `value`. */
function callValidator(
  w: CodeBuilder,
  fn: string,
  coerced: boolean,
  value: string,
  path: Path,
  to: Fail,
): string {
  const result = w.name("r");
  w.call(`const ${result} = ${fn}`, [value, renderPath(w, path)], ";");
  w.open(`if (!${result}.ok) {`);
  if (to.kind === "return") w.line(`return ${result};`);
  else fail(w, to, "invalid", path, "");
  w.close();
  if (!coerced) return value;
  const out = w.name("v");
  w.line(`const ${out} = ${result}.value;`);
  return out;
}

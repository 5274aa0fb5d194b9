/**
 * diff: JSON Schema comparison. Each rule is a small pure function of the old and the new schema
 * that returns findings with a stable rule id and an effect: what the change does to the set of
 * values the schema allows. Whether an effect breaks depends on the side: an input (the
 * arguments callers send) must not narrow, an output (what consumers read) must not widen.
 */
import { canonicalJson, type JsonSchema, type JsonValue } from "@zcp/runtime/definition";

/** Whether a change breaks an input schema and an output schema. */
interface Effect {
  readonly input: boolean;
  readonly output: boolean;
}

/** Allows fewer values: breaks callers (inputs), not consumers (outputs). */
const NARROWED: Effect = { input: true, output: false };
/** Allows more values: breaks consumers (outputs), not callers (inputs). */
const WIDENED: Effect = { input: false, output: true };
/** Neither a subset nor a superset: breaks both. */
const INCOMPATIBLE: Effect = { input: true, output: true };
/** Breaks neither (annotations, an optional property added). */
const SAFE: Effect = { input: false, output: false };

export interface Finding {
  readonly rule: string;
  readonly effect: Effect;
  readonly detail: string;
  /** Dotted keyword path into the tool definition, e.g. `inputSchema.properties.city`. */
  readonly path: string;
}

type Schema = JsonSchema | boolean;
type Rule = (old: JsonSchema, now: JsonSchema, path: string, refs: Refs) => Finding[];

/**
 * What a comparison follows `$ref`s through: the two root schemas (`#` of each side's
 * pointers), whether their `$defs` are equal, and the pairs of references being compared (a
 * recursive type reaches the same pair again: it is then taken as equal, co-inductively).
 */
interface Refs {
  readonly old: Schema;
  readonly now: Schema;
  readonly defsSame: boolean;
  readonly pairs: Set<string>;
}

const same = (a: unknown, b: unknown): boolean =>
  canonicalJson(a as JsonValue) === canonicalJson(b as JsonValue);
const show = (value: unknown): string => JSON.stringify(value);
const finding = (rule: string, effect: Effect, detail: string, path: string): Finding => ({
  rule,
  effect,
  detail,
  path,
});

/** A property at the top of an input schema is a parameter. */
const what = (path: string): string => (path === "inputSchema" ? "parameter" : "property");

function typesOf(schema: JsonSchema): Set<string> | null {
  const type = schema["type"];
  if (type === undefined) return null;
  return new Set(Array.isArray(type) ? (type as string[]) : [type as string]);
}

/** Whether every value of the types `inner` is one of the types `outer`. */
function covers(outer: Set<string> | null, inner: Set<string> | null): boolean {
  if (outer === null) return true;
  if (inner === null) return false;
  return [...inner].every((t) => outer.has(t) || (t === "integer" && outer.has("number")));
}

const typeChanged: Rule = (old, now, path) => {
  const before = typesOf(old);
  const after = typesOf(now);
  if (same(before && [...before].sort(), after && [...after].sort())) return [];
  const detail = `type ${show(old["type"] ?? "any")} -> ${show(now["type"] ?? "any")}`;
  if (covers(after, before)) return [finding("type-widened", WIDENED, detail, path)];
  if (covers(before, after)) return [finding("type-narrowed", NARROWED, detail, path)];
  return [finding("type-changed", INCOMPATIBLE, detail, path)];
};

const enumChanged: Rule = (old, now, path) => {
  const before = old["enum"] as JsonValue[] | undefined;
  const after = now["enum"] as JsonValue[] | undefined;
  if (before === undefined && after === undefined) return [];
  if (before === undefined)
    return [finding("enum-added", NARROWED, `enum ${show(after)} added`, path)];
  if (after === undefined) return [finding("enum-removed", WIDENED, "enum removed", path)];
  const has = (list: JsonValue[], v: JsonValue) => list.some((m) => same(m, v));
  return [
    ...before
      .filter((m) => !has(after, m))
      .map((m) => finding("enum-member-removed", NARROWED, `enum member ${show(m)} removed`, path)),
    ...after
      .filter((m) => !has(before, m))
      .map((m) => finding("enum-member-added", WIDENED, `enum member ${show(m)} added`, path)),
  ];
};

const constChanged: Rule = (old, now, path) => {
  const inOld = "const" in old;
  const inNew = "const" in now;
  if (!inOld && !inNew) return [];
  if (!inOld) return [finding("const-added", NARROWED, `const ${show(now["const"])} added`, path)];
  if (!inNew)
    return [finding("const-removed", WIDENED, `const ${show(old["const"])} removed`, path)];
  if (same(old["const"], now["const"])) return [];
  const detail = `const ${show(old["const"])} -> ${show(now["const"])}`;
  return [finding("const-changed", INCOMPATIBLE, detail, path)];
};

const LOWER_BOUNDS = [
  "minimum",
  "exclusiveMinimum",
  "minLength",
  "minItems",
  "minProperties",
  "minContains",
];
const UPPER_BOUNDS = [
  "maximum",
  "exclusiveMaximum",
  "maxLength",
  "maxItems",
  "maxProperties",
  "maxContains",
];

/** A bound added, raised (lower bounds) or lowered (upper bounds) tightens; the reverse loosens. */
const boundChanged: Rule = (old, now, path) => {
  const out: Finding[] = [];
  for (const [keywords, upper] of [
    [LOWER_BOUNDS, false],
    [UPPER_BOUNDS, true],
  ] as const) {
    for (const keyword of keywords) {
      const before = old[keyword] as number | undefined;
      const after = now[keyword] as number | undefined;
      if (before === after) continue;
      const tighter =
        before === undefined || (after !== undefined && (upper ? after < before : after > before));
      const detail = `${keyword} ${before ?? "none"} -> ${after ?? "none"}`;
      out.push(
        tighter
          ? finding("constraint-tightened", NARROWED, detail, path)
          : finding("constraint-loosened", WIDENED, detail, path),
      );
    }
  }
  const before = old["multipleOf"] as number | undefined;
  const after = now["multipleOf"] as number | undefined;
  if (before !== after) {
    const detail = `multipleOf ${before ?? "none"} -> ${after ?? "none"}`;
    if (after === undefined || (before !== undefined && before % after === 0))
      out.push(finding("constraint-loosened", WIDENED, detail, path));
    else if (before === undefined || after % before === 0)
      out.push(finding("constraint-tightened", NARROWED, detail, path));
    else out.push(finding("constraint-changed", INCOMPATIBLE, detail, path));
  }
  if (Boolean(old["uniqueItems"]) !== Boolean(now["uniqueItems"])) {
    const detail = `uniqueItems ${Boolean(old["uniqueItems"])} -> ${Boolean(now["uniqueItems"])}`;
    out.push(
      now["uniqueItems"]
        ? finding("constraint-tightened", NARROWED, detail, path)
        : finding("constraint-loosened", WIDENED, detail, path),
    );
  }
  return out;
};

/** `pattern` and `format`: added narrows, removed widens, changed is incompatible. */
const stringRule =
  (keyword: "pattern" | "format"): Rule =>
  (old, now, path) => {
    const before = old[keyword] as string | undefined;
    const after = now[keyword] as string | undefined;
    if (before === after) return [];
    if (before === undefined)
      return [finding(`${keyword}-added`, NARROWED, `${keyword} ${show(after)} added`, path)];
    if (after === undefined)
      return [finding(`${keyword}-removed`, WIDENED, `${keyword} ${show(before)} removed`, path)];
    const detail = `${keyword} ${show(before)} -> ${show(after)}`;
    return [finding(`${keyword}-changed`, INCOMPATIBLE, detail, path)];
  };
const patternChanged = stringRule("pattern");
const formatChanged = stringRule("format");

/** Properties removed, added, made required or optional; common ones compared in depth. */
const propertiesChanged: Rule = (old, now, path, refs) => {
  const before = (old["properties"] ?? {}) as Record<string, Schema>;
  const after = (now["properties"] ?? {}) as Record<string, Schema>;
  const requiredBefore = new Set((old["required"] ?? []) as string[]);
  const requiredAfter = new Set((now["required"] ?? []) as string[]);
  const out: Finding[] = [];
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const name of names) {
    const at = `${path}.properties.${name}`;
    const kind = what(path);
    if (!(name in after)) {
      out.push(finding("property-removed", INCOMPATIBLE, `${kind} "${name}" removed`, at));
    } else if (!(name in before)) {
      out.push(
        requiredAfter.has(name)
          ? finding("required-added", NARROWED, `required ${kind} "${name}" added`, at)
          : finding("property-added", SAFE, `optional ${kind} "${name}" added`, at),
      );
    } else {
      if (!requiredBefore.has(name) && requiredAfter.has(name))
        out.push(finding("required-added", NARROWED, `${kind} "${name}" made required`, at));
      if (requiredBefore.has(name) && !requiredAfter.has(name))
        out.push(finding("required-removed", WIDENED, `${kind} "${name}" made optional`, at));
      out.push(...compareSchema(before[name]!, after[name]!, at, refs));
    }
  }
  return out;
};

/** An absent or `true` subschema allows anything: `{}`. */
const orAny = (schema: JsonValue | undefined): Schema =>
  schema === undefined || schema === true ? {} : (schema as Schema);

/** `false` where values were allowed closes; the reverse opens; schemas are compared. */
const subschemaRule =
  (keyword: string, closed: string, opened: string): Rule =>
  (old, now, path, refs) => {
    if (!(keyword in old) && !(keyword in now)) return [];
    const before = orAny(old[keyword]);
    const after = orAny(now[keyword]);
    const at = `${path}.${keyword}`;
    if (before !== false && after === false)
      return [finding(closed, NARROWED, `${keyword} closed (false)`, at)];
    if (before === false && after !== false)
      return [finding(opened, WIDENED, `${keyword} opened`, at)];
    return compareSchema(before, after, at, refs);
  };
const additionalPropertiesChanged = subschemaRule(
  "additionalProperties",
  "additional-properties-closed",
  "additional-properties-opened",
);
const itemsChanged = subschemaRule("items", "items-closed", "items-opened");
const propertyNamesChanged = subschemaRule("propertyNames", "schema-closed", "schema-opened");

/** Keyed subschemas (`patternProperties`): common keys compared, others fall back. */
const keyedRule =
  (keyword: string): Rule =>
  (old, now, path, refs) => {
    const before = (old[keyword] ?? {}) as Record<string, Schema>;
    const after = (now[keyword] ?? {}) as Record<string, Schema>;
    const out: Finding[] = [];
    for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
      const at = `${path}.${keyword}.${key}`;
      if (key in before && key in after)
        out.push(...compareSchema(before[key]!, after[key]!, at, refs));
      else out.push(finding("schema-changed", INCOMPATIBLE, `${keyword} "${key}" changed`, at));
    }
    return out;
  };
const patternPropertiesChanged = keyedRule("patternProperties");

/**
 * Lists of subschemas (`prefixItems`, `anyOf`, `oneOf`, `allOf`): of the same length, compared
 * member by member; otherwise an `anyOf`/`oneOf` that only gained members widens, one that only
 * lost members narrows, and anything else is incompatible.
 */
const listRule =
  (keyword: string): Rule =>
  (old, now, path, refs) => {
    const before = old[keyword] as Schema[] | undefined;
    const after = now[keyword] as Schema[] | undefined;
    if (before === undefined && after === undefined) return [];
    const at = `${path}.${keyword}`;
    if (before && after && before.length === after.length)
      return before.flatMap((member, i) => compareSchema(member, after[i]!, `${at}.${i}`, refs));
    if (before && after && (keyword === "anyOf" || keyword === "oneOf")) {
      const within = (a: Schema[], b: Schema[]) => a.every((m) => b.some((n) => same(m, n)));
      if (within(before, after))
        return [finding("any-of-widened", WIDENED, `${keyword} gained members`, at)];
      if (within(after, before))
        return [finding("any-of-narrowed", NARROWED, `${keyword} lost members`, at)];
    }
    return [finding("schema-changed", INCOMPATIBLE, `${keyword} changed`, at)];
  };

/** Annotations: never breaking, reported as information. */
const annotationRule =
  (keyword: string, rule: string): Rule =>
  (old, now, path) =>
    same(old[keyword] ?? null, now[keyword] ?? null)
      ? []
      : [finding(rule, SAFE, `${keyword} ${show(old[keyword])} -> ${show(now[keyword])}`, path)];

const RULES: readonly Rule[] = [
  typeChanged,
  enumChanged,
  constChanged,
  boundChanged,
  patternChanged,
  formatChanged,
  propertiesChanged,
  additionalPropertiesChanged,
  patternPropertiesChanged,
  propertyNamesChanged,
  itemsChanged,
  listRule("prefixItems"),
  listRule("anyOf"),
  listRule("oneOf"),
  listRule("allOf"),
  annotationRule("description", "description-changed"),
  annotationRule("title", "title-changed"),
  annotationRule("examples", "examples-changed"),
  annotationRule("default", "default-changed"),
  annotationRule("deprecated", "deprecated-changed"),
];

/** The keywords the rules above read; any other keyword that changed falls back to `schema-changed`. */
const KNOWN = new Set([
  "type",
  "enum",
  "const",
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
  "multipleOf",
  "uniqueItems",
  "pattern",
  "format",
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "items",
  "prefixItems",
  "anyOf",
  "oneOf",
  "allOf",
  "$defs",
  "definitions",
  "description",
  "title",
  "examples",
  "default",
  "deprecated",
  "$comment",
]);

/** Unknown keywords (`not`, `if`, a `$ref` that does not resolve...) that changed: incompatible, to be safe. */
const otherChanged: Rule = (old, now, path) =>
  [...new Set([...Object.keys(old), ...Object.keys(now)])]
    .filter((k) => !KNOWN.has(k) && !same(old[k] ?? null, now[k] ?? null))
    .sort()
    .map((k) =>
      finding("schema-changed", INCOMPATIBLE, `${k} ${show(old[k])} -> ${show(now[k])}`, path),
    );

/**
 * Every finding between two schemas (or boolean subschemas) at `path`. A `$ref` is followed to
 * its definition (in the root schemas: `old` and `now` of the outermost call) and compared
 * there, so that a changed recursive type is found where it is used; `$defs` themselves are not
 * compared (a definition matters where it is referenced). A `$ref` that does not resolve is
 * compared as text.
 */
export function compareSchema(
  old: Schema,
  now: Schema,
  path: string,
  refs: Refs = { old, now, defsSame: sameDefs(old, now), pairs: new Set() },
): Finding[] {
  const before = dereference(old, refs.old);
  const after = dereference(now, refs.now);
  if (before.ref !== null && after.ref !== null) {
    const pair = `${before.ref}\u0000${after.ref}`;
    if (refs.pairs.has(pair)) return [];
    refs.pairs.add(pair);
    try {
      return compareResolved(before.schema, after.schema, path, refs);
    } finally {
      refs.pairs.delete(pair);
    }
  }
  return compareResolved(before.schema, after.schema, path, refs);
}

function compareResolved(old: Schema, now: Schema, path: string, refs: Refs): Finding[] {
  // Equal texts are equal schemas, unless references in them point into `$defs` that differ.
  if (same(old, now) && (refs.defsSame || !JSON.stringify(old).includes('"$ref"'))) return [];
  if (old === false) return [finding("schema-opened", WIDENED, "schema opened", path)];
  if (now === false) return [finding("schema-closed", NARROWED, "schema closed (false)", path)];
  const before = old === true ? {} : old;
  const after = now === true ? {} : now;
  const types = typeChanged(before, after, path, refs);
  // Values of unrelated types: the keywords below have nothing left in common to compare.
  if (types.some((f) => f.rule === "type-changed")) return types;
  return [
    ...types,
    ...RULES.slice(1).flatMap((rule) => rule(before, after, path, refs)),
    ...otherChanged(before, after, path, refs),
  ];
}

const sameDefs = (old: Schema, now: Schema): boolean =>
  typeof old === "boolean" ||
  typeof now === "boolean" ||
  (same(old["$defs"] ?? null, now["$defs"] ?? null) &&
    same(old["definitions"] ?? null, now["definitions"] ?? null));

/**
 * `schema` with a local `$ref` (`#`, `#/$defs/Name`, any JSON pointer into `root`) replaced by
 * what it points to, the keywords beside `$ref` kept over it, as often as the target is a `$ref`
 * again; `ref` is the first pointer followed (null: none, or one that does not resolve).
 */
function dereference(schema: Schema, root: Schema): { schema: Schema; ref: string | null } {
  let current = schema;
  let first: string | null = null;
  for (let hops = 0; hops < 32 && typeof current === "object"; hops++) {
    const ref = current["$ref"];
    if (typeof ref !== "string") break;
    const target = pointer(root, ref);
    if (target === undefined) break;
    first ??= ref;
    const { $ref: _ref, ...siblings } = current;
    current = typeof target === "boolean" ? target : { ...target, ...siblings };
  }
  return { schema: current, ref: first };
}

/** The subschema a local reference points to in `root`, or undefined. */
function pointer(root: Schema, ref: string): Schema | undefined {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  let at: JsonValue = root;
  for (const raw of ref === "#" ? [] : ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof at !== "object" || at === null || !(key in at)) return undefined;
    at = (at as { readonly [key: string]: JsonValue })[key]!;
  }
  return typeof at === "boolean" || (typeof at === "object" && at !== null && !Array.isArray(at))
    ? (at as Schema)
    : undefined;
}

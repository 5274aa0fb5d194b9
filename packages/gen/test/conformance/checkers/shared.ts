/**
 * What the provider checkers share: `$`-paths, JSON type guards, and a walk over the schema
 * positions of a JSON Schema document (the nodes that are themselves schemas).
 *
 * A checker is a pure function `(entry, toolId) => string[]`; every violation reads
 * `<toolId> <$-path>: <rule broken>`, where `$` is the entry itself.
 */

export type Checker = (entry: unknown, toolId: string) => string[];

export type Obj = { readonly [key: string]: unknown };

export function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `$.a.b`, `$["a-b"]`, `$.list[2]`. */
export function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Collects violations for one entry. */
export class Report {
  readonly violations: string[] = [];
  constructor(readonly toolId: string) {}
  add(path: string, message: string): void {
    this.violations.push(`${this.toolId} ${path}: ${message}`);
  }
}

/** Checks that `value` is an object with exactly the required keys and at most the optional ones. */
export function checkKeys(
  report: Report,
  value: unknown,
  path: string,
  required: readonly string[],
  optional: readonly string[] = [],
): value is Obj {
  if (!isObject(value)) {
    report.add(path, `must be an object, got ${describe(value)}`);
    return false;
  }
  for (const key of required)
    if (!(key in value)) report.add(path, `missing required key "${key}"`);
  for (const key of Object.keys(value)) {
    if (!required.includes(key) && !optional.includes(key))
      report.add(
        join(path, key),
        `unexpected key "${key}" (allowed: ${[...required, ...optional].join(", ")})`,
      );
  }
  return true;
}

export function checkName(report: Report, value: unknown, path: string, pattern: RegExp): void {
  if (typeof value !== "string") report.add(path, `name must be a string, got ${describe(value)}`);
  else if (!pattern.test(value))
    report.add(path, `name "${value}" does not match ${pattern.source}`);
}

export function checkString(report: Report, value: unknown, path: string, what: string): void {
  if (typeof value !== "string")
    report.add(path, `${what} must be a string, got ${describe(value)}`);
}

export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}

/** Types a node allows, from `type` (a string or a list of strings). */
export function typesOf(node: Obj): string[] {
  if (typeof node.type === "string") return [node.type];
  return isStringArray(node.type) ? node.type : [];
}

/** How a sub-schema hangs from its parent: under `properties`, under `$defs`, or elsewhere. */
export type Position = "property" | "def" | "other";

/**
 * Where a schema holds sub-schemas. `additionalProperties` counts only when it is a schema
 * object (`false`/`true` are not nodes).
 */
export function childSchemas(node: Obj, path: string): [unknown, string, Position][] {
  const children: [unknown, string, Position][] = [];
  const map = (key: string, position: Position) => {
    const value = node[key];
    if (isObject(value))
      for (const [name, sub] of Object.entries(value))
        children.push([sub, join(join(path, key), name), position]);
  };
  const list = (key: string) => {
    const value = node[key];
    if (Array.isArray(value))
      value.forEach((sub, i) => children.push([sub, join(join(path, key), i), "other"]));
  };
  map("properties", "property");
  map("$defs", "def");
  list("anyOf");
  list("oneOf");
  list("allOf");
  list("prefixItems");
  for (const key of ["items", "additionalProperties", "not"])
    if (isObject(node[key])) children.push([node[key], join(path, key), "other"]);
  return children;
}

/**
 * Visits every schema node of `root` (the root included), depth first, with its path and its
 * object nesting level: the root is level 1 and a property of an object one level deeper;
 * `anyOf` branches and array items stay at their parent's level, and `$defs` entries restart
 * at level 1 (a definition is a document of its own).
 */
export function walk(
  root: unknown,
  path: string,
  visit: (node: unknown, path: string, level: number) => void,
): void {
  const go = (node: unknown, at: string, level: number) => {
    visit(node, at, level);
    if (!isObject(node)) return;
    for (const [child, childPath, position] of childSchemas(node, at))
      go(child, childPath, position === "def" ? 1 : position === "property" ? level + 1 : level);
  };
  go(root, path, 1);
}

/** Checks a `$ref` (`#/$defs/Name` only) against the root's `$defs`. */
export function checkRef(report: Report, ref: unknown, path: string, rootDefs: unknown): void {
  if (typeof ref !== "string") {
    report.add(path, `$ref must be a string, got ${describe(ref)}`);
    return;
  }
  const match = /^#\/\$defs\/([^/]+)$/.exec(ref);
  if (!match) {
    report.add(path, `$ref "${ref}" must point to "#/$defs/<name>"`);
    return;
  }
  const name = match[1]!.replace(/~1/g, "/").replace(/~0/g, "~");
  if (!isObject(rootDefs) || !(name in rootDefs))
    report.add(path, `$ref "${ref}" points to a missing definition (no $defs.${name} at the root)`);
}

/** `required` is a list of distinct property names, each of them declared in `properties`. */
export function checkRequiredNamesProperties(report: Report, node: Obj, path: string): void {
  if (node.required === undefined) return;
  if (!isStringArray(node.required)) {
    report.add(join(path, "required"), "required must be a list of property names");
    return;
  }
  const properties = isObject(node.properties) ? node.properties : {};
  const seen = new Set<string>();
  for (const name of node.required) {
    if (seen.has(name)) report.add(join(path, "required"), `required lists "${name}" twice`);
    seen.add(name);
    if (!(name in properties))
      report.add(join(path, "required"), `required names "${name}", which is not in properties`);
  }
}

/**
 * MCP `tools/list` entries: the listed fields only, a SEP-986 name, object input and output
 * schemas, `$ref` only into the root's `$defs` (which exist only for recursion), the standard
 * hints (the title only once, as the entry's own), and zcp's groups and stages in `_meta`, each
 * only when the tool has some, and `deprecated: true` there for a deprecated tool.
 */
import {
  checkKeys,
  checkName,
  checkRef,
  checkString,
  describe,
  isObject,
  isStringArray,
  join,
  Report,
  walk,
  type Checker,
  type Obj,
} from "./shared.js";

export const MCP_NAME = /^[A-Za-z0-9._-]{1,128}$/;
const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

export const checkMcp: Checker = (entry, toolId) => {
  const report = new Report(toolId);
  if (
    !checkKeys(
      report,
      entry,
      "$",
      ["name", "description", "inputSchema"],
      ["title", "outputSchema", "annotations", "_meta"],
    )
  )
    return report.violations;
  checkName(report, entry.name, "$.name", MCP_NAME);
  checkString(report, entry.description, "$.description", "description");
  if ("title" in entry) checkString(report, entry.title, "$.title", "title");
  checkSchema(report, entry.inputSchema, "$.inputSchema");
  if ("outputSchema" in entry) checkSchema(report, entry.outputSchema, "$.outputSchema");
  if ("annotations" in entry && checkKeys(report, entry.annotations, "$.annotations", [], HINTS)) {
    for (const hint of HINTS) {
      if (hint in entry.annotations && typeof entry.annotations[hint] !== "boolean")
        report.add(
          join("$.annotations", hint),
          `${hint} must be a boolean, got ${describe(entry.annotations[hint])}`,
        );
    }
  }
  const fields = ["groups", "stages", "deprecated"];
  if ("_meta" in entry && checkKeys(report, entry._meta, "$._meta", [], fields)) {
    const keys = Object.keys(entry._meta);
    if (keys.length === 0) report.add("$._meta", "must be left out when it has no field");
    if ("deprecated" in entry._meta && entry._meta.deprecated !== true)
      report.add(
        "$._meta.deprecated",
        `deprecated must be true, left out otherwise, got ${describe(entry._meta.deprecated)}`,
      );
    for (const key of keys.filter((name) => name !== "deprecated"))
      if (!isStringArray(entry._meta[key]) || entry._meta[key].length === 0)
        report.add(
          join("$._meta", key),
          `${key} must be a list of strings, left out when empty, got ${describe(entry._meta[key])}`,
        );
  }
  return report.violations;
};

function checkSchema(report: Report, root: unknown, rootPath: string): void {
  if (!isObject(root)) {
    report.add(rootPath, `must be a schema object, got ${describe(root)}`);
    return;
  }
  if (root.type !== "object")
    report.add(rootPath, `must have type "object", got ${describe(root.type)}`);
  if ("$defs" in root && !isObject(root.$defs))
    report.add(join(rootPath, "$defs"), `$defs must be an object, got ${describe(root.$defs)}`);
  walk(root, rootPath, (node, path) => {
    if (typeof node === "boolean") return;
    if (!isObject(node)) {
      report.add(path, `a schema must be an object or a boolean, got ${describe(node)}`);
      return;
    }
    if (node.$defs !== undefined && path !== rootPath)
      report.add(join(path, "$defs"), "$defs is only allowed at the root");
    if ("$ref" in node) {
      if (!("$defs" in root))
        report.add(
          join(path, "$ref"),
          "$ref is only used with $defs at the root (schemas are inlined except for recursion)",
        );
      else checkRef(report, node.$ref, join(path, "$ref"), root.$defs);
    }
  });
  if (isObject(root.$defs)) {
    const defs = root.$defs;
    for (const name of Object.keys(defs)) {
      if (!reaches(defs, name, name))
        report.add(
          join(join(rootPath, "$defs"), name),
          `$defs.${name} is not recursive: definitions are only for recursive types, the rest is inlined`,
        );
    }
  }
}

/** Whether definition `from` refers, directly or through other definitions, to `target`. */
function reaches(defs: Obj, from: string, target: string): boolean {
  const seen = new Set<string>();
  const queue = [from];
  while (queue.length > 0) {
    const name = queue.shift()!;
    for (const ref of refsIn(defs[name])) {
      if (ref === target) return true;
      if (!seen.has(ref)) {
        seen.add(ref);
        queue.push(ref);
      }
    }
  }
  return false;
}

/** Names of the `#/$defs/<name>` references anywhere inside `value`. */
function refsIn(value: unknown): string[] {
  const names: string[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isObject(node)) {
      for (const [key, sub] of Object.entries(node)) {
        if (key === "$ref" && typeof sub === "string" && sub.startsWith("#/$defs/"))
          names.push(sub.slice("#/$defs/".length));
        else visit(sub);
      }
    }
  };
  visit(value);
  return names;
}

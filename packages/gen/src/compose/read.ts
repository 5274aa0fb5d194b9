/**
 * compose: reading a registry that `zcp gen` wrote, without executing anything. A registry
 * module (`registry.ts`, or the `registry.js` tsc compiled from it) is parsed with TypeScript's
 * parser and only its literals are evaluated: the top-level `const`s and `export const
 * registry`, object and array literals, strings, numbers, `true`/`false`/`null`, identifiers
 * naming such a `const`, and `JSON.parse('…')` of a string literal (registry format 3), with
 * `as`/`satisfies`/type annotations unwrapped. A full `registry.json` (with `"tools"`) is read
 * with `JSON.parse`.
 */
import fs from "node:fs";
import path from "node:path";
import type { JsonValue, Registry } from "@zcp/runtime/definition";
import { ts } from "@ts-morph/common";

/** Thrown for a file that is not a registry `zcp gen` wrote; the message names the file. */
export class RegistryReadError extends Error {
  override name = "RegistryReadError";
}

/** The extensions of registry modules, by the kind of script TypeScript parses them as. */
const MODULE_KINDS: { readonly [ext: string]: ts.ScriptKind } = {
  ".ts": ts.ScriptKind.TS,
  ".mts": ts.ScriptKind.TS,
  ".cts": ts.ScriptKind.TS,
  ".js": ts.ScriptKind.JS,
  ".mjs": ts.ScriptKind.JS,
  ".cjs": ts.ScriptKind.JS,
};

/**
 * The registry in `file` (absolute or relative to the current folder): a registry module or a
 * full `registry.json`, chosen by the extension. Throws `RegistryReadError` when the file cannot
 * be read or holds no registry.
 */
export function readRegistryFile(file: string, name: string = file): RegistryText {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RegistryReadError(
      `${name}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : (error as Error).message}`,
    );
  }
  return readRegistryText(text, name);
}

/** A registry read from a file, and the `zcp gen` version that wrote it (null when unknown). */
export interface RegistryText {
  readonly registry: Registry;
  readonly generator: string | null;
}

/** `readRegistryFile` on a text already read; `name` (its file name) chooses the parser. */
export function readRegistryText(text: string, name: string): RegistryText {
  const registry = name.endsWith(".json")
    ? readRegistryJson(text, name)
    : readRegistryModule(text, name);
  return { registry, generator: generatorOf(registry, text) };
}

/**
 * The `Registry` a generated registry module exports as `registry`, evaluated from its literals
 * alone (see the file comment). Throws `RegistryReadError`: `<file> is not a registry module
 * written by zcp gen (<what was found> at line N)`.
 */
export function readRegistryModule(text: string, file: string): Registry {
  const kind = MODULE_KINDS[path.extname(file)] ?? ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const refuse = (what: string, node: ts.Node): never => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    throw new RegistryReadError(
      `${file} is not a registry module written by zcp gen (${what} at line ${line + 1})`,
    );
  };
  const consts = new Map<string, ts.Expression>();
  let exported: ts.Expression | null = null;
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) || ts.isEmptyStatement(statement)) continue;
    // `export default registry;`
    if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression)) continue;
    // "use strict";
    if (ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression)) continue;
    if (!ts.isVariableStatement(statement)) refuse(describe(statement, source), statement);
    const list = (statement as ts.VariableStatement).declarationList;
    if ((list.flags & ts.NodeFlags.Const) === 0) refuse("a declaration other than const", list);
    const isExport = ts.getCombinedModifierFlags(list.declarations[0]!) & ts.ModifierFlags.Export;
    for (const declaration of list.declarations) {
      if (!ts.isIdentifier(declaration.name) || !declaration.initializer)
        refuse("a const without a name and a value", declaration);
      const name = (declaration.name as ts.Identifier).text;
      consts.set(name, declaration.initializer!);
      if (isExport && name === "registry") exported = declaration.initializer!;
    }
  }
  if (exported === null)
    return refuse("no `export const registry`", source.statements[0] ?? source);

  const values = new Map<string, JsonValue>();
  const evaluating = new Set<string>();
  const evaluate = (node: ts.Expression): JsonValue => {
    if (
      ts.isAsExpression(node) ||
      ts.isSatisfiesExpression(node) ||
      ts.isTypeAssertionExpression(node) ||
      ts.isParenthesizedExpression(node) ||
      ts.isNonNullExpression(node)
    )
      return evaluate(node.expression);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isNumericLiteral(node)) return number(node.text, node);
    if (
      ts.isPrefixUnaryExpression(node) &&
      node.operator === ts.SyntaxKind.MinusToken &&
      ts.isNumericLiteral(node.operand)
    )
      return -number(node.operand.text, node);
    if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (node.kind === ts.SyntaxKind.NullKeyword) return null;
    if (ts.isIdentifier(node)) return constant(node.text, node);
    if (ts.isArrayLiteralExpression(node))
      return node.elements.map((element) =>
        ts.isSpreadElement(element) || ts.isOmittedExpression(element)
          ? refuse(describe(element, source), element)
          : evaluate(element),
      );
    if (ts.isObjectLiteralExpression(node)) {
      const out: { [key: string]: JsonValue } = {};
      for (const property of node.properties) {
        let key: string | undefined;
        let value: JsonValue;
        if (ts.isShorthandPropertyAssignment(property)) {
          key = property.name.text;
          value = constant(key, property.name);
        } else if (ts.isPropertyAssignment(property)) {
          const name = property.name;
          if (
            ts.isIdentifier(name) ||
            ts.isStringLiteral(name) ||
            ts.isNumericLiteral(name) ||
            ts.isNoSubstitutionTemplateLiteral(name)
          )
            key = name.text;
          value =
            key === undefined ? refuse("a computed key", name) : evaluate(property.initializer);
        } else {
          return refuse(describe(property, source), property);
        }
        // Defined, not assigned: a `__proto__` key is data here, as in JSON.parse.
        Object.defineProperty(out, key!, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    if (ts.isCallExpression(node) && isJsonParse(node)) {
      const [arg] = node.arguments;
      try {
        return JSON.parse((arg as ts.StringLiteral).text) as JsonValue;
      } catch (error) {
        return refuse(`JSON.parse of text that is not JSON (${(error as Error).message})`, node);
      }
    }
    return refuse(describe(node, source), node);
  };
  const constant = (name: string, at: ts.Node): JsonValue => {
    const known = values.get(name);
    if (known !== undefined) return known;
    const initializer = consts.get(name);
    if (initializer === undefined || evaluating.has(name))
      return refuse(`\`${name}\`, which is not a top-level const of literals`, at);
    evaluating.add(name);
    const value = evaluate(initializer);
    evaluating.delete(name);
    values.set(name, value);
    return value;
  };
  const number = (text: string, at: ts.Node): number => {
    const value = Number(text);
    return Number.isFinite(value) ? value : refuse(`the number ${text}`, at);
  };

  const value = evaluate(exported);
  if (!isRegistry(value)) return refuse("a `registry` that is not a tool registry", exported);
  return value;
}

/** A full `registry.json`; a manifest without `"tools"` is refused with what to read instead. */
function readRegistryJson(text: string, file: string): Registry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RegistryReadError(`${file}: not JSON (${(error as Error).message})`);
  }
  if (typeof value === "object" && value !== null && !("tools" in value) && "version" in value)
    throw new RegistryReadError(
      `${file} is a registry manifest without "tools" (written without "jsonFiles": true): read the registry module (registry.ts or registry.js) beside it instead`,
    );
  if (!isRegistry(value))
    throw new RegistryReadError(`${file}: not a zcp registry (no "version" and "tools")`);
  return value;
}

/** The writer's version: the registry's `generator`, else the `// zcp gen X from …` header line. */
function generatorOf(registry: Registry, text: string): string | null {
  const field = (registry as { generator?: unknown }).generator;
  if (typeof field === "string") return field;
  return /^\/\/ zcp gen (\S+) from /m.exec(text.slice(0, 1000))?.[1] ?? null;
}

function isJsonParse(node: ts.CallExpression): boolean {
  const callee = node.expression;
  return (
    ts.isPropertyAccessExpression(callee) &&
    ts.isIdentifier(callee.expression) &&
    callee.expression.text === "JSON" &&
    callee.name.text === "parse" &&
    node.arguments.length === 1 &&
    (ts.isStringLiteral(node.arguments[0]!) ||
      ts.isNoSubstitutionTemplateLiteral(node.arguments[0]!))
  );
}

/** What a node is, for an error: its kind and the start of its text. */
function describe(node: ts.Node, source: ts.SourceFile): string {
  const text = node.getText(source).replace(/\s+/g, " ");
  const kind = ts.SyntaxKind[node.kind].replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind} \`${text.length > 40 ? `${text.slice(0, 40)}…` : text}\``;
}

/** Enough of the shape to be read as a registry: a format version and tools with ids and aliases. */
function isRegistry(value: unknown): value is Registry {
  if (typeof value !== "object" || value === null) return false;
  const { version, tools } = value as { version?: unknown; tools?: unknown };
  return (
    typeof version === "number" &&
    Array.isArray(tools) &&
    tools.every(
      (t: unknown) =>
        typeof t === "object" &&
        t !== null &&
        typeof (t as { alias?: unknown }).alias === "string" &&
        typeof (t as { id?: unknown }).id === "string" &&
        typeof (t as { inputSchema?: unknown }).inputSchema === "object",
    )
  );
}

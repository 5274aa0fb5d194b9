/**
 * extract: a tool's `@throws {NotFoundError} text` tags (TypeDoc's tag), each naming an error
 * class whose message the model may read. The type must resolve to a class the project
 * declares with `export class` (the generated dispatcher imports it and checks `instanceof`);
 * its code is its name in snake case without a final `Error` (`NotFoundError` → `not_found`).
 * A `@throws` without a `{type}` is documentation only. Anything else is ZCP1307.
 */
import { ts } from "@ts-morph/common";
import type { Code } from "../diagnostics.js";
import type { Tag } from "./jsdoc.js";

/** A declared error class: where it is exported from (an absolute path), and its code. */
export interface ThrownClass {
  readonly file: string;
  readonly export: string;
  readonly code: string;
}

/** What a code must look like: what `ToolError` accepts, without a detail. */
const CODE = /^[a-z][a-z_]*$/;

/** The classes the `@throws` tags of one tool declare, in tag order, each once. */
export function readThrows(
  tags: readonly Tag[],
  checker: ts.TypeChecker,
  diagnose: (node: ts.Node, code: Code, message: string) => void,
): ThrownClass[] {
  const found = new Map<string, ThrownClass>();
  for (const tag of tags) {
    if (!ts.isJSDocThrowsTag(tag.node) || !tag.node.typeExpression) continue;
    const type = tag.node.typeExpression.type;
    for (const member of ts.isUnionTypeNode(type) ? type.types : [type]) {
      const declared = thrownClass(member, checker);
      if (typeof declared === "string") diagnose(member, "ZCP1307", `@throws: ${declared}`);
      else found.set(`${declared.file}#${declared.export}`, declared);
    }
  }
  return [...found.values()];
}

/** The class `node` names, or why it cannot be declared. */
function thrownClass(node: ts.TypeNode, checker: ts.TypeChecker): ThrownClass | string {
  const text = node.getText();
  if (!ts.isTypeReferenceNode(node) || node.typeArguments)
    return `"${text}" is not the name of an error class`;
  let symbol = checker.getSymbolAtLocation(node.typeName);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.declarations?.find(ts.isClassDeclaration);
  if (!declaration) return `"${text}" does not name a class`;
  const file = declaration.getSourceFile();
  const name = declaration.name?.text;
  const exported = ts
    .getModifiers(declaration)
    ?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  const isDefault = ts
    .getModifiers(declaration)
    ?.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword);
  if (file.isDeclarationFile || !name || !exported || isDefault)
    return `"${text}" must be declared in the project's sources as \`export class ${name ?? text}\`, for the dispatcher to import it`;
  const code = errorCode(name);
  if (!CODE.test(code))
    return `class "${name}" gives the code "${code}", which is not a word of letters and _ (rename the class)`;
  return { file: file.fileName, export: name, code };
}

/** `NotFoundError` → `not_found`; `RateLimited` → `rate_limited`. */
function errorCode(name: string): string {
  const words = name.length > "Error".length ? name.replace(/Error$/, "") : name;
  return words
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

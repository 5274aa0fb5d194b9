/**
 * extract: the JSON value of a default written in the source (`= 5`, `= Color.Red`, `= ["a"]`),
 * or NOT_LITERAL for anything that would need running the code.
 */
import { ts } from "@ts-morph/common";
import { setOwn } from "@zcp/runtime";
import type { JsonValue } from "@zcp/runtime/definition";
import type { Code, Severity } from "../diagnostics.js";

export const NOT_LITERAL = Symbol("not a literal");

/** The JSON value of a literal initializer, undefined for `undefined`, or NOT_LITERAL. */
export function literal(
  node: ts.Expression,
  checker: ts.TypeChecker,
): JsonValue | undefined | typeof NOT_LITERAL {
  if (
    ts.isParenthesizedExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node)
  )
    return literal(node.expression, checker);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (
    ts.isPrefixUnaryExpression(node) &&
    node.operator === ts.SyntaxKind.MinusToken &&
    ts.isNumericLiteral(node.operand)
  )
    return -Number(node.operand.text);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isIdentifier(node) && node.text === "undefined") return undefined;
  if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    // An enum member (`Color.Red`); ask through its declaration, which needs no prior check.
    const symbol = checker.getSymbolAtLocation(
      ts.isPropertyAccessExpression(node) ? node.name : node.argumentExpression,
    );
    const member = symbol?.valueDeclaration;
    const value = member && ts.isEnumMember(member) ? checker.getConstantValue(member) : undefined;
    return value === undefined ? NOT_LITERAL : value;
  }
  if (ts.isArrayLiteralExpression(node)) {
    const items: JsonValue[] = [];
    for (const element of node.elements) {
      const value = literal(element, checker);
      if (value === NOT_LITERAL || value === undefined) return NOT_LITERAL;
      items.push(value);
    }
    return items;
  }
  if (ts.isObjectLiteralExpression(node)) {
    const object: Record<string, JsonValue> = {};
    for (const property of node.properties) {
      if (
        !ts.isPropertyAssignment(property) ||
        !(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))
      )
        return NOT_LITERAL;
      const value = literal(property.initializer, checker);
      if (value === NOT_LITERAL) return NOT_LITERAL;
      if (value !== undefined) object[property.name.text] = value;
    }
    return object;
  }
  return NOT_LITERAL;
}

export function bindingPatternDefaults(
  pattern: ts.ObjectBindingPattern,
  checker: ts.TypeChecker,
  diagnose: (node: ts.Node, code: Code, message: string, severity?: Severity) => void,
): Record<string, JsonValue> {
  const defaults: Record<string, JsonValue> = {};
  for (const element of pattern.elements) {
    if (!element.initializer) continue;
    const key = element.propertyName ?? element.name;
    const name = ts.isIdentifier(key) || ts.isStringLiteral(key) ? key.text : key.getText();
    const value = literal(element.initializer, checker);
    if (value === NOT_LITERAL) {
      diagnose(
        element.initializer,
        "ZCP1304",
        `default of "${name}" is not a literal; the parameter is optional without a recorded default`,
        "warning",
      );
    } else if (value !== undefined) setOwn(defaults, name, value);
  }
  return defaults;
}

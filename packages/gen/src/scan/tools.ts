/**
 * scan: the `@tool` pre-filter on a file's text, and finding the exported functions whose JSDoc
 * carries `@tool` in a parsed file (misplaced tags are ZCP1102, syntax errors ZCP1101).
 */
import { ts } from "@ts-morph/common";
import { diagnostic, type Diagnostic } from "../diagnostics.js";
import { positionOf } from "./position.js";

/** A function found with a `@tool` tag. */
export interface ToolDeclaration {
  /** The function-like node whose parameters and return type describe the tool. */
  readonly fn: ts.SignatureDeclaration;
  /** The node carrying the JSDoc: the function declaration or the variable statement. */
  readonly docHost: ts.Node;
  readonly jsDoc: ts.JSDoc;
  readonly exportName: string;
  readonly sourceFile: ts.SourceFile;
}

/** The tags that mark a function: a tool, a prompt, a resource (or resource template). */
export type MarkTag = "tool" | "prompt" | "resource";

/**
 * Only files that mention `@tool`, `@prompt` or `@resource` can declare tools, prompts or
 * resources; the others load as dependencies if imported.
 */
export function mentionsTool(text: string): boolean {
  return text.includes("@tool") || text.includes("@prompt") || text.includes("@resource");
}

/** Syntax errors of a file, as ZCP1101 diagnostics. */
export function syntaxDiagnostics(program: ts.Program, sourceFile: ts.SourceFile): Diagnostic[] {
  return program.getSyntacticDiagnostics(sourceFile).map((d) => {
    const at = positionOf(sourceFile, d.start ?? 0);
    return diagnostic(
      "error",
      "ZCP1101",
      `syntax error: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")} (the tools of this file are left out)`,
      at,
    );
  });
}

/** The `@tool` functions of one file, and the ZCP1102 diagnostics of misplaced tags. */
export interface FoundTools {
  readonly tools: readonly ToolDeclaration[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * `findTools`' result for each parsed file: a memo of a pure function of an immutable object. A
 * `ts.SourceFile` is never changed once parsed (the loader parses a changed file anew, giving a
 * new object), and the result depends on it alone. Watch mode keeps unchanged files' SourceFiles
 * between runs (`program.ts`), so their tools are not looked for again.
 */
const FOUND: { readonly [tag in MarkTag]: WeakMap<ts.SourceFile, FoundTools> } = {
  tool: new WeakMap(),
  prompt: new WeakMap(),
  resource: new WeakMap(),
};

/**
 * Finds the `@tool` functions of one file (or those marked `tag`: `@prompt`, `@resource`). Such
 * a tag anywhere else (a method, a class, a declaration without a body, a non-exported
 * function...) is a ZCP1102 diagnostic.
 */
export function findTools(sourceFile: ts.SourceFile, tag: MarkTag = "tool"): FoundTools {
  let found = FOUND[tag].get(sourceFile);
  if (found === undefined) FOUND[tag].set(sourceFile, (found = scanFile(sourceFile, tag)));
  return found;
}

function scanFile(sourceFile: ts.SourceFile, tag: MarkTag): FoundTools {
  const tools: ToolDeclaration[] = [];
  const diagnostics: Diagnostic[] = [];
  const placed = new Set<ts.JSDoc>();
  const misplaced = (node: ts.Node, why: string) =>
    diagnostics.push(
      diagnostic(
        "error",
        "ZCP1102",
        `@${tag} ${why}`,
        positionOf(sourceFile, node.getStart(sourceFile)),
      ),
    );
  const exported = exportedNames(sourceFile);
  const accept = (
    fn: ts.SignatureDeclaration,
    docHost: ts.Node,
    jsDoc: ts.JSDoc,
    localName: string,
  ) => {
    placed.add(jsDoc);
    const exportName = hasModifier(docHost, ts.SyntaxKind.ExportKeyword)
      ? localName
      : exported.get(localName);
    if (exportName === undefined) misplaced(docHost, `function "${localName}" is not exported`);
    else tools.push({ fn, docHost, jsDoc, exportName, sourceFile });
  };

  for (const statement of sourceFile.statements) {
    const jsDoc = toolDoc(statement, tag);
    if (!jsDoc) continue;
    if (ts.isFunctionDeclaration(statement)) {
      placed.add(jsDoc);
      const name = statement.name?.text;
      if (!name || hasModifier(statement, ts.SyntaxKind.DefaultKeyword))
        misplaced(statement, "cannot be on a default export; export the function by name");
      else if (!statement.body)
        misplaced(
          statement,
          `"${name}" has no body (an overload signature or a declaration); put @${tag} on the one implementation`,
        );
      else accept(statement, statement, jsDoc, name);
    } else if (ts.isVariableStatement(statement)) {
      placed.add(jsDoc);
      const declarations = statement.declarationList.declarations;
      const declaration = declarations[0]!;
      const init = declaration.initializer && skipParentheses(declaration.initializer);
      if (declarations.length !== 1 || !ts.isIdentifier(declaration.name)) {
        misplaced(statement, "must mark a single `export const name = (...) => ...` declaration");
      } else if (!init || !(ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
        misplaced(
          statement,
          `"${declaration.name.text}" is not initialized with an arrow function or function expression`,
        );
      } else if (!(statement.declarationList.flags & ts.NodeFlags.Const)) {
        misplaced(statement, `"${declaration.name.text}" must be declared with const`);
      } else {
        accept(init, statement, jsDoc, declaration.name.text);
      }
    }
  }
  // Every `@tool` tag in the text is on a statement looked at above: nothing else carries one.
  if (toolTagsIn(placed, tag) === occurrences(sourceFile.text, `@${tag}`))
    return { tools, diagnostics };
  // Anything else that carries @tool: a class, an interface, a method, a nested function...
  const visit = (node: ts.Node) => {
    const jsDoc = toolDoc(node, tag);
    if (jsDoc && !placed.has(jsDoc)) {
      placed.add(jsDoc);
      misplaced(
        node,
        `must be on an exported function declaration or an exported const arrow function, not on ${describeNode(node)}`,
      );
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return { tools, diagnostics };
}

/**
 * The `@tool` tags of `docs`. Each such tag is a distinct occurrence of the text `@tool` in the
 * file, so when they are as many as the occurrences, no other node can carry one (and walking
 * every node of the file, the costly part of a file's scan, can be skipped).
 */
function toolTagsIn(docs: ReadonlySet<ts.JSDoc>, name: MarkTag): number {
  let count = 0;
  for (const doc of docs) for (const tag of doc.tags ?? []) if (tag.tagName.text === name) count++;
  return count;
}

function occurrences(text: string, word: string): number {
  let count = 0;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + word.length)) count++;
  return count;
}

function describeNode(node: ts.Node): string {
  if (ts.isClassDeclaration(node)) return "a class";
  if (ts.isInterfaceDeclaration(node)) return "an interface";
  if (ts.isMethodDeclaration(node) || ts.isMethodSignature(node)) return "a method";
  if (
    ts.isPropertyDeclaration(node) ||
    ts.isPropertySignature(node) ||
    ts.isPropertyAssignment(node)
  )
    return "a property";
  if (ts.isTypeAliasDeclaration(node)) return "a type alias";
  if (ts.isFunctionDeclaration(node)) return "a nested function";
  return `a ${ts.SyntaxKind[node.kind]}`;
}

function skipParentheses(node: ts.Expression): ts.Expression {
  let current = node;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isSatisfiesExpression(current) ||
    ts.isAsExpression(current)
  ) {
    current = current.expression;
  }
  return current;
}

/** The JSDoc block closest to `node` when it carries `@<name>`. */
function toolDoc(node: ts.Node, name: MarkTag): ts.JSDoc | undefined {
  const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc;
  const last = docs?.[docs.length - 1];
  return last?.tags?.some((tag) => tag.tagName.text === name) ? last : undefined;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

/** Local names exported through `export { a, b as c }` lists, mapped to their exported names. */
function exportedNames(sourceFile: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const statement of sourceFile.statements) {
    if (
      ts.isExportDeclaration(statement) &&
      !statement.moduleSpecifier &&
      !statement.isTypeOnly &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      for (const element of statement.exportClause.elements) {
        // `.text`: an export name can be a string (`export { f as "a b" }`), quotes not included.
        const local = (element.propertyName ?? element.name).text;
        if (!names.has(local) && element.name.text !== "default")
          names.set(local, element.name.text);
      }
    }
  }
  return names;
}

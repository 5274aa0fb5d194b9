/**
 * scan: list the configured source files, load them into one TypeScript program, and find
 * the exported functions whose JSDoc carries `@tool`.
 */
import fs from "node:fs";
import path from "node:path";
import { glob } from "tinyglobby";
import { Project, ts } from "ts-morph";
import type { Config } from "./config.js";
import { diagnostic, relativePath, type Diagnostic } from "./diagnostics.js";
import { positionOf } from "./extract/position.js";

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

/** The configured source files (absolute, sorted), without the output folder and declarations. */
export async function listSourceFiles(config: Config): Promise<string[]> {
  const outDir = relativePath(config.root, config.outDir);
  const files = await glob([...config.include], {
    cwd: config.root,
    ignore: [...config.exclude, `${outDir}/**`, "**/node_modules/**", "**/*.d.ts"],
    absolute: true,
    onlyFiles: true,
  });
  return files.map((file) => path.normalize(file)).sort();
}

/** Only files that mention `@tool` can declare tools; the others load as dependencies if imported. */
export function mentionsTool(text: string): boolean {
  return text.includes("@tool");
}

export interface LoadedProject {
  readonly project: Project;
  readonly diagnostics: Diagnostic[];
  /** The tsconfig and every config it extends: inputs of the run like the sources. */
  readonly configFiles: string[];
}

/** Creates the ts-morph project with the configured compiler options. */
export function createProject(config: Config): LoadedProject {
  const fallback = () => new Project({ compilerOptions: DEFAULT_COMPILER_OPTIONS, skipAddingFilesFromTsConfig: true });
  if (config.tsconfig === null) return { project: fallback(), diagnostics: [], configFiles: [] };
  const tsconfig = config.tsconfig;
  const at = { file: tsconfig, line: 1, column: 1 };
  const text = ts.sys.readFile(tsconfig);
  if (text === undefined) {
    return { project: fallback(), diagnostics: [diagnostic("error", "ZCP1002", `cannot read ${relativePath(config.root, tsconfig)}`, at)], configFiles: [] };
  }
  const json = ts.parseJsonText(tsconfig, text);
  const parsed = ts.parseJsonSourceFileConfigFileContent(json, ts.sys, path.dirname(tsconfig), undefined, tsconfig);
  const problems = [...((json as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? []), ...parsed.errors];
  const diagnostics = problems
    .filter((error) => error.category === ts.DiagnosticCategory.Error && error.code !== NO_INPUTS_FOUND)
    .map((error) => diagnostic("error", "ZCP1002", `${relativePath(config.root, tsconfig)}: ${ts.flattenDiagnosticMessageText(error.messageText, "\n")}`, at));
  const extended = (json as { extendedSourceFiles?: string[] }).extendedSourceFiles ?? [];
  return {
    project: new Project({ compilerOptions: { ...parsed.options, noEmit: true }, skipAddingFilesFromTsConfig: true }),
    diagnostics,
    configFiles: [tsconfig, ...extended.map((file) => path.resolve(file))],
  };
}

/** TS18003, "No inputs were found": irrelevant, the files come from `include` in zcp's config. */
const NO_INPUTS_FOUND = 18003;

const DEFAULT_COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
};

/** Syntax errors of a file, as ZCP1101 diagnostics. */
export function syntaxDiagnostics(program: ts.Program, sourceFile: ts.SourceFile): Diagnostic[] {
  return program.getSyntacticDiagnostics(sourceFile).map((d) => {
    const at = positionOf(sourceFile, d.start ?? 0);
    return diagnostic("error", "ZCP1101", `syntax error: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`, at);
  });
}

/** Finds the `@tool` functions of one file; misplaced `@tool` tags become ZCP1102 diagnostics. */
export function findTools(sourceFile: ts.SourceFile): { tools: ToolDeclaration[]; diagnostics: Diagnostic[] } {
  const tools: ToolDeclaration[] = [];
  const diagnostics: Diagnostic[] = [];
  const misplaced = (node: ts.Node, why: string) =>
    diagnostics.push(diagnostic("error", "ZCP1102", `@tool ${why}`, positionOf(sourceFile, node.getStart(sourceFile))));
  const exported = exportedLocalNames(sourceFile);

  for (const statement of sourceFile.statements) {
    if (ts.isFunctionDeclaration(statement)) {
      const jsDoc = toolDoc(statement);
      if (!jsDoc) continue;
      const name = statement.name?.text;
      if (!name) misplaced(statement, "needs a named function (default exports cannot be dispatched by name)");
      else if (!statement.body) continue; // an overload signature; the implementation carries the tag
      else if (!isExported(statement, name, exported)) misplaced(statement, `function "${name}" is not exported`);
      else if (hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) misplaced(statement, "cannot be on a default export; export the function by name");
      else tools.push({ fn: statement, docHost: statement, jsDoc, exportName: name, sourceFile });
    } else if (ts.isVariableStatement(statement)) {
      const jsDoc = toolDoc(statement);
      if (!jsDoc) continue;
      const declarations = statement.declarationList.declarations;
      const declaration = declarations[0]!;
      const init = declaration.initializer && skipParentheses(declaration.initializer);
      if (declarations.length !== 1 || !ts.isIdentifier(declaration.name)) {
        misplaced(statement, "must mark a single `export const name = (...) => ...` declaration");
      } else if (!init || !(ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
        misplaced(statement, `"${declaration.name.text}" is not initialized with an arrow function or function expression`);
      } else if (!(statement.declarationList.flags & ts.NodeFlags.Const)) {
        misplaced(statement, `"${declaration.name.text}" must be declared with const`);
      } else if (!isExported(statement, declaration.name.text, exported)) {
        misplaced(statement, `"${declaration.name.text}" is not exported`);
      } else {
        tools.push({ fn: init, docHost: statement, jsDoc, exportName: declaration.name.text, sourceFile });
      }
    } else {
      const jsDoc = toolDoc(statement);
      if (jsDoc) misplaced(statement, "must be on an exported function declaration or an exported const arrow function");
    }
  }
  return { tools, diagnostics };
}

function skipParentheses(node: ts.Expression): ts.Expression {
  let current = node;
  while (ts.isParenthesizedExpression(current) || ts.isSatisfiesExpression(current) || ts.isAsExpression(current)) {
    current = current.expression;
  }
  return current;
}

/** The JSDoc block closest to `node` when it carries `@tool`. */
function toolDoc(node: ts.Node): ts.JSDoc | undefined {
  const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc;
  const last = docs?.[docs.length - 1];
  return last?.tags?.some((tag) => tag.tagName.text === "tool") ? last : undefined;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

function isExported(node: ts.Node, name: string, exportedNames: ReadonlySet<string>): boolean {
  return hasModifier(node, ts.SyntaxKind.ExportKeyword) || exportedNames.has(name);
}

/** Local names exported through `export { a, b as c }` lists (the export must keep the local name). */
function exportedLocalNames(sourceFile: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of sourceFile.statements) {
    if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        if (!element.propertyName || element.propertyName.getText(sourceFile) === element.name.text) names.add(element.name.text);
      }
    }
  }
  return names;
}

/** Reads a file's text for the `@tool` pre-filter; unreadable files are skipped silently (they vanished). */
export function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

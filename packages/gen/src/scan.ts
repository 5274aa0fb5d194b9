/**
 * scan: the compiler settings, the `@tool` pre-filter, and finding the exported functions whose
 * JSDoc carries `@tool` in a parsed file.
 */
import fs from "node:fs";
import path from "node:path";
import { ts } from "ts-morph";
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

/** Only files that mention `@tool` can declare tools; the others load as dependencies if imported. */
export function mentionsTool(text: string): boolean {
  return text.includes("@tool");
}

export interface CompilerSettings {
  readonly options: ts.CompilerOptions;
  readonly diagnostics: Diagnostic[];
  /** The tsconfig and every config it extends: inputs of the run like the sources. */
  readonly configFiles: string[];
}

/** The compiler options from the configured tsconfig (strict defaults without one). */
export function readCompilerSettings(config: Config): CompilerSettings {
  if (config.tsconfig === null) {
    const format = moduleFormat(config, DEFAULT_COMPILER_OPTIONS);
    return { options: DEFAULT_COMPILER_OPTIONS, diagnostics: format.diagnostics, configFiles: format.packageJson ? [format.packageJson] : [] };
  }
  const tsconfig = config.tsconfig;
  const at = { file: tsconfig, line: 1, column: 1 };
  const text = ts.sys.readFile(tsconfig);
  if (text === undefined) {
    return { options: DEFAULT_COMPILER_OPTIONS, diagnostics: [diagnostic("error", "ZCP1002", `cannot read the tsconfig ${relativePath(config.root, tsconfig)}: no such file`)], configFiles: [] };
  }
  const json = ts.parseJsonText(tsconfig, text);
  const parsed = ts.parseJsonSourceFileConfigFileContent(json, ts.sys, path.dirname(tsconfig), undefined, tsconfig);
  const problems = [...((json as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? []), ...parsed.errors];
  const diagnostics = problems
    .filter((error) => error.category === ts.DiagnosticCategory.Error && error.code !== NO_INPUTS_FOUND)
    .map((error) =>
      diagnostic(
        "error",
        "ZCP1002",
        `tsconfig: ${ts.flattenDiagnosticMessageText(error.messageText, "\n")}`,
        error.file && error.start !== undefined ? positionOf(error.file, error.start) : at,
      ),
    );
  const extended = (json as { extendedSourceFiles?: string[] }).extendedSourceFiles ?? [];
  const format = diagnostics.length === 0 ? moduleFormat(config, parsed.options) : { diagnostics: [], packageJson: null };
  return {
    options: { ...parsed.options, noEmit: true },
    diagnostics: [...diagnostics, ...format.diagnostics],
    configFiles: [tsconfig, ...extended.map((file) => path.resolve(file)), ...(format.packageJson ? [format.packageJson] : [])],
  };
}

/** Module settings under which a `.ts` file is CommonJS unless its package.json says `"type": "module"`. */
const PACKAGE_TYPE_DECIDES = new Set([ts.ModuleKind.CommonJS, ts.ModuleKind.Node16, ts.ModuleKind.Node18, ts.ModuleKind.Node20, ts.ModuleKind.NodeNext]);

/**
 * ZCP1005: the generated files are ES modules (import/export, and @zcp/runtime is ESM-only), so
 * they are refused where TypeScript would compile them as CommonJS: the effective `module` is
 * commonjs or node16/18/20/next and the nearest package.json above the output folder has no
 * `"type": "module"` (or there is none). Under `preserve`, `esnext`, `es2020`+ (a bundler's
 * settings) they stay ES modules and are allowed. `packageJson` is the file consulted, an input
 * of the run.
 */
function moduleFormat(config: Config, options: ts.CompilerOptions): { diagnostics: Diagnostic[]; packageJson: string | null } {
  // TypeScript's default without `module`: CommonJS for an ES5 target, else an ES module kind.
  const kind = options.module ?? (options.target !== undefined && options.target < ts.ScriptTarget.ES2015 ? ts.ModuleKind.CommonJS : ts.ModuleKind.ES2015);
  if (!PACKAGE_TYPE_DECIDES.has(kind)) return { diagnostics: [], packageJson: null };
  const packageJson = nearestPackageJson(config.outDir);
  const type = packageJson === null ? undefined : packageType(packageJson);
  if (type === "module") return { diagnostics: [], packageJson };
  const where = (file: string) => relativePath(config.root, file);
  const settings = `${config.tsconfig === null ? "zcp's default compiler options (there is no tsconfig) use" : `${where(config.tsconfig)} compiles with`} "module": "${ts.ModuleKind[kind]!.toLowerCase()}"`;
  const bundler = `or compile with a bundler's settings ("module": "preserve" or "esnext", "moduleResolution": "bundler")`;
  const message =
    packageJson === null
      ? `the generated files are ES modules, but there is no package.json above ${where(config.outDir)} and ${settings}, so they would be compiled as CommonJS; add a package.json with "type": "module", ${bundler}`
      : `the generated files are ES modules, but ${where(packageJson)} ${type === undefined ? `has no "type": "module"` : `has "type": ${JSON.stringify(type)}`} and ${settings}, so they would be compiled as CommonJS; add "type": "module" to ${where(packageJson)}, ${bundler}`;
  return { diagnostics: [diagnostic("error", "ZCP1005", message, packageJson === null ? undefined : { file: packageJson, line: 1, column: 1 })], packageJson };
}

/** The package.json that decides the module format of files in `folder` (which may not exist yet). */
function nearestPackageJson(folder: string): string | null {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return file;
    if (path.dirname(dir) === dir) return null;
  }
}

/** A package.json's `type` field: `undefined` when absent, or when the file is not a JSON object. */
function packageType(file: string): unknown {
  try {
    const json = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
    return typeof json === "object" && json !== null && !Array.isArray(json) ? (json as { type?: unknown }).type : undefined;
  } catch {
    return undefined;
  }
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
    return diagnostic("error", "ZCP1101", `syntax error: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")} (the tools of this file are left out)`, at);
  });
}

/**
 * Finds the `@tool` functions of one file. A `@tool` tag anywhere else (a method, a class, a
 * declaration without a body, a non-exported function...) is a ZCP1102 diagnostic.
 */
export function findTools(sourceFile: ts.SourceFile): { tools: ToolDeclaration[]; diagnostics: Diagnostic[] } {
  const tools: ToolDeclaration[] = [];
  const diagnostics: Diagnostic[] = [];
  const placed = new Set<ts.JSDoc>();
  const misplaced = (node: ts.Node, why: string) =>
    diagnostics.push(diagnostic("error", "ZCP1102", `@tool ${why}`, positionOf(sourceFile, node.getStart(sourceFile))));
  const exported = exportedNames(sourceFile);
  const accept = (fn: ts.SignatureDeclaration, docHost: ts.Node, jsDoc: ts.JSDoc, localName: string) => {
    placed.add(jsDoc);
    const exportName = hasModifier(docHost, ts.SyntaxKind.ExportKeyword) ? localName : exported.get(localName);
    if (exportName === undefined) misplaced(docHost, `function "${localName}" is not exported`);
    else tools.push({ fn, docHost, jsDoc, exportName, sourceFile });
  };

  for (const statement of sourceFile.statements) {
    const jsDoc = toolDoc(statement);
    if (!jsDoc) continue;
    if (ts.isFunctionDeclaration(statement)) {
      placed.add(jsDoc);
      const name = statement.name?.text;
      if (!name || hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) misplaced(statement, "cannot be on a default export; export the function by name");
      else if (!statement.body) misplaced(statement, `"${name}" has no body (an overload signature or a declaration); put @tool on the one implementation`);
      else accept(statement, statement, jsDoc, name);
    } else if (ts.isVariableStatement(statement)) {
      placed.add(jsDoc);
      const declarations = statement.declarationList.declarations;
      const declaration = declarations[0]!;
      const init = declaration.initializer && skipParentheses(declaration.initializer);
      if (declarations.length !== 1 || !ts.isIdentifier(declaration.name)) {
        misplaced(statement, "must mark a single `export const name = (...) => ...` declaration");
      } else if (!init || !(ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
        misplaced(statement, `"${declaration.name.text}" is not initialized with an arrow function or function expression`);
      } else if (!(statement.declarationList.flags & ts.NodeFlags.Const)) {
        misplaced(statement, `"${declaration.name.text}" must be declared with const`);
      } else {
        accept(init, statement, jsDoc, declaration.name.text);
      }
    }
  }
  // Anything else that carries @tool: a class, an interface, a method, a nested function...
  const visit = (node: ts.Node) => {
    const jsDoc = toolDoc(node);
    if (jsDoc && !placed.has(jsDoc)) {
      placed.add(jsDoc);
      misplaced(node, `must be on an exported function declaration or an exported const arrow function, not on ${describeNode(node)}`);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return { tools, diagnostics };
}

function describeNode(node: ts.Node): string {
  if (ts.isClassDeclaration(node)) return "a class";
  if (ts.isInterfaceDeclaration(node)) return "an interface";
  if (ts.isMethodDeclaration(node) || ts.isMethodSignature(node)) return "a method";
  if (ts.isPropertyDeclaration(node) || ts.isPropertySignature(node) || ts.isPropertyAssignment(node)) return "a property";
  if (ts.isTypeAliasDeclaration(node)) return "a type alias";
  if (ts.isFunctionDeclaration(node)) return "a nested function";
  return `a ${ts.SyntaxKind[node.kind]}`;
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

/** Local names exported through `export { a, b as c }` lists, mapped to their exported names. */
function exportedNames(sourceFile: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const statement of sourceFile.statements) {
    if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && !statement.isTypeOnly && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        const local = (element.propertyName ?? element.name).getText(sourceFile);
        if (!names.has(local) && element.name.getText(sourceFile) !== "default") names.set(local, element.name.getText(sourceFile));
      }
    }
  }
  return names;
}

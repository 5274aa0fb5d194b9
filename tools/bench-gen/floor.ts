/**
 * The floor: the least work any checker-based generator must do for these tools. It loads
 * ts-morph, builds the program with the project's compiler options (read the way zcp reads
 * them), finds the exported @tool functions, and resolves each parameter's type and,
 * recursively, the types it contains through the type checker. No schemas, no JSDoc tags, no
 * formatting, no output. It prints {"tools":N,"types":M,"typescript":version} so the caller can check it did the work.
 *
 * Usage: node --import tsx tools/bench-gen/floor.ts <manifest.json>
 */
import fs from "node:fs";
import path from "node:path";
import { Project, ts } from "ts-morph";
import { loadManifest } from "./manifest.js";

const manifest = loadManifest(process.argv[2]);
const tsconfig = path.join(manifest.root, "tsconfig.json");
const json = ts.parseJsonText(tsconfig, fs.readFileSync(tsconfig, "utf8"));
const parsed = ts.parseJsonSourceFileConfigFileContent(
  json,
  ts.sys,
  manifest.root,
  undefined,
  tsconfig,
);
const project = new Project({
  compilerOptions: { ...parsed.options, noEmit: true },
  skipAddingFilesFromTsConfig: true,
});
for (const file of manifest.files)
  project.createSourceFile(file, fs.readFileSync(file, "utf8"), { overwrite: true });

// The raw compiler objects, as zcp uses them: ts-morph's wrappers would only add overhead.
const program = project.getProgram().compilerObject;
const checker = program.getTypeChecker();
const visited = new Set<ts.Type>();

/** Resolves `type` and everything it contains: union members, array elements, properties, index values. */
function resolve(type: ts.Type): void {
  if (visited.has(type)) return;
  visited.add(type);
  if (type.isUnionOrIntersection()) {
    for (const member of type.types) resolve(member);
  } else if (checker.isArrayType(type) || checker.isTupleType(type)) {
    for (const element of checker.getTypeArguments(type as ts.TypeReference)) resolve(element);
  } else if (type.flags & ts.TypeFlags.Object) {
    for (const property of checker.getPropertiesOfType(type))
      resolve(checker.getTypeOfSymbol(property));
    for (const index of checker.getIndexInfosOfType(type)) resolve(index.type);
  }
}

function isTool(node: ts.Node): boolean {
  return ts.getJSDocTags(node).some((tag) => tag.tagName.text === "tool");
}

function isExported(node: ts.Node): boolean {
  return (
    ts.canHaveModifiers(node) &&
    (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

/** The function-like node of an exported `@tool` statement, if it is one. */
function toolFunction(statement: ts.Statement): ts.SignatureDeclaration | undefined {
  if (!isExported(statement)) return undefined;
  if (ts.isFunctionDeclaration(statement) && statement.body && isTool(statement)) return statement;
  if (ts.isVariableStatement(statement) && isTool(statement)) {
    const init = statement.declarationList.declarations[0]?.initializer;
    if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) return init;
  }
  return undefined;
}

let tools = 0;
for (const file of manifest.files) {
  const sourceFile = program.getSourceFile(file);
  if (!sourceFile) throw new Error(`not in the program: ${file}`);
  for (const statement of sourceFile.statements) {
    const fn = toolFunction(statement);
    if (!fn) continue;
    tools++;
    for (const parameter of fn.parameters) resolve(checker.getTypeAtLocation(parameter));
  }
}
process.stdout.write(`${JSON.stringify({ tools, types: visited.size, typescript: ts.version })}\n`);

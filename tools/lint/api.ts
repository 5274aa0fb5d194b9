/**
 * The lint's check of each package's public names: for every entry in the `exports` of every
 * packages/<name>/package.json, the names it exports (values and types, each with its kind) must
 * equal the reviewed list committed in tools/lint/api/<name>[.<subpath>].txt. A change to an
 * entry's names is a change to the package's promise, so it shows in review as a change to that
 * list. The names are read from the entry's source with TypeScript's checker, over a program of
 * the files the entries' names pass through alone (no lib, no third-party types, no file an
 * entry only uses: the names do not need them, and loading them would take seconds).
 *
 *   node --import tsx tools/lint/api.ts            check; prints each entry's added and removed names
 *   node --import tsx tools/lint/api.ts --update   rewrite the lists from the sources, to review
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { resolve } from "./imports.ts";

const UPDATE = "node --import tsx tools/lint/api.ts --update";

/** A package entry: its import specifier, its source file, and the list file reviewed for it. */
interface Entry {
  readonly specifier: string;
  readonly source: string;
  readonly list: string;
}

/** Every package entry, from each package.json's `exports` (its types path mapped to `src/`). */
function entries(root: string): Entry[] {
  const packages = path.join(root, "packages");
  return readdirSync(packages)
    .filter((dir) => existsSync(path.join(packages, dir, "package.json")))
    .flatMap((dir) => {
      const manifest = JSON.parse(readFileSync(path.join(packages, dir, "package.json"), "utf8"));
      return Object.entries<unknown>(manifest.exports ?? {}).flatMap(([subpath, target]) => {
        const types =
          typeof target === "object" && target ? (target as { types?: string }).types : undefined;
        if (!types) return [];
        const suffix = subpath === "." ? "" : `.${subpath.slice(2).split("/").join(".")}`;
        return {
          specifier: path.posix.join(manifest.name, subpath),
          source: path.join(
            packages,
            dir,
            types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"),
          ),
          list: path.join(root, "tools/lint/api", `${dir}${suffix}.txt`),
        };
      });
    });
}

/** Each entry's exported names as the list's lines (`name kind`), sorted by name. */
function exportedNames(all: readonly Entry[]): Map<Entry, string[]> {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noLib: true,
    types: [],
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const bySpecifier = new Map(all.map((entry) => [entry.specifier, entry.source]));
  // Relative imports are the packages' own files, and `@zcp/...` another package's entry; any
  // other package stays unresolved (a name re-exported from it is listed as `unresolved`). Only
  // the imports that pass names on are followed: the program holds the entries' export chains,
  // not every file they use, which would take seconds.
  host.resolveModuleNameLiterals = (literals, containingFile, _redirect, _options, source) => {
    const followed = passedOn(source);
    return literals.map(({ text }) => {
      const file = !followed.has(text)
        ? undefined
        : text.startsWith(".")
          ? resolve(containingFile, text)
          : bySpecifier.get(text);
      return {
        resolvedModule: file ? { resolvedFileName: file, extension: ts.Extension.Ts } : undefined,
      };
    });
  };
  const program = ts.createProgram({ rootNames: all.map((entry) => entry.source), options, host });
  const checker = program.getTypeChecker();
  return new Map(
    all.map((entry) => {
      const source = program.getSourceFile(entry.source);
      if (!source) throw new Error(`${entry.specifier}: no source at ${entry.source}`);
      const module = checker.getSymbolAtLocation(source);
      const names = module ? checker.getExportsOfModule(module) : [];
      const lines = names.map((symbol) => `${symbol.name} ${kind(checker, symbol)}`);
      return [entry, lines.sort()];
    }),
  );
}

/** The module specifiers whose names may reach a file's exports: those of its `export ... from`,
 *  and of its imports of a name it exports again (`import { a } from "./a.js"; export { a };`). */
function passedOn(source: ts.SourceFile): Set<string> {
  const exported = new Set(
    source.statements.flatMap((statement) =>
      ts.isExportDeclaration(statement) &&
      !statement.moduleSpecifier &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
        ? statement.exportClause.elements.map(
            (element) => (element.propertyName ?? element.name).text,
          )
        : ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression)
          ? [statement.expression.text]
          : [],
    ),
  );
  const passing = source.statements.filter((statement) => {
    if (ts.isExportDeclaration(statement)) return true;
    if (!ts.isImportDeclaration(statement) || !statement.importClause) return false;
    const { name, namedBindings } = statement.importClause;
    const bound = [
      ...(name ? [name.text] : []),
      ...(namedBindings && ts.isNamespaceImport(namedBindings) ? [namedBindings.name.text] : []),
      ...(namedBindings && ts.isNamedImports(namedBindings)
        ? namedBindings.elements.map((element) => element.name.text)
        : []),
    ];
    return bound.some((binding) => exported.has(binding));
  });
  return new Set(
    passing.flatMap((statement) =>
      (ts.isExportDeclaration(statement) || ts.isImportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? [statement.moduleSpecifier.text]
        : [],
    ),
  );
}

/** What an exported symbol is (`function`, `const`, `interface`...; `type-only` for a value
 *  exported with `export type` on the way; `unresolved` when it comes from another package). */
function kind(checker: ts.TypeChecker, exported: ts.Symbol): string {
  let symbol = exported;
  let typeOnly = false;
  while (symbol.flags & ts.SymbolFlags.Alias) {
    typeOnly ||= (symbol.declarations ?? []).some((declaration) =>
      ts.isTypeOnlyImportOrExportDeclaration(declaration),
    );
    const next = checker.getImmediateAliasedSymbol(symbol);
    if (!next || next === symbol) return "unresolved";
    symbol = next;
  }
  const flags = symbol.flags;
  const declaration = symbol.valueDeclaration;
  const kinds = [
    flags & ts.SymbolFlags.Function && "function",
    flags & ts.SymbolFlags.Class && "class",
    flags & ts.SymbolFlags.Enum && "enum",
    flags & ts.SymbolFlags.Variable &&
      (declaration && ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const ? "const" : "let"),
    flags & ts.SymbolFlags.Interface && "interface",
    flags & ts.SymbolFlags.TypeAlias && "type",
    flags & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule) && "namespace",
  ].filter((word): word is string => typeof word === "string");
  // A value exported as a type only is a type to its importers: worth its own word.
  const typeOfValue = typeOnly && flags & ts.SymbolFlags.Value;
  return [...kinds, ...(typeOfValue ? ["type-only"] : [])].join(" ") || "unresolved";
}

/** The list file's text for an entry's names. */
function listText(entry: Entry, names: readonly string[]): string {
  return `# ${entry.specifier}: reviewed exported names (${UPDATE})\n${names.map((name) => `${name}\n`).join("")}`;
}

/** The names a list file holds, its comments aside. */
function readList(file: string): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/** Each difference between the entries' names and their lists, as the lines the check prints. */
export function check(root: string): string[] {
  const all = entries(root);
  const problems: string[] = [];
  for (const [entry, names] of exportedNames(all)) {
    const list = path.relative(root, entry.list);
    if (!existsSync(entry.list)) {
      problems.push(`${entry.specifier} has no reviewed list ${list}`);
      continue;
    }
    const reviewed = readList(entry.list);
    const added = names.filter((name) => !reviewed.includes(name));
    const removed = reviewed.filter((name) => !names.includes(name));
    if (added.length + removed.length > 0)
      problems.push(
        `${entry.specifier} exports names ${list} does not list:\n${[
          ...added.map((name) => `  + ${name}`),
          ...removed.map((name) => `  - ${name}`),
        ].join("\n")}`,
      );
  }
  const listed = new Set(all.map((entry) => entry.list));
  for (const file of listFiles(root).filter((file) => !listed.has(file)))
    problems.push(`${path.relative(root, file)} lists an entry that no package.json exports`);
  if (problems.length > 0)
    problems.push(
      `a package's names changed: review the change, then run ${UPDATE} and commit the lists`,
    );
  return problems;
}

/** Rewrites every entry's list from its source, and deletes the lists of entries gone. */
export function update(root: string): void {
  const all = entries(root);
  mkdirSync(path.join(root, "tools/lint/api"), { recursive: true });
  for (const [entry, names] of exportedNames(all))
    writeFileSync(entry.list, listText(entry, names));
  const listed = new Set(all.map((entry) => entry.list));
  for (const file of listFiles(root).filter((file) => !listed.has(file))) rmSync(file);
}

function listFiles(root: string): string[] {
  const dir = path.join(root, "tools/lint/api");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".txt"))
    .map((name) => path.join(dir, name));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "../..");
  if (process.argv.includes("--update")) update(root);
  else {
    const problems = check(root);
    for (const problem of problems) process.stderr.write(`${problem}\n`);
    if (problems.length > 0) process.exitCode = 1;
  }
}

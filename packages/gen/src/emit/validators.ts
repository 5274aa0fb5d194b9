/**
 * emit: `validators.ts`, from the compiled validators (`compile/validators/`): the imports (the
 * types, and the helpers and format checkers the code calls, from `@zcp/runtime/codegen`), the
 * patterns as module-level regular expressions, one validator per tool (with its `$defs` and
 * outlined functions), the functions of named object types (shared by every use), and the
 * `validators` table by tool id.
 */
import type { CodegenSymbol } from "@zcp/runtime/codegen/symbols";
import { setOwn } from "@zcp/runtime";
import type { ComposedPackage } from "../compose/index.js";
import {
  packageBindings,
  packageEntry,
  packageImports,
  packageToolIds,
} from "./package-imports.js";
import type { ValidatorCode, ValidatorSet } from "../compile/index.js";
import { codegenImports } from "./codegen-imports.js";
import { printFunction, printPattern } from "./layout.js";
import { Identifier, printStatement } from "./print.js";
import { tsFile, type EmitContext } from "./ts-file.js";

/** The file `validatorsFile` renders, in the output folder. */
export const VALIDATORS_FILE = "validators.ts";

/** What the file exports the server configuration's validator as (`GeneratedModule.config`). */
export const CONFIG_EXPORT = "configValidator";

/** Names the file declares besides validators, patterns and helpers. */
const FIXED_NAMES = ["ValidationResult", "ValidatorTable", "validators", CONFIG_EXPORT];

/** The text of one tool's or shared type's functions, each followed by a blank line but the last. */
export function validatorText(code: ValidatorCode): string {
  return code.functions.map(printFunction).join("\n");
}

/**
 * `textOf` lays out one compiled unit (`validatorText`, memoized by the pipeline in watch mode).
 * The tools of composed `packages` have no compiled validator here: their entries are their
 * package's (`<binding>.validators["<its id>"]!`).
 */
export function validatorsFile(
  context: EmitContext,
  set: ValidatorSet,
  textOf: (code: ValidatorCode) => string = validatorText,
  packages: readonly ComposedPackage[] = [],
): string {
  const units = [
    ...set.tools.map((tool) => tool.code),
    ...(set.config ? [set.config.code] : []),
    ...set.shared.values(),
  ];
  const imports = new Set<CodegenSymbol>();
  const patterns = new Map<string, string>();
  for (const code of units) {
    for (const helper of code.helpers) imports.add(helper);
    for (const format of code.formats) imports.add(format);
    for (const [name, source] of code.patterns) patterns.set(name, source);
  }
  const table: { [id: string]: Identifier } = {};
  for (const tool of set.tools) setOwn(table, tool.id, new Identifier(tool.fn));
  const bindings = packageBindings(
    packages,
    new Set([
      ...FIXED_NAMES,
      ...imports,
      ...patterns.keys(),
      ...set.tools.map((tool) => tool.fn),
      ...set.shared.keys(),
    ]),
  );
  for (const [id, { pkg, id: own }] of packageToolIds(packages))
    setOwn(table, id, new Identifier(packageEntry(bindings.get(pkg.name)!, "validators", own)));

  let head = codegenImports([
    ...(set.tools.length > 0 || set.config
      ? (["ValidationResult", "ValidatorTable"] as const)
      : (["ValidatorTable"] as const)),
    ...[...imports].sort(),
  ]);
  head += packageImports(bindings);
  const statements = [head];
  if (patterns.size > 0) {
    let text = "";
    for (const name of [...patterns.keys()].sort()) text += printPattern(name, patterns.get(name)!);
    statements.push(text);
  }
  for (const tool of set.tools) statements.push(textOf(tool.code));
  if (set.config) statements.push(textOf(set.config.code));
  for (const name of [...set.shared.keys()].sort()) statements.push(textOf(set.shared.get(name)!));
  statements.push(printStatement("export const validators: ValidatorTable = ", table));
  if (set.config) statements.push(`export const ${CONFIG_EXPORT} = ${set.config.fn};\n`);
  return tsFile(context, statements);
}

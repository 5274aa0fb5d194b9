/**
 * emit: `dispatch.ts`, a function per tool that calls the real tool function, statically
 * imported, with its arguments in declared order (or the whole object) and the context where
 * the function takes one. No reflection: the generated code names every argument. Arguments are
 * typed as the function's own parameter types, which the runtime guarantees by validating
 * before it dispatches; `Date` parameters are revived from their ISO strings here.
 */
import path from "node:path";
import type { ToolDefinition } from "@zcp/runtime/definition";
import type { ComposedPackage } from "../compose/index.js";
import type { CodegenSymbol } from "@zcp/runtime/codegen/symbols";
import { codegenImports } from "./codegen-imports.js";
import {
  packageBindings,
  packageEntry,
  packageImports,
  packageToolIds,
} from "./package-imports.js";
import { relativePath } from "../diagnostics.js";
import { toolNames } from "../model/index.js";
import { moduleNames } from "./names.js";
import { comment, tsFile, type EmitContext } from "./ts-file.js";
import { Identifier, PRINT_WIDTH, printStatement, printString } from "./print.js";

/** Names the file declares besides the tools' functions and the module namespaces. */
const FIXED_NAMES = [
  "checkComposedPackage",
  "DispatchTable",
  "ToolArguments",
  "ToolContext",
  "reviveDates",
  "dispatch",
  "Parameters",
  "args",
  "_args",
  "context",
  "_context",
];

/**
 * `root` is the config folder (tool sources are relative to it), `outDir` where the file goes.
 * Each tool's function is `call_<tool name>` (see `toolNames`), each module's namespace is named
 * after its file (see `moduleNames`). The tools of composed `packages` are dispatched by their
 * package's module (`<binding>.dispatch["<its id>"]!`), which is checked when this one loads to
 * still have the registry hash it was composed from.
 */
export function dispatchFile(
  context: EmitContext,
  tools: readonly ToolDefinition[],
  root: string,
  outDir: string,
  packages: readonly ComposedPackage[] = [],
): string {
  // A composed package's tools are dispatched by the package's own module.
  const fromPackage = packageToolIds(packages);
  const own = tools.filter((tool) => !fromPackage.has(tool.id));
  const functions = new Map([...toolNames(own)].map(([tool, name]) => [tool, `call_${name}`]));
  const taken = new Set([...FIXED_NAMES, ...functions.values()]);
  const bindings = packageBindings(packages, taken);
  const modules = moduleNames(
    own.map((tool) => tool.source.file),
    new Set([...taken, ...bindings.values()]),
  );
  const files = [...modules.keys()].sort();
  const imports = files
    .map(
      (file) =>
        `import * as ${modules.get(file)!} from ${printString(importPath(root, outDir, file))};`,
    )
    .join("\n");
  // A module whose tools all come from packages declares no function (noUnusedLocals).
  const runtimeNames: CodegenSymbol[] =
    own.length > 0 ? ["DispatchTable", "ToolArguments", "ToolContext"] : ["DispatchTable"];
  if (packages.length > 0) runtimeNames.push(CHECK);
  if (own.some((tool) => tool.dates.length > 0)) runtimeNames.push("reviveDates");
  const header = [
    codegenImports(runtimeNames).trimEnd(),
    packageImports(bindings).trimEnd(),
    imports,
  ].filter(Boolean);
  const entry = (tool: ToolDefinition): Identifier => {
    const composed = fromPackage.get(tool.id);
    return new Identifier(
      composed
        ? packageEntry(bindings.get(composed.pkg.name)!, "dispatch", composed.id)
        : functions.get(tool)!,
    );
  };
  return tsFile(context, [
    `${header.join("\n")}\n`,
    ...(packages.length > 0 ? [packages.map((pkg) => packageCheck(pkg, bindings)).join("")] : []),
    ...own.map((tool) => dispatcher(tool, functions.get(tool)!, modules.get(tool.source.file)!)),
    printStatement(
      "export const dispatch: DispatchTable = ",
      Object.fromEntries(tools.map((tool) => [tool.id, entry(tool)])),
    ),
  ]);
}

/** The runtime helper that checks, when the module loads, that a package is still the one composed. */
const CHECK = "checkComposedPackage";

/** `checkComposedPackage(<binding>, "<package>", "<hash>");`, broken as prettier breaks a call. */
function packageCheck(pkg: ComposedPackage, bindings: ReadonlyMap<string, string>): string {
  const args = [bindings.get(pkg.name)!, printString(pkg.name), printString(pkg.hash)];
  const flat = `${CHECK}(${args.join(", ")});`;
  return flat.length <= PRINT_WIDTH
    ? `${flat}\n`
    : `${CHECK}(\n${args.map((arg) => `  ${arg},\n`).join("")});\n`;
}

function dispatcher(tool: ToolDefinition, name: string, module: string): string {
  // An export name that is not an identifier (`export { f as "a b" }`) is read as a string.
  const plain = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(tool.source.export);
  const key = printString(tool.source.export);
  const fn = plain ? `${module}.${tool.source.export}` : `${module}[${key}]`;
  const type = plain ? `typeof ${fn}` : `(typeof ${module})[${key}]`;
  const typed = (value: string, index: number) => `${value} as Parameters<${type}>[${index}]`;
  const args: string[] = [];
  if (tool.call.kind === "object") {
    // Through unknown: TypeScript refuses a direct cast from an index signature to an interface
    // whose required properties it cannot see in it.
    const value =
      tool.dates.length > 0 ? `reviveDates(args, ${datesList(tool.dates)})` : "args as unknown";
    args.push(typed(value, tool.call.context === 0 ? 1 : 0));
  } else {
    tool.call.params.forEach((param, index) => {
      const position = tool.call.context !== null && index >= tool.call.context ? index + 1 : index;
      const own = tool.dates
        .filter((date) => date === param || date.startsWith(`${param}.`))
        .map((date) => date.slice(param.length + 1));
      // Bracket access: `ToolArguments` is an index signature (noPropertyAccessFromIndexSignature).
      const arg = `args[${printString(param)}]`;
      const value = own.length > 0 ? `reviveDates(${arg}, ${datesList(own)})` : arg;
      args.push(typed(value, position));
    });
  }
  if (tool.call.context !== null) args.splice(tool.call.context, 0, "context");
  const usesContext = tool.call.context !== null;
  // A positional tool without parameters reads no arguments (noUnusedParameters).
  const usesArgs = tool.call.kind === "object" || tool.call.params.length > 0;
  const params = [
    `${usesArgs ? "" : "_"}args: ToolArguments`,
    `${usesContext ? "" : "_"}context: ToolContext`,
  ];
  const flatSignature = `function ${name}(${params.join(", ")}): unknown {`;
  const signature =
    flatSignature.length <= PRINT_WIDTH
      ? flatSignature
      : `function ${name}(\n${params.map((param) => `  ${param},`).join("\n")}\n): unknown {`;
  const flat = `  return ${fn}(${args.join(", ")});`;
  const body =
    flat.length <= PRINT_WIDTH
      ? flat
      : `  return ${fn}(\n${args.map(brokenArgument).join("\n")}\n  );`;
  return `/** ${comment(tool.alias)} */\n${signature}\n${body}\n}\n`;
}

/** An argument on a line of its own; a cast too long for it breaks inside `Parameters<...>`, as prettier does. */
function brokenArgument(arg: string): string {
  const line = `    ${arg},`;
  const cast = /^(.*) as Parameters<(\(?typeof .*)>(\[\d+\])$/.exec(arg);
  if (line.length <= PRINT_WIDTH || !cast) return line;
  return `    ${cast[1]} as Parameters<\n      ${cast[2]}\n    >${cast[3]},`;
}

function datesList(paths: readonly string[]): string {
  return `[${paths.map((p) => printString(p)).join(", ")}]`;
}

/** The ESM import specifier of a tool's source file, from the output folder. */
function importPath(root: string, outDir: string, file: string): string {
  const relative = relativePath(outDir, path.join(root, file)).replace(/\.([cm]?)tsx?$/, ".$1js");
  return relative.startsWith(".") ? relative : `./${relative}`;
}

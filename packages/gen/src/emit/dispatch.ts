/**
 * emit: `dispatch.ts`, a function per tool that calls the real tool function, statically
 * imported, with its arguments in declared order (or the whole object) and the context where
 * the function takes one. No reflection: the generated code names every argument. Each
 * dispatcher takes its tool's arguments as `types.ts` prints them from the input schema
 * (`ToolArgs[alias]`, handles resolved) and reads them as plain properties, so that tsc checks
 * each against the function's parameter: no cast. The runtime dispatches only validated
 * arguments (`dispatchTable`, the one place that trusts it); `Date` parameters are revived
 * from their ISO strings here.
 */
import path from "node:path";
import type { SchemaNode as Node, ToolDefinition } from "@zcp/runtime/definition";
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
  "dispatchTable",
  "asDeclared",
  "ToolArgs",
  "ToolContext",
  "WithHandles",
  "reviveDates",
  "dispatch",
  "args",
  "_args",
  "context",
  "_context",
  "declaredErrors",
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
  // A tool with `@throws` is in the table as its function wrapped by `declaredErrors`.
  const wrapped = new Map(
    own.filter(declaresErrors).map((tool) => [tool, `${functions.get(tool)!}$errors`]),
  );
  const taken = new Set([...FIXED_NAMES, ...functions.values(), ...wrapped.values()]);
  const bindings = packageBindings(packages, taken);
  const modules = moduleNames(
    own.flatMap((tool) => [
      tool.source.file,
      ...(tool.source.errors ?? []).map((declared) => declared.file),
    ]),
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
  const runtimeNames: CodegenSymbol[] = [];
  if (own.length > 0) runtimeNames.push("ToolContext");
  if (own.some((tool) => Object.keys(tool.handleParams).length > 0))
    runtimeNames.push("WithHandles");
  if (own.some(declaresArguments)) runtimeNames.push("asDeclared");
  if (packages.length > 0) runtimeNames.push(CHECK);
  if (wrapped.size > 0) runtimeNames.push("declaredErrors");
  runtimeNames.push("dispatchTable");
  if (own.some((tool) => tool.dates.length > 0)) runtimeNames.push("reviveDates");
  const header = [
    codegenImports(runtimeNames).trimEnd(),
    packageImports(bindings).trimEnd(),
    imports,
    ...(own.length > 0 ? [`import type { ToolArgs } from "./types.js";`] : []),
  ].filter(Boolean);
  const entry = (tool: ToolDefinition): Identifier => {
    const composed = fromPackage.get(tool.id);
    return new Identifier(
      composed
        ? packageEntry(bindings.get(composed.pkg.name)!, "dispatch", composed.id)
        : (wrapped.get(tool) ?? functions.get(tool)!),
    );
  };
  return tsFile(context, [
    `${header.join("\n")}\n`,
    ...(packages.length > 0 ? [packages.map((pkg) => packageCheck(pkg, bindings)).join("")] : []),
    ...own.map((tool) => dispatcher(tool, functions.get(tool)!, modules.get(tool.source.file)!)),
    ...[...wrapped].map(([tool, name]) => withErrors(tool, name, functions.get(tool)!, modules)),
    printStatement(
      "export const dispatch = dispatchTable(",
      Object.fromEntries(tools.map((tool) => [tool.id, entry(tool)])),
      ")",
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

function declaresErrors(tool: ToolDefinition): boolean {
  return (tool.source.errors ?? []).length > 0;
}

/**
 * `const <name> = declaredErrors(<fn>, [[<module>.<Class>, "<code>"], ...]);`: the tool's
 * dispatcher with its `@throws` classes, each read from its module's namespace.
 */
function withErrors(
  tool: ToolDefinition,
  name: string,
  fn: string,
  modules: ReadonlyMap<string, string>,
): string {
  const declared = (tool.source.errors ?? []).map((error) => [
    new Identifier(`${modules.get(error.file)!}.${error.export}`),
    error.code,
  ]);
  return printStatement(`const ${name} = declaredErrors(${fn}, `, declared, ")");
}

function dispatcher(tool: ToolDefinition, name: string, module: string): string {
  // An export name that is not an identifier (`export { f as "a b" }`) is read as a string.
  const fn = IDENTIFIER.test(tool.source.export)
    ? `${module}.${tool.source.export}`
    : `${module}[${printString(tool.source.export)}]`;
  const args: string[] = [];
  const typed = (value: string, schema: unknown) =>
    exact(schema) ? value : `asDeclared(${value})`;
  if (tool.call.kind === "object") {
    const value = tool.dates.length > 0 ? `reviveDates(args, ${datesList(tool.dates)})` : "args";
    args.push(typed(value, tool.inputSchema));
  } else {
    for (const param of tool.call.params) {
      const own = tool.dates
        .filter((date) => date === param || date.startsWith(`${param}.`))
        .map((date) => date.slice(param.length + 1));
      const arg = IDENTIFIER.test(param) ? `args.${param}` : `args[${printString(param)}]`;
      const value = own.length > 0 ? `reviveDates(${arg}, ${datesList(own)})` : arg;
      // A handle is a `Handle` of its kind whatever its id's schema: checked as it is.
      args.push(
        Object.hasOwn(tool.handleParams, param)
          ? value
          : typed(value, parameterSchema(tool, param)),
      );
    }
  }
  // A context typed with its configuration (`ToolContext<Config>`): the runtime validated it.
  if (tool.call.context !== null)
    args.splice(tool.call.context, 0, tool.call.config ? "asDeclared(context)" : "context");
  const usesContext = tool.call.context !== null;
  // A positional tool without parameters reads no arguments (noUnusedParameters).
  const usesArgs = tool.call.kind === "object" || tool.call.params.length > 0;
  const type = argumentsType(tool);
  const params = [
    `${usesArgs ? "" : "_"}args: ${type.flat}`,
    `${usesContext ? "" : "_"}context: ToolContext`,
  ];
  const flatSignature = `function ${name}(${params.join(", ")}): unknown {`;
  const signature =
    flatSignature.length <= PRINT_WIDTH
      ? flatSignature
      : `function ${name}(\n${brokenParameter(params[0]!, type)}\n  ${params[1]!},\n): unknown {`;
  const flat = `  return ${fn}(${args.join(", ")});`;
  const body =
    flat.length <= PRINT_WIDTH
      ? flat
      : `  return ${fn}(\n${args.map((arg) => `    ${arg},`).join("\n")}\n  );`;
  return `/** ${comment(tool.alias)} */\n${signature}\n${body}\n}\n`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A tool's arguments as its dispatcher receives them: its `ToolArgs` entry of `types.ts`, with
 * the handle parameters as `Handle`s of their kinds (`WithHandles`); dates stay strings until
 * the dispatcher revives them. `kinds` are the members of the object type of those kinds.
 */
interface ArgumentsType {
  readonly flat: string;
  readonly sent: string;
  readonly kinds: readonly string[];
}

function argumentsType(tool: ToolDefinition): ArgumentsType {
  const sent = `ToolArgs[${printString(tool.alias)}]`;
  const kinds = Object.entries(tool.handleParams).map(
    ([param, kind]) =>
      `${IDENTIFIER.test(param) ? param : printString(param)}: ${kind === "*" ? "string" : printString(kind)}`,
  );
  const flat = kinds.length > 0 ? `WithHandles<${sent}, { ${kinds.join("; ")} }>` : sent;
  return { flat, sent, kinds };
}

/** The `args` parameter on a line of its own; a `WithHandles` too long for it breaks as prettier breaks it. */
function brokenParameter(param: string, type: ArgumentsType): string {
  const line = `  ${param},`;
  if (line.length <= PRINT_WIDTH || type.kinds.length === 0) return line;
  const name = param.slice(0, param.indexOf(":"));
  const kinds = `    { ${type.kinds.join("; ")} },`;
  const object =
    kinds.length <= PRINT_WIDTH
      ? kinds
      : `    {\n${type.kinds.map((kind) => `      ${kind};\n`).join("")}    },`;
  return `  ${name}: WithHandles<\n    ${type.sent},\n${object}\n  >,`;
}

/** Whether a tool's dispatcher calls `asDeclared`. */
function declaresArguments(tool: ToolDefinition): boolean {
  if (tool.call.config) return true;
  if (tool.call.kind === "object") return !exact(tool.inputSchema);
  return tool.call.params.some(
    (param) => !Object.hasOwn(tool.handleParams, param) && !exact(parameterSchema(tool, param)),
  );
}

function parameterSchema(tool: ToolDefinition, param: string): unknown {
  return (tool.inputSchema.properties as { readonly [name: string]: unknown })[param];
}

/**
 * Whether the type `types.ts` prints from `schema` states the parameter's type exactly, so that
 * tsc checks the argument as it is: a string, number or boolean without listed values or a
 * pattern (a string enum, a template literal type). Anything else goes through `asDeclared`.
 */
function exact(schema: unknown): boolean {
  const node = (schema ?? {}) as Node;
  return (
    ["string", "number", "integer", "boolean"].includes(node.type as string) &&
    node.enum === undefined &&
    node.const === undefined &&
    node.pattern === undefined
  );
}

function datesList(paths: readonly string[]): string {
  return `[${paths.map((p) => printString(p)).join(", ")}]`;
}

/** The ESM import specifier of a tool's source file, from the output folder. */
export function importPath(root: string, outDir: string, file: string): string {
  const relative = relativePath(outDir, path.join(root, file)).replace(/\.([cm]?)tsx?$/, ".$1js");
  return relative.startsWith(".") ? relative : `./${relative}`;
}

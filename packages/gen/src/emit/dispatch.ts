/**
 * emit: `dispatch.ts`, a function per tool that calls the real tool function, statically
 * imported, with its arguments in declared order (or the whole object) and the context where
 * the function takes one. No reflection: the generated code names every argument. Arguments are
 * typed as the function's own parameter types, which the runtime guarantees by validating
 * before it dispatches; `Date` parameters are revived from their ISO strings here.
 */
import path from "node:path";
import type { ToolDefinition } from "@zcp/runtime";
import { relativePath } from "../diagnostics.js";
import { tsFile } from "./ts-file.js";
import { Identifier, PRINT_WIDTH, printStatement, printString } from "./print.js";
import { comment } from "./registry.js";

/** `root` is the config folder (tool sources are relative to it), `outDir` where the file goes. */
export function dispatchFile(tools: readonly ToolDefinition[], root: string, outDir: string): string {
  const modules = [...new Set(tools.map((tool) => tool.source.file))].sort();
  const alias = new Map(modules.map((file, index) => [file, `m${index}`]));
  const imports = modules.map((file) => `import * as ${alias.get(file)} from ${printString(importPath(root, outDir, file))};`).join("\n");
  const header = [
    `import type { DispatchTable, ToolArguments, ToolContext } from "@zcp/runtime";`,
    ...(tools.some((tool) => tool.dates.length > 0) ? [`import { reviveDates } from "@zcp/runtime";`] : []),
    imports,
  ].filter(Boolean);
  return tsFile([
    `${header.join("\n")}\n`,
    ...tools.map((tool) => dispatcher(tool, alias.get(tool.source.file)!)),
    printStatement("export const dispatch: DispatchTable = ", Object.fromEntries(tools.map((tool) => [tool.id, new Identifier(functionName(tool))]))),
  ]);
}

function dispatcher(tool: ToolDefinition, module: string): string {
  const fn = `${module}.${tool.source.export}`;
  const typed = (value: string, index: number) => `${value} as Parameters<typeof ${fn}>[${index}]`;
  const args: string[] = [];
  if (tool.call.kind === "object") {
    // Through unknown: TypeScript refuses a direct cast from an index signature to an interface
    // whose required properties it cannot see in it.
    const value = tool.dates.length > 0 ? `reviveDates(args, ${datesList(tool.dates)})` : "args as unknown";
    args.push(typed(value, tool.call.context === 0 ? 1 : 0));
  } else {
    tool.call.params.forEach((name, index) => {
      const position = tool.call.context !== null && index >= tool.call.context ? index + 1 : index;
      const own = tool.dates.filter((date) => date === name || date.startsWith(`${name}.`)).map((date) => date.slice(name.length + 1));
      const value = own.length > 0 ? `reviveDates(args.${name}, ${datesList(own)})` : `args.${name}`;
      args.push(typed(value, position));
    });
  }
  if (tool.call.context !== null) args.splice(tool.call.context, 0, "context");
  const usesContext = tool.call.context !== null;
  const signature = `function ${functionName(tool)}(args: ToolArguments, ${usesContext ? "" : "_"}context: ToolContext): unknown {`;
  const flat = `  return ${fn}(${args.join(", ")});`;
  const body = flat.length <= PRINT_WIDTH ? flat : `  return ${fn}(\n${args.map((arg) => `    ${arg},`).join("\n")}\n  );`;
  return `/** ${comment(tool.alias)} */\n${signature}\n${body}\n}\n`;
}

function datesList(paths: readonly string[]): string {
  return `[${paths.map((p) => printString(p)).join(", ")}]`;
}

function functionName(tool: ToolDefinition): string {
  return `call_${tool.id}`;
}

/** The ESM import specifier of a tool's source file, from the output folder. */
function importPath(root: string, outDir: string, file: string): string {
  const relative = relativePath(outDir, path.join(root, file)).replace(/\.([cm]?)tsx?$/, ".$1js");
  return relative.startsWith(".") ? relative : `./${relative}`;
}

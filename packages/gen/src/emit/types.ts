/**
 * emit: `types.ts`, the TypeScript types of every tool's arguments and result as they travel
 * (handle ids and dates are strings), and the maps a typed client indexes by alias:
 *
 *     call<A extends ToolAlias>(alias: A, args: ToolArgs[A]): Promise<ToolResults[A]>
 *
 * Object schemas become named interfaces, one per distinct shape (a shared interface is
 * declared once, under its TypeScript name when that name is free), so that every property
 * type is a single line of names, literals and unions. Lines are laid out as prettier lays
 * them out (the tests check this); the only construct that wraps is a long union. The printer
 * is the runtime's (`TypePrinter`, style `types`), shared with the API text of views.
 */
import {
  mapInterfaceText,
  pascalCase,
  TypePrinter,
  type SchemaNode as Node,
  type ToolDefinition,
} from "@zcp/runtime/definition";
import { RESERVED } from "./names.js";
import { tsFile, type EmitContext } from "./ts-file.js";

/** The names the file declares besides the tools' types, and TypeScript's predefined types. */
const TAKEN = [
  "ToolArgs",
  "ToolResults",
  "ToolAlias",
  ...["any", "unknown", "never", "void", "object", "string", "number", "bigint", "boolean"],
  ...["symbol", "type", "keyof", "readonly", "unique", "infer", "is", "asserts", "namespace"],
];

/** The text of `types.ts` for `tools`. */
export function typesFile(context: EmitContext, tools: readonly ToolDefinition[]): string {
  const printer = new TypePrinter();
  // An object's title names its interface: never one of the file's own names, a reserved word
  // or a predefined type (a title is an upstream's text in a gateway).
  for (const name of [...TAKEN, ...RESERVED]) printer.reserve(name, "");
  const argsMap: [string, string][] = [];
  const resultMap: [string, string][] = [];
  for (const tool of tools) {
    const base = printer.reserve(pascalCase(tool.alias), tool.id);
    printer.defs(tool.inputSchema as Node, base);
    argsMap.push([tool.alias, printer.named(tool.inputSchema as Node, `${base}Args`)]);
    if (tool.content !== undefined) {
      // A content tool answers `{ ok: true, content }`: never a value.
      resultMap.push([tool.alias, "never"]);
    } else if (tool.outputSchema) {
      printer.defs(tool.outputSchema as Node, `${base}Result`);
      resultMap.push([tool.alias, printer.alias(tool.outputSchema as Node, `${base}Result`)]);
    } else {
      resultMap.push([tool.alias, "undefined"]);
    }
  }
  return tsFile(context, [
    ...printer.declarations,
    mapInterfaceText(
      "ToolArgs",
      "The arguments of each tool, by alias (as sent: handle ids and dates are strings).",
      argsMap,
    ),
    mapInterfaceText("ToolResults", "The result value of each tool, by alias.", resultMap),
    "/** Every tool alias. */\nexport type ToolAlias = keyof ToolArgs;\n",
  ]);
}

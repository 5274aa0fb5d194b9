/**
 * emit: `find.ts`, the registry's tool index (`buildFindIndex` of `@zcp/runtime/definition`, the
 * runtime's own implementation) as one compact JSON text parsed when the module loads, as
 * registry.ts holds each definition: plain data, deterministic bytes.
 */
import { buildFindIndex, type Registry } from "@zcp/runtime/definition";
import { printString } from "./print.js";
import { parseStatement } from "./registry.js";
import { tsFile, type EmitContext } from "./ts-file.js";
import { codegenImports } from "./codegen-imports.js";

export const FIND_FILE = "find.ts";

/** `export const findIndex: FindIndex = JSON.parse('…');` over the registry's tools. */
export function findFile(context: EmitContext, registry: Registry): string {
  const index = buildFindIndex(registry.tools);
  return tsFile(context, [
    codegenImports(["FindIndex"]),
    `/** The tool index \`session.find\` ranks by (BM25F over aliases, titles, descriptions, parameters and groups). */\n${parseStatement("export const findIndex: FindIndex =", printString(JSON.stringify(index)))}`,
    "export default findIndex;\n",
  ]);
}

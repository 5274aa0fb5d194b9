/**
 * emit: `registry.ts`, one typed constant per tool and the `Registry` that lists them. Each
 * tool's value is its definition as compact JSON text, parsed once when the module loads
 * (`JSON.parse('…')`): the smallest text that is the definition, read by the JSON parser
 * instead of the JavaScript one.
 */
import {
  REGISTRY_FORMAT_VERSION,
  type Registry,
  type ToolDefinition,
} from "@zcp/runtime/definition";
import { toolBaseName, toolNames } from "../model/index.js";
import { Identifier, PRINT_WIDTH, printStatement, printString, width } from "./print.js";
import { comment, tsFile, type EmitContext } from "./ts-file.js";
import { codegenImports } from "./codegen-imports.js";

/**
 * `statementOf` prints a tool's statement under its base name (`toolStatement(tool)`, cached by
 * the caller between watch runs); a tool whose name had to be told apart from another's is
 * printed here under its own.
 */
export function registryFile(
  context: EmitContext,
  registry: Registry,
  statementOf: (tool: ToolDefinition) => string,
): string {
  const names = toolNames(registry.tools);
  return tsFile(context, [
    codegenImports(["Registry", "ToolDefinition"]),
    ...registry.tools.map((tool) =>
      names.get(tool) === toolBaseName(tool)
        ? statementOf(tool)
        : toolStatement(tool, names.get(tool)),
    ),
    printStatement("export const registry: Registry = ", {
      version: REGISTRY_FORMAT_VERSION,
      generator: registry.generator,
      hash: registry.hash,
      tools: registry.tools.map((tool) => new Identifier(constName(names.get(tool)!))),
      names: registry.names,
    }),
    "export default registry;\n",
  ]);
}

/**
 * `const tool_<name>: ToolDefinition = JSON.parse('…');`, under the tool's base name unless told
 * otherwise, with the alias and short description as its doc comment.
 */
export function toolStatement(tool: ToolDefinition, name = toolBaseName(tool)): string {
  const summary = tool.descriptionShort ? `: ${comment(tool.descriptionShort)}` : "";
  const head = `const ${constName(name)}: ToolDefinition =`;
  return `/** ${comment(tool.alias)}${summary} */\n${parseStatement(head, printString(JSON.stringify(tool)))}`;
}

/**
 * `<head> JSON.parse(<literal>);` as prettier lays it out: on one line if it fits; else the
 * literal on a line of its own inside the call; but a literal of at most a quarter of the line
 * (a "short argument") never breaks the call, and a head too long for `JSON.parse(` after it
 * puts the call on the next line.
 */
export function parseStatement(head: string, literal: string): string {
  const call = `JSON.parse(${literal});`;
  // Measured once: a definition's literal is long, and the call around it is ASCII.
  const literalWidth = width(literal);
  const callWidth = "JSON.parse(".length + literalWidth + ");".length;
  const headWidth = width(head);
  if (headWidth + 1 + callWidth <= PRINT_WIDTH) return `${head} ${call}\n`;
  if (literalWidth > PRINT_WIDTH / 4 && headWidth + 1 + "JSON.parse(".length <= PRINT_WIDTH)
    return `${head} JSON.parse(\n  ${literal},\n);\n`;
  if (2 + callWidth <= PRINT_WIDTH) return `${head}\n  ${call}\n`;
  return `${head}\n  JSON.parse(\n    ${literal},\n  );\n`;
}

function constName(name: string): string {
  return `tool_${name}`;
}

/**
 * emit: `registry.ts`, one typed constant per tool and the `Registry` that lists them.
 */
import {
  REGISTRY_FORMAT_VERSION,
  type JsonValue,
  type Registry,
  type ToolDefinition,
} from "@zcp/runtime/codegen";
import { toolBaseName, toolNames } from "../model/index.js";
import { Identifier, printStatement } from "./print.js";
import { comment, tsFile, type EmitContext } from "./ts-file.js";

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
    `import type { Registry, ToolDefinition } from "@zcp/runtime/codegen";\n`,
    ...registry.tools.map((tool) =>
      names.get(tool) === toolBaseName(tool)
        ? statementOf(tool)
        : toolStatement(tool, names.get(tool)),
    ),
    printStatement("export const registry: Registry = ", {
      version: REGISTRY_FORMAT_VERSION,
      hash: registry.hash,
      tools: registry.tools.map((tool) => new Identifier(constName(names.get(tool)!))),
      names: registry.names,
    }),
    "export default registry;\n",
  ]);
}

/** `const tool_<name>: ToolDefinition = {...};`, under the tool's base name unless told otherwise. */
export function toolStatement(tool: ToolDefinition, name = toolBaseName(tool)): string {
  const summary = tool.descriptionShort ? `: ${comment(tool.descriptionShort)}` : "";
  return `/** ${comment(tool.alias)}${summary} */\n${printStatement(`const ${constName(name)}: ToolDefinition = `, tool as unknown as JsonValue)}`;
}

function constName(name: string): string {
  return `tool_${name}`;
}

/**
 * emit: `registry.ts`, one typed constant per tool and the `Registry` that lists them.
 */
import { REGISTRY_FORMAT_VERSION, type JsonValue, type Registry, type ToolDefinition } from "@zcp/runtime";
import { Identifier, printStatement } from "./print.js";
import { tsFile } from "./ts-file.js";

export function registryFile(registry: Registry, statementOf: (tool: ToolDefinition) => string): string {
  return tsFile([
    `import type { Registry, ToolDefinition } from "@zcp/runtime";\n`,
    ...registry.tools.map(statementOf),
    printStatement("export const registry: Registry = ", {
      version: REGISTRY_FORMAT_VERSION,
      hash: registry.hash,
      tools: registry.tools.map((tool) => new Identifier(constName(tool))),
      names: registry.names,
    }),
    "export default registry;\n",
  ]);
}

export function toolStatement(tool: ToolDefinition): string {
  const summary = tool.descriptionShort ? `: ${comment(tool.descriptionShort)}` : "";
  return `/** ${comment(tool.alias)}${summary} */\n${printStatement(`const ${constName(tool)}: ToolDefinition = `, tool as unknown as JsonValue)}`;
}

function constName(tool: ToolDefinition): string {
  return `tool_${tool.id}`;
}

/** Text safe inside a block comment, on one line. */
export function comment(text: string): string {
  return text.replace(/\*\//g, "*\\/").replace(/\s+/g, " ");
}

/**
 * How zcp-serve runs a gateway's tools: in process, automatically. A gateway tool (its
 * `source.file` is `mcp:<name>`, as `zcp gen --from-mcp` writes it) does I/O on one shared
 * upstream connection; run in worker threads, every worker would open its own. So the executor
 * runs those tools on the server's thread and hands the others to the worker executor.
 */
import type {
  ExecutedCall,
  GeneratedModule,
  ToolContext,
  ToolDefinition,
  ToolExecutor,
} from "@zcp/runtime";

/** The `source.file` prefix of a tool generated from an upstream MCP server. */
export const GATEWAY_SOURCE_PREFIX = "mcp:";

export function isGatewayTool(tool: ToolDefinition): boolean {
  return tool.source.file.startsWith(GATEWAY_SOURCE_PREFIX);
}

/** An executor that calls gateway tools' dispatchers here and every other tool through `workers`. */
export function gatewayExecutor(generated: GeneratedModule, workers: ToolExecutor): ToolExecutor {
  return {
    execute(
      tool: ToolDefinition,
      args: { readonly [name: string]: unknown },
      context: ToolContext,
      call?: ExecutedCall,
    ): Promise<unknown> {
      if (!isGatewayTool(tool)) return workers.execute(tool, args, context, call);
      return Promise.resolve().then(() => generated.dispatch[tool.id]!(args, context));
    },
  };
}

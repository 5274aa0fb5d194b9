/**
 * emit: the `dispatch.ts` of a gateway (a `fromMcp` project): every tool forwards its
 * (validated) arguments to the upstream tool it was listed as, through one `upstream(...)` of
 * `@zcp/server/gateway` per module (the run time opens the connection on the first call). The
 * server object is written as configured: `${NAME}` templates stay templates, expanded from the
 * environment when the run time connects, so no secret is written into generated code.
 */
import type { ToolDefinition } from "@zcp/runtime/definition";
import type { Gateway } from "../upstream/index.js";
import { Identifier, printStatement, printString } from "./print.js";
import { comment, tsFile, type EmitContext } from "./ts-file.js";
import { codegenImports } from "./codegen-imports.js";

export function gatewayDispatchFile(
  context: EmitContext,
  tools: readonly ToolDefinition[],
  gateway: Gateway,
): string {
  const entries = Object.fromEntries(
    tools.map((tool) => [
      tool.id,
      new Identifier(
        `(args, context) => server.call(${printString(tool.source.export)}, args, context)`,
      ),
    ]),
  );
  return tsFile(context, [
    [
      codegenImports(["DispatchTable"]).trimEnd(),
      `import { upstream } from "@zcp/server/gateway";`,
      "",
    ].join("\n"),
    `/** ${comment(`The upstream MCP server "${gateway.name}" as configured: \${NAME} templates are expanded from the environment when it connects.`)} */\n${printStatement("const upstreamServer = ", gateway.server as never)}`,
    `const server = upstream(upstreamServer, { name: ${printString(gateway.name)} });\n`,
    printStatement("export const dispatch: DispatchTable = ", entries),
  ]);
}

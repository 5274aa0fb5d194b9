/**
 * The oracle for the 2026-07-28 requirement set: a bare server on the v2 SDK
 * (`@modelcontextprotocol/server` 2.4.0), the way its docs teach: one `McpServer` factory behind
 * `createMcpHandler` (a fresh server per request; the 2025 era served statelessly), mounted on
 * `node:http` with `toNodeHandler` and the localhost Host and Origin guards of
 * `@modelcontextprotocol/node`. It serves the four tools zcp serves (`shared-tools.ts`) and
 * nothing else: the 1.32.2 reference speaks the 2025 era only, so this one stands for what a
 * bare v2 server passes on the current protocol.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import type { Reference } from "./reference-server.js";
import { SHARED_TOOLS } from "./shared-tools.js";

function createMcpServer(): McpServer {
  const server = new McpServer(
    { name: "reference-v2", version: "1.0.0" },
    { capabilities: { logging: {} } },
  );
  for (const tool of SHARED_TOOLS)
    server.registerTool(tool.name, { description: tool.description }, (ctx) =>
      tool.run({
        log: (line) => ctx.mcpReq.log("info", line),
        progress: async (progress, total) => {
          const progressToken = ctx.mcpReq._meta?.progressToken;
          if (progressToken !== undefined)
            await ctx.mcpReq.notify({
              method: "notifications/progress",
              params: { progressToken, progress, total },
            });
        },
      }),
    );
  return server;
}

/** Listens on 127.0.0.1 at a free port, `/mcp`. */
export async function startReferenceV2(): Promise<Reference> {
  const handler = createMcpHandler(createMcpServer, { legacy: "stateless" });
  const serve = toNodeHandler(handler);
  const hostAllowed = localhostHostValidation();
  const originAllowed = localhostOriginValidation();
  const http = createServer((req, res) => {
    if (hostAllowed(req, res) && originAllowed(req, res)) void serve(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/**
 * A 2026-07-28 upstream on the v2 server SDK over stdio whose one tool marks parameters with
 * `x-mcp-header`, for the `Mcp-Param-*` tests: `node --import tsx param-upstream.ts`.
 *
 *   route {region, count?, dry?, target?: {zone?}, query}   its arguments, as JSON text
 *
 * `region` (string) is mirrored as `Mcp-Param-Region`, `count` (integer) as `Mcp-Param-Count`,
 * `dry` (boolean) as `Mcp-Param-Dry`, `target.zone` (string, nested) as `Mcp-Param-Zone`;
 * `query` is not mirrored.
 */
import { fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const ROUTE_SCHEMA = {
  type: "object" as const,
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    count: { type: "integer", "x-mcp-header": "Count" },
    dry: { type: "boolean", "x-mcp-header": "Dry" },
    target: {
      type: "object",
      properties: { zone: { type: "string", "x-mcp-header": "Zone" } },
    },
    query: { type: "string" },
  },
  required: ["region", "query"],
};

serveStdio(
  () => {
    const server = new McpServer({ name: "param-upstream", version: "1.0.0" });
    server.registerTool(
      "route",
      { description: "Answers its arguments", inputSchema: fromJsonSchema(ROUTE_SCHEMA) },
      (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }),
    );
    return server;
  },
  { legacy: "reject" },
);

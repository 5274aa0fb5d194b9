/**
 * "The usual MCP server" for `pnpm bench:serve`: the SDK's high-level `McpServer` with one tool,
 * `math_subtract`, declared with a zod input schema and calling the weather fixture's `subtract`.
 * `node --import tsx tools/bench-serve/usual-server.ts` serves it on stdio; with `--http` it
 * serves Streamable HTTP on 127.0.0.1 (a free port, stateful sessions) and prints
 * `usual-server: listening on http://127.0.0.1:<port>/mcp` on stderr. Stops on SIGTERM/SIGINT.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { subtract } from "../../fixtures/weather/src/math.ts";

function createServer(): McpServer {
  const server = new McpServer({ name: "usual-mcp", version: "0.0.0" });
  server.registerTool(
    "math_subtract",
    { description: "Subtract b from a.", inputSchema: { a: z.number(), b: z.number() } },
    ({ a, b }) => ({
      content: [{ type: "text", text: JSON.stringify(subtract(a, b)) }],
    }),
  );
  return server;
}

async function serveStdio(): Promise<void> {
  const server = createServer();
  await server.connect(new StdioServerTransport());
  process.stderr.write("usual-server: serving MCP on stdio\n");
  const stop = () => void server.close().finally(() => process.exit(0));
  process.stdin.on("end", stop);
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

async function serveHttp(): Promise<void> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const httpServer = http.createServer((req, res) => {
    void (async () => {
      if (new URL(req.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") {
        res.writeHead(404).end();
        return;
      }
      const sessionId = req.headers["mcp-session-id"];
      const body = req.method === "POST" ? await readJson(req) : undefined;
      let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
      if (!transport) {
        if (req.method !== "POST" || sessionId !== undefined || !isInitializeRequest(body)) {
          res.writeHead(400, { "content-type": "application/json" }).end(
            JSON.stringify({
              jsonrpc: "2.0",
              error: { code: -32000, message: "Bad Request: no valid session" },
              id: null,
            }),
          );
          return;
        }
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void transports.set(id, created),
        });
        created.onclose = () => {
          if (created.sessionId !== undefined) transports.delete(created.sessionId);
        };
        await createServer().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      process.stderr.write(
        `usual-server: ${error instanceof Error ? error.stack : String(error)}\n`,
      );
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  process.stderr.write(`usual-server: listening on http://127.0.0.1:${port}/mcp\n`);
  const stop = () => {
    for (const transport of transports.values()) void transport.close();
    httpServer.closeAllConnections();
    httpServer.close(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

await (process.argv.includes("--http") ? serveHttp() : serveStdio());

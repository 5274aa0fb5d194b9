/**
 * A real upstream of either MCP era for the gateway's era tests, on the official SDKs:
 * `node --import tsx era-upstream.ts <stdio|http> <era> [port]`, where `<era>` is
 *
 *   modern   the v2 server SDK, 2026-07-28 only (`legacy: "reject"`: it answers -32022 to 2025)
 *   dual     the v2 server SDK serving both eras (its default)
 *   legacy   the v1 SDK (1.32.2), 2025 only: `initialize` and sessions
 *   silent   legacy, over stdio, that answers nothing to `server/discover` (as Python SDK servers
 *            do to any request before `initialize`)
 *   exits    legacy, over stdio, that exits on `server/discover` (as rmcp servers do)
 *   late     modern, over stdio, that reads nothing for its first 1.5 s (a slow start)
 *   @<file>  the era written in the file, read at start (a test changes it between starts)
 *
 * Over HTTP it serves `http://127.0.0.1:<port>/mcp` (port 0: any) and writes `listening <port>`
 * to stdout once it does. Its tools:
 *
 *   echo {text}   `<era> <text>`: the era the answering instance serves
 *   fail {}       a tool error (`isError`), text "it failed on purpose"
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import process from "node:process";
import { Server as LegacyServer } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport as LegacyStdio } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport as LegacyHttp } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createMcpHandler, fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const [wire, eraArg = "modern", portArg = "0"] = process.argv.slice(2);
const era = eraArg.startsWith("@") ? readFileSync(eraArg.slice(1), "utf8").trim() : eraArg;
if (!["modern", "dual", "legacy", "silent", "exits", "late"].includes(era))
  throw new Error(`unknown era ${era}`);

const ECHO = {
  type: "object" as const,
  properties: { text: { type: "string" } },
  required: ["text"],
};
const FAILED = {
  content: [{ type: "text" as const, text: "it failed on purpose" }],
  isError: true,
};

/** A v2 server instance for one request (HTTP) or connection (stdio) of era `served`. */
function modern({ era: served }: { era: "legacy" | "modern" }): McpServer {
  const server = new McpServer({ name: "era-upstream", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echoes the text", inputSchema: fromJsonSchema<{ text: string }>(ECHO) },
    ({ text }) => ({ content: [{ type: "text", text: `${served} ${text}` }] }),
  );
  server.registerTool("fail", { description: "Fails" }, () => FAILED);
  return server;
}

/** A v1 server instance (2025 era only), the same tools. */
function legacy(): LegacyServer {
  const server = new LegacyServer(
    { name: "era-upstream", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name: "echo", description: "Echoes the text", inputSchema: ECHO },
      { name: "fail", description: "Fails", inputSchema: { type: "object" } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) =>
    params.name === "fail"
      ? FAILED
      : { content: [{ type: "text", text: `legacy ${String(params.arguments?.text)}` }] },
  );
  return server;
}

if (wire === "stdio") {
  if (era === "legacy" || era === "silent" || era === "exits") {
    const transport = new LegacyStdio();
    await legacy().connect(transport);
    const handle = transport.onmessage!;
    transport.onmessage = (message) => {
      if (!("method" in message) || message.method !== "server/discover") return handle(message);
      if (era === "exits") process.exit(1);
      if (era === "legacy") handle(message);
    };
  } else {
    if (era === "late") await new Promise((resolve) => setTimeout(resolve, 1500));
    serveStdio(modern, era === "dual" ? {} : { legacy: "reject" });
  }
} else {
  const handle = era === "legacy" ? legacyHttp() : modernHttp();
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      process.stderr.write(`era-upstream: ${String(error)}\n`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.listen(Number(portArg), "127.0.0.1", () => {
    const address = server.address();
    process.stdout.write(`listening ${typeof address === "object" ? address?.port : ""}\n`);
  });
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The v2 handler behind node's HTTP server: the request made a web Request, its Response written back. */
function modernHttp(): Handler {
  const handler = createMcpHandler(modern, era === "modern" ? { legacy: "reject" } : {});
  return async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === "string") headers.set(name, value);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const response = await handler.fetch(
      new Request(`http://127.0.0.1${req.url ?? "/"}`, {
        method: req.method ?? "GET",
        headers,
        ...(body !== undefined && req.method !== "GET" ? { body } : {}),
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) return void res.end();
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  };
}

/** The v1 stateful transport: a session per `initialize`, found by its header. */
function legacyHttp(): Handler {
  const sessions = new Map<string, LegacyHttp>();
  return async (req, res) => {
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (transport === undefined) {
      transport = new LegacyHttp({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (session) => void sessions.set(session, transport!),
      });
      await legacy().connect(transport);
    }
    await transport.handleRequest(req, res);
  };
}

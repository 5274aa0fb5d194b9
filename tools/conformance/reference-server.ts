/**
 * The oracle: a bare MCP server on the official SDK zcp serves with (`@modelcontextprotocol/sdk`
 * 1.32.2), written the way the SDK's docs teach (`McpServer`, `registerTool`/`Resource`/
 * `Prompt`, `completable`, a stateful Streamable HTTP transport per session behind
 * `createMcpExpressApp`, which adds the DNS-rebinding guard on loopback). It serves the four
 * tools zcp serves (`shared-tools.ts`) with the same answers, plus what the suite's
 * 2025-11-25 scenarios ask of features zcp does not offer yet (content types, sampling,
 * elicitation, resources, prompts, completion), so that the test can tell "the SDK passes this
 * and zcp does not" from "nobody passes this".
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  isInitializeRequest,
  type PrimitiveSchemaDefinition,
  type PromptMessage,
  type ServerNotification,
  type ServerRequest,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { SHARED_TOOLS } from "./shared-tools.js";

/** A 1×1 red PNG and a silent 8-sample WAV: the suite only checks that data and type are there. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = Buffer.concat([
  Buffer.from("RIFF", "ascii"),
  Buffer.from([44, 0, 0, 0]),
  Buffer.from("WAVEfmt ", "ascii"),
  Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 64, 31, 0, 0, 64, 31, 0, 0, 1, 0, 8, 0]),
  Buffer.from("data", "ascii"),
  Buffer.from([8, 0, 0, 0, 128, 128, 128, 128, 128, 128, 128, 128]),
]).toString("base64");

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** The tools zcp serves too (`shared-tools.ts`), with the same answers. */
function registerSharedTools(server: McpServer): void {
  for (const tool of SHARED_TOOLS)
    server.registerTool(tool.name, { description: tool.description }, (extra) =>
      tool.run({
        log: (line) => server.sendLoggingMessage({ level: "info", data: line }, extra.sessionId),
        progress: async (progress, total) => {
          const progressToken = extra._meta?.progressToken;
          if (progressToken !== undefined)
            await extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken, progress, total },
            });
        },
      }),
    );
}

/** Tools for what zcp does not offer yet: other content types, sampling, elicitation. */
function registerOtherTools(server: McpServer): void {
  server.registerTool("test_image_content", { description: "Answer an image." }, () => ({
    content: [{ type: "image", data: PNG, mimeType: "image/png" }],
  }));
  server.registerTool("test_audio_content", { description: "Answer audio." }, () => ({
    content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }],
  }));
  const embedded = (uri: string, mimeType: string, value: string) => ({
    type: "resource" as const,
    resource: { uri, mimeType, text: value },
  });
  server.registerTool(
    "test_embedded_resource",
    { description: "Answer an embedded resource." },
    () => ({
      content: [
        embedded("test://embedded-resource", "text/plain", "This is an embedded resource content."),
      ],
    }),
  );
  server.registerTool(
    "test_multiple_content_types",
    { description: "Answer text, an image and an embedded resource." },
    () => ({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: PNG, mimeType: "image/png" },
        embedded(
          "test://mixed-content-resource",
          "application/json",
          JSON.stringify({ test: "data", value: 123 }),
        ),
      ],
    }),
  );
  server.registerTool(
    "test_sampling",
    { description: "Ask the client's model.", inputSchema: { prompt: z.string() } },
    async ({ prompt }, extra) => {
      const answer = await extra.sendRequest(
        {
          method: "sampling/createMessage",
          params: {
            messages: [{ role: "user", content: { type: "text", text: prompt } }],
            maxTokens: 100,
          },
        },
        CreateMessageResultSchema,
      );
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
      return text(`LLM response: ${content?.type === "text" ? content.text : ""}`);
    },
  );
  server.registerTool(
    "test_elicitation",
    { description: "Ask the user.", inputSchema: { message: z.string() } },
    async ({ message }, extra) =>
      text(
        `User response: ${await elicit(extra, message, {
          username: { type: "string", description: "User's response" },
          email: { type: "string", description: "User's email address" },
        })}`,
      ),
  );
  // SEP-1034: a default for every primitive type.
  server.registerTool(
    "test_elicitation_sep1034_defaults",
    { description: "Ask the user, with defaults." },
    async (extra) =>
      text(
        `Elicitation completed: ${await elicit(extra, "Defaults for every primitive type", {
          name: { type: "string", default: "John Doe" },
          age: { type: "integer", default: 30 },
          score: { type: "number", default: 95.5 },
          status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
          verified: { type: "boolean", default: true },
        })}`,
      ),
  );
  // SEP-1330: the five kinds of enum.
  const titled = (titles: string[]) =>
    titles.map((title, i) => ({ const: `value${i + 1}`, title }));
  server.registerTool(
    "test_elicitation_sep1330_enums",
    { description: "Ask the user to choose." },
    async (extra) =>
      text(
        `Elicitation completed: ${await elicit(extra, "Every kind of enum", {
          untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
          titledSingle: { type: "string", oneOf: titled(["First Option", "Second Option"]) },
          legacyEnum: {
            type: "string",
            enum: ["opt1", "opt2", "opt3"],
            enumNames: ["Option One", "Option Two", "Option Three"],
          },
          untitledMulti: {
            type: "array",
            items: { type: "string", enum: ["option1", "option2", "option3"] },
          },
          titledMulti: {
            type: "array",
            items: { anyOf: titled(["First Choice", "Second Choice"]) },
          },
        })}`,
      ),
  );
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** `elicitation/create` on the call's own stream; answers `action=…, content=…`. */
async function elicit(
  extra: Extra,
  message: string,
  properties: Record<string, PrimitiveSchemaDefinition>,
): Promise<string> {
  const answer = await extra.sendRequest(
    {
      method: "elicitation/create",
      params: { message, requestedSchema: { type: "object", properties } },
    },
    ElicitResultSchema,
  );
  return `action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
}

function registerResources(server: McpServer): void {
  server.registerResource(
    "static-text",
    "test://static-text",
    { description: "A static text resource.", mimeType: "text/plain" },
    (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "text/plain",
          text: "This is the content of the static text resource.",
        },
      ],
    }),
  );
  server.registerResource(
    "static-binary",
    "test://static-binary",
    { description: "A static binary resource.", mimeType: "image/png" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "image/png", blob: PNG }] }),
  );
  server.registerResource(
    "template-data",
    new ResourceTemplate("test://template/{id}/data", { list: undefined }),
    { description: "Data by id.", mimeType: "application/json" },
    (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "application/json",
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
        },
      ],
    }),
  );
  server.registerResource(
    "watched-resource",
    "test://watched-resource",
    { description: "A resource clients may subscribe to.", mimeType: "text/plain" },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: "Watched resource content" }],
    }),
  );
  // McpServer has no subscription API: the low-level handlers, as the SDK docs show.
  server.server.setRequestHandler(SubscribeRequestSchema, () => ({}));
  server.server.setRequestHandler(UnsubscribeRequestSchema, () => ({}));
}

function registerPrompts(server: McpServer): void {
  const user = (content: PromptMessage["content"]): PromptMessage => ({ role: "user", content });
  server.registerPrompt(
    "test_simple_prompt",
    { description: "A prompt without arguments." },
    () => ({
      messages: [user({ type: "text", text: "This is a simple prompt for testing." })],
    }),
  );
  server.registerPrompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with two arguments.",
      argsSchema: {
        arg1: completable(z.string().describe("First test argument"), (value) =>
          ["paris", "park", "party"].filter((word) => word.startsWith(value)),
        ),
        arg2: z.string().describe("Second test argument"),
      },
    },
    ({ arg1, arg2 }) => ({
      messages: [
        user({ type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` }),
      ],
    }),
  );
  server.registerPrompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt that embeds a resource.",
      argsSchema: { resourceUri: z.string().describe("URI of the resource to embed") },
    },
    ({ resourceUri }) => ({
      messages: [
        user({
          type: "resource",
          resource: {
            uri: resourceUri,
            mimeType: "text/plain",
            text: "Embedded resource content for testing.",
          },
        }),
        user({ type: "text", text: "Please process the embedded resource above." }),
      ],
    }),
  );
  server.registerPrompt(
    "test_prompt_with_image",
    { description: "A prompt with an image." },
    () => ({
      messages: [
        user({ type: "image", data: PNG, mimeType: "image/png" }),
        user({ type: "text", text: "Please analyze the image above." }),
      ],
    }),
  );
}

function createServer(): McpServer {
  const server = new McpServer(
    { name: "reference", version: "1.0.0" },
    { capabilities: { logging: {}, resources: { subscribe: true } } },
  );
  registerSharedTools(server);
  registerOtherTools(server);
  registerResources(server);
  registerPrompts(server);
  return server;
}

export interface Reference {
  readonly url: URL;
  close(): Promise<void>;
}

/** Express's request: `createMcpExpressApp` parses JSON bodies (its types are not installed). */
type Request = IncomingMessage & { body?: unknown };

/** The SDK example's answer to a request no session can take. */
function badSession(res: ServerResponse): void {
  res.writeHead(400, { "content-type": "application/json" }).end(
    JSON.stringify({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Bad Request: No valid session ID provided" },
      id: null,
    }),
  );
}

/** Listens on 127.0.0.1 at a free port: `/mcp`, one transport and one server per session. */
export async function startReference(): Promise<Reference> {
  const app = createMcpExpressApp();
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const ofSession = (req: Request) => transports.get(String(req.headers["mcp-session-id"]));
  app.post("/mcp", async (req: Request, res: ServerResponse) => {
    let transport = ofSession(req);
    if (!transport && !req.headers["mcp-session-id"] && isInitializeRequest(req.body)) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => void transports.set(id, created),
      });
      created.onclose = () => void (created.sessionId && transports.delete(created.sessionId));
      await createServer().connect(created);
      transport = created;
    }
    if (!transport) return badSession(res);
    await transport.handleRequest(req, res, req.body);
  });
  const streamOrEnd = async (req: Request, res: ServerResponse) => {
    const transport = ofSession(req);
    if (!transport) return badSession(res);
    await transport.handleRequest(req, res);
  };
  app.get("/mcp", streamOrEnd);
  app.delete("/mcp", streamOrEnd);
  const http: Server = await new Promise((resolve) => {
    const listening: Server = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async close() {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

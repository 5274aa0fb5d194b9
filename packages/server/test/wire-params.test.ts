/**
 * MCP request params on the wire (issue 12, P2), through real transports: zcp-serve spawned on
 * the faulty fixture over stdio, and the HTTP server of src/node/server.ts in process; then the
 * -32602 message a schema mismatch gets. Every answer is checked exactly.
 */
import { PingRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createRuntime } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import faulty from "../../../fixtures/faulty/src/zcp.gen/index.js";
import { serveHttp, type McpHttpServer } from "../src/node/index.js";
import { invalidParams } from "../src/mcp/errors.js";
import {
  call,
  CLIPPED,
  INIT,
  LONG_NAME,
  mcpOverStdio,
  useFaultyDir,
  type Message,
} from "./wire-stdio.js";

const NOT_AN_OBJECT = "Invalid params: $.params.arguments: expected an object";
/** Requests whose params the SDK's schemas refuse: id, method, params, the message after "Invalid params: ". */
const BAD_PARAMS: readonly (readonly [string, string, unknown, string])[] = [
  [
    "init-version",
    "initialize",
    { ...INIT, protocolVersion: 5 },
    "$.params.protocolVersion: expected string",
  ],
  [
    "init-no-client",
    "initialize",
    { protocolVersion: "2025-11-25", capabilities: {} },
    "$.params.clientInfo: expected object",
  ],
  [
    "init-client-name",
    "initialize",
    { ...INIT, clientInfo: { name: 3, version: "0" } },
    "$.params.clientInfo.name: expected string",
  ],
  ["init-none", "initialize", undefined, "$.params: expected object"],
  ["read-uri", "resources/read", { uri: 5 }, "$.params.uri: expected string"],
  ["read-none", "resources/read", {}, "$.params.uri: expected string"],
  ["tools-cursor", "tools/list", { cursor: 7 }, "$.params.cursor: expected string"],
  ["resources-cursor", "resources/list", { cursor: null }, "$.params.cursor: expected string"],
  [
    "templates-cursor",
    "resources/templates/list",
    { cursor: [1] },
    "$.params.cursor: expected string",
  ],
  [
    "level",
    "logging/setLevel",
    { level: "loud" },
    '$.params.level: expected one of "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"',
  ],
];

/** `{"a":[[…[]…]]}` nested `depth` levels below `a`, written as text (JSON.stringify would recurse). */
const deepArguments = (depth: number) => `{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`;
const DEEP_PATH = `$.a${"[0]".repeat(64)}`;

useFaultyDir();

describe("P2: MCP request params", () => {
  let http: McpHttpServer;
  let mcpUrl: URL;
  beforeAll(async () => {
    const runtime = createRuntime(faulty, { approve: () => true });
    const served = await serveHttp(runtime, { host: "127.0.0.1", port: 0, native: true });
    http = served.server;
    mcpUrl = served.url;
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  /** One MCP session over HTTP: each message's JSON answer (the server answers JSON or one SSE event). */
  const httpSession = async () => {
    let session: string | undefined;
    const post = async (body: string): Promise<Message> => {
      const response = await fetch(mcpUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          ...(session !== undefined ? { "mcp-session-id": session } : {}),
        },
        body,
      });
      session ??= response.headers.get("mcp-session-id") ?? undefined;
      const text = await response.text();
      const data = text.startsWith("{") ? text : /^data: (.*)$/m.exec(text)?.[1];
      return data === undefined ? {} : (JSON.parse(data) as Message);
    };
    await post(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: INIT }));
    await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    return post;
  };

  /** Sends each raw message over a transport and collects the answers by id. */
  const transports: {
    readonly name: string;
    open(): Promise<{ ask(id: string, line: string): Promise<Message>; done(): Promise<void> }>;
  }[] = [
    {
      name: "stdio",
      async open() {
        const served = await mcpOverStdio();
        return {
          ask: (id, line) => {
            served.send(line);
            return served.answer(id);
          },
          done: async () => void (await served.end()),
        };
      },
    },
    {
      name: "HTTP",
      async open() {
        const post = await httpSession();
        return { ask: (_id, line) => post(line), done: async () => undefined };
      },
    },
  ];

  for (const transport of transports) {
    it(`over ${transport.name}: non-object arguments -32602, unknown tool clipped, deep arguments invalid:<path>`, async () => {
      const wire = await transport.open();
      for (const args of [[1, 2], "text", 3, null]) {
        const id = `bad-${JSON.stringify(args)}`;
        expect(await wire.ask(id, JSON.stringify(call(id, "echo", args)))).toEqual({
          jsonrpc: "2.0",
          id,
          error: { code: -32602, message: NOT_AN_OBJECT },
        });
      }
      expect(await wire.ask("unknown", JSON.stringify(call("unknown", LONG_NAME, {})))).toEqual({
        jsonrpc: "2.0",
        id: "unknown",
        error: { code: -32602, message: `Unknown tool: ${CLIPPED}` },
      });
      const deep = `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"echo","arguments":${deepArguments(100_000)}}}`;
      expect(await wire.ask("deep", deep)).toEqual({
        jsonrpc: "2.0",
        id: "deep",
        result: {
          content: [
            {
              type: "text",
              text: JSON.stringify({
                ok: false,
                error: `invalid:${DEEP_PATH}`,
                hint: "nested deeper than 64 levels",
              }),
            },
          ],
          isError: true,
        },
      });
      // Still serving, and a top-level __proto__ argument pollutes nothing: the SDK's params
      // check (zod's record) leaves it out of the arguments the tool gets, a plain object.
      const proto = `{"jsonrpc":"2.0","id":"proto","method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"polluted":true},"a":1}}}`;
      expect((await wire.ask("proto", proto)).result.structuredContent).toEqual({
        args: { a: 1 },
        keys: ["a"],
        plainPrototype: true,
      });
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
      await wire.done();
    });
  }

  for (const transport of transports) {
    it(`over ${transport.name}: params the SDK's request schemas refuse get -32602 with the path and what was expected`, async () => {
      const wire = await transport.open();
      for (const [id, method, params, message] of BAD_PARAMS) {
        const line = JSON.stringify({ jsonrpc: "2.0", id, method, params });
        expect(await wire.ask(id, line), line).toEqual({
          jsonrpc: "2.0",
          id,
          error: { code: -32602, message: `Invalid params: ${message}` },
        });
      }
      // Params that are not an object (or a malformed _meta) never reach the SDK server: the
      // transport refuses the message itself with -32600 (stdio and HTTP word it each their way).
      const notAnObject = await wire.ask(
        "ping[]",
        '{"jsonrpc":"2.0","id":"ping[]","method":"ping","params":[]}',
      );
      expect(notAnObject.error?.code).toBe(-32600);
      // Still serving, the session still initialized: good requests get their results.
      expect(await wire.ask("ping", '{"jsonrpc":"2.0","id":"ping","method":"ping"}')).toEqual({
        jsonrpc: "2.0",
        id: "ping",
        result: {},
      });
      const level =
        '{"jsonrpc":"2.0","id":"level-ok","method":"logging/setLevel","params":{"level":"error"}}';
      expect(await wire.ask("level-ok", level)).toEqual({
        jsonrpc: "2.0",
        id: "level-ok",
        result: {},
      });
      const listed = await wire.ask(
        "list",
        '{"jsonrpc":"2.0","id":"list","method":"tools/list","params":{}}',
      );
      expect(listed.result.tools.map((tool: { name: string }) => tool.name)).toContain("echo");
      await wire.done();
    });
  }

  it("over stdio: an empty batch and a malformed request get -32600 (with the request's id); a malformed notification nothing", async () => {
    const served = await mcpOverStdio();
    const before = served.messages.length;
    served.send("[]");
    served.send('{"jsonrpc":"2.0","id":"m","method":5}');
    served.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}');
    served.send({ jsonrpc: "2.0", id: "after", method: "ping" });
    await served.answer("after");
    expect(served.messages.slice(before)).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid Request: empty batch" },
      },
      {
        jsonrpc: "2.0",
        id: "m",
        error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" },
      },
      { jsonrpc: "2.0", id: "after", result: {} },
    ]);
    expect(await served.end()).toBe(0);
  });
});

describe("P2: the -32602 message of a schema mismatch", () => {
  const zodError = (issues: unknown[]) =>
    Object.assign(new Error("[…]"), { name: "$ZodError", issues });
  const answer = (error: unknown) => {
    const found = invalidParams(error);
    return found && { code: found.code, message: found.message };
  };

  it("a union names its alternatives; zod's classic ZodError is read the same way", () => {
    const parsed = PingRequestSchema.safeParse({
      method: "ping",
      params: { _meta: { progressToken: {} } },
    });
    expect(parsed.success).toBe(false);
    expect(answer(parsed.error)).toEqual({
      code: -32602,
      message: "Invalid params: $.params._meta.progressToken: expected string or number",
    });
  });

  it("odd keys are quoted, long ones clipped, the message at most 200 characters", () => {
    const long = "k".repeat(100);
    const found = answer(
      zodError([
        { code: "invalid_type", expected: "string", path: ["params", "a b", 0, long, long, long] },
      ]),
    );
    const key = `${"k".repeat(64)}…`;
    const full = `Invalid params: $.params["a b"][0].${key}.${key}.${key}: expected string`;
    expect(found).toEqual({ code: -32602, message: `${full.slice(0, 200)}…` });
  });

  it("other errors, and issues outside the params, are left alone", () => {
    expect(answer(new Error("boom"))).toBeUndefined();
    expect(answer(zodError([{ code: "invalid_type", expected: "string", path: ["result"] }]))).toBe(
      undefined,
    );
    expect(answer(zodError([]))).toBeUndefined();
  });
});

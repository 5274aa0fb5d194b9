/**
 * The wire protocol's bounds and answers (issue 12, P1–P3), through real transports: zcp-serve
 * spawned on the faulty fixture over stdio (MCP and native), and the HTTP server of
 * src/node/server.ts in process. Every answer is checked exactly.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { PingRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectHttp, connectStdio, ZcpRpcError, type ZcpClient } from "@zcp/client";
import { createRuntime, type Session } from "@zcp/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import faulty from "../../../fixtures/faulty/src/zcp.gen/index.js";
import { serveHttp, type McpHttpServer } from "../src/node/index.js";
import { invalidParams } from "../src/mcp/errors.js";
import { HEAD_BYTES, idOfHead } from "../src/stdio/head-id.js";
import { readLines } from "../src/stdio/lines.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SERVE = [
  "--import",
  "tsx",
  "packages/server/dist/bin/zcp-serve.js",
  "--registry",
  "fixtures/faulty/src/zcp.gen/index.ts",
];
const MiB = 1024 * 1024;
const TOO_LONG = {
  jsonrpc: "2.0",
  id: null,
  error: { code: -32600, message: "Invalid Request: the line is longer than 1048576 bytes" },
};
const NOT_AN_OBJECT = "Invalid params: $.params.arguments: expected an object";
const INIT = {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "t", version: "0" },
};
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
const CANCELLED = { ok: false, error: "cancelled", hint: "the call was cancelled" };
const LONG_NAME = "n".repeat(100);
const CLIPPED = `${"n".repeat(64)}…`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "zcp-wire-"));
  process.env["FAULTY_DIR"] = dir;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const written = (name: string) => path.join(dir, "written", name);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long careful_write waits before it writes; a cancelled call answers well before. */
const WRITE_MS = 1000;
const ANSWERED_WITHIN_MS = 400;

type Message = { id?: unknown; result?: any; error?: { code: number; message: string } };

/** zcp-serve over stdio, read line by line: every message it writes, in order. */
class Served {
  readonly child: ChildProcessWithoutNullStreams;
  readonly messages: Message[] = [];
  readonly #waiters: (() => void)[] = [];

  constructor(surface: "mcp" | "native", flags: readonly string[] = []) {
    this.child = spawn(process.execPath, [...SERVE, "--surface", surface, ...flags], {
      cwd: ROOT,
      env: { ...process.env, FAULTY_DIR: dir },
    });
    this.child.stderr.resume();
    let buffered = "";
    this.child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf("\n")) !== -1) {
        this.messages.push(JSON.parse(buffered.slice(0, newline)) as Message);
        buffered = buffered.slice(newline + 1);
      }
      this.#waiters.splice(0).forEach((wake) => wake());
    });
  }

  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  }

  /** The `count`-th message written (1-based), once it is. */
  async nth(count: number): Promise<Message> {
    while (this.messages.length < count)
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    return this.messages[count - 1]!;
  }

  /** The answer to `id`, once it is written. */
  async answer(id: unknown): Promise<Message> {
    for (;;) {
      const found = this.messages.find((message) => message.id === id);
      if (found) return found;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Ends stdin; resolves to the exit code. */
  end(): Promise<number | null> {
    this.child.stdin.end();
    return new Promise((resolve) => this.child.once("exit", resolve));
  }
}

async function mcpOverStdio(flags: readonly string[] = []): Promise<Served> {
  const served = new Served("mcp", flags);
  served.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: INIT });
  await served.answer(0);
  served.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return served;
}

const call = (id: unknown, name: string, args: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

/** `{"a":[[…[]…]]}` nested `depth` levels below `a`, written as text (JSON.stringify would recurse). */
const deepArguments = (depth: number) => `{"a":${"[".repeat(depth)}${"]".repeat(depth)}}`;
const DEEP_PATH = `$.a${"[0]".repeat(64)}`;

describe("P1: the shared line reader", () => {
  const lines = (chunks: (string | Buffer)[], maxLineBytes: number) => {
    const input = new PassThrough();
    const seen: string[] = [];
    readLines(input, {
      maxLineBytes,
      onLine: (line) => seen.push(line),
      onTooLong: () => seen.push("<too long>"),
      onEnd: () => seen.push("<end>"),
    });
    for (const chunk of chunks) input.write(chunk);
    input.end();
    return new Promise<string[]>((resolve) =>
      input.once("end", () => setImmediate(() => resolve(seen))),
    );
  };

  it("splits across chunks, drops \\r before \\n, passes on a last line without a newline", async () => {
    expect(await lines(["ab", "c\nd\r\n\ne", "f"], 10)).toEqual(["abc", "d", "", "ef", "<end>"]);
  });

  it("keeps a line of exactly maxLineBytes and skips a longer one, even split over chunks", async () => {
    expect(await lines(["12345\n123456\n", "123", "456", "789\nok\n"], 5)).toEqual([
      "12345",
      "<too long>",
      "<too long>",
      "ok",
      "<end>",
    ]);
    expect(await lines(["123456"], 5)).toEqual(["<too long>", "<end>"]);
  });

  it("counts bytes, not characters", async () => {
    expect(await lines([Buffer.from("ééé\n"), "éé\n"], 5)).toEqual(["<too long>", "éé", "<end>"]);
  });

  it("passes on the first HEAD_BYTES bytes of a skipped line, however it came in chunks", async () => {
    const input = new PassThrough();
    const heads: string[] = [];
    readLines(input, {
      maxLineBytes: 10,
      onLine: () => undefined,
      onTooLong: (head) => heads.push(head),
      onEnd: () => undefined,
    });
    input.write("0123456789ab\n");
    input.write("x".repeat(HEAD_BYTES - 1));
    input.write("yz".repeat(5000));
    input.end("\n");
    await new Promise((resolve) => input.once("end", () => setImmediate(resolve)));
    expect(heads).toEqual(["0123456789ab", `${"x".repeat(HEAD_BYTES - 1)}y`]);
  });

  it("reads a request's id from the head of its line, by a scan that evaluates nothing", () => {
    const cases: [string, string | number | null | undefined][] = [
      ['{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"', 7],
      ['  {\n "id" : "a\\"b\\u0063" , "method"', 'a"bc'],
      ['{"jsonrpc":"2.0","method":"x","id":-1.5e3,"params":[', -1500],
      ['{"\\u0069d":null,', null],
      ['{"params":{"id":1,"s":"}{\\"","n":[1,[2]]},"jsonrpc":"2.0","id":8}', 8],
      ['{"a":true,"b":false,"c":null,"d":-0,"id":"z"}', "z"],
      // Cut off: the id may go on, or there is no telling where the value ends.
      ['{"jsonrpc":"2.0","id":12', undefined],
      ['{"jsonrpc":"2.0","id":"abc', undefined],
      ['{"params":{"text":"xxxxxxxx', undefined],
      // No id, or none of a usable kind.
      ['{"jsonrpc":"2.0","method":"x"}', undefined],
      ['{"id":{"x":1},"method":"x"}', undefined],
      ['{"id":[1],"method":"x"}', undefined],
      ['{"id":1e999,"method":"x"}', undefined],
      ['{"id":01,"method":"x"}', undefined],
      ['{"id":true,"method":"x"}', undefined],
      // Not an object at the top, or not JSON.
      ['[{"id":1}]', undefined],
      ['"{\\"id\\":1}"', undefined],
      ["{id:1,", undefined],
      ['{"a" 1,"id":2,', undefined],
      ['{"a":1 "id":2,', undefined],
      ['{"a":tru,"id":2,', undefined],
      ['{"id":(globalThis.x=1),', undefined],
      ["", undefined],
    ];
    for (const [head, id] of cases) expect(idOfHead(head), head).toBe(id);
    expect((globalThis as { x?: unknown }).x).toBeUndefined();
  });

  for (const surface of ["mcp", "native"] as const) {
    it(`${surface} over stdio: a 12 MiB line gets -32600, the next request is answered, stdin end exits 0`, async () => {
      const served = surface === "mcp" ? await mcpOverStdio() : new Served("native");
      const before = served.messages.length;
      served.send("x".repeat(12 * MiB));
      expect(await served.nth(before + 1)).toEqual(TOO_LONG);
      served.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      const listed = await served.answer(2);
      const names =
        surface === "mcp"
          ? listed.result.tools.map((tool: { name: string }) => tool.name)
          : listed.result.tools
              .split("\n")
              .map((line: string) => line.split(" ")[2]!.split("(")[0]);
      expect(names).toContain("careful_write");
      expect(await served.end()).toBe(0);
    });
  }
});

describe("issue 27: a line over --max-line-bytes is answered with its request's id", () => {
  const tooLong = (id: unknown) => ({
    jsonrpc: "2.0",
    id,
    error: { code: -32600, message: "Invalid Request: the line is longer than 200 bytes" },
  });
  const long = "x".repeat(300);

  for (const surface of ["mcp", "native"] as const)
    it(`${surface} over stdio: the id when the line starts with it, else null; the next line is served`, async () => {
      const flags = ["--max-line-bytes", "200"];
      const served = surface === "mcp" ? await mcpOverStdio(flags) : new Served("native", flags);
      const before = served.messages.length;
      served.send(call(7, "echo", { text: long }));
      served.send(call("seven", "echo", { text: long }));
      // The id after HEAD_BYTES of params: not in the head.
      served.send(
        `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"${"x".repeat(HEAD_BYTES)}"}},"id":8}`,
      );
      served.send(call(9, "echo", { text: "x".repeat(100) }));
      const fits = await served.answer(9);
      expect(fits.error).toBeUndefined();
      expect(served.messages.slice(before, before + 3)).toEqual([
        tooLong(7),
        tooLong("seven"),
        tooLong(null),
      ]);
      expect(await served.end()).toBe(0);
    });

  it("@zcp/client over stdio: an oversized call rejects at once with the server's -32600, and the next one is served", async () => {
    const client = connectStdio(
      process.execPath,
      [...SERVE, "--surface", "native", "--max-line-bytes", "200"],
      { cwd: ROOT, env: { ...process.env, FAULTY_DIR: dir }, stderr: "ignore" },
    );
    try {
      await client.initialize();
      const refused = await client.call("echo", { text: long }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ZcpRpcError);
      expect(refused).toMatchObject({
        code: -32600,
        message: "Invalid Request: the line is longer than 200 bytes",
      });
      expect(await client.call("echo", { text: "short" })).toMatchObject({ ok: true });
    } finally {
      await client.close();
    }
  });
});

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

describe("P3: native cancellation, clipped names, __proto__", () => {
  it("over stdio: notifications/cancelled cancels that running call; the tool's write never lands", async () => {
    const served = new Served("native");
    served.send(call(7, "careful_write", { name: "stdio.txt", ms: WRITE_MS }));
    served.send(call(8, "echo", { ok: 1 }));
    await served.answer(8); // call 7 is running by now
    const sent = performance.now();
    served.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } });
    expect(await served.answer(7)).toEqual({ jsonrpc: "2.0", id: 7, result: CANCELLED });
    expect(performance.now() - sent).toBeLessThan(ANSWERED_WITHIN_MS);
    await sleep(WRITE_MS + 200);
    expect(existsSync(written("stdio.txt"))).toBe(false);
    // A cancel for an id that is not running, or sent as a request, changes nothing else.
    served.send({
      jsonrpc: "2.0",
      id: 9,
      method: "notifications/cancelled",
      params: { requestId: 7 },
    });
    expect(await served.answer(9)).toEqual({ jsonrpc: "2.0", id: 9, result: {} });
    served.send({ jsonrpc: "2.0", id: 10, method: "notifications/cancelled", params: {} });
    expect(await served.answer(10)).toEqual({
      jsonrpc: "2.0",
      id: 10,
      error: { code: -32602, message: "Invalid params: requestId must be a string or a number" },
    });
    expect(await served.end()).toBe(0);
  });

  it("over stdio: Method not found clips the method; a top-level __proto__ argument pollutes nothing", async () => {
    const served = new Served("native");
    served.send({ jsonrpc: "2.0", id: 1, method: LONG_NAME });
    expect(await served.answer(1)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32601, message: `Method not found: ${CLIPPED}` },
    });
    served.send(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"polluted":true},"a":1}}}`,
    );
    expect((await served.answer(2)).result).toEqual({
      ok: true,
      value: {
        args: JSON.parse('{"__proto__":{"polluted":true},"a":1}'),
        keys: ["__proto__", "a"],
        plainPrototype: true,
      },
    });
    expect(await served.end()).toBe(0);
  });

  describe("over HTTP", () => {
    let http: McpHttpServer;
    let zcpUrl: URL;
    const sessions: Session[] = [];
    /**
     * Until the newest session runs a call. Over HTTP the cancel travels in another request,
     * which may reach the server before the call's; a cancel for an unknown id is ignored.
     */
    const running = async () => {
      while (sessions.at(-1)?.running !== 1) await sleep(5);
    };
    beforeAll(async () => {
      const runtime = createRuntime(faulty, { approve: () => true });
      const served = await serveHttp(runtime, {
        host: "127.0.0.1",
        port: 0,
        native: { onSession: (session) => sessions.push(session) },
      });
      http = served.server;
      zcpUrl = new URL("/zcp", served.url);
    });
    afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

    it("notifications/cancelled in a second POST with the session header cancels the call", async () => {
      const post = (body: unknown, session?: string) =>
        fetch(zcpUrl, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(session !== undefined ? { "zcp-session-id": session } : {}),
          },
          body: JSON.stringify(body),
        });
      const opened = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
      const session = opened.headers.get("zcp-session-id")!;
      await opened.text();
      const answer = post(
        call(2, "careful_write", { name: "http.txt", ms: WRITE_MS }),
        session,
      ).then((response) => response.json());
      await running();
      const sent = performance.now();
      const cancelled = await post(
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } },
        session,
      );
      expect(cancelled.status).toBe(202);
      expect(await answer).toEqual({ jsonrpc: "2.0", id: 2, result: CANCELLED });
      expect(performance.now() - sent).toBeLessThan(ANSWERED_WITHIN_MS);
      await sleep(WRITE_MS + 200);
      expect(existsSync(written("http.txt"))).toBe(false);
    });

    it("@zcp/client: call with a signal resolves cancelled at once; the server stops the tool", async () => {
      await checkClientCancel(connectHttp(zcpUrl), "client-http.txt", running);
    });
  });

  it("@zcp/client over stdio: call with a signal resolves cancelled at once; the server stops the tool", async () => {
    const client = connectStdio(process.execPath, [...SERVE, "--surface", "native"], {
      cwd: ROOT,
      env: { ...process.env, FAULTY_DIR: dir },
      stderr: "ignore",
    });
    // On one stream the cancel cannot overtake the call.
    await checkClientCancel(client, "client-stdio.txt", async () => undefined);
  });
});

async function checkClientCancel(
  client: ZcpClient,
  file: string,
  running: () => Promise<void>,
): Promise<void> {
  await client.initialize();
  const controller = new AbortController();
  const pending = client.call(
    "careful_write",
    { name: file, ms: WRITE_MS },
    { signal: controller.signal },
  );
  await running();
  const aborted = performance.now();
  controller.abort();
  expect(await pending).toEqual(CANCELLED);
  // Resolved by the client itself: no round trip.
  expect(performance.now() - aborted).toBeLessThan(20);
  // Already aborted: nothing is sent, the answer is the same.
  expect(await client.call("echo", {}, { signal: controller.signal })).toEqual(CANCELLED);
  await sleep(WRITE_MS + 200);
  expect(existsSync(written(file))).toBe(false);
  expect(await client.call("echo", { after: 1 })).toMatchObject({ ok: true });
  await client.close();
}

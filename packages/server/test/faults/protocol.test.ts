/**
 * Issue 12, item 8: protocol details, with the exact codes. MCP (HTTP and stdio): -32600 for
 * JSON that is not JSON-RPC and for an empty batch, -32602 for non-object arguments and unknown
 * tools (names clipped to 64 characters), deep arguments answered `invalid:<path>`. Native:
 * `__proto__` never becomes a prototype, long names are clipped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FAULTY,
  LIMIT_FLAGS,
  MCP_INITIALIZE,
  mcpSession,
  mcpText,
  nativeSession,
  Processes,
  warmUp,
  type HttpAnswer,
  type HttpServed,
  type Lines,
} from "./harness.js";

const processes = new Processes();
afterAll(() => processes.cleanup());

const LONG_NAME = "n".repeat(1_000_000);
const CLIPPED = `${"n".repeat(64)}…`;
const NOT_AN_OBJECT = "Invalid params: $.params.arguments: expected an object";
const EMPTY_BATCH = {
  jsonrpc: "2.0",
  id: null,
  error: { code: -32600, message: "Invalid Request: empty batch" },
};
/** Valid JSON, but not a JSON-RPC message. */
const NOT_JSON_RPC = ['{"foo":1}', "42", "null", '"text"', '{"jsonrpc":"2.0"}', '{"id":1}'];
const NON_OBJECT_ARGUMENTS = [[1, 2], "text", 42, null];
const DEPTH = 5000;

function call(id: number, name: string, args: unknown) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/** `{ a: { a: … } }`, `levels` objects deep, as text (building it needs no recursion). */
function nested(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
}

/** The path the runtime gives for the first value nested deeper than 64 levels. */
const DEEP_PATH = `$${".a".repeat(65)}`;

describe("issue 12 item 8: MCP over HTTP", () => {
  let served: HttpServed;
  let send: (body: unknown) => Promise<HttpAnswer>;
  beforeAll(async () => {
    served = await processes.http(["--registry", FAULTY, ...LIMIT_FLAGS], {
      env: { FAULTY_DIR: processes.tempDir("protocol") },
    });
    await warmUp(served.native);
    send = (await mcpSession(served.mcp)).send;
  });

  it("valid JSON that is not JSON-RPC answers -32600 with HTTP 400 (not -32700)", async () => {
    for (const body of NOT_JSON_RPC) {
      const answer = await send(body);
      expect(answer.status, `HTTP status for ${body}`).toBe(400);
      expect(answer.messages[0]?.error?.code, `code for ${body}: ${answer.text}`).toBe(-32600);
    }
    const garbage = await send("{not json");
    expect(garbage.status).toBe(400);
    expect(garbage.messages[0]?.error?.code, "text that is not JSON").toBe(-32700);
  });

  it("an empty batch answers 400 with -32600 Invalid Request: empty batch (never 202)", async () => {
    const answer = await send("[]");
    expect(answer.status, `HTTP status: ${answer.text}`).toBe(400);
    expect(answer.messages).toEqual([EMPTY_BATCH]);
  });

  it("tools/call with non-object arguments answers -32602 with a plain message", async () => {
    for (const [i, args] of NON_OBJECT_ARGUMENTS.entries()) {
      const answer = await send(call(10 + i, "echo", args));
      expect(answer.messages[0], `arguments ${JSON.stringify(args)}`).toEqual({
        jsonrpc: "2.0",
        id: 10 + i,
        error: { code: -32602, message: NOT_AN_OBJECT },
      });
    }
  });

  it("an unknown tool of a 1 MB name answers -32602 with the name clipped to 64 characters", async () => {
    const answer = await send(call(20, LONG_NAME, {}));
    expect(answer.text.length, "the answer's size").toBeLessThan(1000);
    expect(answer.messages[0]).toEqual({
      jsonrpc: "2.0",
      id: 20,
      error: { code: -32602, message: `Unknown tool: ${CLIPPED}` },
    });
  });

  it(`arguments nested ${DEPTH} levels deep answer invalid:<path> as a tool error`, async () => {
    const answer = await send(
      `{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"echo","arguments":${nested(DEPTH)}}}`,
    );
    const result = answer.messages[0]?.result;
    expect(result?.isError, `the answer (${answer.status}): ${answer.text.slice(0, 500)}`).toBe(
      true,
    );
    expect(JSON.parse(mcpText(result))).toEqual({
      ok: false,
      error: `invalid:${DEEP_PATH}`,
      hint: "nested deeper than 64 levels",
    });
    // Still served afterwards.
    const after = await send(call(31, "echo", { after: "deep" }));
    expect(after.messages[0]?.result?.structuredContent).toMatchObject({ args: { after: "deep" } });
  });
});

describe("issue 12 item 8: native over HTTP", () => {
  let send: (body: unknown) => Promise<HttpAnswer>;
  beforeAll(async () => {
    const served = await processes.http(["--registry", FAULTY, ...LIMIT_FLAGS], {
      env: { FAULTY_DIR: processes.tempDir("protocol-native") },
    });
    await warmUp(served.native);
    send = (await nativeSession(served.native)).send;
  });

  const PROTO_ARGS = '{"__proto__":{"polluted":true},"x":1}';

  it("a top-level __proto__ stays an own property; the tool's argument object has a plain prototype", async () => {
    const answer = await send(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":${PROTO_ARGS}}}`,
    );
    const result = answer.messages[0]?.result;
    expect(result?.ok, answer.text).toBe(true);
    expect(result.value.plainPrototype, "Object.getPrototypeOf(args) === Object.prototype").toBe(
      true,
    );
    expect([...result.value.keys].sort(), "the tool's own argument names").toEqual([
      "__proto__",
      "x",
    ]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("__proto__ for a tool with closed parameters answers invalid:$.__proto__", async () => {
    const answer = await send(
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"huge","arguments":{"__proto__":{"bytes":5},"bytes":1}}}',
    );
    expect(answer.messages[0]?.result, answer.text).toMatchObject({
      ok: false,
      error: "invalid:$.__proto__",
    });
  });

  it("a 1 MB unknown tool name and a 1 MB unknown method are clipped to 64 characters", async () => {
    const tool = await send(call(3, LONG_NAME, {}));
    expect(tool.text.length, "the answer's size").toBeLessThan(1000);
    expect(tool.messages[0]?.result).toMatchObject({ ok: false, error: `unknown:${CLIPPED}` });
    const method = await send({ jsonrpc: "2.0", id: 4, method: LONG_NAME });
    expect(method.messages[0]).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32601, message: `Method not found: ${CLIPPED}` },
    });
  });

  // The native reader bounds the whole message's depth (64) before anything else sees it.
  it(`a message nested ${DEPTH} levels deep answers -32600 from the reader`, async () => {
    const answer = await send(
      `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":${nested(DEPTH)}}}`,
    );
    expect(
      answer.messages[0],
      `the answer (${answer.status}): ${answer.text.slice(0, 500)}`,
    ).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32600, message: "Invalid Request: the message nests deeper than 64 levels" },
    });
  });
});

describe("issue 12 item 8: MCP over stdio", () => {
  let lines: Lines;
  beforeAll(async () => {
    const served = processes.stdio("mcp", ["--registry", FAULTY], {
      env: { FAULTY_DIR: processes.tempDir("protocol-stdio") },
    });
    lines = served.lines;
    lines.send(MCP_INITIALIZE);
    await lines.answer(0, 20_000);
    lines.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  });

  /** Sends one line and resolves with the next message that arrives after it. */
  async function exchange(line: string): Promise<any> {
    const from = lines.received.length;
    lines.send(line);
    return lines.next(() => true, 5000, from);
  }

  it("answers -32600 for valid JSON that is not JSON-RPC, -32700 for text that is not JSON", async () => {
    for (const line of NOT_JSON_RPC)
      expect((await exchange(line))?.error?.code, `code for ${line}`).toBe(-32600);
    expect((await exchange("{not json"))?.error?.code).toBe(-32700);
  });

  it("an empty batch answers -32600 Invalid Request: empty batch", async () => {
    expect(await exchange("[]")).toEqual(EMPTY_BATCH);
  });

  it("non-object arguments answer -32602; a long unknown tool name is clipped", async () => {
    for (const [i, args] of NON_OBJECT_ARGUMENTS.entries())
      expect(await exchange(JSON.stringify(call(40 + i, "echo", args)))).toEqual({
        jsonrpc: "2.0",
        id: 40 + i,
        error: { code: -32602, message: NOT_AN_OBJECT },
      });
    expect(await exchange(JSON.stringify(call(50, "n".repeat(100_000), {})))).toEqual({
      jsonrpc: "2.0",
      id: 50,
      error: { code: -32602, message: `Unknown tool: ${CLIPPED}` },
    });
  });
});

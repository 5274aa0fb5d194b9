/**
 * The protocol fuzzer (issue 12): fast-check messages, JSON-RPC-ish and not, sent to real
 * servers over mcp and native × stdio and HTTP. Property: every message gets a JSON-RPC answer,
 * or the documented silence for notifications (none over stdio, 202 with no body over HTTP);
 * no answer is an internal error. Afterwards the server is alive and a real call answers right.
 * Bounded: RUNS messages per combination, seed SEED (printed; set FUZZ_SEED to replay).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FAULTY,
  LIMIT_FLAGS,
  MCP_INITIALIZE,
  mcpSession,
  NATIVE_INITIALIZE,
  nativeSession,
  Processes,
  warmUp,
  type HttpAnswer,
  type Lines,
  type Served,
} from "./harness.js";

const SEED = Number(process.env.FUZZ_SEED ?? 1212);
const RUNS = 150;

const processes = new Processes();
afterAll(() => processes.cleanup());

type Surface = "mcp" | "native";

const METHODS: { readonly [S in Surface]: readonly string[] } = {
  mcp: [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "prompts/list",
    "completion/complete",
    "logging/setLevel",
  ],
  // session/close is left out: over stdio it ends the stream on purpose.
  native: [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "handles/count",
    "handles/read",
    "handles/view",
    "handles/summary",
    "handles/release",
    "session/stage",
  ],
};
const NOTIFICATIONS = ["notifications/initialized", "notifications/cancelled", "notifications/x"];
/** Tools the fuzzer may call: quick ones (no spin, hog, hang or huge results). */
const TOOLS = ["echo", "careful_write", "gauge", "no_such_tool", "echo\u0000", "__proto__"];

const id = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.string({ maxLength: 12 }));
const anyJson = fc.jsonValue({ maxDepth: 3 });
const params = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 4 }),
  anyJson,
);
const toolParams = fc.record(
  {
    name: fc.oneof(fc.constantFrom(...TOOLS), fc.string({ maxLength: 20 })),
    arguments: fc.oneof(
      fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 4 }),
      fc.record({ name: fc.constant("fuzz.txt"), ms: fc.integer({ min: 0, max: 20 }) }),
      anyJson,
    ),
  },
  { requiredKeys: [] },
);

function request(surface: Surface): fc.Arbitrary<object> {
  return fc.oneof(
    fc.record({
      jsonrpc: fc.constant("2.0"),
      id,
      method: fc.constantFrom(...METHODS[surface]),
      params,
    }),
    fc.record({
      jsonrpc: fc.constant("2.0"),
      id,
      method: fc.constant("tools/call"),
      params: toolParams,
    }),
    // Wrong types and missing fields.
    fc.record(
      {
        jsonrpc: fc.oneof(fc.constant("2.0"), fc.constant("1.0"), anyJson),
        id: fc.oneof(id, anyJson),
        method: fc.oneof(fc.constantFrom(...METHODS[surface]), anyJson),
        params,
      },
      { requiredKeys: [] },
    ),
  );
}

const notification = fc.record({
  jsonrpc: fc.constant("2.0"),
  method: fc.constantFrom(...NOTIFICATIONS),
  params: fc.oneof(params, fc.record({ requestId: id, reason: fc.string({ maxLength: 20 }) })),
});

/** A case: the text sent (one line, or one HTTP body). */
function messages(surface: Surface): fc.Arbitrary<string> {
  const single = fc.oneof(request(surface), notification);
  return fc.oneof(
    { weight: 6, arbitrary: single.map((message) => JSON.stringify(message)) },
    {
      weight: 2,
      arbitrary: fc.array(single, { maxLength: 5 }).map((batch) => JSON.stringify(batch)),
    },
    // An oversized batch: far beyond any batch limit.
    {
      weight: 1,
      arbitrary: fc.constant(
        JSON.stringify(
          Array.from({ length: 500 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" })),
        ),
      ),
    },
    // Deep nesting, in params or as the whole message.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 100, max: 5000 }), fc.boolean())
        .map(([depth, wrapped]) => {
          const deep = `${"[".repeat(depth)}${"]".repeat(depth)}`;
          return wrapped
            ? `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"a":${deep}}}}`
            : deep;
        }),
    },
    // Long strings.
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1000, max: 200_000 })
        .map((length) => JSON.stringify({ jsonrpc: "2.0", id: 2, method: "x".repeat(length) })),
    },
    // __proto__ and constructor keys, written as text so that they stay own keys.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("__proto__", "constructor", "prototype")
        .map(
          (key) =>
            `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"${key}":{"polluted":true}}},"${key}":{"x":1}}`,
        ),
    },
    // Text that is not JSON.
    {
      weight: 1,
      arbitrary: fc
        .string({ minLength: 1, maxLength: 200 })
        .filter((text) => !/[\r\n]/.test(text) && text.trim() !== "" && !isJson(text)),
    },
  );
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a message may get: `silence` for a notification (or a batch of them only) whose params,
 * if any, are an object (MCP's and ZCP's shape); `either` for a notification whose params are an
 * array (JSON-RPC allows them, the protocols do not: an Invalid Request answer or silence are both
 * fair); `answer` for everything else.
 */
function expectation(text: string): "silence" | "either" | "answer" {
  if (!isJson(text)) return "answer";
  const value = JSON.parse(text) as unknown;
  const kind = (message: unknown): "silence" | "either" | "answer" => {
    if (typeof message !== "object" || message === null || Array.isArray(message)) return "answer";
    const { jsonrpc, method, params } = message as { [key: string]: unknown };
    if (jsonrpc !== "2.0" || typeof method !== "string" || "id" in message) return "answer";
    if (
      params === undefined ||
      (typeof params === "object" && params !== null && !Array.isArray(params))
    )
      return "silence";
    return "either";
  };
  if (!Array.isArray(value)) return kind(value);
  const kinds = value.map(kind);
  if (kinds.length === 0 || kinds.includes("answer")) return "answer";
  return kinds.includes("either") ? "either" : "silence";
}

/** A JSON-RPC response, or a batch of them. */
function isAnswer(value: unknown): boolean {
  const one = (message: any) =>
    typeof message === "object" &&
    message !== null &&
    message.jsonrpc === "2.0" &&
    "id" in message &&
    ("result" in message ||
      (typeof message.error?.code === "number" && typeof message.error?.message === "string"));
  return Array.isArray(value) ? value.length > 0 && value.every(one) : one(value);
}

function internalError(value: unknown): boolean {
  return JSON.stringify(value).includes('"code":-32603');
}

describe.each(["mcp", "native"] as const)("fuzz: %s over HTTP", (surface) => {
  let send: (body: string) => Promise<HttpAnswer>;
  let url: URL;
  let served: Served;
  beforeAll(async () => {
    const http = await processes.http(["--registry", FAULTY, ...LIMIT_FLAGS], {
      env: { FAULTY_DIR: processes.tempDir(`fuzz-${surface}`) },
    });
    served = http;
    url = surface === "mcp" ? http.mcp : http.native;
    await warmUp(http.native);
    send = (await (surface === "mcp" ? mcpSession(url) : nativeSession(url))).send;
  });

  it(`every message is answered or (a notification) gets 202; seed ${SEED}`, async () => {
    console.info(`fuzz ${surface}/http: seed ${SEED}, ${RUNS} runs`);
    await fc.assert(
      fc.asyncProperty(messages(surface), async (text) => {
        const answer = await send(text).catch((error: Error) => {
          throw new Error(`no HTTP answer: ${error.message}`);
        });
        if (answer.status === 202) {
          expect(expectation(text), `202 for a message that needs an answer`).not.toBe("answer");
          expect(answer.text).toBe("");
          return;
        }
        expect(
          expectation(text) === "silence",
          `a notification was answered ${answer.status}: ${answer.text.slice(0, 300)}`,
        ).toBe(false);
        expect(answer.status, answer.text.slice(0, 300)).not.toBe(500);
        const body =
          answer.messages.length === 1 && !text.trim().startsWith("[")
            ? answer.messages[0]
            : answer.messages;
        expect(
          isAnswer(body),
          `not a JSON-RPC answer (${answer.status}): ${answer.text.slice(0, 300)}`,
        ).toBe(true);
        expect(internalError(body), `an internal error: ${answer.text.slice(0, 300)}`).toBe(false);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(served.child.exitCode, "the server is alive").toBeNull();
    const fresh = await (surface === "mcp" ? mcpSession(url) : nativeSession(url));
    const echoed = await fresh.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { after: "fuzz" } },
    });
    const result = echoed.messages[0]?.result;
    expect(
      surface === "mcp" ? result?.structuredContent : result?.value,
      echoed.text,
    ).toMatchObject({
      args: { after: "fuzz" },
    });
  });
});

describe.each(["mcp", "native"] as const)("fuzz: %s over stdio", (surface) => {
  let served: Served & { lines: Lines };
  beforeAll(async () => {
    served = processes.stdio(surface, ["--registry", FAULTY, ...LIMIT_FLAGS], {
      env: { FAULTY_DIR: processes.tempDir(`fuzz-stdio-${surface}`) },
    });
    served.lines.send(surface === "mcp" ? MCP_INITIALIZE : NATIVE_INITIALIZE);
    await served.lines.answer(0, 20_000);
    if (surface === "mcp")
      served.lines.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    // The first tool call loads the registry in a worker: wait for it before anything is timed.
    served.lines.send({
      jsonrpc: "2.0",
      id: "warm",
      method: "tools/call",
      params: { name: "echo", arguments: {} },
    });
    await served.lines.answer("warm", 30_000);
  });

  it(`every line is answered or (a notification) gets no answer; seed ${SEED}`, async () => {
    console.info(`fuzz ${surface}/stdio: seed ${SEED}, ${RUNS} runs`);
    const { lines } = served;
    let sentinel = 0;
    await fc.assert(
      fc.asyncProperty(messages(surface), async (text) => {
        const from = lines.received.length;
        lines.send(text);
        // A ping after every line: what came before its answer belongs to the line.
        const ping = `sentinel-${sentinel++}`;
        lines.send({ jsonrpc: "2.0", id: ping, method: "ping" });
        await lines.answer(ping, 10_000).catch((error: Error) => {
          throw new Error(
            `the server stopped answering after ${text.slice(0, 300)}: ${error.message}`,
          );
        });
        const answers = lines.received.slice(from).filter((message: any) => message?.id !== ping);
        const expected = expectation(text);
        if (expected === "either" && answers.length === 0) return;
        if (expected === "silence") {
          expect(
            answers,
            `a notification was answered: ${JSON.stringify(answers).slice(0, 300)}`,
          ).toEqual([]);
          return;
        }
        // A tool call may answer after the ping: then wait for its answer.
        const got =
          answers.length > 0
            ? answers
            : [
                await lines
                  .next((message) => !String(message?.id).startsWith("sentinel-"), 5000, from)
                  .catch(() => undefined),
              ].filter((message) => message !== undefined);
        expect(got.length, `no answer to ${text.slice(0, 300)}`).toBeGreaterThan(0);
        for (const message of got) {
          expect(
            isAnswer(message),
            `not a JSON-RPC answer: ${JSON.stringify(message).slice(0, 300)}`,
          ).toBe(true);
          expect(
            internalError(message),
            `an internal error: ${JSON.stringify(message).slice(0, 300)}`,
          ).toBe(false);
        }
        expect(lines.garbage, "stdout carries JSON-RPC only").toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(served.child.exitCode, "the server is alive").toBeNull();
    lines.send({
      jsonrpc: "2.0",
      id: "final",
      method: "tools/call",
      params: { name: "echo", arguments: { after: "fuzz" } },
    });
    const final = await lines.answer("final", 10_000);
    expect(
      surface === "mcp" ? final.result?.structuredContent : final.result?.value,
      JSON.stringify(final),
    ).toMatchObject({
      args: { after: "fuzz" },
    });
  });
});

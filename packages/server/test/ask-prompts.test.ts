/**
 * A prompt that asks its client (`PromptContext`), in both eras: the official v2 client over
 * Streamable HTTP (a 2025 session answers the question on the `prompts/get` stream; a client
 * pinned to 2026-07-28 fulfils the `input_required` round and retries), and the raw 2026-07-28
 * wire for what must be refused: a prompt's `requestState` on a tool and a tool's on a prompt,
 * another caller's, and -32021 when the client lacks the capability. Waiting for an answer and
 * a missing capability are never reported to `onFeatureError`.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createRuntime } from "@zcp/runtime";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import conformance from "../../../fixtures/conformance/src/zcp.gen/index.js";
import { createFetchHandler } from "../src/index.js";
import { serveHttp, type McpHttpServer } from "../src/node/index.js";
import { MODERN, modernHeaders, postTo } from "./modern-wire.js";

const PROMPT = "test_input_required_result_prompt";
const QUESTION = {
  method: "elicitation/create",
  params: {
    message: "What context should the prompt use?",
    requestedSchema: {
      type: "object",
      properties: { context: { type: "string", description: "Context for the prompt" } },
      required: ["context"],
    },
  },
};
const ANSWER = { action: "accept", content: { context: "the docs" } };
const MESSAGES = [
  { role: "user", content: { type: "text", text: "A prompt with the user's context: the docs" } },
];
const INVALID_STATE = {
  code: -32602,
  message: "Invalid or expired requestState",
  data: { reason: "invalid_request_state" },
};

const failures: unknown[] = [];
afterEach(() => {
  expect(failures).toEqual([]);
});

describe("a prompt that asks, through the official v2 client", () => {
  let server: McpHttpServer;
  let url: URL;
  beforeAll(async () => {
    const runtime = createRuntime(conformance, { onFeatureError: (error) => failures.push(error) });
    ({ server, url } = await serveHttp(runtime));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function connect(mode: "legacy" | { pin: "2026-07-28" }, elicits: boolean) {
    const asked: unknown[] = [];
    const client = new Client(
      { name: "ask-prompts-test", version: "1.0.0" },
      {
        capabilities: elicits ? { elicitation: {} } : {},
        versionNegotiation: { mode: mode as never },
      },
    );
    if (elicits)
      client.setRequestHandler("elicitation/create", (request) => {
        asked.push(request.params);
        return Promise.resolve({ action: "accept" as const, content: { context: "the docs" } });
      });
    await client.connect(new StreamableHTTPClientTransport(url));
    return { client, asked };
  }

  it.each([
    ["2025-11-25", "legacy" as const],
    ["2026-07-28", { pin: "2026-07-28" as const }],
  ])("%s: the client answers the question, and gets the prompt", async (_era, mode) => {
    const { client, asked } = await connect(mode, true);
    try {
      const got = await client.getPrompt({ name: PROMPT });
      expect(got.messages).toEqual(MESSAGES);
      expect(asked).toEqual([expect.objectContaining(QUESTION.params)]);
    } finally {
      await client.close();
    }
  });

  it("2025-11-25: a client without elicitation gets -32021", async () => {
    const { client } = await connect("legacy", false);
    try {
      await expect(client.getPrompt({ name: PROMPT })).rejects.toMatchObject({
        code: -32021,
        message: expect.stringContaining(`${PROMPT} needs the client's elicitation capability`),
      });
    } finally {
      await client.close();
    }
  });
});

describe("a prompt that asks, on the 2026-07-28 wire", () => {
  const served = createFetchHandler(
    createRuntime(conformance, { onFeatureError: (error) => failures.push(error) }),
    { identify: (request) => request.headers.get("x-user") ?? undefined },
  );
  afterAll(() => served.close());

  interface Round {
    readonly inputResponses?: unknown;
    readonly requestState?: string;
    readonly capabilities?: object;
    readonly user?: string;
  }

  async function send(method: "prompts/get" | "tools/call", name: string, round: Round = {}) {
    const body = {
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        name,
        ...(method === "tools/call" ? { arguments: {} } : {}),
        ...(round.inputResponses !== undefined ? { inputResponses: round.inputResponses } : {}),
        ...(round.requestState !== undefined ? { requestState: round.requestState } : {}),
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": round.capabilities ?? { elicitation: {} },
        },
      },
    };
    const headers = { ...modernHeaders(method, name), "x-user": round.user ?? "ada" };
    const { response, data } = await postTo(served, "http://127.0.0.1/mcp", body, headers);
    return { status: response.status, error: data.error, result: data.result };
  }

  it("answers input_required, then the messages on the retry with the answer", async () => {
    const first = await send("prompts/get", PROMPT);
    expect(first.result).toMatchObject({
      resultType: "input_required",
      inputRequests: { "elicit-1": QUESTION },
      requestState: expect.stringMatching(/^v1\./),
    });
    const second = await send("prompts/get", PROMPT, {
      inputResponses: { "elicit-1": ANSWER },
      requestState: first.result.requestState,
    });
    expect(second.error).toBeUndefined();
    expect(second.result.messages).toEqual(MESSAGES);
  });

  it("refuses a prompt's state on a tool, a tool's on a prompt, and another caller's", async () => {
    const prompt = (await send("prompts/get", PROMPT)).result.requestState;
    const tool = (await send("tools/call", "test_input_required_result_elicitation")).result
      .requestState;
    expect(tool).toEqual(expect.stringMatching(/^v1\./));
    const replays = await Promise.all([
      send("tools/call", "test_input_required_result_elicitation", { requestState: prompt }),
      send("prompts/get", PROMPT, { requestState: tool }),
      send("prompts/get", PROMPT, { requestState: prompt, user: "eve" }),
    ]);
    for (const replay of replays)
      expect(replay).toEqual({ status: 200, error: INVALID_STATE, result: undefined });
  });

  it("answers -32021 (HTTP 400) when the client does not offer elicitation", async () => {
    const refused = await send("prompts/get", PROMPT, { capabilities: {} });
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });
});

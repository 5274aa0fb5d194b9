/**
 * A tool's questions to its client (`ToolContext.elicit`, `sample`, `roots`) as the official
 * clients see them, from `zcp-serve` over Streamable HTTP with its tools in worker threads (a
 * question crosses to the server's thread and its answer back): the v1 SDK client on the 2025
 * era (requests to the client during the call, bounded by the call's time limit) and the v2
 * client on 2026-07-28 (multi-round-trip requests, which it fulfils and retries by itself).
 */
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Processes, post, ROOT, type HttpServed } from "./faults/harness.js";
import { modernBody, modernHeaders } from "./modern-wire.js";

const REGISTRY = "fixtures/conformance/src/zcp.gen/index.ts";
const EVERYTHING = { elicitation: {}, sampling: {}, roots: {} };

const processes = new Processes();
let http: HttpServed;
/** A server whose calls have half a second (`--timeout-ms 500`). */
let hurried: HttpServed;

beforeAll(async () => {
  [http, hurried] = await Promise.all([
    processes.http(["--registry", REGISTRY]),
    processes.http(["--registry", REGISTRY, "--timeout-ms", "500"]),
  ]);
}, 60_000);
afterAll(() => processes.cleanup());

const asked: { method: string; params?: unknown }[] = [];

/** The answers the test clients give. */
const ANSWERS = {
  elicit: (params: { requestedSchema: { properties: object } }) =>
    "name" in params.requestedSchema.properties
      ? { action: "accept" as const, content: { name: "Alice" } }
      : { action: "accept" as const, content: { username: "ada", email: "ada@example.com" } },
  sample: () => ({
    role: "assistant" as const,
    content: { type: "text" as const, text: "Hello there!" },
    model: "test-model",
    stopReason: "endTurn",
  }),
  roots: () => ({ roots: [{ uri: "file:///work", name: "Work" }] }),
};

/** A v1 (2025) client declaring `capabilities`, answering as `ANSWERS` says. */
async function clientV1(served: HttpServed, capabilities: object = EVERYTHING): Promise<Client> {
  const client = new Client({ name: "ask-test", version: "1.0.0" }, { capabilities });
  if ("elicitation" in capabilities)
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return ANSWERS.elicit(request.params as never);
    });
  if ("sampling" in capabilities)
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked.push(request);
      return ANSWERS.sample();
    });
  if ("roots" in capabilities)
    client.setRequestHandler(ListRootsRequestSchema, (request) => {
      asked.push(request);
      return ANSWERS.roots();
    });
  await client.connect(new StreamableHTTPClientTransport(served.mcp));
  processes.defer(() => client.close());
  return client;
}

const textOf = (result: unknown) =>
  ((result as CallToolResult).content[0] as { text: string }).text;

describe("the 2025 era, the v1 SDK client", () => {
  it("gets each question as a request during the call, and the tool its answer", async () => {
    const client = await clientV1(http);
    asked.length = 0;
    const result = await client.callTool({
      name: "test_elicitation",
      arguments: { message: "Who?" },
    });
    expect(textOf(result)).toBe(
      'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
    );
    expect(asked).toEqual([
      {
        method: "elicitation/create",
        params: {
          message: "Who?",
          requestedSchema: {
            type: "object",
            properties: {
              username: { type: "string", description: "User's response" },
              email: { type: "string", description: "User's email address" },
            },
            required: ["username", "email"],
          },
        },
      },
    ]);
    const sampled = await client.callTool({ name: "test_sampling", arguments: { prompt: "Hi" } });
    expect(textOf(sampled)).toBe("LLM response: Hello there!");
  });

  it("answers three questions asked at once from a worker", async () => {
    const client = await clientV1(http);
    asked.length = 0;
    const result = await client.callTool({
      name: "test_input_required_result_multiple_inputs",
      arguments: {},
    });
    expect(textOf(result)).toBe("Hello there! Alice (1 roots)");
    expect(asked.map((request) => request.method).sort()).toEqual([
      "elicitation/create",
      "roots/list",
      "sampling/createMessage",
    ]);
  });

  it("asks over stdio too", async () => {
    const client = new Client({ name: "ask-test", version: "1.0.0" }, { capabilities: EVERYTHING });
    client.setRequestHandler(ListRootsRequestSchema, () => ANSWERS.roots());
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          "--import",
          "tsx",
          `${ROOT}packages/server/dist/bin/zcp-serve.js`,
          "--registry",
          REGISTRY,
        ],
        cwd: ROOT,
        stderr: "ignore",
      }),
    );
    processes.defer(() => client.close());
    const result = await client.callTool({
      name: "test_input_required_result_list_roots",
      arguments: {},
    });
    expect(textOf(result)).toBe("Roots: file:///work");
  });

  it("answers unsupported:<kind> for what the client did not declare", async () => {
    const client = await clientV1(http, { elicitation: {} });
    const result = await client.callTool({ name: "test_sampling", arguments: { prompt: "Hi" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      '{"ok":false,"error":"unsupported:sampling","hint":"the client does not offer sampling; the tool cannot ask it"}',
    );
  });

  it("answers unavailable:answer when the client answers with an error", async () => {
    const client = new Client(
      { name: "ask-test", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, () => {
      throw new Error("the user closed the window");
    });
    await client.connect(new StreamableHTTPClientTransport(http.mcp));
    processes.defer(() => client.close());
    const result = await client.callTool({ name: "test_elicitation", arguments: { message: "?" } });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toEqual({
      ok: false,
      error: "unavailable:answer",
      hint: expect.stringMatching(
        /^the client did not answer elicit-1: .*the user closed the window/,
      ),
    });
  });

  it("bounds a question by the call's time limit, and cancels it at the client", async () => {
    const client = new Client(
      { name: "ask-test", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    // A person who never answers.
    let requestId: unknown;
    client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
      requestId = extra.requestId;
      return new Promise(() => {});
    });
    const transport = new StreamableHTTPClientTransport(hurried.mcp);
    await client.connect(transport);
    processes.defer(() => client.close());
    // What the server sends: the v1 client ignores a cancellation of request id 0 (its
    // `_oncancel` tests the id for truth), so the test reads the wire instead of the handler.
    const cancellations: unknown[] = [];
    const receive = transport.onmessage!;
    transport.onmessage = (message) => {
      if ("method" in message && message.method === "notifications/cancelled")
        cancellations.push(message.params);
      receive(message);
    };
    // The workers import the tools first (longer than the time limit under load).
    await expect
      .poll(
        async () => textOf(await client.callTool({ name: "test_simple_text", arguments: {} })),
        {
          timeout: 30_000,
        },
      )
      .toBe("This is a simple text response for testing.");
    const started = Date.now();
    const result = await client.callTool({ name: "test_elicitation", arguments: { message: "?" } });
    expect(JSON.parse(textOf(result))).toEqual({
      ok: false,
      error: "timeout",
      hint: "the tool did not finish within 500 ms",
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(cancellations).toEqual([{ requestId, reason: "Error: timeout" }]);
  });
});

describe("the 2026-07-28 era, the v2 client", () => {
  async function clientV2(): Promise<{ client: ClientV2; rounds: string[] }> {
    const client = new ClientV2(
      { name: "ask-test", version: "1.0.0" },
      { capabilities: EVERYTHING, versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    const rounds: string[] = [];
    client.setRequestHandler("elicitation/create", (request) => {
      rounds.push(request.params.message);
      const content: { [field: string]: string } = request.params.message.includes("color")
        ? { color: "blue" }
        : { name: "Alice" };
      return Promise.resolve({ action: "accept" as const, content });
    });
    client.setRequestHandler("sampling/createMessage", () => ANSWERS.sample());
    client.setRequestHandler("roots/list", () => ANSWERS.roots());
    await client.connect(new HttpV2(http.mcp));
    processes.defer(() => client.close());
    return { client, rounds };
  }

  it("fulfils each round and retries until the tool completes", async () => {
    const { client, rounds } = await clientV2();
    expect(client.getProtocolEra()).toBe("modern");
    const result = await client.callTool({
      name: "test_input_required_result_multi_round",
      arguments: {},
    });
    expect(textOf(result)).toBe("Alice likes blue");
    expect(rounds).toEqual(["Step 1: What is your name?", "Step 2: What is your favorite color?"]);
  });

  it("gets three questions in one round", async () => {
    const { client, rounds } = await clientV2();
    const result = await client.callTool({
      name: "test_input_required_result_multiple_inputs",
      arguments: {},
    });
    expect(textOf(result)).toBe("Hello there! Alice (1 roots)");
    expect(rounds).toEqual(["What is your name?"]);
  });

  it("takes a round's state on a replica sharing the secret (ZCP_SERVE_SECRET)", async () => {
    const env = { ZCP_SERVE_SECRET: randomBytes(32).toString("base64") };
    const [one, two] = await Promise.all([
      processes.http(["--registry", REGISTRY, "--isolation", "none"], { env }),
      processes.http(["--registry", REGISTRY, "--isolation", "none"], { env }),
    ]);
    const tool = "test_input_required_result_request_state";
    const round = (served: HttpServed, params: object) => {
      const body = modernBody("tools/call", { name: tool, arguments: {}, ...params }) as {
        params: { _meta: { [key: string]: unknown } };
      };
      body.params._meta["io.modelcontextprotocol/clientCapabilities"] = EVERYTHING;
      return post(served.mcp, body, modernHeaders("tools/call", tool));
    };
    const first = (await round(one, {})).messages[0].result;
    expect(first.resultType).toBe("input_required");
    const second = await round(two, {
      inputResponses: { confirm: { action: "accept", content: { ok: true } } },
      requestState: first.requestState,
    });
    expect(second.messages[0].result.content).toEqual([
      { type: "text", text: "state-ok: confirmed" },
    ]);
    // A server with its own random key refuses it.
    const stranger = await round(http, {
      inputResponses: { confirm: { action: "accept", content: { ok: true } } },
      requestState: first.requestState,
    });
    expect(stranger.messages[0].error.message).toBe("Invalid or expired requestState");
  });
});

/**
 * A tool's questions on the 2026-07-28 era, on the wire (multi-round-trip requests): the call
 * answers `input_required` with the questions and a signed `requestState`; a retry with the
 * answers and the state runs the tool again to its end. Every state that must not be taken is
 * refused with the SDK's -32602 `Invalid or expired requestState` (tampered, of another tool,
 * of other arguments, of another caller, signed with another key); an answer that does not fit
 * is asked again; a tool that needs a capability the client did not declare answers -32021.
 * In process, through `createFetchHandler` (the wire tests of the official client are in
 * ask-clients.test.ts).
 */
import { randomBytes } from "node:crypto";
import { createRuntime } from "@zcp/runtime";
import { afterEach, describe, expect, it } from "vitest";
import conformance from "../../../fixtures/conformance/src/zcp.gen/index.js";
import { createFetchHandler, type ZcpFetchHandler } from "../src/index.js";
import { MODERN, modernHeaders, postTo } from "./modern-wire.js";

const URL_ = "http://127.0.0.1/mcp";
const EVERYTHING = { elicitation: {}, sampling: {}, roots: {} };
const INVALID_STATE = {
  code: -32602,
  message: "Invalid or expired requestState",
  data: { reason: "invalid_request_state" },
};

const handlers: ZcpFetchHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

/** A handler whose callers are named by the `x-user` header (as an embedding server's auth would). */
function handler(secret?: Uint8Array): ZcpFetchHandler {
  const created = createFetchHandler(createRuntime(conformance), {
    identify: (request) => request.headers.get("x-user") ?? undefined,
    ...(secret ? { secret } : {}),
  });
  handlers.push(created);
  return created;
}

interface Round {
  readonly arguments?: object;
  readonly inputResponses?: unknown;
  readonly requestState?: string;
  readonly capabilities?: object;
  readonly user?: string;
}

/** One `tools/call` of `name`: the HTTP status and the JSON-RPC answer. */
async function call(served: ZcpFetchHandler, name: string, round: Round = {}) {
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name,
      arguments: round.arguments ?? {},
      ...(round.inputResponses !== undefined ? { inputResponses: round.inputResponses } : {}),
      ...(round.requestState !== undefined ? { requestState: round.requestState } : {}),
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": round.capabilities ?? EVERYTHING,
      },
    },
  };
  const headers = { ...modernHeaders("tools/call", name), "x-user": round.user ?? "ada" };
  const { response, data } = await postTo(served, URL_, body, headers);
  return { status: response.status, error: data.error, result: data.result };
}

const CONFIRM = {
  method: "elicitation/create",
  params: {
    message: "Please confirm",
    requestedSchema: {
      type: "object",
      properties: { ok: { type: "boolean" } },
      required: ["ok"],
    },
  },
};
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "zcp", version: "0.1.0" } };
const YES = { confirm: { action: "accept", content: { ok: true } } };

describe("a tool that asks, on the 2026-07-28 era", () => {
  it("answers input_required with its question and a state, then completes on the retry", async () => {
    const served = handler();
    const first = await call(served, "test_input_required_result_request_state");
    expect(first.status).toBe(200);
    expect(first.result).toEqual({
      resultType: "input_required",
      inputRequests: { confirm: CONFIRM },
      requestState: expect.stringMatching(/^v1\.[\w-]+\.[\w-]+$/),
      _meta: SERVER_INFO,
    });
    const second = await call(served, "test_input_required_result_request_state", {
      inputResponses: YES,
      requestState: first.result.requestState,
    });
    expect(second.result).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "state-ok: confirmed" }],
      _meta: SERVER_INFO,
    });
  });

  it("carries earlier answers in the state from round to round", async () => {
    const served = handler();
    const tool = "test_input_required_result_multi_round";
    const first = await call(served, tool);
    expect(Object.keys(first.result.inputRequests)).toEqual(["step1"]);
    const second = await call(served, tool, {
      inputResponses: { step1: { action: "accept", content: { name: "Alice" } } },
      requestState: first.result.requestState,
    });
    expect(Object.keys(second.result.inputRequests)).toEqual(["step2"]);
    expect(second.result.requestState).not.toBe(first.result.requestState);
    const third = await call(served, tool, {
      inputResponses: { step2: { action: "accept", content: { color: "blue" } } },
      requestState: second.result.requestState,
    });
    expect(third.result.content).toEqual([{ type: "text", text: "Alice likes blue" }]);
  });

  it("asks again, rather than fails, when an answer does not fit", async () => {
    const served = handler();
    const first = await call(served, "test_input_required_result_request_state");
    const again = await call(served, "test_input_required_result_request_state", {
      inputResponses: { confirm: { action: "accept", content: { ok: "yes" } } },
      requestState: first.result.requestState,
    });
    expect(again.result).toMatchObject({
      resultType: "input_required",
      inputRequests: { confirm: CONFIRM },
    });
  });

  it("refuses a tampered state", async () => {
    const served = handler();
    const first = await call(served, "test_input_required_result_request_state");
    const state: string = first.result.requestState;
    const tampered = await call(served, "test_input_required_result_request_state", {
      inputResponses: YES,
      requestState: `${state.slice(0, -2)}${state.endsWith("A") ? "B" : "A"}${state.slice(-1)}`,
    });
    expect(tampered).toEqual({ status: 200, error: INVALID_STATE, result: undefined });
  });

  it.each<[string, { name?: string; arguments?: object; user?: string }]>([
    ["another tool", { name: "test_input_required_result_tampered_state" }],
    ["other arguments", { arguments: { message: "other" } }],
    ["another caller", { user: "mallory" }],
  ])("refuses a state presented for %s", async (_label, change) => {
    const served = handler();
    const tool = "test_elicitation";
    const first = await call(served, tool, { arguments: { message: "Who?" } });
    const state: string = first.result.requestState;
    const replayed = await call(served, change.name ?? tool, {
      arguments: change.arguments ?? { message: "Who?" },
      inputResponses: YES,
      requestState: state,
      ...(change.user ? { user: change.user } : {}),
    });
    expect(replayed.error).toEqual(INVALID_STATE);
  });

  it("takes a state signed by a replica with the same secret, and no other", async () => {
    const secret = randomBytes(32);
    const first = await call(handler(secret), "test_input_required_result_request_state");
    const retry = {
      inputResponses: YES,
      requestState: first.result.requestState as string,
    };
    const replica = await call(handler(secret), "test_input_required_result_request_state", retry);
    expect(replica.result.content).toEqual([{ type: "text", text: "state-ok: confirmed" }]);
    const stranger = await call(handler(), "test_input_required_result_request_state", retry);
    expect(stranger.error).toEqual(INVALID_STATE);
  });

  it("asks only what the client declared, and answers -32021 for what a tool cannot do without", async () => {
    const served = handler();
    const sampling = await call(served, "test_input_required_result_capabilities", {
      capabilities: { sampling: {} },
    });
    expect(Object.values(sampling.result.inputRequests)).toEqual([
      {
        method: "sampling/createMessage",
        params: {
          messages: [{ role: "user", content: { type: "text", text: "Say hello" } }],
          maxTokens: 20,
        },
      },
    ]);
    const missing = await call(served, "test_missing_capability", { capabilities: {} });
    expect(missing.status).toBe(400);
    expect(missing.error).toEqual({
      code: -32021,
      message: "test_missing_capability needs the client's sampling capability",
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  it("answers input_required, never a request, on a stream, and ignores answers it did not ask", async () => {
    const served = handler();
    const asked = await call(served, "test_input_required_result_elicitation", {
      inputResponses: { other: { action: "accept", content: { name: "x" } } },
    });
    expect(Object.keys(asked.result.inputRequests)).toEqual(["user_name"]);
    const answered = await call(served, "test_input_required_result_elicitation", {
      inputResponses: {
        user_name: { action: "accept", content: { name: "Alice" } },
        other: { action: "accept", content: { foo: "bar" } },
      },
    });
    expect(answered.result.content).toEqual([{ type: "text", text: "Hello, Alice!" }]);
  });

  it("keeps in the state only what the question asked, and at most 64 KiB of it", async () => {
    const served = handler();
    const tool = "test_input_required_result_multi_round";
    const first = await call(served, tool);
    const junk = "x".repeat(100_000);
    const step1 = { action: "accept", content: { name: "Alice", junk }, junk };
    const second = await call(served, tool, {
      inputResponses: { step1 },
      requestState: first.result.requestState,
    });
    expect(second.result.resultType).toBe("input_required");
    expect(second.result.requestState.length).toBeLessThan(1_000);
    // A name of 70,000 characters is an answer, but not one the state can carry.
    const long = await call(served, tool, {
      inputResponses: { step1: { action: "accept", content: { name: "y".repeat(70_000) } } },
      requestState: first.result.requestState,
    });
    expect(long.result).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: '{"ok":false,"error":"too_large:answers","hint":"the answers of earlier rounds are over 65536 characters; ask for less"}',
        },
      ],
    });
  });
});

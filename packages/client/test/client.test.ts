/**
 * `ZcpClient.call` with a signal, over a transport that records what it is asked to send and
 * answers nothing on its own: what goes on the wire when a call is cancelled, and that the
 * call resolves without waiting for the server. (End to end over stdio and HTTP:
 * packages/server/test/wire.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { ZcpClient, type ClientTransport, type RpcResponse } from "../src/index.js";

type Sent = Parameters<ClientTransport["request"]>[0] | Parameters<ClientTransport["notify"]>[0];

/** A transport whose requests stay unanswered until `answer(id, result)`. */
function recorder() {
  const sent: Sent[] = [];
  const waiting = new Map<number, (response: RpcResponse) => void>();
  const transport: ClientTransport = {
    request(message) {
      sent.push(message);
      return new Promise((resolve) => waiting.set(message.id, resolve));
    },
    async notify(message) {
      sent.push(message);
    },
    async close() {},
  };
  const answer = (id: number, result: unknown) => waiting.get(id)!({ jsonrpc: "2.0", id, result });
  return { sent, transport, answer };
}

const CANCELLED = { ok: false, error: "cancelled", hint: "the call was cancelled" };

describe("ZcpClient.call with a signal", () => {
  it("on abort sends notifications/cancelled for the request's id and resolves cancelled at once", async () => {
    const { sent, transport, answer } = recorder();
    const client = new ZcpClient(transport);
    const controller = new AbortController();
    const pending = client.call("slow", { n: 1 }, { signal: controller.signal });
    controller.abort(new Error("the user gave up"));
    expect(await pending).toEqual(CANCELLED);
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "slow", arguments: { n: 1 } },
      },
      {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 1, reason: "the user gave up" },
      },
    ]);
    // The server's late answer changes nothing.
    answer(1, { ok: true, value: 1 });
    expect(await pending).toEqual(CANCELLED);
  });

  it("resolves the server's answer when it comes first, and then an abort sends nothing", async () => {
    const { sent, transport, answer } = recorder();
    const client = new ZcpClient(transport);
    const controller = new AbortController();
    const pending = client.call("fast", {}, { signal: controller.signal });
    answer(1, { ok: true, value: 2 });
    expect(await pending).toEqual({ ok: true, value: 2 });
    controller.abort();
    expect(sent.map((message) => message.method)).toEqual(["tools/call"]);
  });

  it("sends nothing for a signal aborted already", async () => {
    const { sent, transport } = recorder();
    const client = new ZcpClient(transport);
    expect(await client.call("slow", {}, { signal: AbortSignal.abort() })).toEqual(CANCELLED);
    expect(sent).toEqual([]);
  });

  it("resolves cancelled even when the notification cannot be sent", async () => {
    const { transport } = recorder();
    const client = new ZcpClient({
      ...transport,
      notify: () => Promise.reject(new Error("the server is gone")),
    });
    const controller = new AbortController();
    const pending = client.call("slow", {}, { signal: controller.signal });
    controller.abort();
    expect(await pending).toEqual(CANCELLED);
  });
});

describe("ZcpClient.initialize", () => {
  it("sends findFormat when given, and nothing of it otherwise", async () => {
    const { sent, transport, answer } = recorder();
    const client = new ZcpClient(transport);
    const first = client.initialize({ findFormat: "openai-chat" });
    answer(1, {});
    await first;
    const second = client.initialize();
    answer(2, {});
    await second;
    expect(sent.map((message) => message.params)).toEqual([
      {
        protocolVersion: "zcp/1",
        clientInfo: { name: "@zcp/client", version: "0.1.0" },
        findFormat: "openai-chat",
      },
      { protocolVersion: "zcp/1", clientInfo: { name: "@zcp/client", version: "0.1.0" } },
    ]);
  });
});

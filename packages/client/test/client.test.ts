/**
 * `ZcpClient.call` with a signal, over a transport that records what it is asked to send and
 * answers nothing on its own: what goes on the wire when a call is cancelled, and that the
 * call resolves without waiting for the server; and the client's request time limit. (End to
 * end over stdio and HTTP: packages/server/test/wire-native.test.ts and native-client.test.ts.)
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ZcpClient,
  ZcpTimeoutError,
  type ClientTransport,
  type RpcResponse,
} from "../src/index.js";

type Sent = Parameters<ClientTransport["request"]>[0] | Parameters<ClientTransport["notify"]>[0];

/** A transport whose requests stay unanswered until `answer(id, result)`. */
function recorder() {
  const sent: Sent[] = [];
  const waiting = new Map<number, (response: RpcResponse) => void>();
  /** The signal each request was sent with. */
  const signals: (AbortSignal | undefined)[] = [];
  const transport: ClientTransport = {
    request(message, options) {
      sent.push(message);
      signals.push(options?.signal);
      return new Promise((resolve) => waiting.set(message.id, resolve));
    },
    async notify(message) {
      sent.push(message);
    },
    async close() {},
  };
  const answer = (id: number, result: unknown) => waiting.get(id)!({ jsonrpc: "2.0", id, result });
  return { sent, signals, transport, answer };
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

describe("ZcpClient's request time limit", () => {
  afterEach(() => void vi.useRealTimers());

  /** Whether `promise` has settled after the fake clock moved on by `ms`. */
  const settledAfter = async (promise: Promise<unknown>, ms: number) => {
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.advanceTimersByTimeAsync(ms);
    return settled;
  };

  it("rejects ZcpTimeoutError after timeoutMs, tells the transport to stop waiting and the server to stop", async () => {
    const { sent, signals, transport } = recorder();
    const client = new ZcpClient(transport, { timeoutMs: 50 });
    const error = await client.call("slow", {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ZcpTimeoutError);
    expect(error).toMatchObject({
      name: "ZcpTimeoutError",
      message: "zcp: no answer to tools/call (request 1) within 50 ms",
      method: "tools/call",
      id: 1,
      timeoutMs: 50,
    });
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toBe(error);
    expect(sent[1]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1, reason: "zcp: no answer to tools/call (request 1) within 50 ms" },
    });
  });

  it("waits 120 s by default: longer than zcp-serve's 3 × (30 + 1) s at most for a call", async () => {
    vi.useFakeTimers();
    const { transport } = recorder();
    const pending = new ZcpClient(transport).ping();
    expect(await settledAfter(pending, 119_999)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).rejects.toThrow("zcp: no answer to ping (request 1) within 120000 ms");
  });

  it("an answer in time clears the timer; timeoutMs 0 (or Infinity) waits for as long as it takes", async () => {
    vi.useFakeTimers();
    const { signals, transport, answer } = recorder();
    const client = new ZcpClient(transport);
    const first = client.ping();
    answer(1, {});
    await first;
    expect(vi.getTimerCount()).toBe(0);
    for (const timeoutMs of [0, Infinity]) {
      const unlimited = new ZcpClient(transport, { timeoutMs });
      const pending = unlimited.ping();
      expect(await settledAfter(pending, 24 * 3_600_000)).toBe(false);
      answer(1, {});
      await expect(pending).resolves.toBeUndefined();
    }
    expect(signals.slice(1)).toEqual([undefined, undefined]);
  });

  it("refuses a timeoutMs that is no time limit", () => {
    for (const timeoutMs of [-1, 1.5, Number.NaN, 2 ** 31])
      expect(() => new ZcpClient(recorder().transport, { timeoutMs })).toThrow(
        `ZcpClient: timeoutMs must be 0, Infinity or an integer from 1 to 2147483647, got ${String(timeoutMs)}`,
      );
  });
});

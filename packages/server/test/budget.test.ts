import { PassThrough, Writable } from "node:stream";
import { createRuntime } from "@zcp/runtime";
import { describe, expect, it } from "vitest";
import faulty from "../../../fixtures/faulty/src/zcp.gen/index.js";
import { ResponseTooLarge, SessionBudget } from "../src/budget.js";
import { serveStdio } from "../src/index.js";

const REQUEST = (limit: string) =>
  `Response too large: the answers to one request may take ${limit} (maxResponseBytes, zcp-serve --max-response-bytes); read fewer or smaller handles per request`;
const SESSION = (limit: string) =>
  `Response too large: the answers a session has in progress may take ${limit} (maxSessionResponseBytes, zcp-serve --max-session-response-bytes); wait for them, or read fewer or smaller handles at once`;

describe("response budgets", () => {
  it("counts a request's answers in order; past its budget, answers are refused", () => {
    const session = new SessionBudget({ maxResponseBytes: 100, maxSessionResponseBytes: 1000 });
    const request = session.request();
    expect(request.answer(1, 60)).toBeUndefined();
    expect(request.answer(2, 50)).toBe(REQUEST("100 bytes"));
    // A refused answer counts nothing: a smaller one still fits what is left.
    expect(request.answer(3, 40)).toBeUndefined();
    expect(session.held).toBe(100);
    request.end();
    expect(session.held).toBe(0);
  });

  it("counts what a session's requests hold at once, until each ends", () => {
    const session = new SessionBudget({ maxResponseBytes: 100, maxSessionResponseBytes: 150 });
    const first = session.request();
    const second = session.request();
    expect(first.answer(1, 100)).toBeUndefined();
    expect(second.answer(1, 60)).toBe(SESSION("150 bytes"));
    first.end();
    expect(second.answer(1, 60)).toBeUndefined();
    // An ended request counts for its own limit, not the session's.
    second.end();
    expect(second.answer(2, 40)).toBeUndefined();
    expect(second.answer(3, 1)).toBe(REQUEST("100 bytes"));
    expect(session.held).toBe(0);
  });

  it("reserves ahead and counts the answer in place of its reservation", async () => {
    const session = new SessionBudget({ maxResponseBytes: 100, maxSessionResponseBytes: 1000 });
    const request = session.request();
    await request.reserve("a", 40);
    await request.reserve("b", 40);
    await expect(request.reserve("c", 40)).rejects.toEqual(
      new ResponseTooLarge(REQUEST("100 bytes")),
    );
    await expect(request.reserve("c", 40)).rejects.toMatchObject({ code: -32000 });
    expect(request.answer("a", 10)).toBeUndefined();
    expect(session.held).toBe(50);
    expect(request.answer("b", 95)).toBe(REQUEST("100 bytes"));
    expect(session.held).toBe(10);
  });

  it("count and encode answer the refusal with the message's id; errors go out uncounted", async () => {
    const session = new SessionBudget({ maxResponseBytes: 64, maxSessionResponseBytes: 1000 });
    const request = session.request();
    const big = { jsonrpc: "2.0", id: 7, result: { text: "x".repeat(100) } };
    const refusal = {
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32000, message: REQUEST("64 bytes") },
    };
    expect(await request.count(0, big)).toEqual(refusal);
    expect(JSON.parse(request.encode(1, big).toString())).toEqual(refusal);
    const small = { jsonrpc: "2.0", id: 8, result: {} };
    expect(request.encode(2, small).toString()).toBe(JSON.stringify(small));
    const error = { jsonrpc: "2.0", id: 9, error: { code: -32601, message: "x".repeat(100) } };
    expect(await request.count(3, error)).toBe(error);
    expect(session.held).toBe(JSON.stringify(small).length);
  });

  it("rejects limits that are not positive integers", () => {
    expect(() => new SessionBudget({ maxResponseBytes: 0 })).toThrow(
      "maxResponseBytes must be a positive integer, got 0",
    );
    expect(new SessionBudget()).toMatchObject({
      maxRequestBytes: 48 << 20,
      maxSessionBytes: 96 << 20,
    });
  });
});

describe("response budgets of MCP over stdio", () => {
  /** Each answer of `huge(BYTES)` takes a little over BYTES (its text); the session may hold one. */
  const BYTES = 100_000;
  const SESSION_BYTES = 150_000;

  /** A stdout that takes the first line written only once `take()` is called: a host that does not read. */
  function heldStdout() {
    const lines: any[] = [];
    let held: (() => void) | undefined;
    let holding = true;
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(JSON.parse(chunk.toString()));
        if (holding) held = callback;
        else callback();
      },
    });
    return {
      stdout,
      lines,
      /** Whether a line is written and another waits behind it. */
      waiting: () => held !== undefined && stdout.writableLength > 0,
      take() {
        holding = false;
        held?.();
      },
    };
  }

  it("a repeated request id does not end the earlier request's budget: each answer is counted", async () => {
    const stdin = new PassThrough();
    const out = heldStdout();
    const served = await serveStdio(createRuntime(faulty), {
      stdin,
      stdout: out.stdout,
      maxSessionResponseBytes: SESSION_BYTES,
    });
    const send = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
    const huge = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "huge", arguments: { bytes: BYTES } },
    });
    // Two requests with id 7: the first answer written holds the session's budget until stdout
    // takes it, so the second does not fit.
    send(huge(7));
    send(huge(7));
    const deadline = Date.now() + 10_000;
    while (!out.waiting() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    out.take();
    stdin.end();
    await served.done;
    expect(out.lines).toHaveLength(2);
    const [first, second] = out.lines;
    expect(first.result.content[0].text).toHaveLength(BYTES);
    expect(second).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32000, message: SESSION(`${SESSION_BYTES} bytes`) },
    });
  });
});

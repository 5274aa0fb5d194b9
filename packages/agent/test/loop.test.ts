/**
 * `runLoop` with a scripted provider-neutral conversation: turns, the turn limit, usage summed
 * and reported per turn, the one retry of an interrupted stream, and abort.
 */
import { describe, expect, it } from "vitest";
import { createRuntime, type GeneratedModule } from "@zcp/runtime";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import {
  AgentError,
  runLoop,
  type Conversation,
  type Reply,
  type ToolOutcome,
} from "../src/index.js";

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
});
const subtract = (id: string): Reply => ({
  text: "",
  calls: [{ id, name: "math_subtract", arguments: '{"a":3,"b":1}' }],
  usage: usage(10, 2, 4),
});
const answer = (text: string): Reply => ({ text, calls: [], usage: usage(20, 5) });

/** A conversation answering with `replies` in order (an Error is thrown instead). */
function scripted(replies: (Reply | Error)[]) {
  const answered: (readonly ToolOutcome[])[] = [];
  let sent = 0;
  const conversation: Conversation = {
    async send() {
      const reply = replies[sent++];
      if (reply === undefined) throw new Error("no reply scripted");
      if (reply instanceof Error) throw reply;
      return reply;
    },
    answer: (outcomes) => void answered.push(outcomes),
  };
  return { conversation, answered, sent: () => sent };
}
const interrupted = () => new AgentError("stream_interrupted", "the stream ended with an error");
const session = () => createRuntime(weather).session();

describe("runLoop", () => {
  it("runs the calls of each reply until an answer, summing usage and telling onTurn", async () => {
    const { conversation, answered } = scripted([subtract("c1"), subtract("c2"), answer("2")]);
    const turns: unknown[] = [];
    const result = await runLoop(conversation, {
      session: session(),
      hooks: { onTurn: (turn) => turns.push(turn) },
    });
    expect(result).toMatchObject({ text: "2", turns: 3, stop: "answer", usage: usage(40, 9, 8) });
    expect(result.outcomes.map((outcome) => [outcome.call.id, outcome.text])).toEqual([
      ["c1", '{"ok":true,"value":2}'],
      ["c2", '{"ok":true,"value":2}'],
    ]);
    expect(answered.map((outcomes) => outcomes.length)).toEqual([1, 1]);
    expect(turns).toEqual([
      { index: 0, usage: usage(10, 2, 4), calls: 1 },
      { index: 1, usage: usage(10, 2, 4), calls: 1 },
      { index: 2, usage: usage(20, 5), calls: 0 },
    ]);
  });

  it("stops at maxTurns with the calls of the last turn run and answered", async () => {
    const { conversation, answered, sent } = scripted([
      { ...subtract("c1"), text: "checking" },
      { ...subtract("c2"), text: "still checking" },
      answer("never"),
    ]);
    const result = await runLoop(conversation, { session: session(), maxTurns: 2 });
    expect(result).toMatchObject({ text: "still checking", turns: 2, stop: "max_turns" });
    expect(result.outcomes).toHaveLength(2);
    expect(answered).toHaveLength(2);
    expect(sent()).toBe(2);
    await expect(runLoop(conversation, { session: session(), maxTurns: 0 })).rejects.toThrow(
      "maxTurns must be a positive integer, got 0",
    );
  });

  it("takes another turn for a reply the adapter answered itself", async () => {
    const { conversation } = scripted([
      { text: "", calls: [], usage: usage(1, 1), more: true },
      answer("ok"),
    ]);
    expect(await runLoop(conversation, { session: session() })).toMatchObject({
      turns: 2,
      stop: "answer",
    });
  });

  it("retries an interrupted turn once, then rejects with stream_interrupted", async () => {
    const once = scripted([interrupted(), answer("2")]);
    expect(await runLoop(once.conversation, { session: session() })).toMatchObject({
      text: "2",
      turns: 1,
    });
    expect(once.sent()).toBe(2);
    const twice = scripted([interrupted(), interrupted(), answer("2")]);
    const error = await runLoop(twice.conversation, { session: session() }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({
      code: "stream_interrupted",
      message: "the stream ended with an error",
    });
    expect(twice.sent()).toBe(2);
    // Any other error is not retried.
    const failing = scripted([new Error("400 bad request"), answer("2")]);
    await expect(runLoop(failing.conversation, { session: session() })).rejects.toThrow(
      "400 bad request",
    );
    expect(failing.sent()).toBe(1);
  });

  it("rejects with aborted when the signal aborts, before or during a turn", async () => {
    const before = scripted([answer("2")]);
    const error = await runLoop(before.conversation, {
      session: session(),
      signal: AbortSignal.abort(),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "AgentError",
      code: "aborted",
      message: "the run was aborted",
    });
    expect(before.sent()).toBe(0);
    const controller = new AbortController();
    const during: Conversation = {
      send: async () => {
        controller.abort();
        throw new Error("socket closed");
      },
      answer: () => {},
    };
    await expect(
      runLoop(during, { session: session(), signal: controller.signal }),
    ).rejects.toMatchObject({ code: "aborted" });
  });

  it("cancels the tool calls running when the signal aborts, and rejects with aborted", async () => {
    const id = weather.registry.tools.find((tool) => tool.alias === "math.subtract")!.id;
    const stuck: GeneratedModule = {
      ...weather,
      dispatch: { ...weather.dispatch, [id]: () => new Promise(() => {}) },
    };
    const controller = new AbortController();
    const { conversation, answered } = scripted([subtract("c1"), answer("never")]);
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(
      runLoop(conversation, { session: createRuntime(stuck).session(), signal: controller.signal }),
    ).rejects.toMatchObject({ code: "aborted" });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(answered).toEqual([]);
  });
});

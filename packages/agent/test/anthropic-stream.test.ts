/**
 * Streamed Messages responses: the events assembled into the message a JSON response would be
 * (tool inputs from `input_json_delta` pieces, usage from `message_start` and `message_delta`),
 * and a stream cut off before `message_stop`: the turn retried once with no tool run, a second
 * cut a `stream_interrupted` AgentError; an API `error` event is the SDK's error, not retried.
 */
import Anthropic from "@anthropic-ai/sdk";
import type {
  MessageCreateParamsBase,
  RawMessageStreamEvent,
} from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { createRuntime, type GeneratedModule } from "@zcp/runtime";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { AgentError } from "../src/index.js";
import { assembleMessage, runAgent, runToolUses } from "../src/anthropic/index.js";
import {
  events,
  message,
  MESSAGES,
  MODEL,
  serverToolUse,
  sse,
  text,
  toolSearchResult,
  toolUse,
} from "./fake/anthropic.js";
import { fakeAnthropic, syntaxError, withDispatch } from "./helpers.js";

const { fake, client } = await fakeAnthropic();

/** A streamed run of `module`'s session on `input`. */
const streamed = (module: GeneratedModule, input: string) =>
  runAgent({ client, session: createRuntime(module).session(), model: MODEL, input, stream: true });

async function* from(list: readonly RawMessageStreamEvent[]) {
  yield* list;
}

/** The weather module counting the runs of math.subtract. */
function counting(): { module: GeneratedModule; runs: () => number } {
  let runs = 0;
  const module = withDispatch({
    "math.subtract": (args) => (runs++, (args.a as number) - (args.b as number)),
  });
  return { module, runs: () => runs };
}

const calling = () =>
  message(
    [text("Subtracting now, one moment."), toolUse("toolu_1", "math_subtract", { a: 10, b: 4 })],
    { tokens: { input: 50, output: 30, cacheRead: 40 } },
  );

describe("assembleMessage", () => {
  it("rebuilds the message from its events, tool inputs from input_json_delta pieces", async () => {
    const response = message([
      text("Searching the tools, then calling one."),
      serverToolUse("srvtoolu_1", "tool_search_tool_bm25", { query: "weather city" }),
      toolSearchResult("srvtoolu_1", ["weather_get_current"]),
      toolUse("toolu_1", "weather_get_current", { city: "Shanghai", unit: "celsius" }),
      toolUse("toolu_2", "math_subtract", {}),
    ]);
    const list = events(response);
    expect(list.filter((event) => event.type === "content_block_delta").length).toBeGreaterThan(8);
    expect(await assembleMessage(from(list))).toEqual(response);
  });

  it("appends thinking and citation deltas, and takes the signature", async () => {
    const [start, ...rest] = events(message([text("")]));
    const citation = {
      type: "char_location",
      cited_text: "22 °C",
      document_index: 0,
      document_title: null,
      end_char_index: 5,
      file_id: null,
      start_char_index: 0,
    } as const;
    const list: RawMessageStreamEvent[] = [
      start!,
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "thinking_delta", thinking: "The user " },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "thinking_delta", thinking: "asks." },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "signature_delta", signature: "sig" },
      },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: text("") },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "22 °C" } },
      { type: "content_block_delta", index: 1, delta: { type: "citations_delta", citation } },
      { type: "content_block_stop", index: 1 },
      ...rest.filter((event) => event.type.startsWith("message")),
    ];
    expect((await assembleMessage(from(list)))!.content).toEqual([
      { type: "thinking", thinking: "The user asks.", signature: "sig" },
      { type: "text", text: "22 °C", citations: [citation] },
    ]);
  });

  it("keeps a tool input that is not JSON as its text: the model reads that it is not", async () => {
    const list = events(message([toolUse("toolu_1", "math_subtract", {})])).map((event) =>
      event.type === "content_block_delta" && event.delta.type === "input_json_delta"
        ? { ...event, delta: { ...event.delta, partial_json: '{"a": 1,' } }
        : event,
    );
    const response = (await assembleMessage(from(list)))!;
    expect(response.content[0]).toMatchObject({ type: "tool_use", input: '{"a": 1,' });
    const { outcomes } = await runToolUses(createRuntime(weather).session(), response);
    expect(outcomes[0]!.text).toBe(
      `{"ok":false,"error":"invalid:$","hint":"the arguments are not JSON (${syntaxError('{"a": 1,')})","fix":"call math.subtract again with one JSON object of named parameters"}`,
    );
  });

  it("is null when the events end before message_stop", async () => {
    expect(await assembleMessage(from(events(calling()).slice(0, -1)))).toBeNull();
  });
});

describe("runAgent with stream: true", () => {
  it("streams each turn and runs the assembled tool_use", async () => {
    const { module, runs } = counting();
    fake.script(MESSAGES, sse(calling()), sse(message([text("10 - 4 = 6.")])));
    const result = await streamed(module, "10 - 4?");
    expect(result.text).toBe("10 - 4 = 6.");
    expect(runs()).toBe(1);
    expect(result.outcomes.map((outcome) => outcome.text)).toEqual(['{"ok":true,"value":6}']);
    const bodies = fake.bodies(MESSAGES) as MessageCreateParamsBase[];
    expect(bodies.map((body) => body.stream)).toEqual([true, true]);
    expect(bodies[1]!.messages[1]).toEqual({ role: "assistant", content: calling().content });
    expect(result.usage).toEqual({ inputTokens: 100, outputTokens: 35, cachedInputTokens: 40 });
  });

  it("retries a turn whose stream was cut off once, running no tool twice", async () => {
    const { module, runs } = counting();
    fake.script(MESSAGES, sse(calling(), 6), sse(calling()), sse(message([text("6.")])));
    const result = await streamed(module, "10 - 4?");
    expect(result).toMatchObject({ text: "6.", turns: 2 });
    expect(runs()).toBe(1);
    // The retry is the same request: nothing of the cut response was kept.
    const [cut, retry, next] = fake.bodies(MESSAGES) as MessageCreateParamsBase[];
    expect(retry).toEqual(cut);
    expect(next!.messages).toHaveLength(3);
  });

  it("rejects with stream_interrupted when the retry is cut off too", async () => {
    const { module, runs } = counting();
    fake.script(MESSAGES, sse(calling(), 6), sse(calling(), 9));
    const run = streamed(module, "10 - 4?");
    await expect(run).rejects.toThrow(
      new AgentError(
        "stream_interrupted",
        "the response stream ended before its message_stop event",
      ),
    );
    await expect(run).rejects.toMatchObject({ code: "stream_interrupted" });
    expect(runs()).toBe(0);
  });

  it("treats a stream that ends without message_stop as interrupted", async () => {
    const whole = sse(message([text("6.")]));
    const short = { sse: "sse" in whole ? whole.sse.slice(0, -1) : [] };
    fake.script(MESSAGES, short, sse(message([text("6.")])));
    const result = await streamed(weather, "Hi.");
    expect(result).toMatchObject({ text: "6.", turns: 1 });
    expect(fake.bodies(MESSAGES)).toHaveLength(2);
  });

  it("passes an API error event on as the SDK's error, without a retry", async () => {
    const error = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    fake.script(MESSAGES, { sse: [{ event: "error", data: error }] });
    const run = streamed(weather, "Hi.");
    await expect(run).rejects.toBeInstanceOf(Anthropic.APIError);
    await expect(run).rejects.toThrow("Overloaded");
    expect(fake.bodies(MESSAGES)).toHaveLength(1);
  });
});

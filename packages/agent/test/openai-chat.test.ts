/**
 * The Chat Completions adapter against the loopback fake provider, through the real `openai`
 * client: the tools' shape, the loop with full messages, streaming (argument deltas, usage from
 * the last chunk) and its interruption, allowed_tools across a stage change, and the
 * 128-function limit.
 */
import { describe, expect, it } from "vitest";
import type OpenAI from "openai";
import { composeGenerated, createRuntime } from "@zcp/runtime";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import workbench from "../../../fixtures/workbench/src/zcp.gen/index.js";
import { AgentError } from "../src/index.js";
import {
  chatToolChoice,
  chatTools,
  runChatAgent,
  type ChatAgentOptions,
} from "../src/openai/index.js";
import { chatCall, completion, completionChunks } from "./fake/openai.js";
import { fakeOpenAI, withInputSchemas } from "./helpers.js";

const PATH = "/v1/chat/completions";
const { fake, client } = await fakeOpenAI();

const session = () => createRuntime(weather).session();
/** A run on a fresh weather session with model "m" (`options` override). */
const run = (input: string, options: Partial<ChatAgentOptions> = {}) =>
  runChatAgent({ client, session: session(), model: "m", input, ...options });
type Body = { [key: string]: unknown };
const bodies = () => fake.bodies(PATH) as Body[];
const calls = [
  chatCall("c1", "math_subtract", '{"a":3,"b":1}'),
  chatCall("c2", "weather_get_current", '{"city":"Paris"}'),
];

describe("chatTools", () => {
  it("are the view's openai-chat entries, typed as the SDK's tools with no cast", () => {
    const tools: OpenAI.Chat.ChatCompletionTool[] = chatTools(session());
    const params: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
      model: "gpt-test",
      messages: [{ role: "user", content: "hi" }],
      tools,
    };
    const entry: OpenAI.Chat.ChatCompletionFunctionTool =
      session().exposed.artifacts("openai-chat")[0]!;
    expect(params.tools).toEqual(session().exposed.artifacts("openai-chat"));
    expect(entry.function.name).toBe("math_average");
  });

  it("fall back to non-strict entries with a warning when the view exceeds a strict limit", () => {
    const wide = withInputSchemas(() => ({
      type: "object",
      properties: { x: { type: "string", enum: Array.from({ length: 260 }, (_, i) => `v${i}`) } },
      required: ["x"],
    }));
    const wideSession = createRuntime(wide).session();
    const warnings: string[] = [];
    const tools = chatTools(wideSession, { onWarning: (text) => warnings.push(text) });
    expect(warnings).toEqual([
      "openai-chat: the tools exceed OpenAI's strict-mode limits (enum values 1,040 > 1,000); they are sent with strict: false (the validators still check every argument)",
    ]);
    expect(tools).toEqual(
      wideSession.exposed
        .artifacts("openai-chat")
        .map((entry) => ({ ...entry, function: { ...entry.function, strict: false } })),
    );
  });

  it("refuse a view of more than 128 functions: Chat Completions cannot take it", async () => {
    const wide = composeGenerated(
      ["a", "b", "c", "d"].map((prefix) => ({ module: workbench, prefix })),
    );
    const wideSession = createRuntime(wide).session();
    const count = wideSession.exposed.artifacts("openai-chat").length;
    const message = `Chat Completions takes at most 128 functions and the view has ${count}: narrow it with a profile, groups or the discover profile`;
    expect(count).toBeGreaterThan(128);
    expect(() => chatTools(wideSession)).toThrow(message);
    const error = await run("hi", { session: wideSession }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ code: "provider", message });
    expect(bodies()).toEqual([]);
  });
});

describe("runChatAgent", () => {
  it("runs parallel calls and resends the whole conversation with one tool message per call", async () => {
    fake.script(
      PATH,
      { json: completion(null, calls, { input: 100, output: 20, cached: 40 }) },
      { json: completion("3 - 1 = 2; Paris is not covered.") },
    );
    const result = await run("3-1, and the weather in Paris?", {
      model: "gpt-test",
      instructions: "Use the tools.",
    });
    expect(result).toMatchObject({
      text: "3 - 1 = 2; Paris is not covered.",
      turns: 2,
      stop: "answer",
      usage: { inputTokens: 110, outputTokens: 25, cachedInputTokens: 40 },
    });
    const conversation = [
      { role: "system", content: "Use the tools." },
      { role: "user", content: "3-1, and the weather in Paris?" },
      { role: "assistant", content: null, tool_calls: calls },
      { role: "tool", tool_call_id: "c1", content: '{"ok":true,"value":2}' },
      {
        role: "tool",
        tool_call_id: "c2",
        content:
          '{"ok":false,"error":"invalid:$.city","hint":"expected one of: Shanghai, Beijing, Shenzhen, Hangzhou","received":"Paris","fix":"call weather.get_current again with $.city corrected"}',
      },
    ];
    const [first, second] = bodies();
    expect(first).toEqual({
      model: "gpt-test",
      messages: conversation.slice(0, 2),
      tools: session().exposed.artifacts("openai-chat"),
    });
    expect(second!.messages).toEqual(conversation);
    expect(result.messages).toEqual([
      ...conversation,
      { role: "assistant", content: "3 - 1 = 2; Paris is not covered." },
    ]);
  });
});

describe("streaming", () => {
  it("assembles argument deltas by index and takes the usage from the last chunk", async () => {
    fake.script(
      PATH,
      { sse: completionChunks(completion(null, calls)) },
      { sse: completionChunks(completion("done")) },
    );
    const result = await run("go", { stream: true });
    expect(result).toMatchObject({
      text: "done",
      turns: 2,
      usage: { inputTokens: 20, outputTokens: 10, cachedInputTokens: 0 },
    });
    expect(result.outcomes.map((outcome) => outcome.call)).toEqual([
      { id: "c1", name: "math_subtract", arguments: '{"a":3,"b":1}' },
      { id: "c2", name: "weather_get_current", arguments: '{"city":"Paris"}' },
    ]);
    expect(bodies()[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(result.messages[1]).toEqual({ role: "assistant", content: null, tool_calls: calls });
  });

  it("retries a stream cut off once, then rejects with stream_interrupted", async () => {
    const chunks = completionChunks(completion("done"));
    fake.script(PATH, { sse: chunks, cutAfter: 2 }, { sse: chunks });
    expect(await run("go", { stream: true })).toMatchObject({ text: "done", turns: 1 });
    expect(bodies()).toHaveLength(2);
    fake.reset();
    fake.script(PATH, { sse: chunks, cutAfter: 1 }, { sse: chunks, cutAfter: 3 });
    const error = await run("go", { stream: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({
      code: "stream_interrupted",
      message: "the stream ended before a choice finished",
    });
  });
});

describe("allowed_tools", () => {
  it("keeps the tools byte-identical across a stage change; only tool_choice changes", async () => {
    const runtime = createRuntime(weather);
    const planning = runtime.session({ stage: "plan" });
    fake.script(
      PATH,
      { json: completion(null, [calls[0]!]) },
      { json: completion(null, [chatCall("c3", "weather_get_current", '{"city":"Beijing"}')]) },
      { json: completion("18 degrees") },
    );
    const before = chatToolChoice(planning);
    const result = await run("weather?", {
      session: planning,
      allStages: true,
      hooks: { onToolResult: () => planning.setStage("operate") },
    });
    expect(result.outcomes.map((outcome) => outcome.isError)).toEqual([false, false]);
    const sent = bodies();
    expect(new Set(sent.map((body) => JSON.stringify(body.tools))).size).toBe(1);
    expect((sent[0]!.tools as unknown[]).length).toBe(4);
    const allowed = (names: string[]) => ({
      type: "allowed_tools",
      allowed_tools: {
        mode: "auto",
        tools: names.map((name) => ({ type: "function", function: { name } })),
      },
    });
    const planned = ["math_average", "math_subtract", "unit_celsius_to_fahrenheit"];
    expect(before).toEqual(allowed(planned));
    expect(sent[0]!.tool_choice).toEqual(before);
    expect(sent[1]!.tool_choice).toEqual(allowed([...planned, "weather_get_current"]));
  });
});

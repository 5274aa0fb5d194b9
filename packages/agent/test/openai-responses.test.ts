/**
 * The Responses API adapter against the loopback fake provider, through the real `openai`
 * client: the tools' shape, the loop (parallel calls, feedback on the wire, usage, the turn
 * limit, abort), both kinds of state, streaming and its interruption, hosted and client tool
 * search, allowed_tools across a stage change, and the strict-limit fallback.
 */
import { describe, expect, it } from "vitest";
import type OpenAI from "openai";
import { createRuntime, type Session } from "@zcp/runtime";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { AgentError } from "../src/index.js";
import {
  responsesTools,
  runAgent,
  toolChoice,
  type ResponsesAgentOptions,
} from "../src/openai/index.js";
import {
  functionCall,
  message,
  response,
  responseEvents,
  toolSearchCall,
  toolSearchOutput,
} from "./fake/openai.js";
import { fakeOpenAI, syntaxError, withInputSchemas } from "./helpers.js";

const PATH = "/v1/responses";
const { fake, client } = await fakeOpenAI();

const session = () => createRuntime(weather).session();
/** A run on a fresh weather session with model "m" (`options` override). */
const run = (input: string, options: Partial<ResponsesAgentOptions> = {}) =>
  runAgent({ client, session: session(), model: "m", input, ...options });
const subtract = (callId: string, args = '{"a":3,"b":1}') =>
  functionCall(callId, "math_subtract", args);
const answer = (text: string, id = "resp_2") => response([message(text)], id);
type Body = { [key: string]: unknown };
const bodies = () => fake.bodies(PATH) as Body[];

describe("responsesTools", () => {
  it("are the view's openai-responses entries, typed as the SDK's tools with no cast", () => {
    const tools: OpenAI.Responses.Tool[] = responsesTools(session());
    const params: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      model: "gpt-test",
      input: "hi",
      tools,
    };
    const entry: OpenAI.Responses.FunctionTool =
      session().exposed.artifacts("openai-responses")[0]!;
    expect(params.tools).toEqual(session().exposed.artifacts("openai-responses"));
    expect(entry.name).toBe("math_average");
  });

  it("defer every tool in a namespace per group behind a tool_search tool", () => {
    const entries = session().exposed.artifacts("openai-responses");
    const deferred = (name: string) => ({
      ...entries.find((entry) => entry.name === name)!,
      defer_loading: true,
    });
    const namespaces = [
      {
        type: "namespace",
        name: "math",
        description: "Tools of group math: math.average, math.subtract.",
        tools: [deferred("math_average"), deferred("math_subtract")],
      },
      {
        type: "namespace",
        name: "unit",
        description: "Unit conversions.",
        tools: [deferred("unit_celsius_to_fahrenheit")],
      },
      {
        type: "namespace",
        name: "weather",
        description: "Tools of group weather: weather.get_current.",
        tools: [deferred("weather_get_current")],
      },
    ];
    expect(
      responsesTools(session(), { search: "hosted", namespaces: { unit: "Unit conversions." } }),
    ).toEqual([{ type: "tool_search" }, ...namespaces]);
    const [search] = responsesTools(session(), { search: "client" });
    expect(search).toEqual({
      type: "tool_search",
      execution: "client",
      description: "Find the tools for a task; the tools found become callable.",
      parameters: {
        type: "object",
        properties: {
          query: { type: "string", description: "What the tools should do, in a few words." },
        },
        required: ["query"],
        additionalProperties: false,
      },
    });
  });

  it("fall back to non-strict entries with a warning when the view exceeds a strict limit", () => {
    // Four tools of 260 enum values each: 1,040 enum values in the request, over OpenAI's 1,000.
    const values = Array.from({ length: 260 }, (_, i) => `v${i}`);
    const wide = withInputSchemas(() => ({
      type: "object",
      properties: { x: { type: "string", enum: values } },
      required: ["x"],
      additionalProperties: false,
    }));
    const wideSession = createRuntime(wide).session();
    const warnings: string[] = [];
    const tools = responsesTools(wideSession, { onWarning: (text) => warnings.push(text) });
    expect(warnings).toEqual([
      "openai-responses: the tools exceed OpenAI's strict-mode limits (enum values 1,040 > 1,000); they are sent with strict: false (the validators still check every argument)",
    ]);
    expect(tools).toEqual(
      wideSession.exposed
        .artifacts("openai-responses")
        .map((entry) => ({ ...entry, strict: false })),
    );
    expect(responsesTools(session(), { onWarning: (text) => warnings.push(text) })).toHaveLength(4);
    expect(warnings).toHaveLength(1);
  });
});

describe("runAgent", () => {
  it("runs parallel calls, sends their outputs with previous_response_id, sums usage", async () => {
    fake.script(
      PATH,
      {
        json: response(
          [subtract("c1"), subtract("c2", '{"a":'), functionCall("c3", "math_divide", "{}")],
          "resp_1",
          { input: 100, output: 20, cached: 60 },
        ),
      },
      { json: answer("3 - 1 = 2") },
    );
    const result = await run("What is 3 - 1?", {
      model: "gpt-test",
      instructions: "Use the tools.",
    });
    expect(result).toMatchObject({
      text: "3 - 1 = 2",
      turns: 2,
      stop: "answer",
      lastResponseId: "resp_2",
      usage: { inputTokens: 110, outputTokens: 25, cachedInputTokens: 60 },
    });
    const outputs = [
      { type: "function_call_output", call_id: "c1", output: '{"ok":true,"value":2}' },
      {
        type: "function_call_output",
        call_id: "c2",
        output: `{"ok":false,"error":"invalid:$","hint":"the arguments are not JSON (${syntaxError('{"a":')})","fix":"call math.subtract again with one JSON object of named parameters"}`,
      },
      {
        type: "function_call_output",
        call_id: "c3",
        output:
          '{"ok":false,"error":"unknown:math_divide","hint":"no tool by that name; list the tools to see what exists","fix":"call one of the tools you were given"}',
      },
    ];
    const [first, second] = bodies();
    expect(first).toEqual({
      model: "gpt-test",
      input: [{ role: "user", content: "What is 3 - 1?" }],
      instructions: "Use the tools.",
      tools: session().exposed.artifacts("openai-responses"),
    });
    expect(second).toMatchObject({ previous_response_id: "resp_1", input: outputs });
    expect(second!.instructions).toBe("Use the tools.");
    expect(result.input).toEqual([
      { role: "user", content: "What is 3 - 1?" },
      subtract("c1"),
      subtract("c2", '{"a":'),
      functionCall("c3", "math_divide", "{}"),
      ...outputs,
      message("3 - 1 = 2"),
    ]);
  });

  it("resends the whole input every turn with state full", async () => {
    fake.script(PATH, { json: response([subtract("c1")]) }, { json: answer("2") });
    await run("3-1?", { model: "gpt-test", state: "full" });
    const [, second] = bodies();
    expect(second).not.toHaveProperty("previous_response_id");
    expect(second!.input).toEqual([
      { role: "user", content: "3-1?" },
      subtract("c1"),
      { type: "function_call_output", call_id: "c1", output: '{"ok":true,"value":2}' },
    ]);
  });

  it("stops at maxTurns with the last calls answered in the input", async () => {
    fake.script(PATH, { json: response([message("Let me compute."), subtract("c1")]) });
    const result = await run("3-1?", { maxTurns: 1 });
    expect(result).toMatchObject({ stop: "max_turns", turns: 1, text: "Let me compute." });
    expect(result.input.at(-1)).toEqual({
      type: "function_call_output",
      call_id: "c1",
      output: '{"ok":true,"value":2}',
    });
  });

  it("rejects with aborted when the signal aborts a request in flight", async () => {
    fake.script(PATH, { json: answer("late"), delayMs: 2000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await run("hi", { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({ code: "aborted" });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("passes the strict-limit warning to hooks.onWarning, once per run", async () => {
    fake.script(PATH, { json: response([subtract("c1")]) }, { json: answer("ok") });
    const values = Array.from({ length: 1001 }, (_, i) => `v${i}`);
    const wide = withInputSchemas((i) => ({
      type: "object",
      properties: { x: { type: "string", enum: values.slice(i * 250, i * 250 + 251) } },
      required: ["x"],
    }));
    const warnings: string[] = [];
    await run("hi", {
      session: createRuntime(wide).session(),
      hooks: { onWarning: (text) => warnings.push(text) },
    });
    expect(warnings).toEqual([expect.stringContaining("(enum values 1,004 > 1,000)")]);
    expect(bodies()).toHaveLength(2);
    const tools = bodies()[1]!.tools as { strict: boolean }[];
    expect(tools.map((tool) => tool.strict)).toEqual([false, false, false, false]);
  });
});

describe("streaming", () => {
  it("assembles argument and text deltas and takes the usage from response.completed", async () => {
    fake.script(
      PATH,
      { sse: responseEvents(response([subtract("c1")], "resp_1"), { itemsDone: false }) },
      { sse: responseEvents(answer("3 - 1 = 2"), { itemsDone: false }) },
    );
    const result = await run("3-1?", { stream: true });
    expect(result).toMatchObject({
      text: "3 - 1 = 2",
      turns: 2,
      usage: { inputTokens: 20, outputTokens: 10, cachedInputTokens: 0 },
    });
    expect(result.outcomes.map((outcome) => outcome.text)).toEqual(['{"ok":true,"value":2}']);
    expect(bodies().map((body) => body.stream)).toEqual([true, true]);
    expect(result.input[1]).toEqual(subtract("c1"));
  });

  it("retries a stream cut off once, then rejects with stream_interrupted", async () => {
    const events = responseEvents(response([subtract("c1")], "resp_1"));
    fake.script(
      PATH,
      { sse: events, cutAfter: 3 },
      { sse: events },
      { sse: responseEvents(answer("2")) },
    );
    const result = await run("3-1?", { stream: true });
    expect(result).toMatchObject({ text: "2", turns: 2 });
    const [first, retried] = bodies();
    expect(retried).toEqual(first);
    // The call ran once: only after the complete response.
    expect(result.outcomes).toHaveLength(1);

    fake.reset();
    fake.script(PATH, { sse: events, cutAfter: 2 }, { sse: events, cutAfter: 4 });
    const error = await run("3-1?", { stream: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({
      code: "stream_interrupted",
      message: "the stream ended before response.completed",
    });
    expect(bodies()).toHaveLength(2);
  });
});

describe("tool search", () => {
  it("hosted: the provider searches, a deferred tool it found is called and runs", async () => {
    const loaded = responsesTools(session()).find(
      (tool) => "name" in tool && tool.name === "math_subtract",
    )!;
    fake.script(
      PATH,
      {
        json: response([
          toolSearchCall("ts1", { paths: ["math"] }, "server"),
          toolSearchOutput("ts1", [loaded]),
          subtract("c1"),
        ]),
      },
      { json: answer("2") },
    );
    const result = await run("3-1?", { search: "hosted" });
    expect(result).toMatchObject({ text: "2", turns: 2 });
    expect(result.outcomes.map((outcome) => [outcome.tool?.alias, outcome.text])).toEqual([
      ["math.subtract", '{"ok":true,"value":2}'],
    ]);
    const [first, second] = bodies();
    expect(first!.tools).toEqual(responsesTools(session(), { search: "hosted" }));
    expect(second!.input).toEqual([
      { type: "function_call_output", call_id: "c1", output: '{"ok":true,"value":2}' },
    ]);
  });

  it("client: the agent answers the search from session.find, then the found tool runs", async () => {
    fake.script(
      PATH,
      {
        json: response(
          [toolSearchCall("ts1", { query: "subtract two numbers" }, "client")],
          "resp_1",
        ),
      },
      { json: response([subtract("c1")], "resp_2") },
      { json: answer("2", "resp_3") },
    );
    const result = await run("3-1?", { search: "client" });
    expect(result).toMatchObject({ text: "2", turns: 3, lastResponseId: "resp_3" });
    const entry = (name: string) =>
      session()
        .exposed.artifacts("openai-responses")
        .find((candidate) => candidate.name === name)!;
    const [, second, third] = bodies();
    expect(second).toMatchObject({
      previous_response_id: "resp_1",
      input: [
        {
          type: "tool_search_output",
          call_id: "ts1",
          execution: "client",
          status: "completed",
          tools: [entry("math_subtract"), entry("math_average")],
        },
      ],
    });
    expect(third!.input).toEqual([
      { type: "function_call_output", call_id: "c1", output: '{"ok":true,"value":2}' },
    ]);
  });
});

describe("allowed_tools", () => {
  it("keeps the tools byte-identical across a stage change; only tool_choice changes", async () => {
    const runtime = createRuntime(weather);
    const planning: Session = runtime.session({ stage: "plan" });
    fake.script(
      PATH,
      { json: response([subtract("c1")], "resp_1") },
      {
        json: response([functionCall("c2", "weather_get_current", '{"city":"Beijing"}')], "resp_2"),
      },
      { json: answer("18 degrees", "resp_3") },
    );
    const before = toolChoice(planning);
    const result = await run("weather?", {
      session: planning,
      allStages: true,
      hooks: { onToolResult: () => planning.setStage("operate") },
    });
    expect(result.outcomes.map((outcome) => outcome.isError)).toEqual([false, false]);
    const sent = bodies();
    expect(new Set(sent.map((body) => JSON.stringify(body.tools))).size).toBe(1);
    expect((sent[0]!.tools as unknown[]).length).toBe(4);
    expect(sent[0]!.tool_choice).toEqual(before);
    expect(before).toEqual({
      type: "allowed_tools",
      mode: "auto",
      tools: [
        { type: "function", name: "math_average" },
        { type: "function", name: "math_subtract" },
        { type: "function", name: "unit_celsius_to_fahrenheit" },
      ],
    });
    expect(sent[1]!.tool_choice).toEqual({
      ...before,
      tools: [...before.tools, { type: "function", name: "weather_get_current" }],
    });
  });
});

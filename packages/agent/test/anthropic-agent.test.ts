/**
 * `runAgent` for Anthropic Messages with the official SDK client pointed at the fake provider:
 * the request (tools, full messages as state), parallel `tool_use` blocks run in parallel and
 * answered in one user message of `tool_result` blocks in order, the feedback texts, handles,
 * approval, the turn limit, abort, usage and the hooks.
 */
import type { MessageCreateParamsBase, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { createRuntime, type GeneratedModule } from "@zcp/runtime";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import { AgentError, type Usage } from "../src/index.js";
import { messagesTools, runAgent, runToolUses, toolResults } from "../src/anthropic/index.js";
import { json, message, MESSAGES, MODEL, text, toolUse } from "./fake/anthropic.js";
import { fakeAnthropic, SHANGHAI, withDispatch } from "./helpers.js";

const { fake, client } = await fakeAnthropic();

const bodies = () => fake.bodies(MESSAGES) as MessageCreateParamsBase[];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("runAgent (Anthropic Messages)", () => {
  it("sends the session's tools, runs the tool_use and resends the full messages", async () => {
    const session = createRuntime(weather).session();
    fake.script(
      MESSAGES,
      json(
        message([
          text("Let me look."),
          toolUse("toolu_1", "weather_get_current", { city: "Shanghai" }),
        ]),
      ),
      json(message([text("It is 22 °C and cloudy in Shanghai.")])),
    );
    const result = await runAgent({
      client,
      session,
      model: MODEL,
      system: "You answer weather questions.",
      input: "How is the weather in Shanghai?",
    });
    expect(result.text).toBe("It is 22 °C and cloudy in Shanghai.");
    expect(result.stop).toBe("answer");
    expect(result.turns).toBe(2);
    expect(result.outcomes.map((outcome) => [outcome.call, outcome.text])).toEqual([
      [{ id: "toolu_1", name: "weather_get_current", arguments: { city: "Shanghai" } }, SHANGHAI],
    ]);
    const [first, second] = bodies();
    expect(first).toEqual({
      model: "claude-sonnet-5-5",
      max_tokens: 4096,
      system: "You answer weather questions.",
      messages: [{ role: "user", content: "How is the weather in Shanghai?" }],
      tools: messagesTools(session),
    });
    // The tool's @example went out as its input_examples.
    expect(first!.tools![3]).toMatchObject({
      name: "weather_get_current",
      input_examples: [{ city: "Beijing", unit: "fahrenheit" }],
    });
    const answer: MessageParam = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_1", content: SHANGHAI }],
    };
    expect(second!.messages).toEqual([...first!.messages, result.messages[1], answer]);
    expect(result.messages).toEqual([...second!.messages, result.messages[3]]);
    expect(result.messages[3]).toEqual({
      role: "assistant",
      content: [text("It is 22 °C and cloudy in Shanghai.")],
    });
  });

  it("runs parallel tool_use blocks in parallel, answering all in one message in order", async () => {
    const slow = withDispatch({
      "math.subtract": async (args) => (await sleep(300), (args.a as number) - (args.b as number)),
      "unit.celsius_to_fahrenheit": async (args) => (
        await sleep(300),
        (args.celsius as number) * 2
      ),
    });
    fake.script(
      MESSAGES,
      json(
        message([
          toolUse("toolu_a", "math_subtract", { a: 5, b: 2 }),
          toolUse("toolu_b", "unit_celsius_to_fahrenheit", { celsius: 10 }),
          toolUse("toolu_c", "weather_get_current", { city: "Paris" }),
          toolUse("toolu_d", "weather_get_current", {}),
        ]),
      ),
      json(message([text("Done.")])),
    );
    const started = performance.now();
    const result = await runAgent({
      client,
      session: createRuntime(slow).session(),
      model: MODEL,
      input: "Compute.",
    });
    expect(performance.now() - started).toBeLessThan(550);
    expect(bodies()[1]!.messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_a", content: '{"ok":true,"value":3}' },
        { type: "tool_result", tool_use_id: "toolu_b", content: '{"ok":true,"value":20}' },
        {
          type: "tool_result",
          tool_use_id: "toolu_c",
          content:
            '{"ok":false,"error":"invalid:$.city","hint":"expected one of: Shanghai, Beijing, Shenzhen, Hangzhou","received":"Paris","fix":"call weather.get_current again with $.city corrected"}',
          is_error: true,
        },
        {
          type: "tool_result",
          tool_use_id: "toolu_d",
          content:
            '{"ok":false,"error":"missing:$.city","hint":"expected one of: Shanghai, Beijing, Shenzhen, Hangzhou","fix":"call weather.get_current again with $.city given"}',
          is_error: true,
        },
      ],
    });
    expect(result.outcomes.map((outcome) => outcome.isError)).toEqual([false, false, true, true]);
  });

  it("answers non-object input, unknown and forbidden tools, and denied calls", async () => {
    // In the "plan" stage weather.get_current (stage "operate") is not callable.
    const session = createRuntime(weather).session({ stage: "plan" });
    fake.script(
      MESSAGES,
      json(
        message([
          toolUse("toolu_1", "math_subtract", [5, 2]),
          toolUse("toolu_2", "weather_get_forecast", { city: "Shanghai" }),
          toolUse("toolu_3", "weather_get_current", { city: "Shanghai" }),
          toolUse("toolu_4", "math_average", { numbers: [1, 2] }),
        ]),
      ),
      json(message([text("Sorry.")])),
    );
    const result = await runAgent({
      client,
      session,
      model: MODEL,
      input: "Go.",
      hooks: {
        approve: (_call, tool) => (tool.alias === "math.average" ? "averages need a human" : true),
      },
    });
    expect(result.outcomes.map((outcome) => outcome.text)).toEqual([
      '{"ok":false,"error":"invalid:$","hint":"the arguments must be a JSON object of named parameters, not an array","fix":"call math.subtract again with one JSON object of named parameters"}',
      '{"ok":false,"error":"unknown:weather_get_forecast","hint":"no tool by that name; list the tools to see what exists","fix":"call one of the tools you were given"}',
      '{"ok":false,"error":"forbidden:weather.get_current","hint":"the tool is not available in this session"}',
      '{"ok":false,"error":"denied:math.average","hint":"averages need a human"}',
    ]);
    const results = bodies()[1]!.messages.at(-1)!.content as { is_error?: boolean }[];
    expect(results.map((block) => block.is_error)).toEqual([true, true, true, true]);
  });

  it("gives the model a handle's summary, never its value", async () => {
    const session = createRuntime(kitchen).session();
    fake.script(
      MESSAGES,
      json(message([toolUse("toolu_1", "tables_load", { name: "stock", limit: 3 })])),
      json(message([text("Loaded.")])),
    );
    await runAgent({ client, session, model: MODEL, input: "Load stock." });
    expect(bodies()[1]!.messages.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content:
            '{"ok":true,"handle":"#T1","summary":"3 records; fields: sku, qty","meta":{"kind":"table","size":79,"ttl":"10m","count":3}}',
        },
      ],
    });
  });

  it("stops at maxTurns with the text so far, the last calls answered", async () => {
    const call = (id: string) =>
      json(message([text(`Turn ${id}.`), toolUse(id, "math_subtract", { a: 1, b: 1 })]));
    fake.script(MESSAGES, call("toolu_1"), call("toolu_2"));
    const result = await runAgent({
      client,
      session: createRuntime(weather).session(),
      model: MODEL,
      input: "Loop.",
      maxTurns: 2,
    });
    expect(result).toMatchObject({ stop: "max_turns", turns: 2, text: "Turn toolu_2." });
    expect(result.outcomes).toHaveLength(2);
    expect(result.messages.map((entry) => entry.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
    expect(fake.pending(MESSAGES)).toBe(0);
  });

  it("rejects with AgentError aborted, the request aborted too", async () => {
    const controller = new AbortController();
    fake.script(MESSAGES, { ...json(message([text("late")])), delayMs: 2_000 });
    setTimeout(() => controller.abort(), 50);
    const run = runAgent({
      client,
      session: createRuntime(weather).session(),
      model: MODEL,
      input: "Wait.",
      signal: controller.signal,
    });
    await expect(run).rejects.toThrow(new AgentError("aborted", "the run was aborted"));
    await expect(run).rejects.toMatchObject({ code: "aborted" });
  });

  it("aborts the tool calls running when the signal aborts", async () => {
    const controller = new AbortController();
    let aborted = false;
    // tables.load takes a ToolContext: its signal aborts when the call is cancelled.
    const load = kitchen.registry.tools.find((tool) => tool.alias === "tables.load")!.id;
    const slow: GeneratedModule = {
      ...kitchen,
      dispatch: {
        ...kitchen.dispatch,
        [load]: (_args, context: { signal: AbortSignal }) =>
          new Promise((resolve) => {
            context.signal.addEventListener("abort", () => ((aborted = true), resolve([])));
            setTimeout(() => controller.abort(), 10);
          }),
      },
    };
    fake.script(MESSAGES, json(message([toolUse("toolu_1", "tables_load", { name: "t" })])));
    await expect(
      runAgent({
        client,
        session: createRuntime(slow).session(),
        model: MODEL,
        input: "Go.",
        signal: controller.signal,
      }),
    ).rejects.toMatchObject({ code: "aborted" });
    expect(aborted).toBe(true);
    expect(fake.pending(MESSAGES)).toBe(0);
  });

  it("sums the usage, cache reads and writes in the input, and reports each turn", async () => {
    fake.script(
      MESSAGES,
      json(
        message([toolUse("toolu_1", "math_subtract", { a: 3, b: 1 })], {
          tokens: { input: 100, output: 20, cacheCreation: 1000, cacheRead: 0 },
        }),
      ),
      json(
        message([text("2")], {
          tokens: { input: 30, output: 2, cacheCreation: 0, cacheRead: 1000 },
        }),
      ),
    );
    const turns: { index: number; usage: Usage; calls: number }[] = [];
    const result = await runAgent({
      client,
      session: createRuntime(weather).session(),
      model: MODEL,
      input: "3 - 1?",
      hooks: { onTurn: (turn) => turns.push(turn) },
    });
    expect(turns).toEqual([
      { index: 0, usage: { inputTokens: 1100, outputTokens: 20, cachedInputTokens: 0 }, calls: 1 },
      {
        index: 1,
        usage: { inputTokens: 1030, outputTokens: 2, cachedInputTokens: 1000 },
        calls: 0,
      },
    ]);
    expect(result.usage).toEqual({ inputTokens: 2130, outputTokens: 22, cachedInputTokens: 1000 });
  });
});

describe("runToolUses", () => {
  it("runs a Message's tool_use blocks and returns the tool_result message", async () => {
    const session = createRuntime(weather).session();
    const response = message([
      text("Two calls."),
      toolUse("toolu_1", "weather_get_current", { city: "Shanghai" }),
      toolUse("toolu_2", "math_subtract", { a: 1 }),
    ]);
    const { outcomes, message: reply } = await runToolUses(session, response);
    expect(outcomes.map((outcome) => outcome.tool?.alias)).toEqual([
      "weather.get_current",
      "math.subtract",
    ]);
    const param: MessageParam | null = reply;
    expect(param).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: SHANGHAI },
        {
          type: "tool_result",
          tool_use_id: "toolu_2",
          content:
            '{"ok":false,"error":"missing:$.b","hint":"expected number","fix":"call math.subtract again with $.b given"}',
          is_error: true,
        },
      ],
    });
    // A block without an outcome (a call the application did not run) is still answered.
    expect(toolResults(session, response, outcomes.slice(1))).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: '{"ok":false,"error":"cancelled","hint":"the call was not run"}',
          is_error: true,
        },
        (reply!.content as unknown[])[1],
      ],
    });
    expect(await runToolUses(session, message([text("No calls.")]))).toEqual({
      outcomes: [],
      message: null,
    });
  });
});

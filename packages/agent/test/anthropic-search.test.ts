/**
 * Deferred tools behind a tool search, through the SDK client and the fake provider: the
 * server-side bm25 search (the API's `server_tool_use` and `tool_search_tool_result` blocks kept
 * in the conversation, then a deferred tool called and run), the client-side `find_tools`
 * answered with `tool_reference` blocks from `session.find` (a discover view grown by it), and a
 * paused server turn sent again.
 */
import type { MessageCreateParamsBase } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { createRuntime } from "@zcp/runtime";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { messagesTools, runAgent } from "../src/anthropic/index.js";
import {
  json,
  message,
  MESSAGES,
  MODEL,
  serverToolUse,
  sse,
  text,
  toolSearchResult,
  toolUse,
} from "./fake/anthropic.js";
import { fakeAnthropic, SHANGHAI } from "./helpers.js";

const { fake, client } = await fakeAnthropic();

const bodies = () => fake.bodies(MESSAGES) as MessageCreateParamsBase[];

describe("server-side tool search (bm25)", () => {
  it("sends the tools deferred, keeps the search blocks and runs the deferred tool found", async () => {
    const session = createRuntime(weather).session();
    const searched = message([
      serverToolUse("srvtoolu_1", "tool_search_tool_bm25", { query: "current weather" }),
      toolSearchResult("srvtoolu_1", ["weather_get_current"]),
      toolUse("toolu_1", "weather_get_current", { city: "Shanghai" }),
    ]);
    fake.script(MESSAGES, sse(searched), sse(message([text("22 °C in Shanghai.")])));
    const result = await runAgent({
      client,
      session,
      model: MODEL,
      input: "Weather in Shanghai?",
      search: "bm25",
      stream: true,
    });
    expect(result.text).toBe("22 °C in Shanghai.");
    expect(result.outcomes.map((outcome) => [outcome.tool?.alias, outcome.text])).toEqual([
      ["weather.get_current", SHANGHAI],
    ]);
    const [first, second] = bodies();
    expect(first!.tools).toEqual(messagesTools(session, { search: "bm25" }));
    expect(first!.tools![0]).toEqual({
      type: "tool_search_tool_bm25_20251119",
      name: "tool_search_tool_bm25",
    });
    expect(
      first!.tools!.slice(1).every((tool) => "defer_loading" in tool && tool.defer_loading),
    ).toBe(true);
    expect(second!.messages.slice(1)).toEqual([
      { role: "assistant", content: searched.content },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "toolu_1", content: SHANGHAI }],
      },
    ]);
  });

  it("sends a paused server turn again as it is", async () => {
    const paused = message(
      [serverToolUse("srvtoolu_1", "tool_search_tool_regex", { pattern: "weather" })],
      { stop: "pause_turn" },
    );
    fake.script(MESSAGES, json(paused), json(message([text("Found it.")])));
    const result = await runAgent({
      client,
      session: createRuntime(weather).session(),
      model: MODEL,
      input: "Find the weather tool.",
      search: "regex",
    });
    expect(result).toMatchObject({ text: "Found it.", turns: 2, outcomes: [] });
    expect(bodies()[1]!.messages.slice(1)).toEqual([
      { role: "assistant", content: paused.content },
    ]);
  });
});

describe("client-side tool search (find_tools)", () => {
  it("answers find_tools with tool_reference blocks from session.find, then runs the tool", async () => {
    const session = createRuntime(weather).session();
    fake.script(
      MESSAGES,
      json(
        message([
          toolUse("toolu_1", "find_tools", { query: "subtract numbers" }),
          toolUse("toolu_2", "find_tools", { query: "" }),
          toolUse("toolu_3", "find_tools", { query: "zebra" }),
        ]),
      ),
      json(message([toolUse("toolu_4", "math_subtract", { a: 3, b: 1 })])),
      json(message([text("2.")])),
    );
    const result = await runAgent({
      client,
      session,
      model: MODEL,
      input: "3 - 1?",
      search: "client",
    });
    expect(result).toMatchObject({ text: "2.", turns: 3 });
    expect(result.outcomes.map((outcome) => outcome.text)).toEqual(['{"ok":true,"value":2}']);
    expect(bodies()[1]!.messages.at(-1)).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: [
            { type: "tool_reference", tool_name: "math_subtract" },
            { type: "tool_reference", tool_name: "math_average" },
          ],
        },
        {
          type: "tool_result",
          tool_use_id: "toolu_2",
          content:
            '{"ok":false,"error":"invalid:$.query","hint":"expected a string of 1 to 200 characters"}',
          is_error: true,
        },
        {
          type: "tool_result",
          tool_use_id: "toolu_3",
          content: '{"ok":true,"value":{"tools":[]}}',
        },
      ],
    });
    expect(bodies().map((body) => body.tools)).toEqual(
      Array(3).fill(messagesTools(session, { search: "client" })),
    );
  });

  it("grows a discover view with the tools found", async () => {
    const runtime = createRuntime(weather, {
      exposure: { defaults: { "*": { profile: "discover" } } },
    });
    const session = runtime.session();
    fake.script(
      MESSAGES,
      json(message([toolUse("toolu_1", "find_tools", { query: "current weather", limit: 1 })])),
      json(message([toolUse("toolu_2", "weather_get_current", { city: "Shanghai" })])),
      json(message([text("22 °C.")])),
    );
    const result = await runAgent({
      client,
      session,
      model: MODEL,
      input: "Weather in Shanghai?",
      search: "client",
    });
    expect(result.outcomes.map((outcome) => outcome.text)).toEqual([SHANGHAI]);
    const names = bodies().map((body) =>
      body.tools!.map((tool) => ("name" in tool ? tool.name : "")),
    );
    expect(names).toEqual([
      ["find_tools", "zcp_find_tools"],
      ["find_tools", "zcp_find_tools", "weather_get_current"],
      ["find_tools", "zcp_find_tools", "weather_get_current"],
    ]);
  });
});

/**
 * `messagesTools`: the session's view as Messages `tools`, typed as the SDK's (no cast): the
 * anthropic entries in view order with their `input_examples`, deferred behind the bm25 / regex
 * tool search server tools or the client-side `find_tools`, and `strict` within Anthropic's
 * limits, else the documented fallback with its warning (once per run).
 */
import type { MessageCreateParamsBase, ToolUnion } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { createRuntime, findTool } from "@zcp/runtime";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import { messagesTools, runAgent } from "../src/anthropic/index.js";
import { json, message, MESSAGES, MODEL, text, toolUse } from "./fake/anthropic.js";
import { fakeAnthropic } from "./helpers.js";

const { fake, client } = await fakeAnthropic();

const NAMES = [
  "math_average",
  "math_subtract",
  "unit_celsius_to_fahrenheit",
  "weather_get_current",
];

const nameOf = (tool: ToolUnion) => ("name" in tool ? tool.name : undefined);

const KITCHEN_WARNING =
  "anthropic: the tools exceed the strict tool use limits (optional parameters: 40 of at most 24); " +
  "sent without strict, the validators still check every argument";

describe("messagesTools", () => {
  it("lists the view's anthropic entries as the SDK's tools", () => {
    const session = createRuntime(weather).session();
    const tools: ToolUnion[] = messagesTools(session);
    const params: MessageCreateParamsBase["tools"] = messagesTools(session, { lean: true });
    expect(tools).toEqual(session.exposed.artifacts("anthropic"));
    expect(params).toEqual(session.exposed.artifacts("anthropic", { lean: true }));
    expect(tools.map(nameOf)).toEqual(NAMES);
    // Staged: only the current stage's tools.
    const plan = createRuntime(weather).session({ stage: "plan" });
    expect(messagesTools(plan).map(nameOf)).toEqual(NAMES.slice(0, 3));
  });

  it("passes a tool's @example arguments on as input_examples", () => {
    // weather.get_current has `@example {"city": "Beijing", "unit": "fahrenheit"}`.
    const tools = messagesTools(createRuntime(weather).session());
    const examples = tools.map((tool) => ("input_examples" in tool ? tool.input_examples : null));
    expect(examples).toEqual([null, null, null, [{ city: "Beijing", unit: "fahrenheit" }]]);
    // The lean entries leave the examples out, as they leave out the schemas' own.
    const lean = messagesTools(createRuntime(weather).session(), { lean: true });
    expect(lean.some((tool) => "input_examples" in tool)).toBe(false);
  });

  it("defers every tool behind Anthropic's bm25 or regex tool search", () => {
    const session = createRuntime(weather).session();
    const deferred = session.exposed
      .artifacts("anthropic")
      .map((entry) => ({ ...entry, defer_loading: true }));
    const bm25: ToolUnion[] = messagesTools(session, { search: "bm25" });
    expect(bm25).toEqual([
      { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
      ...deferred,
    ]);
    expect(messagesTools(session, { search: "regex" })).toEqual([
      { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" },
      ...deferred,
    ]);
    expect(messagesTools(session, { search: "client" })).toEqual([
      { ...findTool.artifacts.anthropic, name: "find_tools" },
      ...deferred,
    ]);
  });

  it("sets strict within Anthropic's limits, else warns and leaves it off", () => {
    const warnings: string[] = [];
    const onWarning = (warning: string) => warnings.push(warning);
    const tools = messagesTools(createRuntime(weather).session(), { strict: true, onWarning });
    expect(tools.map((tool) => "strict" in tool && tool.strict)).toEqual([true, true, true, true]);
    expect(warnings).toEqual([]);
    const kitchenTools = messagesTools(createRuntime(kitchen).session(), {
      strict: true,
      onWarning,
    });
    expect(kitchenTools).toEqual(createRuntime(kitchen).session().exposed.artifacts("anthropic"));
    expect(warnings).toEqual([KITCHEN_WARNING]);
    // Deferred and strict together: the search tool itself is neither.
    expect(
      messagesTools(createRuntime(weather).session(), { strict: true, search: "bm25" })[1],
    ).toMatchObject({
      strict: true,
      defer_loading: true,
    });
  });
});

describe("runAgent's strict fallback", () => {
  it("sends the tools without strict and warns once per run", async () => {
    fake.script(
      MESSAGES,
      json(message([toolUse("toolu_1", "tables_load", { name: "stock" })])),
      json(message([text("Loaded.")])),
    );
    const warnings: string[] = [];
    const session = createRuntime(kitchen).session();
    await runAgent({
      client,
      session,
      model: MODEL,
      input: "Load.",
      strict: true,
      hooks: { onWarning: (warning) => warnings.push(warning) },
    });
    expect(warnings).toEqual([KITCHEN_WARNING]);
    const bodies = fake.bodies(MESSAGES) as MessageCreateParamsBase[];
    expect(bodies.map((body) => body.tools)).toEqual([
      messagesTools(session),
      messagesTools(session),
    ]);
    expect(JSON.stringify(bodies)).not.toContain('"strict"');
  });
});

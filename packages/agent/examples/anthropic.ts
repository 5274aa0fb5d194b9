/**
 * Claude with a zcp session's tools, through the official Anthropic SDK, end to end:
 *   pnpm build && node --import tsx packages/agent/examples/anthropic.ts
 * It runs without a key: the SDK client is pointed (`baseURL`) at the test suite's fake provider,
 * which answers in the Messages wire format with two scripted, streamed responses (two parallel
 * `tool_use` blocks, then the answer). With a key, drop the fake and the `baseURL`.
 */
import Anthropic from "@anthropic-ai/sdk";
import { createRuntime } from "@zcp/runtime";
import { runAgent } from "@zcp/agent/anthropic";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { message, MESSAGES, sse, text, toolUse } from "../test/fake/anthropic.js";
import { startFake } from "../test/fake/server.js";

const fake = await startFake();
fake.script(
  MESSAGES,
  sse(
    message([
      text("I will check both cities."),
      toolUse("toolu_01", "weather_get_current", { city: "Shanghai" }),
      toolUse("toolu_02", "weather_get_current", { city: "Beijing", unit: "fahrenheit" }),
    ]),
  ),
  sse(message([text("Shanghai is 22 °C and cloudy; Beijing is 64 °F and sunny.")])),
);

const client = new Anthropic({ baseURL: fake.url, apiKey: "not-needed-with-the-fake" });
const session = createRuntime(weather).session({ stage: "operate" });

const result = await runAgent({
  client,
  session,
  model: "claude-sonnet-5-5",
  system: "You answer weather questions with the tools you have.",
  input: "How is the weather in Shanghai and in Beijing (in Fahrenheit)?",
  stream: true,
  hooks: { onTurn: (turn) => console.log(`turn ${turn.index}: ${turn.calls} tool calls`) },
});
for (const outcome of result.outcomes)
  console.log(`${outcome.call.name} ${JSON.stringify(outcome.call.arguments)} -> ${outcome.text}`);
console.log(`answer (${result.stop}, ${result.turns} turns): ${result.text}`);
console.log(`usage: ${JSON.stringify(result.usage)}; ${result.messages.length} messages`);
await fake.close();

// prints:
// turn 0: 2 tool calls
// turn 1: 0 tool calls
// weather_get_current {"city":"Shanghai"} -> {"ok":true,"value":{"city":"Shanghai","temperature":22,"unit":"celsius","condition":"cloudy","humidity":71}}
// weather_get_current {"city":"Beijing","unit":"fahrenheit"} -> {"ok":true,"value":{"city":"Beijing","temperature":64,"unit":"fahrenheit","condition":"sunny","humidity":35}}
// answer (answer, 2 turns): Shanghai is 22 °C and cloudy; Beijing is 64 °F and sunny.
// usage: {"inputTokens":20,"outputTokens":10,"cachedInputTokens":0}; 4 messages

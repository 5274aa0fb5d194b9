/**
 * An OpenAI model with a zcp session's tools, through the official `openai` SDK and the
 * Responses API, end to end:
 *   pnpm build && node --import tsx packages/agent/examples/openai-responses.ts
 * It runs without a key: the SDK client is pointed (`baseURL`) at the test suite's fake provider,
 * which answers in the Responses wire format with two scripted responses (two parallel function
 * calls, then the answer). With a key, drop the fake and the `baseURL`.
 */
import OpenAI from "openai";
import { createRuntime } from "@zcp/runtime";
import { runAgent } from "@zcp/agent/openai";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { functionCall, message, response } from "../test/fake/openai.js";
import { startFake } from "../test/fake/server.js";

const fake = await startFake();
fake.script(
  "/v1/responses",
  {
    json: response(
      [
        functionCall("call_1", "weather_get_current", '{"city":"Shanghai","unit":null}'),
        functionCall("call_2", "weather_get_current", '{"city":"Paris","unit":null}'),
      ],
      "resp_1",
    ),
  },
  {
    json: response(
      [message("Shanghai is 22 °C and cloudy; the service does not cover Paris.")],
      "resp_2",
    ),
  },
);

const client = new OpenAI({ baseURL: `${fake.url}/v1`, apiKey: "not-needed-with-the-fake" });
const session = createRuntime(weather).session({ stage: "operate" });

const result = await runAgent({
  client,
  session,
  model: "gpt-5.5",
  instructions: "You answer weather questions with the tools you have.",
  input: "How is the weather in Shanghai and in Paris?",
  hooks: { onTurn: (turn) => console.log(`turn ${turn.index}: ${turn.calls} tool calls`) },
});
for (const outcome of result.outcomes)
  console.log(`${outcome.call.name} ${outcome.call.arguments} -> ${outcome.text}`);
console.log(`answer (${result.stop}, ${result.turns} turns): ${result.text}`);
console.log(`usage: ${JSON.stringify(result.usage)}; last response ${result.lastResponseId}`);
await fake.close();

// prints:
// turn 0: 2 tool calls
// turn 1: 0 tool calls
// weather_get_current {"city":"Shanghai","unit":null} -> {"ok":true,"value":{"city":"Shanghai","temperature":22,"unit":"celsius","condition":"cloudy","humidity":71}}
// weather_get_current {"city":"Paris","unit":null} -> {"ok":false,"error":"invalid:$.city","hint":"expected one of: Shanghai, Beijing, Shenzhen, Hangzhou","received":"Paris","fix":"call weather.get_current again with $.city corrected"}
// answer (answer, 2 turns): Shanghai is 22 °C and cloudy; the service does not cover Paris.
// usage: {"inputTokens":20,"outputTokens":10,"cachedInputTokens":0}; last response resp_2

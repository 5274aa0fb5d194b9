/**
 * An OpenAI model with a zcp session's tools, through the official `openai` SDK and Chat
 * Completions, streamed, end to end:
 *   pnpm build && node --import tsx packages/agent/examples/openai-chat.ts
 * It runs without a key: the SDK client is pointed (`baseURL`) at the test suite's fake provider,
 * which streams two scripted completions (a tool call whose arguments arrive in pieces, then the
 * answer). With a key, drop the fake and the `baseURL`.
 */
import OpenAI from "openai";
import { createRuntime } from "@zcp/runtime";
import { runChatAgent } from "@zcp/agent/openai";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { chatCall, completion, completionChunks } from "../test/fake/openai.js";
import { startFake } from "../test/fake/server.js";

const fake = await startFake();
fake.script(
  "/v1/chat/completions",
  {
    sse: completionChunks(
      completion(null, [
        chatCall("call_1", "weather_get_current", '{"city":"Beijing","unit":"fahrenheit"}'),
      ]),
    ),
  },
  { sse: completionChunks(completion("Beijing is 64 °F and sunny.")) },
);

const client = new OpenAI({ baseURL: `${fake.url}/v1`, apiKey: "not-needed-with-the-fake" });
const session = createRuntime(weather).session({ stage: "operate" });

const result = await runChatAgent({
  client,
  session,
  model: "gpt-5.5",
  instructions: "You answer weather questions with the tools you have.",
  input: "How is the weather in Beijing, in Fahrenheit?",
  stream: true,
});
for (const outcome of result.outcomes)
  console.log(`${outcome.call.name} ${outcome.call.arguments} -> ${outcome.text}`);
console.log(`answer (${result.stop}, ${result.turns} turns): ${result.text}`);
console.log(`usage: ${JSON.stringify(result.usage)}; ${result.messages.length} messages`);
await fake.close();

// prints:
// weather_get_current {"city":"Beijing","unit":"fahrenheit"} -> {"ok":true,"value":{"city":"Beijing","temperature":64,"unit":"fahrenheit","condition":"sunny","humidity":35}}
// answer (answer, 2 turns): Beijing is 64 °F and sunny.
// usage: {"inputTokens":20,"outputTokens":10,"cachedInputTokens":0}; 5 messages

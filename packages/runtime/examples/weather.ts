/**
 * The runtime on the weather fixture's generated registry, end to end:
 *   node --import tsx packages/runtime/examples/weather.ts
 */
import { createRuntime, encodeResult, formatReturn, parseCalls } from "@zcp/runtime";
import generated from "../../../fixtures/weather/src/zcp.gen/index.js";

const runtime = createRuntime(generated, {
  // The server owner's policy: every surface sees the weather and math tools by default.
  exposure: { defaults: { "*": { groups: ["weather", "math"] } } },
});
const session = runtime.session();

// What a native planner reads: one line per exposed tool, and the view's hash.
console.log(session.exposed.planner);
console.log(
  `view ${session.exposed.hash}, ${session.exposed.artifacts("openai-responses").length} OpenAI tool entries`,
);

// A call through the whole pipeline: defaults, validation, dispatch, result shaping.
const weather = await session.call("weather.get_current", { city: "Shanghai" });
console.log(encodeResult(weather));

// Errors are values, never exceptions.
console.log(encodeResult(await session.call("weather.get_current", { city: "Paris" })));
console.log(encodeResult(await session.call("unit.celsius_to_fahrenheit", { celsius: 21 })));

// The text protocol: calls written by a model, results written back as RET/ERR lines.
const message =
  "Let me check two things.\nCALL weather.get_current city=Beijing unit=fahrenheit\nCALL math.average numbers=[18, 22, 28]";
const { calls } = parseCalls(message);
for (const [index, call] of calls.entries()) {
  const result = await session.call(call.id ?? call.alias!, call.args);
  console.log(formatReturn(`c${index + 1}`, result));
}
await session.close();

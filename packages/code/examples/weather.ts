/**
 * Code mode on the weather fixture: a runtime whose `code` option is `@zcp/code`'s runner, and
 * one `zcp.run` program that calls three tools and returns only its answer.
 *
 *   pnpm build && node --import tsx packages/code/examples/weather.ts
 */
import { createRuntime } from "@zcp/runtime";
import { createCodeRunner } from "@zcp/code";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";

const code = createCodeRunner({ timeoutMs: 2000 });
const session = createRuntime(weather, { code }).session();

console.log(session.exposed.tools.map((tool) => tool.alias).join(" "));

const program = `
  const cities = ["Shanghai", "Beijing", "Shenzhen"];
  const readings = await Promise.all(cities.map((city) => tools.weather.get_current({ city })));
  const mean: number = await tools.math.average({ numbers: readings.map((r) => r.temperature) });
  console.log("cities:", cities.length);
  return { mean, fahrenheit: await tools.unit.celsius_to_fahrenheit({ celsius: mean }) };
`;
console.log(JSON.stringify(await session.call("zcp.run", { code: program })));

// A failed call is a ToolError the program may catch; an uncaught one fails the run.
console.log(
  JSON.stringify(
    await session.call("zcp.run", { code: 'await tools.weather.get_current({ city: "Paris" })' }),
  ),
);
await code.close();

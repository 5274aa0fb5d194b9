/**
 * `runToolCalls` on the weather and kitchen-sink fixtures: the exact texts a model reads back
 * for every kind of call (success, handle, bad arguments, refusals, unknown, forbidden, denied),
 * the hooks, and calls running in parallel.
 */
import { describe, expect, it } from "vitest";
import { createRuntime, type GeneratedModule } from "@zcp/runtime";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import kitchen from "../../../fixtures/kitchen-sink/src/zcp.gen/index.js";
import { runToolCalls, type ToolCall } from "../src/index.js";
import { SHANGHAI, syntaxError } from "./helpers.js";

const session = () => createRuntime(weather).session();
const call = (name: string, args: unknown, id = "c1"): ToolCall => ({ id, name, arguments: args });
const textOf = async (name: string, args: unknown) =>
  (await runToolCalls(session(), [call(name, args)]))[0]!.text;

describe("the texts a model reads back", () => {
  it("answer a success with the encoded result", async () => {
    const [outcome] = await runToolCalls(session(), [
      call("weather_get_current", '{"city":"Shanghai"}'),
    ]);
    expect(outcome!.text).toBe(SHANGHAI);
    expect(outcome!.isError).toBe(false);
    expect(outcome!.tool?.alias).toBe("weather.get_current");
  });

  it("take parsed arguments as they are (Anthropic's input)", async () => {
    expect(await textOf("math_subtract", { a: 3, b: 1 })).toBe('{"ok":true,"value":2}');
  });

  it("answer a handle with its id, summary and meta, never the value", async () => {
    const [outcome] = await runToolCalls(createRuntime(kitchen).session(), [
      call("tables_load", '{"name":"stock","limit":3}'),
    ]);
    expect(outcome!.text).toBe(
      '{"ok":true,"handle":"#T1","summary":"3 records; fields: sku, qty","meta":{"kind":"table","size":79,"ttl":"10m","count":3}}',
    );
  });

  it("refuse arguments that are not JSON, with the parser's message and a fix", async () => {
    const [outcome] = await runToolCalls(session(), [call("weather_get_current", '{"city":')]);
    expect(outcome!.text).toBe(
      `{"ok":false,"error":"invalid:$","hint":"the arguments are not JSON (${syntaxError('{"city":')})","fix":"call weather.get_current again with one JSON object of named parameters"}`,
    );
    expect(outcome!.isError).toBe(true);
  });

  it("refuse JSON arguments that are not an object, naming what they are", async () => {
    const fix = '"fix":"call math.subtract again with one JSON object of named parameters"}';
    const hint = (kind: string) =>
      `{"ok":false,"error":"invalid:$","hint":"the arguments must be a JSON object of named parameters, not ${kind}",${fix}`;
    expect(await textOf("math_subtract", "[1,2]")).toBe(hint("an array"));
    expect(await textOf("math_subtract", '"a"')).toBe(hint("a string"));
    expect(await textOf("math_subtract", "3")).toBe(hint("a number"));
    expect(await textOf("math_subtract", "true")).toBe(hint("a boolean"));
    expect(await textOf("math_subtract", "null")).toBe(hint("null"));
    expect(await textOf("math_subtract", [1, 2])).toBe(hint("an array"));
  });

  it("answer a validator refusal with the value received there and the fix", async () => {
    expect(await textOf("weather_get_current", '{"city":"Paris"}')).toBe(
      '{"ok":false,"error":"invalid:$.city","hint":"expected one of: Shanghai, Beijing, Shenzhen, Hangzhou","received":"Paris","fix":"call weather.get_current again with $.city corrected"}',
    );
    expect(await textOf("math_average", '{"numbers":[1,"2x"]}')).toBe(
      '{"ok":false,"error":"invalid:$.numbers[1]","hint":"expected number","received":"2x","fix":"call math.average again with $.numbers[1] corrected"}',
    );
  });

  it("answer a missing argument without a received value", async () => {
    expect(await textOf("weather_get_current", "{}")).toBe(
      '{"ok":false,"error":"missing:$.city","hint":"expected one of: Shanghai, Beijing, Shenzhen, Hangzhou","fix":"call weather.get_current again with $.city given"}',
    );
  });

  it("describe a received value too long to echo", async () => {
    const received = async (value: unknown) =>
      JSON.parse(await textOf("weather_get_current", { city: value })).received;
    expect(await received("x".repeat(200))).toBe("x".repeat(200));
    expect(await received("x".repeat(1204))).toBe("a string of 1,204 characters");
    const keys = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`key${i}`, "v".repeat(20)]),
    );
    expect(await received(keys)).toBe("an object with 12 keys");
    expect(await received(Array.from({ length: 40 }, (_, i) => i * 1000))).toBe(
      "an array of 40 items",
    );
    expect(await received([1, 2])).toEqual([1, 2]);
  });

  it("answer an unknown tool with the runtime's error and a fix", async () => {
    const [outcome] = await runToolCalls(session(), [call("weather_get_forecast", "{}")]);
    expect(outcome!.text).toBe(
      '{"ok":false,"error":"unknown:weather_get_forecast","hint":"no tool by that name; list the tools to see what exists","fix":"call one of the tools you were given"}',
    );
    expect(outcome!.tool).toBeUndefined();
  });

  it("answer a tool outside the session's view forbidden, as the runtime does", async () => {
    const planning = createRuntime(weather).session({ stage: "plan" });
    const [outcome] = await runToolCalls(planning, [
      call("weather_get_current", '{"city":"Shanghai"}'),
    ]);
    expect(outcome!.text).toBe(
      '{"ok":false,"error":"forbidden:weather.get_current","hint":"the tool is not available in this session"}',
    );
  });
});

describe("hooks", () => {
  it("refuse a call the approve hook denies, with its reason or the default one", async () => {
    const seen: string[] = [];
    const outcomes = await runToolCalls(
      session(),
      [
        call("math_subtract", '{"a":1,"b":2}', "c1"),
        call("math_average", '{"numbers":[1]}', "c2"),
        call("unit_celsius_to_fahrenheit", '{"celsius":0}', "c3"),
        call("math_subtract", "[]", "c4"),
      ],
      {
        hooks: {
          approve: async (toolCall, tool) => {
            seen.push(`${toolCall.id} ${tool.alias}`);
            return toolCall.id === "c1" ? "subtraction is off today" : toolCall.id === "c3";
          },
        },
      },
    );
    expect(outcomes.map((outcome) => outcome.text)).toEqual([
      '{"ok":false,"error":"denied:math.subtract","hint":"subtraction is off today"}',
      '{"ok":false,"error":"denied:math.average","hint":"the call was not approved"}',
      '{"ok":true,"value":32}',
      expect.stringContaining('"error":"invalid:$"'),
    ]);
    // Asked only for calls that could run: not for arguments that are not an object.
    expect(seen).toEqual(["c1 math.subtract", "c2 math.average", "c3 unit.celsius_to_fahrenheit"]);
  });

  it("tell onToolCall and onToolResult about every call", async () => {
    const events: string[] = [];
    await runToolCalls(
      session(),
      [call("math_subtract", '{"a":1,"b":2}'), call("nope", "{}", "c2")],
      {
        hooks: {
          onToolCall: (toolCall, tool) => events.push(`call ${toolCall.id} ${tool?.alias}`),
          onToolResult: (outcome) => events.push(`result ${outcome.call.id} ${outcome.isError}`),
        },
      },
    );
    expect(events.sort()).toEqual([
      "call c1 math.subtract",
      "call c2 undefined",
      "result c1 false",
      "result c2 true",
    ]);
  });
});

describe("parallel calls", () => {
  it("run at once, answered in the calls' order", async () => {
    const idOf = (alias: string) => weather.registry.tools.find((tool) => tool.alias === alias)!.id;
    const slow = (ms: number, value: number) => () =>
      new Promise((resolve) => setTimeout(() => resolve(value), ms));
    const module: GeneratedModule = {
      ...weather,
      dispatch: {
        ...weather.dispatch,
        [idOf("math.subtract")]: slow(400, 1),
        [idOf("math.average")]: slow(400, 2),
      },
    };
    const started = Date.now();
    const outcomes = await runToolCalls(createRuntime(module).session(), [
      call("math_subtract", '{"a":1,"b":2}', "c1"),
      call("math_average", '{"numbers":[1]}', "c2"),
    ]);
    // One after the other they would take 800 ms.
    expect(Date.now() - started).toBeLessThan(700);
    expect(outcomes.map((outcome) => [outcome.call.id, outcome.text])).toEqual([
      ["c1", '{"ok":true,"value":1}'],
      ["c2", '{"ok":true,"value":2}'],
    ]);
  });
});

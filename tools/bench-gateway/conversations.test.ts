/** bench:gateway's conversations (conversations.ts), over the weather fixture in place of an upstream's gateway. */
import { afterAll, describe, expect, it } from "vitest";
import { weather } from "../bench-tokens/plans/registries.ts";
import { closeSurfaces } from "../bench-tokens/surfaces/open.ts";
import { converse, GATEWAY_SURFACES, type GatewayAsk } from "./conversations.ts";

afterAll(closeSurfaces);

const ask: GatewayAsk = {
  upstream: "weather",
  tool: "get_current",
  args: { city: "Beijing" },
  prompt: 'How warm is it in Beijing? Answer as {"celsius": ...}.',
  answer: (value) => ({ celsius: (value as { temperature: number }).temperature }),
  right: (answer) => answer.celsius === 18,
};

describe("bench:gateway conversations", () => {
  it("asks once on every MCP surface of both eras, the search surfaces finding the tool first", async () => {
    const runs = await converse(weather, ask);
    expect(runs.map((run) => [run.protocol, run.verified, run.errors])).toEqual(
      GATEWAY_SURFACES.map((surface) => [surface.protocol, true, []]),
    );
    const [listing, legacy, modern] = runs;
    expect(listing!.turns).toHaveLength(2);
    for (const run of [legacy!, modern!]) {
      expect(run.turns).toHaveLength(3);
      expect(run.searches).toEqual([
        { query: expect.any(String), for: "weather.get_current", found: true },
      ]);
    }
    // The 2026-07-28 surface calls what it found through zcp_call_tool.
    const called = modern!.messages.flatMap((message) =>
      message.role === "assistant" ? (message.tool_calls ?? []) : [],
    );
    expect(called.map((call) => call.function.name)).toEqual(["zcp_find_tools", "zcp_call_tool"]);
  });

  it("names the gateway's tools when the ask's tool is not among them", async () => {
    await expect(converse(weather, { ...ask, tool: "get_forecast_x" })).rejects.toThrow(
      /^weather: no tool weather\.get_forecast_x in the gateway \(it has [^)]*weather\.get_current/,
    );
  });
});

/**
 * What the adapter tests share: the fake provider (fake/server.ts) with an official SDK client
 * pointed at it, started once per test file, reset after each test and closed after all
 * (awaited at the top of a file: `const { fake, client } = await fakeOpenAI();`); the weather
 * fixture with tools' functions or input schemas replaced; and texts a model reads back.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, afterEach } from "vitest";
import type { GeneratedModule, JsonSchema } from "@zcp/runtime";
import type { DispatchTable } from "@zcp/runtime/codegen";
import weather from "../../../fixtures/weather/src/zcp.gen/index.js";
import { startFake, type FakeServer } from "./fake/server.js";

export interface FakeProvider<C> {
  readonly fake: FakeServer;
  readonly client: C;
}

/** The fake provider and an `OpenAI` client on its `/v1`. */
export function fakeOpenAI(): Promise<FakeProvider<OpenAI>> {
  return fakeProvider((url) => new OpenAI({ baseURL: `${url}/v1`, apiKey: "test", maxRetries: 0 }));
}

/** The fake provider and an `Anthropic` client on it. */
export function fakeAnthropic(): Promise<FakeProvider<Anthropic>> {
  return fakeProvider((url) => new Anthropic({ baseURL: url, apiKey: "test", maxRetries: 0 }));
}

async function fakeProvider<C>(connect: (url: string) => C): Promise<FakeProvider<C>> {
  const fake = await startFake();
  afterEach(() => fake.reset());
  afterAll(() => fake.close());
  return { fake, client: connect(fake.url) };
}

/** The weather module with tools' functions replaced, by alias. */
export function withDispatch(replace: { [alias: string]: DispatchTable[string] }): GeneratedModule {
  const dispatch = { ...weather.dispatch };
  for (const [alias, fn] of Object.entries(replace))
    dispatch[weather.registry.tools.find((tool) => tool.alias === alias)!.id] = fn;
  return { ...weather, dispatch };
}

/** The weather module with every tool's input schema replaced: `schema(index)` for the index-th. */
export function withInputSchemas(schema: (index: number) => JsonSchema): GeneratedModule {
  const tools = weather.registry.tools.map((tool, i) => ({ ...tool, inputSchema: schema(i) }));
  return { ...weather, registry: { ...weather.registry, tools } };
}

/** What weather.get_current answers for Shanghai. */
export const SHANGHAI =
  '{"ok":true,"value":{"city":"Shanghai","temperature":22,"unit":"celsius","condition":"cloudy","humidity":71}}';

/** The message JSON.parse throws for `text`. */
export function syntaxError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("valid JSON");
}

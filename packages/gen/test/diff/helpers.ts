/**
 * What the `zcp diff` tests share: the weather fixture's registry, and edited copies of it.
 */
import path from "node:path";
import type { Registry } from "@zcp/runtime";
import { readRegistryFile } from "../../src/compose/read.js";
import { FIXTURES } from "../helpers.js";

export const WEATHER = path.join(FIXTURES, "weather/src/zcp.gen/registry.ts");
export const REAL: Registry = readRegistryFile(WEATHER).registry;

/** A mutable copy of the weather registry; tools by alias. */
export type Tool = Record<string, any>;
export type Edit = (tools: Record<string, Tool>, registry: { tools: Tool[] }) => void;

export function edited(edit: Edit): Registry {
  const copy = structuredClone(REAL) as unknown as { tools: Tool[] };
  edit(Object.fromEntries(copy.tools.map((t) => [t.alias as string, t])), copy);
  return copy as unknown as Registry;
}

export const AVG = "math.average";
export const SUB = "math.subtract";
export const WEATHER_TOOL = "weather.get_current";
export const city = (t: Record<string, Tool>) => t[WEATHER_TOOL]!.inputSchema.properties.city;
export const numbers = (t: Record<string, Tool>) => t[AVG]!.inputSchema.properties.numbers;
export const outputOf = (t: Record<string, Tool>) => t[WEATHER_TOOL]!.outputSchema.properties;

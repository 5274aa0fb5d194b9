/**
 * What the token report tests share: the reporter's JSON line, an independent o200k_base count,
 * the scratch projects with and without workflow tools, and a bucket's expected sums.
 */
import type { Registry } from "@zcp/runtime";
import { renderApi } from "@zcp/runtime/definition";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import type { TokenReport } from "../../src/cli/token-report.js";
import { STRICT_TSCONFIG } from "../helpers.js";

export interface JsonLine {
  ok: boolean;
  tools: number;
  cached: boolean;
  report?: TokenReport | null;
}

/** The o200k_base count, computed here independently of src/cli/token-report.ts. */
export function tokens(text: string): number {
  return encode(text, { disallowedSpecial: new Set() }).length;
}

const TOOL = (alias: string, name: string, groups: string[]) => `/**
 * The ${name} tool, which returns its argument.
 *
 * @tool ${alias}${groups.length > 0 ? `\n * @groups ${groups.join(" ")}` : ""}
 * @param value The value to return.
 */
export function ${name}(value: string): string {
  return value;
}
`;

/** Tools in the workflow group, in two data groups (one in both) and in none. */
export const WORKFLOW_PROJECT = {
  "zcp.config.json": "{}",
  "tsconfig.json": STRICT_TSCONFIG,
  "src/tools.ts": [
    TOOL("wf.plan_trip", "planTrip", ["workflow", "travel"]),
    TOOL("data.load", "load", ["data"]),
    TOOL("data.sum", "sum", ["data", "math"]),
    TOOL("math.add", "add", ["math"]),
    TOOL("misc.ping", "ping", []),
  ].join("\n"),
};

/** The same tools without the workflow group. */
export const PLAIN_PROJECT = {
  ...WORKFLOW_PROJECT,
  "src/tools.ts": WORKFLOW_PROJECT["src/tools.ts"].replace("workflow travel", "travel"),
};

/**
 * A bucket of `tools`: sums of their counts, and the tokens of their whole API text (rendered
 * from `registry`'s definitions: named types once, with the `tools` wrapper).
 */
export function sumsOf(
  registry: Registry,
  tools: readonly { alias: string; mcp: number; openai: number | null; planner: number }[],
) {
  const aliases = new Set(tools.map((tool) => tool.alias));
  return {
    tools: tools.length,
    mcp: tools.reduce((total, tool) => total + tool.mcp, 0),
    openai: tools.reduce((total, tool) => total + (tool.openai ?? 0), 0),
    planner: tools.reduce((total, tool) => total + tool.planner, 0),
    typescript: tokens(renderApi(registry.tools.filter((tool) => aliases.has(tool.alias))).text),
  };
}

/**
 * The conformance suite's tools that zcp can express, as zcp tools: the suite calls them by
 * these names (`test_simple_text`, …) and checks what they answer. The reference servers
 * register the same four, with the same answers, from `../shared-tools.ts`.
 */
import { ToolError, type ToolContext } from "@zcp/runtime";

/** The pause between the log lines and progress steps the suite expects ("~50ms"). */
const STEP_MS = 50;

const pause = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, STEP_MS);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Answer a fixed sentence.
 *
 * @tool test.simple_text
 * @output scalar
 * @flags readonly idempotent
 */
export function simpleText(): string {
  return "This is a simple text response for testing.";
}

/**
 * Write three info log lines, 50 ms apart, then answer.
 *
 * @tool test.tool_with_logging
 * @output scalar
 * @flags readonly idempotent
 */
export async function toolWithLogging(ctx: ToolContext): Promise<string> {
  ctx.log("info", "Tool execution started");
  await pause(ctx.signal);
  ctx.log("info", "Tool processing data");
  await pause(ctx.signal);
  ctx.log("info", "Tool execution completed");
  return "Tool with logging executed successfully";
}

/**
 * Report progress 0, 50 and 100 of 100, 50 ms apart, then answer.
 *
 * @tool test.tool_with_progress
 * @output scalar
 * @flags readonly idempotent
 */
export async function toolWithProgress(ctx: ToolContext): Promise<string> {
  ctx.progress(0, 100);
  await pause(ctx.signal);
  ctx.progress(50, 100);
  await pause(ctx.signal);
  ctx.progress(100, 100);
  return "Tool with progress executed successfully";
}

/**
 * Always fail, with the tool's own error.
 *
 * @tool test.error_handling
 * @output scalar
 * @flags readonly idempotent
 */
export function errorHandling(): never {
  throw new ToolError("test_error", "This tool intentionally returns an error for testing");
}

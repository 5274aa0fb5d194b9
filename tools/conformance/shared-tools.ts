/**
 * The four scenario tools zcp serves (`fixtures/conformance/src/conformance-tools.ts`), as the reference servers
 * register them: one table, so that the 2025 reference (SDK v1) and the 2026-07-28 reference
 * (SDK v2) answer alike, each through its own SDK's logging and progress API.
 */

/** What a tool body may do on the call's own stream. */
interface ToolIo {
  log(line: string): Promise<void>;
  /** Sends `notifications/progress` when the request carried a progress token. */
  progress(progress: number, total: number): Promise<void>;
}

/** A type, not an interface: the SDKs' result types have an index signature. */
type TextResult = { content: { type: "text"; text: string }[]; isError?: boolean };

interface SharedTool {
  readonly name: string;
  readonly description: string;
  run(io: ToolIo): Promise<TextResult>;
}

/** The pause between log lines and progress steps the suite expects ("~50ms"). */
const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));
const text = (value: string): TextResult => ({ content: [{ type: "text", text: value }] });

async function stepped(steps: (() => Promise<void>)[]): Promise<void> {
  for (const [i, step] of steps.entries()) {
    if (i > 0) await pause();
    await step();
  }
}

export const SHARED_TOOLS: readonly SharedTool[] = [
  {
    name: "test_simple_text",
    description: "Answer a fixed sentence.",
    run: async () => text("This is a simple text response for testing."),
  },
  {
    name: "test_tool_with_logging",
    description: "Write three info log lines, 50 ms apart, then answer.",
    async run(io) {
      await stepped(
        ["Tool execution started", "Tool processing data", "Tool execution completed"].map(
          (line) => () => io.log(line),
        ),
      );
      return text("Tool with logging executed successfully");
    },
  },
  {
    name: "test_tool_with_progress",
    description: "Report progress 0, 50 and 100 of 100, 50 ms apart, then answer.",
    async run(io) {
      await stepped([0, 50, 100].map((done) => () => io.progress(done, 100)));
      return text("Tool with progress executed successfully");
    },
  },
  {
    name: "test_error_handling",
    description: "Always fail, with the tool's own error.",
    run: async () => ({
      ...text("This tool intentionally returns an error for testing"),
      isError: true,
    }),
  },
];

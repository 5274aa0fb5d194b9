/** The code-mode rows of `pnpm bench:dispatch` (code.ts), each run a few times with its answer checked. */
import { afterAll, describe, expect, it } from "vitest";
import { coldStart, createCodeVariants, PROGRAM_CALLS } from "./code.ts";

const code = createCodeVariants();
afterAll(() => code.close());

describe("bench:dispatch code mode", () => {
  it("lists the program, the 100 session.calls and the empty program", () => {
    expect(code.list.map((v) => [v.key, v.toolCalls])).toEqual([
      ["program", PROGRAM_CALLS],
      ["session100", PROGRAM_CALLS],
      ["emptyProgram", 0],
    ]);
  });

  it("runs each row with its answer checked", async () => {
    for (const variant of code.list) for (let i = 0; i < 3; i++) await variant.call(i);
  });

  it("answers the program's sum and a failed call inside it at set-up", async () => {
    expect(Object.values(await code.checks())).toEqual([
      '{"ok":true,"value":{"value":4950}}',
      '{"ok":false,"error":"program_error","hint":"ToolError: invalid:$.a: expected number"}',
    ]);
  });

  it("measures a cold start", async () => {
    const cold = await coldStart();
    expect(cold.coldStartMs).toBeGreaterThan(0);
    expect(cold.secondRunMs).toBeGreaterThan(0);
  });
});

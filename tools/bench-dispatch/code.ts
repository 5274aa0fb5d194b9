/**
 * The code-mode rows of the dispatch benchmark (issue 16 item 6): a `zcp.run` program making
 * 100 `tools.math.subtract` calls in one run, against 100 `session.call("math.subtract")` on
 * the same runtime, and an empty program, all through one `createCodeRunner()` (defaults: two
 * worker threads, one busy at a time here) and one session of `createRuntime(generated, { code })`.
 * Each measured unit is one run (one `session.call("zcp.run")`, or the block of 100 calls), and
 * each checks its answer, built from the run number `i` so that no run can be skipped:
 *
 * - program: `for (k = 0; k < 100; k++) sum += await tools.math.subtract({ a: i + k, b: 1 })`,
 *   sequential awaits, returns the sum; the host checks it is `100 (i - 1) + 4950`;
 * - session100: `session.call("math.subtract", { a: i + k, b: 1 })` for k = 0..99, each awaited
 *   and checked (`i + k - 1`);
 * - emptyProgram: `return i`: the fixed cost of one run (the message to a program worker,
 *   stripping the program, a fresh QuickJS runtime and context, the prelude, the run, the result).
 *
 * `coldStartMs` is the first run after `createCodeRunner()`: the worker thread starts, loads
 * the sandbox (sucrase, quickjs-emscripten) and compiles the WASM module; run.ts measures it in
 * fresh processes, once each.
 */
import { createCodeRunner } from "@zcp/code";
import { createRuntime, type CallResult } from "@zcp/runtime";
import generated from "../../fixtures/weather/src/zcp.gen/index.js";
import type { Variant } from "./variant-shape.js";

/** Tool calls a program (and the block of session.calls) makes per run. */
export const PROGRAM_CALLS = 100;

const programCode = (i: number) =>
  `let sum = 0;\nfor (let k = 0; k < ${PROGRAM_CALLS}; k++) sum += await tools.math.subtract({ a: ${i} + k, b: 1 });\nreturn sum;`;

/** What the program run number `i` returns: the sum of `i + k - 1` for k = 0..99. */
const programSum = (i: number) =>
  PROGRAM_CALLS * (i - 1) + (PROGRAM_CALLS * (PROGRAM_CALLS - 1)) / 2;

/** The returned value of a `zcp.run` answer (`{ ok: true, value: { value } }`), else undefined. */
function returned(result: CallResult): unknown {
  if (!result.ok || !("value" in result)) return undefined;
  return (result.value as { value?: unknown } | null)?.value;
}

function wrongRun(what: string, i: number, got: unknown, expected: number): never {
  throw new Error(`${what}: run ${i} answered ${JSON.stringify(got)}, expected ${expected}`);
}

export interface CodeVariants {
  readonly list: readonly Variant[];
  /** Checks made once at set-up: what run 1 of the program and a failing call in a program answer. */
  checks(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export function createCodeVariants(): CodeVariants {
  const runner = createCodeRunner();
  const session = createRuntime(generated, { code: runner }).session();
  const list: Variant[] = [
    {
      key: "program",
      label: `(f) one zcp.run program making ${PROGRAM_CALLS} sequential tools.math.subtract calls`,
      transport: true,
      toolCalls: PROGRAM_CALLS,
      call: async (i) => {
        const result = await session.call("zcp.run", { code: programCode(i) });
        if (returned(result) !== programSum(i))
          wrongRun("zcp.run program", i, result, programSum(i));
      },
    },
    {
      key: "session100",
      label: `(g) ${PROGRAM_CALLS} sequential session.call("math.subtract") on the same runtime`,
      transport: false,
      toolCalls: PROGRAM_CALLS,
      call: async (i) => {
        for (let k = 0; k < PROGRAM_CALLS; k++) {
          const result = await session.call("math.subtract", { a: i + k, b: 1 });
          if (!result.ok || !("value" in result) || result.value !== i + k - 1)
            wrongRun("session.call", i, result, i + k - 1);
        }
      },
    },
    {
      key: "emptyProgram",
      label: "(h) an empty zcp.run program (`return i`)",
      transport: true,
      toolCalls: 0,
      call: async (i) => {
        const result = await session.call("zcp.run", { code: `return ${i};` });
        if (returned(result) !== i) wrongRun("empty program", i, result, i);
      },
    },
  ];
  return {
    list,
    async checks() {
      const run = await session.call("zcp.run", { code: programCode(1) });
      const bad = await session.call("zcp.run", {
        code: 'return await tools.math.subtract({ a: "x", b: 1 });',
      });
      return {
        [`program: run 1 answers (expected ${programSum(1)})`]: JSON.stringify(run),
        ['program: tools.math.subtract({ a: "x", b: 1 }) uncaught answers']: JSON.stringify(bad),
      };
    },
    async close() {
      await session.close();
      await runner.close();
    },
  };
}

/**
 * The cold start of code mode, in ms: from `createCodeRunner()` (the module already imported)
 * to the answer of the first `zcp.run` of `return 1`; then the second run, for comparison.
 */
export async function coldStart(): Promise<{ coldStartMs: number; secondRunMs: number }> {
  const started = performance.now();
  const runner = createCodeRunner();
  const session = createRuntime(generated, { code: runner }).session();
  const first = await session.call("zcp.run", { code: "return 1;" });
  const coldStartMs = performance.now() - started;
  if (returned(first) !== 1) wrongRun("cold start", 0, first, 1);
  const second = performance.now();
  const again = await session.call("zcp.run", { code: "return 2;" });
  const secondRunMs = performance.now() - second;
  if (returned(again) !== 2) wrongRun("second run", 1, again, 2);
  await session.close();
  await runner.close();
  return { coldStartMs, secondRunMs };
}

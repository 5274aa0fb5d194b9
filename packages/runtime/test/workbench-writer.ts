/**
 * One of two processes writing to one workbook at once (workbench-locks.test.ts): waits until
 * the start time it is given, so both write together, then makes `count` calls of
 * excel.write_data_to_excel at once, each to its own cell of `column`, through a runtime on the
 * workbench fixture. Prints the answers that were not ok as JSON (an empty list when all were).
 * Usage: node --import tsx workbench-writer.ts <file> <column> <count> <startAtMs>
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createRuntime } from "../src/index.js";

const [file, column, count, startAt] = process.argv.slice(2);
const generated = (await import("../../../fixtures/workbench/src/zcp.gen/index.js")).default;
// Every call at once: none answers busy or times out while it waits for the lock.
const session = createRuntime(generated, {
  maxConcurrentCalls: Number(count),
  timeoutMs: 60_000,
}).session();
await sleep(Math.max(0, Number(startAt) - Date.now()));
const answers = await Promise.all(
  Array.from({ length: Number(count) }, (_, i) =>
    session.call("excel.write_data_to_excel", {
      path: file,
      sheet: "Sheet1",
      data: [[`${column}${i + 1}`]],
      startCell: `${column}${i + 1}`,
    }),
  ),
);
process.stdout.write(JSON.stringify(answers.filter((answer) => !answer.ok)));

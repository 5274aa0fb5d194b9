/**
 * A program worker (piscina's worker file): runs one program per task with `runProgram`, its
 * tool calls sent to the runner on the task's port and answered there; the shared stop flag
 * tells the interrupt handler to stop.
 */
import type { CallResult } from "@zcp/runtime";
import type { FromWorker, ProgramTask, ToWorker } from "./protocol.js";
import { runProgram } from "./sandbox.js";

/** Runs the task's program; resolves with its `zcp.run` result. */
export default async function runTask(task: ProgramTask): Promise<CallResult> {
  const { port } = task;
  const stop = new Int32Array(task.stop);
  const waiting = new Map<number, (result: CallResult) => void>();
  let next = 0;
  port.on("message", (message: ToWorker) => {
    waiting.get(message.answer)?.(message.result);
    waiting.delete(message.answer);
  });
  const send = (message: FromWorker) => port.postMessage(message);
  send({ started: true });
  try {
    return await runProgram({
      code: task.code,
      aliases: task.aliases,
      limits: task.limits,
      stopped: () => Atomics.load(stop, 0) === 1,
      bridge: {
        call: (alias, args) =>
          new Promise((resolve) => {
            const call = next++;
            waiting.set(call, resolve);
            send({ call, alias, args });
          }),
      },
    });
  } finally {
    port.close();
  }
}

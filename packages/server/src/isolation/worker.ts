/**
 * A tool worker (piscina's worker file): imports the generated module named by `workerData`
 * once (or the modules, composed as the server's thread composes them), then runs one call per task with a real `ToolContext` whose signal aborts when the main
 * thread sends an `Abort` on the call's port, and whose progress and log lines go back on it, as
 * does the tool's result.
 */
import { inspect } from "node:util";
import { receiveMessageOnPort, workerData } from "node:worker_threads";
import { composeGenerated, jsonData, resultTooLarge, ToolError, type Handle } from "@zcp/runtime";
import { CONTEXT_BRAND, HANDLE_BRAND } from "@zcp/runtime/definition";
import { unwrapSummary } from "@zcp/runtime";
import type { DispatchTable, GeneratedModule, ToolContext } from "@zcp/runtime/codegen";
import type {
  Abort,
  AskKind,
  FromTool,
  PlainHandle,
  PlainSystemError,
  PlainToolError,
  ToTool,
  WorkerData,
  WorkerTask,
} from "./protocol.js";

type Run = (task: WorkerTask) => Promise<void>;

async function load(): Promise<Run> {
  const data = workerData as WorkerData;
  let dispatch: DispatchTable;
  try {
    if ("modules" in data) {
      const modules: GeneratedModule[] = [];
      for (const url of data.modules) modules.push(await generatedOf(url));
      dispatch = composeGenerated(modules).dispatch;
    } else dispatch = (await generatedOf(data.module)).dispatch;
  } catch (error) {
    // Every call answers why instead: a worker that died while starting would be started again
    // and again by the pool.
    return () => Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return (task) => run(dispatch, task);
}

async function generatedOf(url: string): Promise<GeneratedModule> {
  const imported = (await importModule(url)) as {
    default?: GeneratedModule;
    generated?: GeneratedModule;
  };
  return (imported.default ?? imported.generated)!;
}

let tsxRegistered = false;

/**
 * Node 20 does not run in workers the hooks a TypeScript loader installed in the main thread
 * with `--import tsx`, so a worker that is to import a TypeScript module registers tsx itself
 * first, when it is installed. (After a failed import Node keeps the failure: there is no trying
 * again once the loader is there.)
 */
async function importModule(url: string): Promise<unknown> {
  if (/\.[mc]?ts$/.test(new URL(url).pathname)) {
    // Not a dependency of this package: whoever serves TypeScript has it.
    const api: string = "tsx/esm/api";
    const tsx = (await import(api).catch(() => null)) as { register(): unknown } | null;
    if (!tsxRegistered) tsx?.register();
    tsxRegistered = tsx !== null;
  }
  return import(url);
}

async function run(dispatch: DispatchTable, task: WorkerTask): Promise<void> {
  const { port } = task;
  const controller = new AbortController();
  // The tool's signal aborts with an Error of the same message as in the server's thread.
  const onAbort = ({ abort }: Abort) => controller.abort(new Error(abort));
  // An abort sent while the task waited for a worker is on the port already.
  const early = receiveMessageOnPort(port);
  if (early !== undefined) onAbort(early.message as Abort);
  const send = (message: FromTool) => port.postMessage(message);
  const asking = new Questions(send, controller.signal);
  const onMessage = (message: ToTool) =>
    "abort" in message ? onAbort(message) : asking.answered(message);
  port.on("message", onMessage);
  const context: ToolContext = {
    [CONTEXT_BRAND]: true,
    sessionId: task.sessionId,
    signal: controller.signal,
    config: task.config,
    caller: task.caller,
    progress: (done, total, message) => send({ progress: [done, total, message] }),
    log: (level, message) => send({ log: [level, message] }),
    clientOffers: task.offers,
    elicit: ((...args: unknown[]) => asking.ask("elicit", args)) as ToolContext["elicit"],
    sample: ((...args: unknown[]) => asking.ask("sample", args)) as ToolContext["sample"],
    roots: ((...args: unknown[]) => asking.ask("roots", args)) as ToolContext["roots"],
  };
  try {
    if (controller.signal.aborted) throw new Error("the call was aborted before it started");
    const dispatcher = dispatch[task.toolId];
    if (!dispatcher) throw new Error(`the generated module has no dispatcher for ${task.toolId}`);
    const { value, summary } = unwrapSummary(await dispatcher(branded(task), context));
    const refused = refusal(value, task.maxResultBytes);
    if (refused) throw refused;
    try {
      send({ done: value, summary });
    } catch (error) {
      throw new Error(
        `the tool returned a value that cannot be sent to the server's thread: ${(error as Error).message}`,
      );
    }
  } catch (error) {
    throw crossing(error);
  } finally {
    port.off("message", onMessage);
  }
}

/**
 * The context's questions, asked in the server's thread (where the call's client is) and
 * answered on the port; those still waiting when the tool's signal aborts reject with its reason.
 */
class Questions {
  #next = 0;
  readonly #waiting = new Map<
    number,
    { resolve(value: unknown): void; reject(error: Error): void }
  >();

  constructor(
    private readonly send: (message: FromTool) => void,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener("abort", () => {
      for (const { reject } of this.#waiting.values()) reject(signal.reason as Error);
      this.#waiting.clear();
    });
  }

  ask(kind: AskKind, args: unknown[]): Promise<unknown> {
    if (this.signal.aborted) return Promise.reject(this.signal.reason as Error);
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      try {
        this.send({ ask: { id, kind, args } });
      } catch (error) {
        // A schema that cannot be cloned (a function in it) is the tool's mistake.
        this.#waiting.delete(id);
        reject(error as Error);
      }
    });
  }

  answered(message: Exclude<ToTool, Abort>): void {
    const waiting = this.#waiting.get(message.answer);
    if (!waiting) return;
    this.#waiting.delete(message.answer);
    if (!("error" in message)) return waiting.resolve(message.value);
    const { error } = message;
    waiting.reject(
      "code" in error ? new ToolError(error.code, error.message) : new Error(error.message),
    );
  }
}

/**
 * Why `value` may not cross to the server's thread, as the call pipeline would refuse it there
 * (the same check and words): not JSON data (`exec:error`: a Map, a typed array or a cycle
 * would cross whole, past the size measured), or its compact JSON over `maxBytes`
 * (`exec:too_large`). Checked here, in the tool's thread, so that nothing refused is cloned.
 */
function refusal(value: unknown, maxBytes: number): ToolError | undefined {
  const data = jsonData(value ?? null);
  if ("refused" in data) return new ToolError("exec:error", data.refused);
  const refused = resultTooLarge(data.bytes, maxBytes);
  return refused && new ToolError(refused.error, refused.hint);
}

/** The arguments with their handles as the tool expects them: `Handle`s, brand included. */
function branded(task: WorkerTask): { readonly [name: string]: unknown } {
  if (task.handles.length === 0) return task.args;
  const args = { ...task.args };
  for (const name of task.handles) {
    const { id, kind, value } = args[name] as PlainHandle;
    args[name] = { [HANDLE_BRAND]: kind, id, kind, value } satisfies Handle;
  }
  return args;
}

/**
 * What the tool threw, as it can cross: a ToolError as plain data, a system error (`ENOENT`...)
 * as plain data with its code and syscall, another Error as it is (the clone keeps its message
 * and stack), anything else as an Error describing it (it might not clone).
 */
function crossing(error: unknown): unknown {
  if (!(error instanceof Error)) return new Error(`the tool threw ${inspect(error)}`);
  const { name, code, message, stack } = error as Error & { code?: unknown; syscall?: unknown };
  if (name === "ToolError" && typeof code === "string")
    return { name, code, message } satisfies PlainToolError;
  const { syscall } = error as { syscall?: unknown };
  if (typeof code === "string" && typeof syscall === "string")
    return { name: "SystemError", message, stack, code, syscall } satisfies PlainSystemError;
  return error;
}

export default load();

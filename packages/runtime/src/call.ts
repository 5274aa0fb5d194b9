/**
 * The call pipeline of a session: arguments (defaults merged, OpenAI strict-mode nulls dropped)
 * → the generated validator → approval → handle arguments → dispatch (with a context, an abort
 * signal and a time limit) → the result shaped inline or as a handle. Errors are values. The
 * steps that can finish synchronously do, so a small tool costs little more than its own call.
 */
import { CONTEXT_BRAND, HANDLE_BRAND } from "./brands.js";
import type { ToolContext } from "./context.js";
import type { Handle } from "./handle.js";
import { handleTool, runHandleTool } from "./handle-tool.js";
import type { Caller, SessionHost } from "./host.js";
import type { JsonValue, ToolDefinition } from "./registry.js";
import { failure, type CallError, type CallResult, type HandleMeta } from "./result.js";
import { defaultSummary, unwrapSummary } from "./summary.js";
import type { ValidationResult, Validator } from "./validate.js";

export interface CallOptions {
  /** Cancels the call: it answers `cancelled`, and the tool's context signal aborts. */
  readonly signal?: AbortSignal;
  /** Time limit in ms (default: the runtime's); past it the call answers `timeout`. */
  readonly timeoutMs?: number;
  /** Receives the tool's progress reports. */
  readonly onProgress?: (
    done: number,
    total: number | undefined,
    message: string | undefined,
  ) => void;
  /** Receives the tool's log lines. */
  readonly onLog?: (level: "debug" | "info" | "warning" | "error", message: string) => void;
}

export const DEFAULT_INLINE_MAX_BYTES = 512;
const DEFAULT_TIMEOUT_MS = 30_000;

export class CallPipeline {
  constructor(
    private readonly host: SessionHost,
    private readonly caller: Caller,
  ) {}

  /** Runs one call of `tool` (exposure and concurrency are the session's to check). */
  run(
    tool: ToolDefinition,
    input: unknown,
    options: CallOptions,
  ): CallResult | Promise<CallResult> {
    const args = input ?? {};
    if (typeof args !== "object" || Array.isArray(args))
      return failure("invalid:$", "arguments must be an object of named parameters");
    if (tool === handleTool.definition)
      return runHandleTool(this.host.handles, this.caller.id, args as { [name: string]: unknown });
    const merged: { [name: string]: unknown } = { ...(tool.defaults as object) };
    const required = tool.inputSchema.required as readonly string[] | undefined;
    for (const [name, value] of Object.entries(args)) {
      // OpenAI strict mode sends every optional parameter, null when unused: null means absent there.
      if (value === null && !required?.includes(name)) continue;
      merged[name] = value;
    }
    const validator = this.host.generated.validators[tool.id];
    if (!validator)
      return failure(`unknown:${tool.alias}`, "the tool has no validator; regenerate the registry");
    const checked = validateDroppingStrictNulls(validator, merged);
    if (!checked.ok) return failure(checked.error, checked.hint);
    const valid = checked.value as { [name: string]: unknown };
    if (tool.flags.includes("approval"))
      return this.approved(tool, valid).then((yes) =>
        yes
          ? this.withHandles(tool, valid, options)
          : failure("approval_required", "this tool needs a person's approval before it runs"),
      );
    return this.withHandles(tool, valid, options);
  }

  private async approved(
    tool: ToolDefinition,
    args: { [name: string]: unknown },
  ): Promise<boolean> {
    const approve = this.host.options.approve;
    return approve !== undefined && (await approve(tool, args, this.caller));
  }

  /** Resolves the handle arguments (when the tool takes any), then executes. */
  private withHandles(
    tool: ToolDefinition,
    args: { [name: string]: unknown },
    options: CallOptions,
  ): CallResult | Promise<CallResult> {
    if (Object.keys(tool.handleParams).length === 0) return this.execute(tool, args, options);
    return this.resolveHandles(tool, args).then((resolved) =>
      "error" in resolved ? resolved.error : this.execute(tool, resolved.args, options),
    );
  }

  private execute(
    tool: ToolDefinition,
    args: { [name: string]: unknown },
    options: CallOptions,
  ): CallResult | Promise<CallResult> {
    const outcome = this.dispatch(tool, args, options);
    if (isThenable(outcome))
      return outcome.then((done) => ("error" in done ? done : this.shape(tool, done.value)));
    if ("error" in outcome) return outcome;
    return this.shape(tool, outcome.value);
  }

  /** Replaces handle ids by the `Handle`s they name, in this session, of the right kind. */
  private async resolveHandles(
    tool: ToolDefinition,
    args: { [name: string]: unknown },
  ): Promise<{ args: { [name: string]: unknown } } | { error: CallError }> {
    const names = Object.keys(tool.handleParams);
    const out = { ...args };
    for (const name of names) {
      const id = args[name];
      if (typeof id !== "string") continue;
      const kind = tool.handleParams[name]!;
      const found = await this.host.handles.get(
        this.caller.id,
        id,
        kind === "*" ? undefined : kind,
      );
      if (isFailure(found)) return { error: found };
      out[name] = {
        [HANDLE_BRAND]: found.kind,
        id: found.id,
        kind: found.kind,
        value: found.value,
      } satisfies Handle;
    }
    return { args: out };
  }

  /**
   * Runs the tool with a context, a time limit and cancellation; what it throws stays here.
   * A tool that answers synchronously is done at once: no timer, no listener, and no abort
   * controller unless it takes the context (an `AbortController` costs more than a small tool).
   */
  private dispatch(
    tool: ToolDefinition,
    args: { [name: string]: unknown },
    options: CallOptions,
  ): { value: unknown } | CallError | Promise<{ value: unknown } | CallError> {
    const dispatcher = this.host.generated.dispatch[tool.id];
    if (!dispatcher)
      return failure(
        `unknown:${tool.alias}`,
        "the tool has no dispatcher; regenerate the registry",
      );
    if (options.signal?.aborted) return failure("cancelled", "the call was cancelled");
    const controller = tool.call.context === null ? null : new AbortController();
    const failed = (error: unknown): CallError => {
      (this.host.options.onToolError ?? defaultToolError)(error, tool, this.caller);
      return failure("exec:error", "the tool failed; the details are in the server's log");
    };
    let returned: unknown;
    try {
      returned = dispatcher(
        args,
        controller ? this.context(controller.signal, options) : IDLE_CONTEXT,
      );
    } catch (error) {
      return failed(error);
    }
    if (!isThenable(returned)) return { value: returned };
    const timeoutMs = options.timeoutMs ?? this.host.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (outcome: { value: unknown } | CallError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      const timer = setTimeout(() => {
        controller?.abort(new Error("timeout"));
        settle(failure("timeout", `the tool did not finish within ${timeoutMs} ms`));
      }, timeoutMs);
      const onAbort = () => {
        controller?.abort(new Error("cancelled"));
        settle(failure("cancelled", "the call was cancelled"));
      };
      options.signal?.addEventListener("abort", onAbort, { once: true });
      returned.then(
        (value) => settle({ value }),
        (error: unknown) => settle(failed(error)),
      );
    });
  }

  private context(signal: AbortSignal, options: CallOptions): ToolContext {
    return {
      [CONTEXT_BRAND]: true,
      sessionId: this.caller.id,
      signal,
      progress: (done, total, message) => options.onProgress?.(done, total, message),
      log: (level, message) => options.onLog?.(level, message),
    };
  }

  /** Inline, handle, or inline when small: by the tool's output mode. */
  private shape(tool: ToolDefinition, returned: unknown): CallResult | Promise<CallResult> {
    const { value, summary } = unwrapSummary(returned);
    let json: string | undefined;
    try {
      json = JSON.stringify(value ?? null);
    } catch {
      json = undefined;
    }
    if (json === undefined) {
      (this.host.options.onToolError ?? defaultToolError)(
        new TypeError("the tool returned a value that is not JSON"),
        tool,
        this.caller,
      );
      return failure("exec:error", "the tool returned a value that cannot be sent as JSON");
    }
    const inline =
      tool.outputMode === "scalar" ||
      (tool.outputMode === "auto" &&
        Buffer.byteLength(json) <= (this.host.options.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES));
    // Inline values go out as plain JSON data (Dates as strings, no undefined); the store keeps its own JSON.
    if (inline) return { ok: true, value: JSON.parse(json) as JsonValue };
    return this.store(tool, value, summary);
  }

  private async store(
    tool: ToolDefinition,
    value: unknown,
    summary: string | null,
  ): Promise<CallResult> {
    const handle = await this.host.handles.create(
      this.caller.id,
      tool.handleKind,
      value,
      summary ?? defaultSummary(value),
    );
    if (isFailure(handle)) return handle;
    const meta: HandleMeta = {
      kind: handle.kind,
      size: handle.size,
      ttl: this.host.handles.ttlText(),
      ...(handle.count !== undefined ? { count: handle.count } : {}),
    };
    return { ok: true, handle: handle.id, summary: handle.summary, meta };
  }
}

/** At most this many nulls are dropped from one call's arguments. */
const MAX_DROPPED_NULLS = 32;

/**
 * Validates, treating a `null` that the schema refuses for an *optional* property as absent:
 * OpenAI strict mode makes every optional property nullable, at any depth, and sends null for
 * those it does not use. The validator decides what is optional: a null it calls invalid is
 * dropped and the arguments checked again; if the property then turns out to be missing (it is
 * required), the original error stands. Nulls in arrays are values and are never dropped.
 */
function validateDroppingStrictNulls(
  validator: Validator,
  args: { [name: string]: unknown },
): ValidationResult {
  let candidate: unknown = args;
  let checked = validator(candidate);
  for (let dropped = 0; !checked.ok && dropped < MAX_DROPPED_NULLS; dropped++) {
    if (!checked.error.startsWith("invalid:")) break;
    const path = checked.error.slice("invalid:".length);
    const without = withoutNullAt(candidate, parsePath(path));
    if (without === undefined) break;
    const retry = validator(without);
    if (!retry.ok && retry.error === `missing:${path}`) break;
    candidate = without;
    checked = retry;
  }
  return checked;
}

/** `$.rows[2].qty`, `$["a b"]` → its steps; null when it is not such a path. */
function parsePath(path: string): (string | number)[] | null {
  if (!path.startsWith("$")) return null;
  const steps: (string | number)[] = [];
  let rest = path.slice(1);
  while (rest !== "") {
    const step = /^\.([A-Za-z_$][A-Za-z0-9_$]*)|^\[(\d+)\]|^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (!step) return null;
    steps.push(
      step[1] ?? (step[2] !== undefined ? Number(step[2]) : (JSON.parse(step[3]!) as string)),
    );
    rest = rest.slice(step[0].length);
  }
  return steps;
}

/** A copy of `value` without the object property at `steps` if it holds null, else undefined. */
function withoutNullAt(value: unknown, steps: (string | number)[] | null): unknown {
  if (!steps || steps.length === 0 || value === null || typeof value !== "object") return undefined;
  const [step, ...rest] = steps as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) {
    if (typeof step !== "number" || rest.length === 0) return undefined;
    const inner = withoutNullAt(value[step], rest);
    return inner === undefined
      ? undefined
      : value.map((item, index) => (index === step ? inner : item));
  }
  const record = value as { [key: string]: unknown };
  if (typeof step !== "string" || !Object.hasOwn(record, step)) return undefined;
  if (rest.length === 0) {
    if (record[step] !== null) return undefined;
    const { [step]: _null, ...others } = record;
    return others;
  }
  const inner = withoutNullAt(record[step], rest);
  return inner === undefined ? undefined : { ...record, [step]: inner };
}

/** What a dispatcher gets for a tool that takes no context: it cannot be read. */
const IDLE_CONTEXT: ToolContext = Object.freeze({
  [CONTEXT_BRAND]: true as const,
  sessionId: "",
  signal: new AbortController().signal,
  progress: () => {},
  log: () => {},
});

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

function isFailure<T extends object>(result: T | CallError): result is CallError {
  return (result as { ok?: unknown }).ok === false;
}

function defaultToolError(error: unknown, tool: ToolDefinition, session: Caller): void {
  console.error(`zcp: tool ${tool.alias} failed in session ${session.id}:`, error);
}
